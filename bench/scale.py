"""`python -m bench.scale`: the costs that could grow with a server's history, at several sizes.

A database of N games is built from one real Street Art game started through the service,
copied N times through the store (``create_game``), so every row is one the bot itself wrote:
30 % of them open in channels and threads of one busy server, the rest finished with their
result rows (as ``Results`` writes them), as a server's history looks after a while.

Then, per size, it times what a player or a start waits for:

- cold start: opening the store (its start-up checks and migrations) plus the results sweep;
- resolve: the open games of a channel, as a command without ``game:`` finds them;
- list page 1 and page 40: ``/game list`` of the server, 25 a page (page 40 walked to as a
  player would, one page after another, and only its own read timed).

Medians of several runs, in milliseconds. Sizes are a flag: 100k takes long on a small machine.
With ``--postgres URL`` (or TEST_POSTGRES_URL) the same runs again on a fresh schema there.
It reports and never fails on a figure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.results import Results
from bot.service import GameService
from bot.store import FINISHED, GameRecord, Store, open_store
from bot.store.base import ACTIVE, Rating, ResultRow, page_key
from rules import GAMES
from tests.backends import drop_schema, fresh_schema, with_schema

GAME = "street-art"
GUILD = "1000"
PAGE = 25
#: Copies written concurrently: the SQLite writer commits queued ones together.
BATCH = 400
RUNS = 7


async def template(store: Store) -> GameRecord:
    """One real game, started through the service: the row every copy is made from."""
    service = GameService(store, seed_factory=lambda: "scale")
    host = "11"
    record = await service.new_game(GAME, GUILD, "template", host, "Ana")
    for seat, name in (("12", "Bo"), ("13", "Cy")):
        await service.join(GUILD, "template", seat, name, record.id)
    return (await service.start(GUILD, "template", host, record.id)).record


def copy_of(record: GameRecord, i: int, now: float) -> GameRecord:
    """The ``i``-th game of the history: every third or so open, the rest finished; one
    channel in 50, a thread of their own for the open ones every other time."""
    game = replace(record, id=f"g{i:07d}", channel=f"c{i % 50}", status=ACTIVE)
    game.thread = f"t{i}" if i % 2 else None
    game.created_at = game.updated_at = now - 10 * i
    game.remind_at = game.deadline = None
    if i % 10 >= 3:
        game.status = FINISHED
    return game


def result_rows(record: GameRecord) -> list[ResultRow]:
    return [
        ResultRow(
            game_id=record.id,
            game=record.game,
            guild=record.guild,
            player=seat.user,
            rated_as=seat.user,
            ai=False,
            name=seat.name,
            rank=n + 1,
            score=10 - n,
            winner=n == 0,
            players=len(record.seats),
            options={},
            finished_at=record.updated_at,
            mu_before=25.0,
            sigma_before=8.3,
            mu_after=25.0,
            sigma_after=8.0,
        )
        for n, seat in enumerate(record.seats)
    ]


async def build(url: str, size: int) -> None:
    store = open_store(url)
    await store.open()
    try:
        record = await template(store)
        now = time.time()

        async def one(i: int) -> None:
            game = copy_of(record, i, now)
            await store.create_game(game)
            if game.status == FINISHED:
                rows = result_rows(game)

                def rate(_current: dict[str, Rating]) -> tuple[list[ResultRow], list[Rating]]:
                    return rows, []

                await store.record_results(game.id, rate)

        for start in range(0, size, BATCH):
            await asyncio.gather(*(one(i) for i in range(start, min(size, start + BATCH))))
    finally:
        await store.close()


async def timed(work: Callable[[], Awaitable[Any]], runs: int = RUNS) -> float:
    """Median milliseconds of ``work`` over ``runs`` runs (after one warm-up)."""
    await work()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await work()
        samples.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(samples), 2)


async def cold_start(url: str) -> float:
    """Milliseconds from nothing to an open store that has swept the missing results."""

    async def once() -> None:
        store = open_store(url)
        await store.open()
        try:
            await Results(store, GAMES).sweep()
        finally:
            await store.close()

    return await timed(once, runs=3)


async def list_page(store: Store, page: int) -> float:
    """Milliseconds of the read of ``/game list``'s page ``page`` (1-based)."""
    after = None
    for _ in range(page - 1):  # walked to, one page after another, as a player would
        rows = await store.games_in_guild(GUILD, None, limit=PAGE + 1, after=after)
        after = page_key(rows[PAGE - 1])
    return await timed(lambda: store.games_in_guild(GUILD, None, limit=PAGE + 1, after=after))


async def measure(url: str, size: int) -> dict[str, Any]:
    start = time.perf_counter()
    await build(url, size)
    built = round(time.perf_counter() - start, 1)
    cold = await cold_start(url)
    store = open_store(url)
    await store.open()
    try:
        resolve = await timed(lambda: store.games_in_channel(GUILD, "c7"))
        sweep = await timed(lambda: store.finished_without_results(100))
        page1 = await list_page(store, 1)
        page40 = await list_page(store, 40)
    finally:
        await store.close()
    return {
        "games": size,
        "built_s": built,
        "cold_start_ms": cold,
        "sweep_ms": sweep,
        "resolve_ms": resolve,
        "list_page1_ms": page1,
        "list_page40_ms": page40,
    }


HEADER = (
    "| backend | games | cold start ms | sweep ms | resolve ms | list p1 ms | list p40 ms |\n"
    "|---|---|---|---|---|---|---|"
)


def line(backend: str, row: dict[str, Any]) -> str:
    return (
        f"| {backend} | {row['games']} | {row['cold_start_ms']} | {row['sweep_ms']} "
        f"| {row['resolve_ms']} | {row['list_page1_ms']} | {row['list_page40_ms']} |"
    )


async def run(sizes: list[int], postgres: str) -> None:
    print(HEADER, flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            row = await measure(f"sqlite:///{Path(folder) / f'scale-{size}.db'}", size)
            print(line("sqlite", row), flush=True)
            if not postgres:
                continue
            schema = await fresh_schema(postgres)
            try:
                row = await measure(with_schema(postgres, schema), size)
                print(line("postgres", row), flush=True)
            finally:
                await drop_schema(postgres, schema)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__)
    parser.add_argument(
        "--sizes",
        default="1000,10000",
        help="how many stored games, comma-separated (1000,10000; 100000 takes long)",
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get("TEST_POSTGRES_URL", ""),
        help="a PostgreSQL server to run on too (default: TEST_POSTGRES_URL, if set)",
    )
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    asyncio.run(run(sizes, args.postgres))


if __name__ == "__main__":
    main()
