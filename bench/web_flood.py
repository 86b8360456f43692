"""`python -m bench.web_flood`: the web table under a flood, in a process with few open files.

Starts ``python -m bot web`` over a throwaway database with its open-file limit at ``--files``
(96 by default, as a small container), then: opens live-page streams from one address and
from many (127.0.0.x, all this machine) until the process refuses them, and meanwhile times
another visitor's table page, against the same page on the idle process. It prints the
streams and connections held before the refusals, how they were refused, and the visitor's
median answer time idle and under the flood (the ratio is the figure to compare).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from bot.service import GameService
from bot.store import open_store
from bot.store.web_tables import WebTable
from web.links import public_id

SECRET = "b3nchFl00dSecretK3y-9aB7cD5eF3gH1iJ0kL2mN4oP"


async def public_table(folder: Path, secret: str = SECRET) -> str:
    """A started game of Ana, Bo and an AI in ``folder``'s database, recorded public as a bot
    would (public ids under ``secret``); its public id."""
    store = open_store(f"sqlite:///{folder / 'games.db'}")
    await store.open()
    try:
        service = GameService(store, seed_factory=lambda: "bench")
        record = await service.new_game("street-art", "5", "6", "101", "Ana")
        await service.join("5", "6", "102", "Bo", record.id)
        await service.add_ai("5", "6", "101", record.id)
        record = (await service.start("5", "6", "101", record.id)).record
        pid = public_id(secret.encode(), record.id)
        await store.save_web_table(WebTable(record.id, pid, True))
    finally:
        await store.close()
    return pid


def session(address: str) -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(local_addr=(address, 0), limit=0, force_close=True)
    return aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30))


async def stream(client: aiohttp.ClientSession, url: str) -> aiohttp.ClientResponse | str:
    try:
        response = await client.get(f"{url}/events", timeout=aiohttp.ClientTimeout(total=None))
    except (aiohttp.ClientError, TimeoutError) as error:
        return type(error).__name__
    if response.status != 200:
        response.release()
        return str(response.status)
    try:
        await asyncio.wait_for(response.content.readline(), 30)
    except (TimeoutError, aiohttp.ClientError) as error:
        response.close()
        return type(error).__name__
    return response


async def visitor_seconds(url: str, times: int) -> list[float]:
    """A visitor's table page, ``times`` times: seconds each (30 for no answer)."""
    seconds = []
    async with session("127.0.0.250") as client:
        for _n in range(times):
            started = time.perf_counter()
            try:
                async with client.get(url) as response:
                    await response.read()
                    ok = response.status == 200
            except (aiohttp.ClientError, TimeoutError):
                ok = False
            seconds.append(time.perf_counter() - started if ok else 30.0)
    return seconds


async def flood(url: str, addresses: list[str], each: int) -> None:
    clients = [session(a) for a in addresses]
    try:
        attempts = [stream(c, url) for c in clients for _n in range(each)]
        results = await asyncio.gather(*attempts)
        held = [r for r in results if isinstance(r, aiohttp.ClientResponse)]
        refused: dict[str, int] = {}
        for r in results:
            if isinstance(r, str):
                refused[r] = refused.get(r, 0) + 1
        during = await visitor_seconds(url, 20)
        print(
            f"  {len(addresses)} address(es) x {each}: {len(held)} streams held, "
            f"refused {refused or 'none'}; visitor median {statistics.median(during) * 1000:.1f} ms"
            f" (worst {max(during) * 1000:.1f} ms)"
        )
        for r in held:
            r.close()
    finally:
        for c in clients:
            await c.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def main(files: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        pid = await public_table(Path(folder))
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{Path(folder) / 'games.db'}",
            "RENDER_WORKERS": "-1",
            "WEB_SECRET": SECRET,
            "WEB_PORT": str(port),
            "WEB_ACCESS_LOG": "off",
            "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
        }
        env.pop("DISCORD_TOKEN", None)

        def few_files() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "web"],
            cwd=folder,
            env=env,
            stderr=subprocess.PIPE,
            preexec_fn=few_files,
        )
        url = f"http://127.0.0.1:{port}/g/{pid}"
        try:
            for _n in range(150):
                if (await visitor_seconds(url, 1))[0] < 30:
                    break
                await asyncio.sleep(0.2)
            idle = await visitor_seconds(url, 20)
            idle_ms = statistics.median(idle) * 1000
            print(f"open files {files}; idle visitor median {idle_ms:.1f} ms")
            await flood(url, ["127.0.0.2"], 80)
            await asyncio.sleep(2)  # the server frees a closed stream's place within a second
            await flood(url, [f"127.0.0.{10 + n}" for n in range(20)], 8)
        finally:
            process.terminate()
            _out, err = process.communicate(timeout=30)
        caps = [line for line in err.decode().splitlines() if "at most" in line]
        print("  " + (caps[0].split(": ", 2)[-1] if caps else "(no caps line)"))
        print(f"  'Too many open files' logged {err.decode().count('Too many open files')} times")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=96, help="the process's open-file limit")
    asyncio.run(main(parser.parse_args().files))
