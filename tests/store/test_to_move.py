"""Whose move it is, stored beside the snapshot (``games.to_move``, issue 28): every save keeps
it, so `/game list`, `/game mine` and the autocomplete read the columns they show and never a
state; an old database learns it from its snapshots when it is migrated. On both backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.service import GameService
from bot.store import (
    ACTIVE,
    FINISHED,
    GameRecord,
    PostgresStore,
    SqliteStore,
    Store,
    postgres_migrations,
)
from bot.store import migrations as sqlite_migrations
from bot.store.rows import COLUMNS, encode
from tests.backends import Backend, drop_schema, fresh_schema, postgres_url, with_schema
from tests.store.games import GUILD, PLAYERS, play, started


async def listed_to_move(store: Store, record: GameRecord) -> list[str]:
    """Whose move ``record`` is as `/game list` and `/game mine` read it."""
    (in_list,) = [g for g in await store.games_in_guild(GUILD, None, limit=50) if g.id == record.id]
    mine = await store.games_of_player(GUILD, record.seats[0].user, limit=50)
    (in_mine,) = [g for g in mine if g.id == record.id]
    assert in_list.to_move == in_mine.to_move
    return in_list.to_move


async def test_the_listing_shows_whose_move_it_is_after_every_move(store: Store) -> None:
    service = GameService(store, seed_factory=lambda: "to-move")
    record = await started(service, "c0", "artsee")
    assert await listed_to_move(store, record) == service.to_move(record) != []
    movers = set()
    for _ in range(15):
        record = await play(service, record, 1)
        stored = await store.get_game(record.id)
        assert stored is not None and stored.to_move == service.to_move(stored)
        assert await listed_to_move(store, record) == service.to_move(stored)
        movers.add(tuple(stored.to_move))
    assert len(movers) > 1  # the turn went round: each save wrote its own


async def test_a_game_over_or_abandoned_waits_for_nobody(store: Store) -> None:
    service = GameService(store, seed_factory=lambda: "to-move")
    record = await play(service, await started(service, "c0"), 5000)
    assert record.status == FINISHED
    stored = await store.get_game(record.id)
    assert stored is not None and stored.to_move == []
    left = await started(service, "c1")
    await service.abandon(GUILD, "c1", PLAYERS[0], False, left.id)
    stored = await store.get_game(left.id)
    assert stored is not None and stored.to_move == []


async def test_forgetting_a_player_renames_them_in_whose_move_it_is(store: Store) -> None:
    service = GameService(store, seed_factory=lambda: "to-move")
    record = await started(service, "c0", "artsee")
    (mover,) = service.to_move(record)
    await store.forget_player(mover)
    stored = await store.get_game(record.id)
    assert stored is not None
    seat = next(i for i, s in enumerate(record.seats) if s.user == mover)
    assert stored.to_move == [f"former:{seat + 1}"] == service.to_move(stored)


# -- an old database ----------------------------------------------------------------------------


def step_of_to_move(steps: list) -> int:
    """How many steps come before the one that adds ``to_move``."""
    return next(
        i
        for i, step in enumerate(steps)
        if any(isinstance(s, str) and "ADD COLUMN to_move" in s for s in step)
    )


#: A game's columns before ``to_move`` existed.
OLD_COLUMNS = COLUMNS.removesuffix(", to_move")


def old_rows(record: GameRecord) -> tuple[tuple, list[tuple]]:
    """``record``'s row as an old database held it, and its seats' rows."""
    game = encode(record, record.created_at, record.updated_at)[:-1]
    seats = [(record.id, i, s.user, s.ai, s.name, s.away) for i, s in enumerate(record.seats)]
    return game, seats


@pytest.fixture
async def old_store(backend: Backend, tmp_path: Path) -> AsyncIterator:
    """Makes a database at the step before ``to_move`` holding some games, and opens a store
    on it (which migrates it); the schema of PostgreSQL's is dropped afterwards."""
    made: list[tuple[Store, str | None]] = []

    async def make(records: list[GameRecord]) -> Store:
        rows = [old_rows(record) for record in records]
        if backend.name == "sqlite":
            path = tmp_path / "old.db"
            async with aiosqlite.connect(path, isolation_level=None) as conn:
                steps = sqlite_migrations.MIGRATIONS
                await sqlite_migrations.migrate(conn, steps[: step_of_to_move(steps)])
                for game, seats in rows:
                    marks = ", ".join("?" * len(game))
                    await conn.execute(f"INSERT INTO games ({OLD_COLUMNS}) VALUES ({marks})", game)
                    await conn.executemany(
                        "INSERT INTO seats (game_id, seat, user, ai, name, away) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        seats,
                    )
            store: Store = SqliteStore(path)
            made.append((store, None))
        else:
            server = postgres_url()
            name = await fresh_schema(server)
            conn = await asyncpg.connect(with_schema(server, name))
            try:
                steps = postgres_migrations.MIGRATIONS
                await postgres_migrations.migrate(conn, steps[: step_of_to_move(steps)])
                for game, seats in rows:
                    marks = ", ".join(f"${i}" for i in range(1, len(game) + 1))
                    await conn.execute(f"INSERT INTO games ({OLD_COLUMNS}) VALUES ({marks})", *game)
                    await conn.executemany(
                        "INSERT INTO seats (game_id, seat, player, ai, name, away) "
                        "VALUES ($1, $2, $3, $4, $5, $6)",
                        seats,
                    )
            finally:
                await conn.close()
            store = PostgresStore(with_schema(server, name))
            made.append((store, name))
        await store.open()
        return store

    yield make
    for store, schema in made:
        await store.close()
        if schema is not None:
            await drop_schema(postgres_url(), schema)


async def test_an_old_database_learns_whose_move_each_game_is_when_migrated(
    store: Store, old_store
) -> None:
    service = GameService(store, seed_factory=lambda: "old")
    lobby = await service.new_game("street-art", GUILD, "c2", PLAYERS[0], "P0")
    running = await play(service, await started(service, "c0", "artsee"), 7)
    other = await play(service, await started(service, "c1", "street-kings"), 3)
    over = await play(service, await started(service, "c3"), 5000)
    damaged = await started(service, "c4")
    damaged.state = {"not": "a state"}
    assert running.status == other.status == ACTIVE and over.status == FINISHED

    old = await old_store([lobby, running, other, over, damaged])
    listed = {g.id: g.to_move for g in await old.games_in_guild(GUILD, None, limit=50)}
    assert listed[running.id] == service.to_move(running) != []
    assert listed[other.id] == service.to_move(other) != []
    assert listed[lobby.id] == [] and listed[damaged.id] == []  # nobody's, until its next save
    mine = {g.id: g.to_move for g in await old.games_of_player(None, PLAYERS[0], limit=50)}
    assert mine == listed
    finished = await old.get_game(over.id)
    assert finished is not None and finished.to_move == []
