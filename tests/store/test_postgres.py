"""What only the PostgreSQL store has: its migrations under an advisory lock, its start-up
sentence for a server it cannot reach, its pool, its refusal to back up by itself; and, on
PostgreSQL until the SQLite side lands (issues 15 and 16), results, ratings, undo and shards.

Tests here take ``backend`` restricted to its ``postgres`` id (``on_postgres``), so they skip
locally without a server and fail in CI without one, like every other PostgreSQL run.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import asyncpg
import pytest

from bot.config import Settings
from bot.store import (
    FINISHED,
    LOBBY,
    GameRecord,
    PostgresStore,
    Seat,
    Store,
    StoreError,
    open_store,
)
from bot.store.base import ACTIVE, Rating, ResultRow, Shards, VersionConflict
from bot.store.postgres import where
from bot.store.postgres_migrations import LATEST, MIGRATIONS, migrate, schema_version
from bot.store.rows import identity
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
    assert wanted and wanted <= set(vars(PostgresStore))


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


def guild_on(shard: int, count: int = 4, low: int = 12345) -> str:
    """A guild id (a snowflake) on ``shard`` of ``count``."""
    return str(((1_000_000 * count + shard) << 22) | low)


@on_postgres
async def test_the_scheduler_reads_only_the_games_of_its_shards(store: PostgresStore) -> None:
    guilds = [guild_on(shard) for shard in range(4)]
    assert [Shards(4, (s,)).owns(g) for s, g in enumerate(guilds)] == [True] * 4
    for shard, guild in enumerate(guilds):
        await store.create_game(
            game(f"due{shard}", guild, status=ACTIVE, remind_at=10.0, archive_at=10.0)
        )
        await store.create_game(game(f"lob{shard}", guild, status=LOBBY, deadline=10.0))
    everything = await store.due_games(20.0)
    assert sorted(r.id for r in everything) == [f"due{s}" for s in range(4)]
    for ids in ((0,), (1, 3), (0, 1, 2, 3)):
        shards = Shards(4, ids)
        assert sorted(r.id for r in await store.due_games(20.0, shards)) == [f"due{s}" for s in ids]
        assert sorted(r.id for r in await store.expired_lobbies(20.0, shards)) == [
            f"lob{s}" for s in ids
        ]
        archived = await store.threads_to_archive(20.0, shards)
        assert sorted(r.id for r in archived) == [f"due{s}" for s in ids]
    # A snowflake past bigint's sign bit still has its shard.
    big = str((1 << 63) + (2 << 22))
    await store.create_game(game("big", big, status=ACTIVE, deadline=5.0))
    assert [r.id for r in await store.due_games(6.0, Shards(4, (2,)))] == ["big"]


# -- results and ratings -----------------------------------------------------------------------


def rater(record: GameRecord, seen: list[dict[str, Rating]], winner: str = "1"):
    """A RateGame that ranks ``winner`` first, the rest second, and adds a point of mu to
    the winner (and counts a game for everyone): enough to see updates land or get lost."""

    def rate(current: dict[str, Rating]) -> tuple[list[ResultRow], list[Rating]]:
        seen.append(dict(current))
        rows, ratings = [], []
        for seat in record.seats:
            who = identity(seat)
            before = current.get(who, Rating(record.guild, record.game, who, 25.0, 8.0, ai=seat.ai))
            gain = 1.0 if seat.user == winner else 0.0
            rank = 1 if seat.user == winner else 2
            rows.append(
                ResultRow(
                    game_id=record.id,
                    game=record.game,
                    guild=record.guild,
                    player=seat.user,
                    rated_as=who,
                    ai=seat.ai,
                    name=seat.name,
                    rank=rank,
                    score=10 * (3 - rank),
                    winner=rank == 1,
                    players=len(record.seats),
                    options={"variant": "x"},
                    finished_at=record.updated_at,
                    mu_before=before.mu,
                    sigma_before=before.sigma,
                    mu_after=before.mu + gain,
                    sigma_after=before.sigma - 0.5,
                )
            )
            ratings.append(
                replace(
                    before, mu=before.mu + gain, sigma=before.sigma - 0.5, games=before.games + 1
                )
            )
        return rows, ratings

    return rate


@on_postgres
async def test_results_are_recorded_once_with_the_ratings_they_read(store: PostgresStore) -> None:
    first = game("g1", updated_at=100.0)
    await store.create_game(first)
    seen: list[dict[str, Rating]] = []
    assert await store.record_results("g1", rater(first, seen)) is True
    assert seen == [{}]
    assert await store.record_results("g1", rater(first, seen)) is False  # idempotent
    assert len(seen) == 1

    rows = await store.results_of_game("g1")
    assert [(r.player, r.rank) for r in rows] == [("1", 1), ("2", 2), ("ai:hard:1", 2)]
    assert rows[2].rated_as == "ai:hard" and rows[2].ai and rows[0].options == {"variant": "x"}
    board = await store.leaderboard("100", GAME, limit=10)
    assert [r.player for r in board] == ["1", "2", "ai:hard"]  # by ordinal, then identity

    second = game("g2", updated_at=200.0, seats=[Seat("2", name="Bo"), Seat("1", name="Ana")])
    await store.create_game(second)
    assert await store.finished_without_results() == [await store.get_game("g2")]
    await store.record_results("g2", rater(second, seen, winner="2"))
    assert set(seen[1]) == {"1", "2"}  # the identities of g2 only, as rated after g1
    assert seen[1]["1"].mu == 26.0 and seen[1]["1"].games == 1
    assert await store.finished_without_results() == []
    assert [r.game_id for r in await store.player_results("100", "1")] == ["g1", "g2"]
    assert await store.player_results("100", "1", game="artsee") == []
    assert [r.game_id for r in await store.player_results("100", "ai:hard")] == ["g1"]
    ratings = await store.ratings("100", GAME, ["1", "2", "nobody"])
    assert sorted(ratings) == ["1", "2"] and ratings["2"].games == 2 and ratings["2"].mu == 26.0
    board = await store.leaderboard("100", GAME, limit=10)
    assert await store.leaderboard("100", GAME, limit=1, offset=1) == [board[1]]
    assert await store.ratings("999", GAME, ["1"]) == {}


@on_postgres
async def test_two_games_ending_at_once_for_one_player_both_count(backend: Backend) -> None:
    """Two processes record two games of the same players at the same moment: each rating
    is read after the other's update, so the player ends with both games counted."""
    stores = [await backend.opened(), await backend.opened()]
    try:
        records = [game(f"g{i}", seats=[Seat("1"), Seat("2")]) for i in range(6)]
        for record in records:
            await stores[0].create_game(record)
        seen: list[dict[str, Rating]] = []
        done = await asyncio.gather(
            *(stores[i % 2].record_results(r.id, rater(r, seen)) for i, r in enumerate(records))
        )
        assert done == [True] * 6
        ratings = await stores[1].ratings("100", GAME, ["1", "2"])
        assert ratings["1"].games == 6 and ratings["1"].mu == 31.0
    finally:
        for s in stores:
            await s.close()


