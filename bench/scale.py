"""`python -m bench.scale`: the costs that could grow with a server's history, at several sizes.

A database of N games is built from one real Street Art game started through the service,
copied N times through the store (``create_game``), so every row is one the bot itself wrote:
30 % of them open in channels and threads of one busy server, the rest finished with their
result rows and ratings (as ``Results`` writes them), each game with players of its own among a
third as many as there are games, as a server's history looks after a while.

Then, per size, it times what a player or a start waits for:

- cold start: opening the store (its start-up checks and migrations) plus the results sweep;
- tick: the scheduler's read of what is due, with 1 % of the games owing a reminder (their
  clocks, not their states: ``Store.due_clocks``);
- resolve: the open games of a channel, as a command without ``game:`` finds them;
- list page 1 and page 40: ``/game list`` of the server, 25 a page (page 40 walked to as a
  player would, one page after another, and only its own read timed);
- game end: writing a finished game's results, which reads the ratings of its players;
- move: one move through the service (the store's read, the engine, the commit), the cost that
  must stay flat; and the event loop's own CPU time in it (``time.thread_time``: the store's
  threads and the database server excluded).

Medians of several runs, in milliseconds, after a PostgreSQL history has been vacuumed and
analyzed (``settle``). Sizes are a flag: 100k takes long on a small machine.
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

import asyncpg

from bot.ai import RandomAgent
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


def copy_of(record: GameRecord, i: int, now: float, size: int) -> GameRecord:
    """The ``i``-th game of the history: every third or so open, the rest finished; one
    channel in 50, a thread of their own for the open ones every other time; its players
    among ``size // 3`` (each has played about nine games)."""
    game = replace(record, id=f"g{i:07d}", channel=f"c{i % 50}", status=ACTIVE)
    players = max(size // 3, len(record.seats))
    game.seats = [
        replace(seat, user=str(1000 + (i * len(record.seats) + n) % players))
        for n, seat in enumerate(record.seats)
    ]
    game.thread = f"t{i}" if i % 2 else None
    game.created_at = game.updated_at = now - 10 * i
    game.remind_at = game.deadline = None
    if i % 100 == 1:  # one game in a hundred owes a reminder (an open one: see below)
        game.remind_at = now - 60
        game.clocks = {seat.user: [game.remind_at, None] for seat in game.seats[:1]}
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


def rated(record: GameRecord) -> Callable[[dict[str, Rating]], Any]:
    """A ``RateGame`` writing ``record``'s result rows and a rating for each of its players."""
    rows = result_rows(record)

    def rate(_current: dict[str, Rating]) -> tuple[list[ResultRow], list[Rating]]:
        ratings = [
            Rating(r.guild, r.game, r.player, r.mu_after, r.sigma_after, games=1, name=r.name)
            for r in rows
        ]
        return rows, ratings

    return rate


async def build(url: str, size: int) -> GameRecord:
    """The database of ``size`` games at ``url``; returns the template, still in play."""
    store = open_store(url)
    await store.open()
    try:
        record = await template(store)
        now = time.time()

        async def one(i: int) -> None:
            game = copy_of(record, i, now, size)
            await store.create_game(game)
            if game.status == FINISHED:
                await store.record_results(game.id, rated(game))

        for start in range(0, size, BATCH):
            await asyncio.gather(*(one(i) for i in range(start, min(size, start + BATCH))))
    finally:
        await store.close()
    return record


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
        if len(rows) <= PAGE:  # a short list: its last page is timed
            break
        after = page_key(rows[PAGE - 1])
    return await timed(lambda: store.games_in_guild(GUILD, None, limit=PAGE + 1, after=after))


async def game_end(store: Store, record: GameRecord, size: int) -> float:
    """Median milliseconds of writing a finished game's results (its players' ratings read
    and written), each run a game of its own."""
    samples = []
    for run in range(RUNS + 1):
        game = copy_of(record, size + run, time.time(), size)
        game.status = FINISHED
        await store.create_game(game)
        start = time.perf_counter()
        await store.record_results(game.id, rated(game))
        samples.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(samples[1:]), 2)


