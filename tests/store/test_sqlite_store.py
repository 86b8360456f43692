"""The stores against the ``Store`` contract: round trips, compare-and-swap, durability.

The contract tests take ``backend`` and run on SQLite and on PostgreSQL; the SQLite-only ones
(pragmas, WAL, its migrations, unusable paths) use a file in ``tmp_path`` rather than
``:memory:`` because WAL mode, reopening and cross-connection races only exist for files.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    LOBBY,
    GameRecord,
    PostgresStore,
    Seat,
    SqliteStore,
    Store,
    StoreError,
    VersionConflict,
    open_store,
)
from bot.store.migrations import LATEST, MIGRATIONS, migrate, user_version
from bot.store.rows import dumps, loads
from tests.backends import Backend


def make_record(game_id: str = "g1", **overrides: object) -> GameRecord:
    fields: dict[str, object] = {
        "id": game_id,
        "game": "connect4",
        "guild": "100",
        "channel": "200",
        "host": "u1",
        "seed": "seed-1",
        "options": {"rows": 6, "cols": 7, "names": ["ä", "b"]},
        "seats": [Seat("u1", name="Ann"), Seat("ai:1", ai=True, name="Bot")],
    }
    fields.update(overrides)
    return GameRecord(**fields)  # type: ignore[arg-type]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.db"


@pytest.fixture
async def sqlite_store(db_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(db_path)
    await s.open()
    yield s
    await s.close()


def test_sqlite_store_satisfies_the_protocol() -> None:
    store: Store = SqliteStore(":memory:")  # a type checker flags a drifting signature here
    for name in (
        "open",
        "close",
        "create_game",
        "get_game",
        "games_in_channel",
        "save_lobby",
        "commit_move",
        "actions",
        "save_message",
        "get_message",
    ):
        assert callable(getattr(store, name))


# -- round trips ---------------------------------------------------------------------------------


async def test_create_get_round_trip(store: Store) -> None:
    record = make_record(state={"board": [[0] * 7] * 6, "turn": 0}, thread="300")
    await store.create_game(record)
    got = await store.get_game("g1")
    assert got == record
    assert got is not None and got.created_at > 0 and got.updated_at == got.created_at
    assert got.seats[1].ai and got.seats[1].name == "Bot"
    assert got.seat_of("u1") == Seat("u1", name="Ann")
    assert await store.get_game("nope") is None


def test_the_json_codec_is_compact_utf8_and_writes_keys_as_strings() -> None:
    text = dumps({1: "ä", "b": [1.5, None, True]})
    assert text == '{"1":"ä","b":[1.5,null,true]}' and loads(text) == {
        "1": "ä",
        "b": [1.5, None, True],
    }
    for bad in ("{", None, "[1,]"):
        with pytest.raises(ValueError):
            loads(bad)  # type: ignore[arg-type]


async def test_create_duplicate_id_is_a_store_error(store: Store) -> None:
    await store.create_game(make_record())
    with pytest.raises(StoreError, match="already exists"):
        await store.create_game(make_record())


async def test_create_keeps_given_version_and_timestamps(store: Store) -> None:
    await store.create_game(make_record(version=7, created_at=10.0, updated_at=11.0))
    got = await store.get_game("g1")
    assert got is not None
    assert (got.version, got.created_at, got.updated_at) == (7, 10.0, 11.0)
    assert got.state is None


async def test_games_in_channel_filters_and_orders_oldest_first(store: Store) -> None:
    await store.create_game(make_record("new", created_at=30.0))
    await store.create_game(make_record("old", created_at=10.0, status=ACTIVE))
    await store.create_game(make_record("mid", created_at=20.0))
    await store.create_game(make_record("done", created_at=5.0, status=FINISHED))
    await store.create_game(make_record("gone", created_at=6.0, status=ABANDONED))
    await store.create_game(make_record("other-channel", created_at=1.0, channel="201"))
    await store.create_game(make_record("other-guild", created_at=1.0, guild="101"))

    open_games = await store.games_in_channel("100", "200")
    assert [g.id for g in open_games] == ["old", "mid", "new"]
    assert all(len(g.seats) == 2 for g in open_games)

    closed = await store.games_in_channel("100", "200", (FINISHED, ABANDONED))
    assert [g.id for g in closed] == ["done", "gone"]
    assert [g.id for g in await store.games_in_channel("100", "200", (LOBBY,))] == ["mid", "new"]
    assert [g.id for g in await store.games_in_channel("100", "201")] == ["other-channel"]
    assert await store.games_in_channel("100", "200", ()) == []
    assert await store.games_in_channel("999", "200") == []


# -- moves and compare-and-swap --------------------------------------------------------------------


async def test_commit_move_appends_in_order_and_bumps_version(store: Store) -> None:
    record = make_record(status=ACTIVE, version=1, state={"turn": 0})
    await store.create_game(record)
    for turn in range(1, 4):
        expected = record.version
        record.state = {"turn": turn}
        record.version = expected + 1
        seq = await store.commit_move(record, expected, f"u{turn}", {"drop": turn})
        assert seq == turn

    got = await store.get_game("g1")
    assert got is not None and got.version == 4 and got.state == {"turn": 3}
    log = await store.actions("g1")
    assert [(a.seq, a.player, a.action) for a in log] == [
        (1, "u1", {"drop": 1}),
        (2, "u2", {"drop": 2}),
        (3, "u3", {"drop": 3}),
    ]
    assert all(a.at > 0 for a in log)
    assert [a.at for a in log] == sorted(a.at for a in log)
    assert await store.actions("nope") == []


async def test_commit_move_writes_status(store: Store) -> None:
    record = make_record(status=ACTIVE, version=1)
    await store.create_game(record)
    record.status, record.state, record.version = FINISHED, {"winner": 0}, 2
    await store.commit_move(record, 1, "u1", {"drop": 3})
    got = await store.get_game("g1")
    assert got is not None and got.status == FINISHED and got.state == {"winner": 0}
    assert await store.games_in_channel("100", "200") == []


def _racers(base: GameRecord) -> tuple[GameRecord, GameRecord]:
    """Two writers that both read ``base`` at the same version and each made a different move."""
    a = make_record(status=ACTIVE, version=base.version + 1, state={"by": "a"})
    b = make_record(status=ACTIVE, version=base.version + 1, state={"by": "b"})
    return a, b


async def _check_one_winner(
    reader: Store, results: list[object], a: GameRecord, b: GameRecord
) -> None:
    wins = [r for r in results if isinstance(r, int)]
    losses = [r for r in results if isinstance(r, VersionConflict)]
    assert len(wins) == 1 and len(losses) == 1, results
    assert wins[0] == 1
    winner = a if isinstance(results[0], int) else b
    log = await reader.actions("g1")
    assert len(log) == 1 and log[0].player == ("a" if winner is a else "b")
    got = await reader.get_game("g1")
    assert got is not None and got.state == winner.state and got.version == 6


async def test_lost_race_sequential(store: Store) -> None:
    base = make_record(status=ACTIVE, version=5, state={"by": None})
    await store.create_game(base)
    a, b = _racers(base)
    assert await store.commit_move(a, 5, "a", {"m": "a"}) == 1
    with pytest.raises(VersionConflict, match="expected version 5"):
        await store.commit_move(b, 5, "b", {"m": "b"})
    await _check_one_winner(store, [1, VersionConflict("x")], a, b)


async def test_lost_race_concurrent_same_connection(store: Store) -> None:
    base = make_record(status=ACTIVE, version=5, state={"by": None})
    await store.create_game(base)
    a, b = _racers(base)
    results = await asyncio.gather(
        store.commit_move(a, 5, "a", {"m": "a"}),
        store.commit_move(b, 5, "b", {"m": "b"}),
        return_exceptions=True,
    )
    await _check_one_winner(store, list(results), a, b)


async def test_lost_race_concurrent_two_connections(store: Store, backend: Backend) -> None:
    """Two stores on one database stand in for two bot processes: the database decides."""
    base = make_record(status=ACTIVE, version=5, state={"by": None})
    await store.create_game(base)
    other = await backend.opened()
    try:
        a, b = _racers(base)
        results = await asyncio.gather(
            store.commit_move(a, 5, "a", {"m": "a"}),
            other.commit_move(b, 5, "b", {"m": "b"}),
            return_exceptions=True,
        )
        await _check_one_winner(store, list(results), a, b)
    finally:
        await other.close()


async def test_many_concurrent_writers_exactly_one_wins_each_round(store: Store) -> None:
    record = make_record(status=ACTIVE, version=0)
    await store.create_game(record)
    for round_ in range(5):
        contenders = [
            make_record(status=ACTIVE, version=round_ + 1, state={"round": round_, "by": i})
            for i in range(8)
        ]
        results = await asyncio.gather(
            *(store.commit_move(c, round_, f"p{i}", {"i": i}) for i, c in enumerate(contenders)),
            return_exceptions=True,
        )
        assert sum(isinstance(r, int) for r in results) == 1
        assert sum(isinstance(r, VersionConflict) for r in results) == 7
    log = await store.actions("g1")
    assert [a.seq for a in log] == [1, 2, 3, 4, 5]
    got = await store.get_game("g1")
    assert got is not None and got.version == 5


async def test_conflict_writes_nothing(store: Store) -> None:
    await store.create_game(make_record(status=ACTIVE, version=3, state={"s": 1}))
    with pytest.raises(VersionConflict):
        await store.commit_move(make_record(version=3, state={"s": 9}), 2, "u1", {"x": 1})
    got = await store.get_game("g1")
    assert got is not None and got.state == {"s": 1} and got.status == ACTIVE
    assert got.version == 3
    assert await store.actions("g1") == []


async def test_version_must_increase(store: Store) -> None:
    """Writing the expected version back would let a second stale writer pass the CAS too."""
    await store.create_game(make_record(version=3))
    with pytest.raises(StoreError, match="must be greater"):
        await store.commit_move(make_record(version=3), 3, "u1", {})
    with pytest.raises(StoreError, match="must be greater"):
        await store.save_lobby(make_record(version=2), 3)
    assert await store.actions("g1") == []


async def test_unknown_game_is_a_store_error_not_a_conflict(store: Store) -> None:
    with pytest.raises(StoreError, match="unknown game") as info:
        await store.commit_move(make_record("ghost", version=1), 0, "u1", {})
    assert not isinstance(info.value, VersionConflict)
    with pytest.raises(StoreError, match="unknown game") as info:
        await store.save_lobby(make_record("ghost", version=1), 0)
    assert not isinstance(info.value, VersionConflict)


# -- lobby -----------------------------------------------------------------------------------------


async def test_save_lobby_cas_rewrites_seats(store: Store) -> None:
    record = make_record(version=1)
    await store.create_game(record)

    joined = make_record(
        version=2,
        seats=[Seat("u1", name="Ann"), Seat("u2", name="Bo"), Seat("u3", name="Cy")],
        options={"rows": 8},
    )
    await store.save_lobby(joined, 1)
    got = await store.get_game("g1")
    assert got is not None and [s.user for s in got.seats] == ["u1", "u2", "u3"]
    assert got.options == {"rows": 8} and got.version == 2

    # A stale writer (also read version 1) loses and writes nothing.
    stale = make_record(version=2, seats=[Seat("u9")], status=ABANDONED)
    with pytest.raises(VersionConflict):
        await store.save_lobby(stale, 1)
    got = await store.get_game("g1")
    assert got is not None and [s.user for s in got.seats] == ["u1", "u2", "u3"]
    assert got.status == LOBBY

    # Start: fewer seats (one left), status, first snapshot, thread, new seed.
    started = make_record(
        version=3,
        status=ACTIVE,
        seats=[Seat("u3", name="Cy"), Seat("ai:1", ai=True)],
        state={"turn": 0},
        seed="seed-2",
        thread="555",
    )
    await store.save_lobby(started, 2)
    got = await store.get_game("g1")
    assert got is not None
    assert got.seats == [Seat("u3", name="Cy"), Seat("ai:1", ai=True)]
    assert (got.status, got.state, got.seed, got.thread, got.version) == (
        ACTIVE,
        {"turn": 0},
        "seed-2",
        "555",
        3,
    )


async def test_save_lobby_concurrent_one_wins(store: Store) -> None:
    await store.create_game(make_record(version=1))
    a = make_record(version=2, seats=[Seat("a")])
    b = make_record(version=2, seats=[Seat("b")])
    results = await asyncio.gather(
        store.save_lobby(a, 1), store.save_lobby(b, 1), return_exceptions=True
    )
    assert sum(r is None for r in results) == 1
    assert sum(isinstance(r, VersionConflict) for r in results) == 1
    got = await store.get_game("g1")
    assert got is not None
    assert got.seats == ([Seat("a")] if results[0] is None else [Seat("b")])


# -- messages --------------------------------------------------------------------------------------


async def test_save_message_replaces_per_kind(store: Store) -> None:
    await store.create_game(make_record())
    assert await store.get_message("g1", "board") is None
    await store.save_message("g1", "lobby", "200", "m1")
    await store.save_message("g1", "board", "200", "m2")
    await store.save_message("g1", "board", "300", "m3")
    assert await store.get_message("g1", "lobby") == ("200", "m1")
    assert await store.get_message("g1", "board") == ("300", "m3")
    with pytest.raises(StoreError, match="unknown game"):
        await store.save_message("ghost", "board", "200", "m4")


# -- durability and schema -------------------------------------------------------------------------


async def test_reopen_keeps_everything(backend: Backend) -> None:
    first = await backend.opened()
    record = make_record(status=ACTIVE, version=1, state={"t": 0})
    await first.create_game(record)
    record.state, record.version = {"t": 1}, 2
    await first.commit_move(record, 1, "u1", {"drop": 4})
    await first.save_message("g1", "board", "200", "m1")
    await first.close()
    await first.close()  # idempotent

    second = await backend.opened()
    try:
        got = await second.get_game("g1")
        assert got == record
        assert [(a.seq, a.action) for a in await second.actions("g1")] == [(1, {"drop": 4})]
        assert await second.get_message("g1", "board") == ("200", "m1")
    finally:
        await second.close()


async def test_a_reopened_file_is_in_wal_mode_at_the_latest_schema(db_path: Path) -> None:
    for _ in range(2):
        store = SqliteStore(db_path)
        await store.open()
        await store.close()
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA user_version").fetchone()[0] == LATEST


async def test_pragmas(sqlite_store: SqliteStore) -> None:
    conn = sqlite_store._conn
    assert conn is not None
    checks = {
        "journal_mode": "wal",
        "synchronous": 1,  # NORMAL
        "foreign_keys": 1,
        "busy_timeout": 5000,
    }
    for pragma, want in checks.items():
        rows = list(await conn.execute_fetchall(f"PRAGMA {pragma}"))
        assert rows[0][0] == want, pragma


async def test_memory_store() -> None:
    store = SqliteStore(":memory:")
    await store.open()
    try:
        await store.create_game(make_record())
        assert (await store.get_game("g1")) is not None
    finally:
        await store.close()


async def test_use_before_open_or_after_close_is_a_store_error(backend: Backend) -> None:
    store = backend.store()
    with pytest.raises(StoreError, match="not open"):
        await store.get_game("g1")
    await store.open()
    await store.close()
    with pytest.raises(StoreError, match="not open"):
        await store.create_game(make_record())


async def test_action_log_is_append_only(store: Store, backend: Backend) -> None:
    record = make_record(version=1)
    await store.create_game(record)
    record.version = 2
    await store.commit_move(record, 1, "u1", {"x": 1})
    with pytest.raises((sqlite3.DatabaseError, asyncpg.PostgresError), match="append"):
        await backend.execute("UPDATE actions SET player = 'evil'")
    assert [a.player for a in await store.actions("g1")] == ["u1"]


async def test_migrations_fresh_then_not_reapplied(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        assert await user_version(conn) == 0
        assert await migrate(conn) == list(range(1, LATEST + 1))
        assert await user_version(conn) == LATEST
        assert await migrate(conn) == []
    # Opening the store on the migrated file applies nothing (CREATE TABLE would fail if it did).
    store = SqliteStore(path)
    await store.open()
    await store.close()
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        assert await user_version(conn) == LATEST
        assert await migrate(conn) == []


async def test_migration_adds_only_new_steps_and_failed_step_rolls_back(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate(conn)
        extra = [*MIGRATIONS, ("CREATE TABLE extra (x INTEGER)",)]
        assert await migrate(conn, extra) == [LATEST + 1]
        assert await user_version(conn) == LATEST + 1

        broken = [*extra, ("CREATE TABLE half (x INTEGER)", "THIS IS NOT SQL")]
        with pytest.raises(sqlite3.OperationalError):
            await migrate(conn, broken)
        assert await user_version(conn) == LATEST + 1
        tables = await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE name = 'half'")
        assert list(tables) == []
        assert not conn.in_transaction


async def test_newer_schema_is_refused(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as raw:
        raw.execute(f"PRAGMA user_version = {LATEST + 1}")
    store = SqliteStore(db_path)
    with pytest.raises(StoreError, match="newer") as info:
        await store.open()
    assert str(db_path) in str(info.value)


# -- unusable paths --------------------------------------------------------------------------------


async def test_open_creates_missing_parent_directories(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "c" / "games.db"
    store = SqliteStore(path)
    await store.open()
    await store.close()
    assert path.is_file()


async def test_path_under_a_regular_file_raises_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    path = blocker / "sub" / "games.db"
    store = SqliteStore(path)
    with pytest.raises(StoreError) as info:
        await store.open()
    assert str(path) in str(info.value)
    with pytest.raises(StoreError, match="not open"):
        await store.get_game("g1")


async def test_path_that_is_a_directory_raises_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as info:
        await SqliteStore(tmp_path).open()
    assert str(tmp_path) in str(info.value)


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores directory permissions"
)
async def test_read_only_directory_raises_store_error(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        path = locked / "games.db"
        with pytest.raises(StoreError) as info:
            await SqliteStore(path).open()
        assert str(path) in str(info.value)
    finally:
        locked.chmod(0o700)


# -- the URL factory -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///data/games.db", "data/games.db"),
        ("sqlite:////abs/games.db", "/abs/games.db"),
        ("sqlite+aiosqlite:///data/games.db", "data/games.db"),
        ("SQLITE:///x.db", "x.db"),
        ("data/games.db", "data/games.db"),
        ("/abs/games.db", "/abs/games.db"),
        (":memory:", ":memory:"),
        ("sqlite:///:memory:", ":memory:"),
        ("sqlite://", ":memory:"),
    ],
)
def test_open_store_parses_urls(url: str, path: str) -> None:
    store = open_store(url)
    assert isinstance(store, SqliteStore) and store.path == path


@pytest.mark.parametrize(
    "url", ["postgresql://user:pw@host/db", "postgres://h/db", "PostgreSQL://h"]
)
def test_open_store_picks_postgres_for_its_urls(url: str) -> None:
    store = open_store(url, pool_size=3)
    assert isinstance(store, PostgresStore) and store.pool_size == 3


@pytest.mark.parametrize("url", ["mysql://h/db", "redis://h"])
def test_open_store_refuses_other_schemes(url: str) -> None:
    with pytest.raises(StoreError, match=r"use SQLite .* or PostgreSQL"):
        open_store(url)


@pytest.mark.parametrize("url", ["", "sqlite://host/games.db", "sqlite:///"])
def test_open_store_refuses_malformed_sqlite_urls(url: str) -> None:
    with pytest.raises(StoreError):
        open_store(url)


async def test_open_store_end_to_end(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/x/games.db")  # tmp_path is absolute: 4 slashes
    await store.open()
    try:
        await store.create_game(make_record())
        assert await store.get_game("g1") is not None
    finally:
        await store.close()
    assert (tmp_path / "x" / "games.db").is_file()


async def test_timers_travel_with_the_record_and_due_games_finds_them(backend: Backend) -> None:
    """Reminders and deadlines survive a restart, and moving them does not bump the version
    (a reminder must not make the buttons on the board out of date)."""
    store = await backend.opened()
    soon = GameRecord(id="soon01", game="street-art", guild="g", channel="c", host="h")
    later = GameRecord(id="late01", game="street-art", guild="g", channel="c", host="h")
    for record, at in ((soon, 100.0), (later, 500.0)):
        record.status = "active"
        record.remind_at, record.deadline = at, at + 1000
        await store.create_game(record)
    assert [r.id for r in await store.due_games(200.0)] == ["soon01"]
    assert [r.id for r in await store.due_games(600.0)] == ["soon01", "late01"]
    assert not await store.set_timers("soon01", soon.version - 1, None, 0.0)  # moved meanwhile
    assert await store.set_timers("soon01", soon.version, None, 1100.0)
    await store.close()

    store = await backend.opened()
    try:
        again = await store.get_game("soon01")
        assert again is not None and (again.remind_at, again.deadline) == (None, 1100.0)
        assert again.version == soon.version
        assert [r.id for r in await store.due_games(600.0)] == ["late01"]
        assert [r.id for r in await store.due_games(1100.0)] == ["late01", "soon01"]  # 500 < 1100
    finally:
        await store.close()
