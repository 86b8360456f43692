"""``python -m bench.inflight`` plays every game it puts in flight, on each backend, with and
without boards, and counts every move it times."""

from __future__ import annotations

from bench.inflight import HEADER, MOVES_EACH, line, play_level
from bench.scale import template
from bot.pictures import Pictures
from bot.pool import WorkerPool
from bot.store import open_store
from tests.backends import Backend


async def test_every_game_in_flight_moves_and_each_move_is_timed(backend: Backend) -> None:
    store = open_store(backend.url)
    await store.open()
    pool = WorkerPool(inline=True, initializer=None)
    try:
        record = await template(store)
        bare = await play_level(store, record, 3, None)
        drawn = await play_level(store, record, 2, Pictures(pool))
        stored = await store.games_in_guild(record.guild, None, limit=10)
    finally:
        await pool.close()
        await store.close()
    assert bare.moves == 3 * MOVES_EACH and drawn.moves == 2 * MOVES_EACH
    assert len(bare.latencies_ms) == bare.moves and min(bare.latencies_ms) > 0
    # Each copy, of both levels, was played in its own row, from the template's version on.
    moved = [r for r in stored if r.channel.startswith("flight-")]
    assert len(moved) == 5 and all(r.version > record.version for r in moved)
    row = bare.figures()
    assert row["moves_per_s"] > 0 and row["p99_ms"] >= row["p50_ms"] > 0
    assert row["process_cpu_ms_per_move"] >= row["loop_cpu_ms_per_move"] > 0
    assert line("sqlite", False, row).count("|") == HEADER.split("\n")[0].count("|")
