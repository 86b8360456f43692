"""The SQLite store's writer: one thread owning the write connection, each write transaction one
call, the transactions queued meanwhile sharing one COMMIT (a savepoint each).

To make grouping certain rather than likely, a test can hold the writer's thread on an event
(``held``): whatever is queued meanwhile runs together once it is let go.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.store import ACTIVE, GameRecord, SqliteStore, StoreError, VersionConflict
from bot.store.base import Rating, ResultRow
from tests.store.test_results import GAME, GUILD, Rater, finished, rating, row
from tests.store.test_sqlite_store import make_record as any_record

#: Not a timing assertion: a guard so that a test that would hang fails instead.
GUARD_SECONDS = 30


def make_record(game_id: str = "g1", **overrides: Any) -> GameRecord:
    return any_record(game_id, **{"status": ACTIVE, **overrides})


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(db_path)
    await s.open()
    yield s
    await s.close()


@asynccontextmanager
async def held(store: SqliteStore) -> AsyncIterator[None]:
    """The writer's thread blocked until the block ends: writes queued inside it wait."""
    writer = store._conn
    assert writer is not None
    gate = threading.Event()
    blocked = asyncio.ensure_future(writer.call(lambda conn: gate.wait(GUARD_SECONDS)))
    try:
        yield
    finally:
        gate.set()
        assert await asyncio.wait_for(blocked, GUARD_SECONDS)


async def queued(store: SqliteStore, *calls: Awaitable[Any]) -> list[asyncio.Future[Any]]:
    """Start ``calls`` and return once each has handed its work to the writer."""
    writer = store._conn
    assert writer is not None
    before = writer._jobs.qsize()
    tasks = [asyncio.ensure_future(call) for call in calls]
    async with asyncio.timeout(GUARD_SECONDS):
        while writer._jobs.qsize() < before + len(calls):
            await asyncio.sleep(0)
    return tasks


def moved(version: int, by: str) -> GameRecord:
    return make_record(version=version, state={"by": by})


