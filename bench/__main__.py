"""`make bench`: the cost of one move end to end against the machine's own floor.

Floor = a bare SQLite commit (WAL, synchronous=NORMAL, as the store runs) + a bare render and
PNG encode of the same board. A move end to end = service (rules + compare-and-swap commit of
the action log and snapshot) + drawing the public board in the worker pool (bot.pool), as the
bot does.
Medians of many repetitions; the ratio, not the milliseconds, is the figure to compare across
machines. Every registered game is measured the same way. Also, per game: render time and PNG
size at the smallest and largest table, the snapshot a game keeps in the store and the memory
of a loaded state; and for the bot: event-loop lag under a burst of moves, and how many moves a
second one process serves against the 50 requests a second Discord allows a bot.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

import images
from bot.ai import RandomAgent
from bot.pictures import draw_board
from bot.pool import WorkerPool
from bot.service import GameService
from bot.store import SqliteStore
from rules import GAMES

REPEATS = 100
#: Discord's global rate limit per bot: the most requests a second a bot may send at all.
DISCORD_GLOBAL_LIMIT = 50


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def bare_commit_seconds(folder: Path, repeats: int, size: int) -> list[float]:
    """One transaction of ``size`` bytes (the game's snapshot) on a WAL database: the cheapest
    durable write of that much this machine does."""
    conn = sqlite3.connect(folder / "floor.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    payload = "x" * size
    samples = []
    for i in range(repeats):
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t VALUES (?, ?)", (i, payload))
        conn.execute("COMMIT")
        samples.append(time.perf_counter() - start)
    conn.close()
    return samples


def table_size(game_id: str) -> int:
    """Four seats where the game allows it: a typical table."""
    game = GAMES[game_id]
    return max(game.min_players, min(4, game.max_players))


async def new_game(service: GameService, game_id: str, channel: str, players: int) -> str:
    seats = [f"{100 + i}" for i in range(players)]
    record = await service.new_game(game_id, "bench", channel, seats[0], "P0")
    for i, seat in enumerate(seats[1:], 1):
        await service.join("bench", channel, seat, f"P{i}", record.id)
    await service.start("bench", channel, seats[0], record.id)
    return record.id


async def measure_game(
    service: GameService, pool: WorkerPool, folder: Path, game_id: str
) -> dict[str, object]:
    agent = RandomAgent("bench")
    seats = table_size(game_id)
    games = 0

    async def fresh() -> str:
        nonlocal games
        games += 1
        return await new_game(service, game_id, f"{game_id}-c{games}", seats)

    current = await fresh()
    move_samples: list[float] = []
    service_samples: list[float] = []
    floor_render: list[float] = []
    while len(move_samples) < REPEATS:
        record = await service.get(current)
        if record.status != "active":
            current = await fresh()
            continue
        player = service.to_move(record)[0]
        action = agent.choose(service.engine(record), service.state(record), player)
        start = time.perf_counter()
        result = await service.move("bench", record.channel, player, action, ref=current)
        view = service.view(result.record, None)
        names = service.names(result.record)
        served = time.perf_counter()
        await pool.run(draw_board, game_id, view, names, [])
        done = time.perf_counter()
        move_samples.append(done - start)
        service_samples.append(served - start)
        start = time.perf_counter()
        images.render(
            game_id, view, names=names
        )  # the floor's render: the same board, nothing around it
        floor_render.append(time.perf_counter() - start)
    snapshot = (await service.get(current)).state
    commit = bare_commit_seconds(folder / game_id, REPEATS, len(json.dumps(snapshot)))
    floor_ms = median_ms(commit) + median_ms(floor_render)
    return {
        "seats": seats,
        "move_end_to_end_ms": round(median_ms(move_samples), 2),
        "of_which_service_and_store_ms": round(median_ms(service_samples), 2),
        "floor_ms": round(floor_ms, 2),
        "floor_commit_ms": round(median_ms(commit), 3),
        "floor_render_ms": round(median_ms(floor_render), 2),
        "move_to_floor_ratio": round(median_ms(move_samples) / floor_ms, 2),
        "render": await render_sizes(service, game_id),
        "snapshot_kb": round(len(json.dumps(snapshot)) / 1024, 1),
        "loaded_state_kb": loaded_state_kb(service, await service.get(current)),
    }


async def render_sizes(service: GameService, game_id: str) -> dict[str, dict[str, float]]:
    """Render time and PNG size of an opening board at the smallest and largest table."""
    game = GAMES[game_id]
    renders: dict[str, dict[str, float]] = {}
    for players in sorted({table_size(game_id), game.max_players}):
        gid = await new_game(service, game_id, f"{game_id}-r{players}", players)
        record = await service.get(gid)
        view, names = service.view(record, None), service.names(record)
        times = []
        for _ in range(20):
            start = time.perf_counter()
            png = images.render(game_id, view, names=names)
            times.append(time.perf_counter() - start)
        renders[f"{players}_players"] = {
            "render_ms": round(median_ms(times), 2),
            "png_kb": round(len(png) / 1024, 1),
        }
    return renders


def loaded_state_kb(service: GameService, record) -> float:
    """Memory one game's state takes while a move is worked out (the store holds the rest)."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    state = service.state(record)
    size = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del state
    return round(size / 1024, 1)


async def moves_per_second(service: GameService, game_id: str, seconds: float = 2.0) -> float:
    """Moves (service + store, no render) one process applies a second across many games."""
    agent = RandomAgent("throughput")
    ids = [
        await new_game(service, game_id, f"{game_id}-t{i}", table_size(game_id)) for i in range(8)
    ]
    done = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        gid = ids[done % len(ids)]
        record = await service.get(gid)
        if record.status != "active":
            ids[done % len(ids)] = await new_game(
                service, game_id, f"{game_id}-t{len(ids)}-{done}", table_size(game_id)
            )
            continue
        player = service.to_move(record)[0]
        action = agent.choose(service.engine(record), service.state(record), player)
        await service.move("bench", record.channel, player, action, ref=gid)
        done += 1
    return done / seconds


async def measure(folder: Path) -> dict[str, object]:
    store = SqliteStore(str(folder / "bench.db"))
    await store.open()
    service = GameService(store)
    pool = WorkerPool()
    await pool.ready()  # started and warm, as in the bot, before anything is timed
    figures: dict[str, object] = {"games": {}}
    for game_id in sorted(GAMES):
        (folder / game_id).mkdir()
        rate = await moves_per_second(service, game_id)
        figures["games"][game_id] = {  # type: ignore[index]
            **await measure_game(service, pool, folder, game_id),
            "moves_per_second": round(rate, 1),
            "to_discord_limit_ratio": round(rate / DISCORD_GLOBAL_LIMIT, 1),
        }
    figures["loop_lag_under_burst_ms"] = await loop_lag_under_burst(service, pool)
    await pool.close()
    await store.close()
    return figures


async def loop_lag_under_burst(
    service: GameService, pool: WorkerPool, per_game: int = 10
) -> dict[str, float]:
    """Worst delay of a 10 ms ticker while ``per_game`` moves and renders of every game run at
    once: the event loop must stay free to acknowledge interactions within Discord's 3 s."""
    agent = RandomAgent("burst")
    ids = [
        await new_game(service, game_id, f"burst-{game_id}-{i}", table_size(game_id))
        for game_id in sorted(GAMES)
        for i in range(per_game)
    ]
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
        view = service.view(result.record, None)
        await pool.run(draw_board, record.game, view, service.names(record), [])

    tick = asyncio.create_task(ticker())
    await asyncio.gather(*(one_move(g) for g in ids))
    stop.set()
    await tick
    return {
        "burst_moves": len(ids),
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
