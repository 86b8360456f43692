"""`python -m bench.inflight`: moves a second, and each move's latency, with many in flight.

At each level N, N Street Art games (copies of one real game started through the service, each
in a channel of its own) are played at once, every game by one task that sends its next move
as soon as the last one returned, as players who answer at once would. A move is the service's
``move`` (the store's read, the engine, the commit); with ``--boards`` it also waits for its
public board, drawn by the render pool as a turn post would draw it. Reported per level and
backend: moves a second, the latency p50 and p99 of a move, the event loop's own CPU per move
(``time.thread_time``: the store's threads, the pool and the database server excluded) and the
process's (the store's threads included). On a shared machine the CPU figures are the steady
ones: wall time there is what the other processes leave.

The players' own choices (a random legal move, from the state) run on the same loop: they count
in the elapsed time, so moves a second are a little below what the bot alone would do, and
their CPU is taken out of the loop's. Absolute figures depend on the
machine; the one-minute load average is printed with them. It reports and never fails.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import os
import statistics
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bench.scale import GUILD, postgres_option, template
from bot.ai import RandomAgent
from bot.pictures import Pictures
from bot.pool import WorkerPool
from bot.service import GameService
from bot.store import GameRecord, Store, open_store
from bot.store.base import ACTIVE
from tests.backends import drop_schema, fresh_schema, with_schema

#: Moves each game makes at a level (a Street Art game of three lasts about 60).
MOVES_EACH = 12
#: Numbers the levels run in one process, so each level's games get ids of their own.
RUNS = itertools.count(1)


@dataclass
class Level:
    """What one level measured."""

    in_flight: int
    moves: int
    seconds: float
    latencies_ms: list[float]
    #: The event loop's CPU over the level, and the whole process's (the store's threads
    #: with it, not the pool's workers), each less what the players' own choices took.
    loop_cpu_s: float
    process_cpu_s: float

    def figures(self) -> dict[str, Any]:
        ordered = sorted(self.latencies_ms)
        return {
            "in_flight": self.in_flight,
            "moves": self.moves,
            "moves_per_s": round(self.moves / self.seconds, 1),
            "p50_ms": round(statistics.median(ordered), 1),
            "p99_ms": round(ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)], 1),
            "loop_cpu_ms_per_move": round(1000 * self.loop_cpu_s / self.moves, 3),
            "process_cpu_ms_per_move": round(1000 * self.process_cpu_s / self.moves, 3),
        }


async def games_at(store: Store, record: GameRecord, level: int) -> list[GameRecord]:
    """``level`` fresh copies of ``record`` in play, each in a channel of its own."""
    run = next(RUNS)
    games = [
        replace(record, id=f"f{run}-{i}", channel=f"flight-{run}-{i}", thread=None)
        for i in range(level)
    ]
    for game in games:
        game.remind_at = game.deadline = None
        await store.create_game(game)
    return games


async def play_level(
    store: Store, record: GameRecord, level: int, pictures: Pictures | None
) -> Level:
    service = GameService(store, seed_factory=lambda: "inflight")
    agent = RandomAgent("inflight")
    latencies: list[float] = []
    choosing = 0.0

    async def play(game: GameRecord) -> None:
        nonlocal choosing
        for _ in range(MOVES_EACH):
            if game.status != ACTIVE:
                return
            player = service.to_move(game)[0]
            thinking = time.thread_time()
            action = agent.choose(service.engine(game), service.state(game), player)
            choosing += time.thread_time() - thinking
            start = time.perf_counter()
            moved = await service.move(GUILD, game.channel, player, action, ref=game.id)
            game = moved.record
            if pictures is not None:
                view, names = service.view(game, None), service.names(game)
                await pictures.board(game.id, game.version, game.game, view, names)
            latencies.append((time.perf_counter() - start) * 1000)

    games = await games_at(store, record, level)
    start, cpu, whole = time.perf_counter(), time.thread_time(), time.process_time()
    await asyncio.gather(*(play(game) for game in games))
    seconds = time.perf_counter() - start
    loop_cpu, process_cpu = time.thread_time() - cpu, time.process_time() - whole
    return Level(
        level, len(latencies), seconds, latencies, loop_cpu - choosing, process_cpu - choosing
    )


async def measure(url: str, levels: list[int], boards: bool) -> list[dict[str, Any]]:
    store = open_store(url)
    await store.open()
    pool = WorkerPool() if boards else None
    try:
        if pool is not None:
            pool.start()
        pictures = Pictures(pool) if pool is not None else None
        record = await template(store)
        rows = []
        for level in levels:
            rows.append((await play_level(store, record, level, pictures)).figures())
        return rows
    finally:
        if pool is not None:
            await pool.close()
        await store.close()


HEADER = (
    "| backend | boards | in flight | moves | moves/s | p50 ms | p99 ms | loop CPU ms/move "
    "| process CPU ms/move | load |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def line(backend: str, boards: bool, row: dict[str, Any]) -> str:
    return (
        f"| {backend} | {'yes' if boards else 'no'} | {row['in_flight']} | {row['moves']} "
        f"| {row['moves_per_s']} | {row['p50_ms']} | {row['p99_ms']} "
        f"| {row['loop_cpu_ms_per_move']} | {row['process_cpu_ms_per_move']} "
        f"| {os.getloadavg()[0]:.1f} |"
    )


async def run(levels: list[int], boards: list[bool], postgres: str) -> None:
    print(HEADER, flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for drawn in boards:
            url = f"sqlite:///{Path(folder) / f'inflight-{drawn}.db'}"
            for row in await measure(url, levels, drawn):
                print(line("sqlite", drawn, row), flush=True)
            if not postgres:
                continue
            schema = await fresh_schema(postgres)
            try:
                for row in await measure(with_schema(postgres, schema), levels, drawn):
                    print(line("postgres", drawn, row), flush=True)
            finally:
                await drop_schema(postgres, schema)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.inflight", description=__doc__)
    parser.add_argument("--levels", default="100,1000", help="games in flight, comma-separated")
    parser.add_argument(
        "--boards",
        choices=("no", "yes", "both"),
        default="both",
        help="whether each move also waits for its board, drawn by the pool",
    )
    postgres_option(parser)
    args = parser.parse_args(argv)
    levels = [int(level) for level in args.levels.split(",") if level.strip()]
    boards = {"no": [False], "yes": [True], "both": [False, True]}[args.boards]
    asyncio.run(run(levels, boards, args.postgres))


if __name__ == "__main__":
    main()
