"""What only the PostgreSQL store has: its migrations under an advisory lock, its start-up
sentence for a server it cannot reach, its pool, its refusal to back up by itself, and its
exact shard arithmetic. Everything else (results, ratings, undo, shards, copying) is tested on
both backends in the other store tests.

Tests here take ``backend`` restricted to its ``postgres`` id (``on_postgres``), so they skip
locally without a server and fail in CI without one, like every other PostgreSQL run.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.config import Settings
from bot.store import (
    FINISHED,
    GameRecord,
    PostgresStore,
    Seat,
    Store,
    StoreError,
    open_store,
)
from bot.store.base import ACTIVE, Shards
from bot.store.postgres import where
from bot.store.postgres_migrations import LATEST, MIGRATIONS, migrate, schema_version
from tests.backends import Backend, drop_schema, fresh_schema, postgres_url, with_schema

on_postgres = pytest.mark.parametrize("backend", ["postgres"], indirect=True)
GAME = "street-art"


@pytest.fixture
async def fresh(backend: Backend) -> AsyncIterator[str]:
    """The URL of a schema no store has opened yet (dropped afterwards)."""
    server = postgres_url()
    name = await fresh_schema(server)
    yield with_schema(server, name)
    await drop_schema(server, name)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[PostgresStore]:
    opened = await backend.opened()
    assert isinstance(opened, PostgresStore)
    yield opened
    await opened.close()


def game(game_id: str, guild: str = "100", **overrides: object) -> GameRecord:
    fields: dict[str, object] = {
        "id": game_id,
        "game": GAME,
        "guild": guild,
        "channel": "200",
        "host": "1",
        "status": FINISHED,
        "version": 3,
        "state": {"turn": 9},
        "seats": [Seat("1", name="Ana"), Seat("2", name="Bo"), Seat("ai:hard:1", ai=True)],
    }
    fields.update(overrides)
    return GameRecord(**fields)  # type: ignore[arg-type]


def test_every_method_of_the_store_protocol_is_implemented() -> None:
    wanted = {name for name in vars(Store) if not name.startswith("_")}
    assert wanted and wanted <= set(dir(PostgresStore))  # mixins count (bot.store.web_tables)


# -- start-up ----------------------------------------------------------------------------------


async def test_an_unreachable_server_fails_naming_the_host_and_the_setting() -> None:
    store = open_store("postgresql://bot:s3cret@127.0.0.1:1/games")
    with pytest.raises(StoreError) as info:
        await store.open()
    message = str(info.value)
    assert "127.0.0.1:1/games" in message and "DATABASE_URL" in message
    assert "s3cret" not in message
    with pytest.raises(StoreError, match="not open"):
        await store.get_game("g1")


@pytest.mark.parametrize(
    ("url", "named"),
    [
        ("postgresql://u:pw@db.example:6543/games", "db.example:6543/games"),
        ("postgres://db.example/games", "db.example:5432/games"),
        ("postgresql:///games?host=/run/postgresql", "/run/postgresql:5432/games"),
    ],
)
def test_the_server_is_named_without_the_password(url: str, named: str) -> None:
    assert where(url) == named


def test_the_pool_size_is_a_setting_of_one_or_more() -> None:
    assert Settings.load(env_file="/nonexistent", database_pool_size="4").database_pool_size == 4
    with pytest.raises(ValueError, match="DATABASE_POOL_SIZE"):
        Settings.load(env_file="/nonexistent", database_pool_size="0")


@on_postgres
async def test_the_pool_holds_at_most_its_size(backend: Backend) -> None:
    store = PostgresStore(backend.url, pool_size=2)
    await store.open()
    try:
        await store.create_game(game("g1", status=ACTIVE))
        reads = await asyncio.gather(*(store.get_game("g1") for _ in range(12)))
        assert all(r is not None for r in reads)
        assert store._pool is not None and store._pool.get_size() <= 2
    finally:
        await store.close()


@on_postgres
async def test_backup_says_to_use_pg_dump(store: PostgresStore) -> None:
    with pytest.raises(StoreError, match="pg_dump"):
        await store.backup("copy.dump")


# -- migrations --------------------------------------------------------------------------------


@on_postgres
async def test_migrations_apply_once_whoever_opens_first(fresh: str) -> None:
    """Four processes starting at once on a new database: the advisory lock lets one migrate."""
    stores = [PostgresStore(fresh, pool_size=1) for _ in range(4)]
    await asyncio.gather(*(s.open() for s in stores))
    for s in stores:
        await s.close()
    conn = await asyncpg.connect(fresh)
    try:
        versions = [r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")]
        assert sorted(versions) == list(range(1, LATEST + 1))
        assert await migrate(conn) == []
    finally:
        await conn.close()


@on_postgres
async def test_a_failed_step_rolls_back_whole(fresh: str) -> None:
    conn = await asyncpg.connect(fresh)
    try:
        assert await migrate(conn) == list(range(1, LATEST + 1))
        broken = [*MIGRATIONS, ("CREATE TABLE half (x integer)", "THIS IS NOT SQL")]
        with pytest.raises(asyncpg.PostgresSyntaxError):
            await migrate(conn, broken)
        assert await schema_version(conn) == LATEST
        assert await conn.fetchval("SELECT to_regclass('half')") is None
    finally:
        await conn.close()


@on_postgres
async def test_a_database_at_step_three_upgrades_keeping_its_undo_audit(fresh: str) -> None:
    """Step 4 (undo proposals, the log's delete guard, one audit row per seq and time) on a
    database that already holds a game, its log and its audit."""
    conn = await asyncpg.connect(fresh)
    try:
        await migrate(conn, MIGRATIONS[:3])
        await conn.execute(
            "INSERT INTO games (id, game, guild, channel, host, status, version, created_at, "
            "updated_at) VALUES ('g1', 'street-art', '100', '200', '1', 'active', 3, 1, 2)"
        )
        await conn.execute("INSERT INTO actions VALUES ('g1', 1, '1', '{}', 5.0)")
        await conn.execute(
            "INSERT INTO undone_actions (game_id, seq, player, action, at, undone_at, "
            "requested_by) VALUES ('g1', 2, '1', '{}', 6.0, 7.0, '1')"
        )
    finally:
        await conn.close()
    store = PostgresStore(fresh)
    await store.open()
    try:
        assert [(u.seq, u.undone_at) for u in await store.undone_actions("g1")] == [(2, 7.0)]
        assert await store.undo_request("g1") is None
        conn = await asyncpg.connect(fresh)
        try:
            assert await schema_version(conn) == LATEST
            with pytest.raises(asyncpg.RaiseError, match="only to an undo"):
                await conn.execute("DELETE FROM actions WHERE game_id = 'g1'")
        finally:
            await conn.close()
    finally:
        await store.close()


@on_postgres
async def test_a_newer_schema_is_refused_naming_the_server(fresh: str) -> None:
    conn = await asyncpg.connect(fresh)
    try:
        await migrate(conn)
        await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", LATEST + 1)
    finally:
        await conn.close()
    with pytest.raises(StoreError, match="newer") as info:
        await PostgresStore(fresh).open()
    assert where(fresh) in str(info.value)


@on_postgres
async def test_a_search_path_naming_no_schema_is_refused(backend: Backend) -> None:
    with pytest.raises(StoreError, match="no schema"):
        await PostgresStore(with_schema(postgres_url(), "no_such_schema")).open()


# -- shards ------------------------------------------------------------------------------------


@on_postgres
async def test_a_snowflake_past_bigints_sign_bit_still_has_its_shard(store: PostgresStore) -> None:
    """PostgreSQL computes the shard in exact arithmetic (tests/store/test_shards.py holds the
    rest of the filter, on both backends)."""
    big = str((1 << 63) + (2 << 22))
    assert Shards(4, (2,)).owns(big)
    await store.create_game(game("big", big, status=ACTIVE, deadline=5.0))
    await store.create_game(game("bad", "not-a-snowflake", status=ACTIVE, deadline=5.0))
    assert [r.id for r in await store.due_games(6.0, Shards(4, (2,)))] == ["big"]
    assert sorted(r.id for r in await store.due_games(6.0)) == ["bad", "big"]
