"""`make bench`: the cost of one move end to end against the machine's own floor.

Floor = a bare SQLite commit (WAL, synchronous=NORMAL, as the store runs) + a bare render and
PNG encode of the same board. A move end to end = service (rules + compare-and-swap commit of
the action log and snapshot) + rendering the public board off the event loop, as a cog does.
Medians of many repetitions; the ratio, not the milliseconds, is the figure to compare across
machines. Also: render time and PNG size by player count, and event-loop lag under a burst.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import images
from bot.ai import RandomAgent
from bot.service import GameService
from bot.store import SqliteStore

GAME = "street-art"
REPEATS = 200


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def bare_commit_seconds(folder: Path, repeats: int) -> list[float]:
    """One small transaction on a WAL database: the cheapest durable write this machine does."""
    conn = sqlite3.connect(folder / "floor.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    payload = "x" * 2000  # about a Street Art snapshot
    samples = []
    for i in range(repeats):
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t VALUES (?, ?)", (i, payload))
        conn.execute("COMMIT")
        samples.append(time.perf_counter() - start)
    conn.close()
    return samples


async def new_game(service: GameService, channel: str, players: int) -> str:
    seats = [f"{100 + i}" for i in range(players)]
    record = await service.new_game(GAME, "bench", channel, seats[0], "P0")
    for i, seat in enumerate(seats[1:], 1):
        await service.join("bench", channel, seat, f"P{i}", record.id)
    await service.start("bench", channel, seats[0], record.id)
    return record.id


async def measure(folder: Path) -> dict[str, object]:
    store = SqliteStore(str(folder / "bench.db"))
    await store.open()
    service = GameService(store)
    agent = RandomAgent("bench")
    game_id = await new_game(service, "c0", 4)
    move_samples: list[float] = []
    service_samples: list[float] = []
    floor_render: list[float] = []
    games = 1
    while len(move_samples) < REPEATS:
        record = await service.get(game_id)
        if record.status != "active":
            games += 1
            game_id = await new_game(service, f"c{games}", 4)
            continue
        player = service.to_move(record)[0]
        action = agent.choose(service.engine(record), service.state(record), player)
        start = time.perf_counter()
        result = await service.move("bench", record.channel, player, action, ref=game_id)
        view = service.view(result.record, None)
        served = time.perf_counter()
        await asyncio.to_thread(images.render, GAME, view)
        done = time.perf_counter()
        move_samples.append(done - start)
        service_samples.append(served - start)
        start = time.perf_counter()
        images.render(GAME, view)  # the floor's render: the same board, nothing around it
        floor_render.append(time.perf_counter() - start)
    commit = bare_commit_seconds(folder, REPEATS)
    floor_ms = median_ms(commit) + median_ms(floor_render)

    renders: dict[str, dict[str, float]] = {}
    for players in (3, 5):
        gid = await new_game(service, f"r{players}", players)
        view = service.view(await service.get(gid), None)
        times = []
        for _ in range(30):
            start = time.perf_counter()
            png = images.render(GAME, view)
            times.append(time.perf_counter() - start)
        renders[f"{players}_players"] = {
            "render_ms": round(median_ms(times), 2),
            "png_kb": round(len(png) / 1024, 1),
        }

    lag = await loop_lag_under_burst(service, agent)
    await store.close()
    return {
        "move_end_to_end_ms": round(median_ms(move_samples), 2),
        "of_which_service_and_store_ms": round(median_ms(service_samples), 2),
        "floor_ms": round(floor_ms, 2),
        "floor_commit_ms": round(median_ms(commit), 3),
        "floor_render_ms": round(median_ms(floor_render), 2),
        "move_to_floor_ratio": round(median_ms(move_samples) / floor_ms, 2),
        "render": renders,
        "loop_lag_under_burst_ms": lag,
    }


async def loop_lag_under_burst(
    service: GameService, agent: RandomAgent, games: int = 20
) -> dict[str, float]:
    """Worst delay of a 10 ms ticker while ``games`` moves and renders run at once: the event
    loop must stay free to acknowledge interactions within Discord's 3 seconds."""
    ids = [await new_game(service, f"burst{i}", 4) for i in range(games)]
    lags: list[float] = []
    stop = asyncio.Event()

    async def ticker() -> None:
        while not stop.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - start - 0.01)

    async def one_move(game_id: str) -> None:
        record = await service.get(game_id)
        player = service.to_move(record)[0]
        action = agent.choose(service.engine(record), service.state(record), player)
        result = await service.move("bench", record.channel, player, action, ref=game_id)
        await asyncio.to_thread(images.render, GAME, service.view(result.record, None))

    tick = asyncio.create_task(ticker())
    await asyncio.gather(*(one_move(g) for g in ids))
    stop.set()
    await tick
    return {
        "burst_moves": games,
        "max_ms": round(max(lags) * 1000, 1),
        "median_ms": round(median_ms(lags), 2),
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(measure(Path(folder)))
    print(json.dumps(figures, indent=2))
    out = Path("out")
    out.mkdir(exist_ok=True)
    (out / "bench.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
