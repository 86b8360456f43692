"""The store's part of tournaments (issue 38): one row per tournament, its document as JSON
under a version (compare-and-swap, as a game's row), and when it next wants attention.

A mixin per backend, as ``web_tables``: the two store classes gain these calls with one line
each. The rounds' games are ordinary games; their ids are made from the tournament's, so the
games table itself says which were created.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import asyncpg
import orjson

from bot.store.base import StoreError
from bot.store.documents import Documents, Swap, dumped, postgres_marks, sqlite_marks
from bot.store.forget import FORMER, renamed
from bot.store.mixins import PostgresQueries, SqliteQueries
from bot.tournaments.model import OPEN, SIGNUP, Tournament

_COLUMNS = "id, guild, channel, status, version, due_at, created_at, data, cross_server"
TOURNAMENTS = Documents("tournaments", _COLUMNS, ("id",))


def _row(row: Any) -> Tournament:
    return Tournament.load(
        orjson.loads(row[7]),
        id=str(row[0]),
        guild=str(row[1]),
        channel=str(row[2]),
        status=str(row[3]),
        version=int(row[4]),
        due_at=None if row[5] is None else float(row[5]),
        created_at=float(row[6]),
        cross_server=bool(row[8]),
    )


def _values(t: Tournament) -> tuple[Any, ...]:
    return (
        t.id,
        t.guild,
        t.channel,
        t.status,
        t.version,
        t.due_at,
        t.created_at,
        dumped(t),
        t.cross_server,
    )


def _swap(t: Tournament, expected: int) -> Swap:
    return Swap(t, (t.id,), expected, f"tournament {t.id} changed meanwhile")


def _forgotten(text: str, user: str) -> str | None:
    """A tournament's document with ``user`` renamed ``former:t<n>``, "Former player n" (n:
    their sign-up place), everywhere it names them; None if it does not."""
    data = orjson.loads(text)
    entries = data.get("entries", [])
    place = next((i for i, e in enumerate(entries) if e.get("user") == user), None)
    if place is None:
        return None
    entries[place]["name"] = f"Former player {place + 1}"
    return orjson.dumps(renamed(data, user, f"{FORMER}t{place + 1}")).decode()


class SqliteTournaments:
    """``SqliteStore``'s tournament calls."""

    async def create_tournament(self: SqliteQueries, t: Tournament) -> None:
        """Insert a new tournament (its id must be free)."""

        def insert(conn: sqlite3.Connection) -> None:
            try:
                conn.execute(
                    f"INSERT INTO tournaments ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    _values(t),
                )
            except sqlite3.IntegrityError as error:
                raise StoreError(f"tournament {t.id!r} already exists") from error

        await self._transaction(insert)

    async def get_tournament(self: SqliteQueries, tournament_id: str) -> Tournament | None:
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return _row(rows[0]) if rows else None

    async def save_tournament(self: SqliteQueries, t: Tournament, expected: int) -> None:
        """Write ``t`` (its ``version`` the next one) where the row's version is ``expected``;
        VersionConflict if another change came first."""

        def update(conn: sqlite3.Connection) -> None:
            TOURNAMENTS.sqlite_save(conn, _swap(t, expected))

        await self._transaction(update)

    async def due_tournaments(self: SqliteQueries, now: float, limit: int) -> list[Tournament]:
        """Open tournaments whose attention time has come, the earliest first."""
        rows = await self._fetchall(TOURNAMENTS.due(sqlite_marks), (now, limit))
        return [_row(r) for r in rows]

    async def tournaments_in_guild(self: SqliteQueries, guild: str, limit: int) -> list[Tournament]:
        """A server's tournaments, open ones first, then the newest."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE guild = ? "
            f"ORDER BY status IN ({', '.join('?' * len(OPEN))}) DESC, created_at DESC LIMIT ?",
            (guild, *OPEN, limit),
        )
        return [_row(r) for r in rows]

    async def cross_server_signups(self: SqliteQueries, limit: int) -> list[Tournament]:
        """Tournaments open to other servers whose sign-up is open, the newest first."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE cross_server = 1 AND status = ? "
            "ORDER BY created_at DESC LIMIT ?",
            (SIGNUP, limit),
        )
        return [_row(r) for r in rows]

    async def all_tournaments(self: SqliteQueries) -> list[Tournament]:
        """Every tournament (``python -m bot migrate`` copies them)."""
        rows = await self._fetchall(f"SELECT {_COLUMNS} FROM tournaments ORDER BY created_at")
        return [_row(r) for r in rows]

    async def forget_in_tournaments(self: SqliteQueries, user: str) -> int:
        """`/game forget-me`: every tournament the player signed up for names them no more
        (``_forgotten``); how many were changed. The version moves, so a change in flight
        is retried on the renamed document."""

        def forget(conn: sqlite3.Connection) -> int:
            return TOURNAMENTS.sqlite_forget(conn, user, _forgotten)

        return int(await self._transaction(forget))


class PostgresTournaments:
    """``PostgresStore``'s tournament calls."""

    async def create_tournament(self: PostgresQueries, t: Tournament) -> None:
        async with self._one() as conn:
            try:
                await conn.execute(
                    f"INSERT INTO tournaments ({_COLUMNS}) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    *_values(t),
                )
            except asyncpg.UniqueViolationError as error:
                raise StoreError(f"tournament {t.id!r} already exists") from error

    async def get_tournament(self: PostgresQueries, tournament_id: str) -> Tournament | None:
        async with self._one() as conn:
            row = await conn.fetchrow(
                f"SELECT {_COLUMNS} FROM tournaments WHERE id = $1", tournament_id
            )
        return _row(row) if row is not None else None

    async def save_tournament(self: PostgresQueries, t: Tournament, expected: int) -> None:
        async with self._one() as conn:
            await TOURNAMENTS.postgres_save(conn, _swap(t, expected))

    async def due_tournaments(self: PostgresQueries, now: float, limit: int) -> list[Tournament]:
        async with self._one() as conn:
            rows = await conn.fetch(TOURNAMENTS.due(postgres_marks), now, limit)
        return [_row(r) for r in rows]

    async def tournaments_in_guild(
        self: PostgresQueries, guild: str, limit: int
    ) -> list[Tournament]:
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM tournaments WHERE guild = $1 "
                "ORDER BY status = ANY($2::text[]) DESC, created_at DESC LIMIT $3",
                guild,
                list(OPEN),
                limit,
            )
        return [_row(r) for r in rows]

    async def cross_server_signups(self: PostgresQueries, limit: int) -> list[Tournament]:
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM tournaments WHERE cross_server AND status = $1 "
                "ORDER BY created_at DESC LIMIT $2",
                SIGNUP,
                limit,
            )
        return [_row(r) for r in rows]

    async def all_tournaments(self: PostgresQueries) -> list[Tournament]:
        async with self._one() as conn:
            rows = await conn.fetch(f"SELECT {_COLUMNS} FROM tournaments ORDER BY created_at")
        return [_row(r) for r in rows]

    async def forget_in_tournaments(self: PostgresQueries, user: str) -> int:
        async with self._one() as conn, conn.transaction():
            return await TOURNAMENTS.postgres_forget(conn, user, _forgotten)


__all__ = ["PostgresTournaments", "SqliteTournaments"]