# -- undo ------------------------------------------------------------------------------------


async def moved(store: PostgresStore, record: GameRecord, moves: int) -> GameRecord:
    for turn in range(moves):
        expected = record.version
        record.version, record.state = expected + 1, {"turn": turn + 1}
        await store.commit_move(record, expected, str(turn % 2 + 1), {"n": turn + 1})
    return record


@on_postgres
async def test_undo_moves_the_taken_back_actions_to_the_audit(store: PostgresStore) -> None:
    record = await moved(store, await _started(store), 4)
    back = replace(record, version=record.version + 1, state={"turn": 2})
    with pytest.raises(VersionConflict):
        await store.undo(back, record.version - 1, 2, "1", 500.0)
    assert len(await store.actions("g1")) == 4  # the loser wrote nothing

    undone = await store.undo(back, record.version, 2, "1", 500.0)
    assert [(u.seq, u.action, u.requested_by, u.undone_at) for u in undone] == [
        (3, {"n": 3}, "1", 500.0),
        (4, {"n": 4}, "1", 500.0),
    ]
    assert [a.seq for a in await store.actions("g1")] == [1, 2]
    got = await store.get_game("g1")
    assert got is not None and got.state == {"turn": 2} and got.version == back.version

    # Played again and taken back again: the audit keeps both times, oldest first.
    again = await moved(store, back, 1)
    assert [a.seq for a in await store.actions("g1")] == [1, 2, 3]
    later = replace(again, version=again.version + 1)
    await store.undo(later, again.version, 2, "2", 600.0)
    audit = await store.undone_actions("g1")
    assert [(u.seq, u.undone_at) for u in audit] == [(3, 500.0), (4, 500.0), (3, 600.0)]
    assert await store.undone_actions("nope") == []


async def _started(store: PostgresStore) -> GameRecord:
    record = game("g1", status=ACTIVE, version=1)
    await store.create_game(record)
    return record
