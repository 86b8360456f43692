"""`python -m bench.activity [RUNS]`: from Play to a usable board in the Discord Activity.

The harness of the Activity's browser test (``tests.web.activity_client``): the web table on
a localhost port, a fake of Discord's API, and a page playing Discord's client that frames
``/activity`` and answers the real Embedded App SDK. Each run is Discord opening the Activity
after a Play press, in a fresh browser context (nothing cached, as a first launch): the time
from the client page's navigation to the board shown and signed in (``body[data-ready]``),
the SDK's handshake, ``authorize``, the token exchange, ``authenticate``, the game list and
the board's fragment included. It prints the median and the 95th percentile, the requests one
launch makes with their hosts, and the live-update transport the page settled on.
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from playwright.async_api import async_playwright

from tests.web.activity_client import PHONE, activity_table
from tests.web.conftest import ANA, BO, CHANNEL, GUILD

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
#: Seconds the page is left open after the last run, past its stream's first-word wait, to
#: read the transport it settled on.
SETTLE = 6.0


def shown_path(url: str) -> str:
    """A request's path with its session token cut (``/activity/s/…/games``)."""
    path = urlsplit(url).path
    head, marker, tail = path.partition("/s/")
    return f"{head}/s/…/{tail.partition('/')[2]}" if marker else path


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def run(runs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with activity_table(Path(folder)) as table, async_playwright() as playwright:
            service = table.service
            record = await service.new_game("artsee", GUILD, CHANNEL, ANA, "Ana")
            await service.join(GUILD, CHANNEL, BO, "Bo", record.id)
            await service.start(GUILD, CHANNEL, ANA, record.id)
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            times, counts = [], []
            page = None
            for n in range(runs + 1):  # the first warms the server (imports, first render)
                instance = f"i-bench-{n}"
                table.discord.launch(instance, GUILD, CHANNEL, ANA, BO)
                context = await browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
                page = await context.new_page()
                await page.route("**/*", table.guard)
                table.requests.clear()
                started = time.perf_counter()
                frame = await table.launch(page, ANA, instance)
                took = time.perf_counter() - started
                if n:
                    times.append(took)
                    counts.append(len(table.requests))
                if n < runs:
                    await context.close()
            assert page is not None
            shown = Counter(shown_path(url) for url in table.requests)
            await asyncio.sleep(SETTLE)
            transport = await frame.evaluate(
                "document.getElementById('play').dataset.transport || 'sse'"
            )
            await browser.close()
    print(f"Play to usable board, {runs} launches (fresh context each):")
    print(
        f"  p50 {statistics.median(times) * 1000:.0f} ms, p95 {percentile(times, 0.95) * 1000:.0f}"
        f" ms, min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
    )
    print(f"  requests per launch: {sorted(set(counts))}")
    print(f"  hosts asked: {sorted(table.hosts)}; refused (elsewhere): {table.elsewhere}")
    print("  the last launch's requests (session cut):")
    for path, count in sorted(shown.items()):
        print(f"    {count} x {path}")
    print(f"  live updates: {transport}")


def main() -> None:
    asyncio.run(run(int(sys.argv[1]) if len(sys.argv) > 1 else 10))


if __name__ == "__main__":
    main()