async def moves(store: Store, record: GameRecord, count: int = 30) -> tuple[float, float]:
    """Median milliseconds of one move of ``record`` through the service, and of the event
    loop's CPU in it."""
    service = GameService(store, seed_factory=lambda: "scale")
    agent = RandomAgent("scale")
    walls, loops = [], []
    for _ in range(count):
        if record.status != ACTIVE:
            break
        player = service.to_move(record)[0]
        action = agent.choose(service.engine(record), service.state(record), player)
        wall, cpu = time.perf_counter(), time.thread_time()
        record = (await service.move(GUILD, record.channel, player, action, ref=record.id)).record
        loops.append((time.thread_time() - cpu) * 1000)
        walls.append((time.perf_counter() - wall) * 1000)
    return round(statistics.median(walls), 2), round(statistics.median(loops), 2)


async def settle(url: str) -> None:
    """On PostgreSQL, ``VACUUM ANALYZE`` the freshly built history, as autovacuum would have
    over the months a real one took to grow: measured straight after a bulk load, the planner
    and autovacuum's own run (it starts during the timings) made a list page 8.6 ms and a move
    15 ms at 100k, against 1.4 ms and 2.1 ms once settled. SQLite keeps no such statistics."""
    if not url.startswith("postgres"):
        return
    conn = await asyncpg.connect(url)  # its search_path names the schema (``with_schema``)
    try:
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


async def measure(url: str, size: int) -> dict[str, Any]:
    start = time.perf_counter()
    record = await build(url, size)
    built = round(time.perf_counter() - start, 1)
    await settle(url)
    cold = await cold_start(url)
    store = open_store(url)
    await store.open()
    try:
        tick = await timed(lambda: store.due_clocks(time.time()))
        resolve = await timed(lambda: store.games_in_channel(GUILD, "c7"))
        sweep = await timed(lambda: store.finished_without_results(100))
        page1 = await list_page(store, 1)
        page40 = await list_page(store, 40)
        end = await game_end(store, record, size)
        move, loop = await moves(store, record)
    finally:
        await store.close()
    return {
        "games": size,
        "built_s": built,
        "cold_start_ms": cold,
        "sweep_ms": sweep,
        "tick_ms": tick,
        "resolve_ms": resolve,
        "list_page1_ms": page1,
        "list_page40_ms": page40,
        "game_end_ms": end,
        "move_ms": move,
        "move_loop_ms": loop,
    }


HEADER = (
    "| backend | games | cold start ms | sweep ms | tick ms | resolve ms | list p1 ms "
    "| list p40 ms | game end ms | move ms | move loop ms |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|"
)


def line(backend: str, row: dict[str, Any]) -> str:
    return (
        f"| {backend} | {row['games']} | {row['cold_start_ms']} | {row['sweep_ms']} "
        f"| {row['tick_ms']} | {row['resolve_ms']} | {row['list_page1_ms']} "
        f"| {row['list_page40_ms']} "
        f"| {row['game_end_ms']} | {row['move_ms']} | {row['move_loop_ms']} |"
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


def postgres_option(parser: argparse.ArgumentParser) -> None:
    """``--postgres URL``: a server the bench runs on too, after SQLite."""
    parser.add_argument(
        "--postgres",
        default=os.environ.get("TEST_POSTGRES_URL", ""),
        help="a PostgreSQL server to run on too (default: TEST_POSTGRES_URL, if set)",
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__)
    parser.add_argument(
        "--sizes",
        default="1000,10000",
        help="how many stored games, comma-separated (1000,10000; 100000 takes long)",
    )
    postgres_option(parser)
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    asyncio.run(run(sizes, args.postgres))


if __name__ == "__main__":
    main()