async def test_a_transaction_that_fails_half_way_leaves_nothing_and_the_next_commits(
    store: SqliteStore,
) -> None:
    await store.create_game(make_record(version=1, state={"s": 1}))

    def crash(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE games SET version = 99, state = '{}' WHERE id = 'g1'")
        conn.execute("INSERT INTO actions VALUES ('g1', 1, 'u1', '{}', 0)")
        raise RuntimeError("the work crashed")

    with pytest.raises(RuntimeError, match="crashed"):
        await store._transaction(crash)
    got = await store.get_game("g1")
    assert got is not None and got.version == 1 and got.state == {"s": 1}
    assert await store.actions("g1") == []
    assert await store.commit_move(moved(2, "u1"), 1, "u1", {"x": 1}) == 1
    assert [a.seq for a in await store.actions("g1")] == [1]


async def test_in_one_group_a_crash_rolls_back_only_its_own_work(store: SqliteStore) -> None:
    for game_id in ("a", "b", "c"):
        await store.create_game(make_record(game_id, version=1))

    def crash(conn: sqlite3.Connection) -> None:
        conn.execute("UPDATE games SET version = 50 WHERE id = 'b'")
        raise RuntimeError("b crashed")

    async with held(store):
        tasks = await queued(
            store,
            store.commit_move(make_record("a", version=2), 1, "u1", {"a": 1}),
            store._transaction(crash),
            store.commit_move(make_record("c", version=2), 1, "u1", {"c": 1}),
        )
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert results[0] == 1 and results[2] == 1
    assert isinstance(results[1], RuntimeError)
    versions = {g: (await store.get_game(g)).version for g in "abc"}  # type: ignore[union-attr]
    assert versions == {"a": 2, "b": 1, "c": 2}


async def test_in_one_group_a_failing_rate_rolls_back_only_its_own_results(
    store: SqliteStore,
) -> None:
    """``record_results`` calls its ``rate`` on the writer's thread, inside the group: a rate
    that raises, or rows that fail half way in, undo their own game's writes and reach their
    caller, while the rest of the group commits."""
    await store.create_game(make_record("a", version=1))
    for game_id in ("g1", "g2", "g3"):
        await store.create_game(finished(game_id, "u1", "u2"))

    def broken(current: dict[str, Rating]) -> tuple[list[ResultRow], list[Rating]]:
        raise RuntimeError("rating failed")

    g2, g3 = finished("g2", "u1", "u2"), finished("g3", "u1", "u2")
    twice = Rater([row(g2, "u1", 1, 3), row(g2, "u1", 2, 1)], [rating("u1", 40.0)])
    good = Rater([row(g3, "u1", 1, 3), row(g3, "u2", 2, 1)], [rating("u1", 27.0)])
    async with held(store):
        tasks = await queued(
            store,
            store.commit_move(make_record("a", version=2), 1, "u1", {"a": 1}),
            store.record_results("g1", broken),
            store.record_results("g2", twice),
            store.record_results("g3", good),
        )
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert results[0] == 1 and results[3] is True
    assert isinstance(results[1], RuntimeError) and "rating failed" in str(results[1])
    assert isinstance(results[2], StoreError)
    assert twice.seen and good.seen, "both rates ran"
    assert await store.results_of_game("g1") == []
    assert await store.results_of_game("g2") == [], "its first row went with the second"
    assert [r.player for r in await store.results_of_game("g3")] == ["u1", "u2"]
    assert (await store.ratings(GUILD, GAME, ["u1"]))["u1"].mu == 27.0
    assert [g.id for g in await store.finished_without_results()] == ["g1", "g2"]


async def test_concurrent_moves_on_one_game_in_one_group_apply_once(store: SqliteStore) -> None:
    await store.create_game(make_record(version=0))
    async with held(store):
        tasks = await queued(
            store, *(store.commit_move(moved(1, f"p{i}"), 0, f"p{i}", {"i": i}) for i in range(8))
        )
    results = await asyncio.gather(*tasks, return_exceptions=True)
    wins = [i for i, r in enumerate(results) if r == 1]
    conflicts = [r for r in results if isinstance(r, VersionConflict)]
    assert len(wins) == 1 and len(conflicts) == 7
    assert all("expected version 0, stored version is 1" in str(c) for c in conflicts)
    log = await store.actions("g1")
    assert [(a.seq, a.player) for a in log] == [(1, f"p{wins[0]}")]
    got = await store.get_game("g1")
    assert got is not None and got.version == 1 and got.state == {"by": f"p{wins[0]}"}


async def test_close_finishes_every_queued_write_then_refuses_more(db_path: Path) -> None:
    store = SqliteStore(db_path)
    await store.open()
    await store.create_game(make_record("g0", version=1))
    async with held(store):
        writes = await queued(
            store,
            store.commit_move(make_record("g0", version=2), 1, "u1", {"n": 1}),
            *(store.create_game(make_record(f"g{i}")) for i in range(1, 5)),
            store.save_message("g0", "board", "200", "m1"),
        )
        closing = asyncio.ensure_future(store.close())
        await asyncio.sleep(0)
        assert not closing.done()  # it waits for the writes queued before it
    await asyncio.wait_for(closing, GUARD_SECONDS)
    assert [await w for w in writes] == [1, None, None, None, None, None]
    with pytest.raises(StoreError, match="not open"):
        await store.create_game(make_record("late"))

    again = SqliteStore(db_path)
    await again.open()
    try:
        assert [a.seq for a in await again.actions("g0")] == [1]
        assert all([await again.get_game(f"g{i}") for i in range(5)])
        assert await again.get_message("g0", "board") == ("200", "m1")
    finally:
        await again.close()


async def test_a_failing_write_is_a_store_error_naming_the_file_and_spares_the_others(
    store: SqliteStore, db_path: Path
) -> None:
    await store.create_game(make_record("a", version=1))
    await store.create_game(make_record("b", version=1))
    with sqlite3.connect(db_path) as raw:  # another process refuses every change to game a
        raw.execute(
            "CREATE TRIGGER refuse_a BEFORE UPDATE OF state ON games WHEN old.id = 'a' "
            "BEGIN SELECT RAISE(ABORT, 'the file refuses it'); END"
        )
    async with held(store):
        tasks = await queued(
            store,
            store.commit_move(make_record("a", version=2), 1, "u1", {"a": 1}),
            store.commit_move(make_record("b", version=2), 1, "u1", {"b": 1}),
        )
    failed, committed = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(failed, StoreError) and not isinstance(failed, VersionConflict)
    assert str(db_path) in str(failed) and "the file refuses it" in str(failed)
    assert committed == 1
    assert await store.actions("a") == [] and len(await store.actions("b")) == 1
    with sqlite3.connect(db_path) as raw:
        raw.execute("DROP TRIGGER refuse_a")
    assert await store.commit_move(make_record("a", version=2), 1, "u1", {"a": 1}) == 1


async def test_a_write_cancelled_before_it_ran_is_never_applied(store: SqliteStore) -> None:
    await store.create_game(make_record(version=1))
    async with held(store):
        (task,) = await queued(store, store.commit_move(moved(2, "u1"), 1, "u1", {"x": 1}))
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert await store.commit_move(moved(2, "u2"), 1, "u2", {"y": 1}) == 1
    assert [a.player for a in await store.actions("g1")] == ["u2"]


async def test_statement_by_statement_writes_commit_or_roll_back_whole(
    store: SqliteStore,
) -> None:
    """``_write()`` is the aiosqlite-style way (each statement awaited) that a repair on the
    way through a read uses; it holds the writer from BEGIN to COMMIT."""
    await store.create_game(make_record(version=1))
    async with store._write() as conn:
        async with conn.execute("UPDATE games SET thread = 't' WHERE id = 'g1'") as cursor:
            assert cursor.rowcount == 1
        await conn.executemany(
            "INSERT INTO messages (game_id, kind, channel, message, at) VALUES (?, ?, ?, ?, 0)",
            [("g1", "board", "200", "m1"), ("g1", "lobby", "200", "m2")],
        )
        rows = await conn.execute_fetchall("SELECT COUNT(*) FROM messages WHERE game_id = 'g1'")
        assert rows == [(2,)]
    got = await store.get_game("g1")
    assert got is not None and got.thread == "t"

    with pytest.raises(StoreError, match="syntax error"):
        async with store._write() as conn:
            await conn.execute("UPDATE games SET thread = 'u' WHERE id = 'g1'")
            await conn.execute("THIS IS NOT SQL")
    assert await store._fetchall("SELECT thread FROM games WHERE id = 'g1'") == [("t",)]
    assert await store.get_message("g1", "lobby") == ("200", "m2")


async def test_reads_racing_close_answer_or_say_the_store_is_not_open(db_path: Path) -> None:
    store = SqliteStore(db_path)
    await store.open()
    await store.create_game(make_record())
    reads = [asyncio.ensure_future(store.get_game("g1")) for _ in range(20)]
    await asyncio.sleep(0)
    await store.close()
    reads += [asyncio.ensure_future(store.get_game("g1")) for _ in range(5)]
    results = await asyncio.gather(*reads, return_exceptions=True)
    for result in results:
        assert isinstance(result, GameRecord) or (
            isinstance(result, StoreError) and "not open" in str(result)
        ), result
    assert isinstance(results[0], GameRecord) and isinstance(results[-1], StoreError)
