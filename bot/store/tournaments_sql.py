"""The store's part of tournaments (issue 38): one row per tournament, its document as JSON
under a version (compare-and-swap, as a game's row), and when it next wants attention.

A mixin per backend, as ``web_tables``: the two store classes gain these calls with one line
each. The rounds' games are ordinary games; their ids are made from the tournament's, so the
games table itself says which were created.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

import asyncpg
import orjson

from bot.store.base import StoreError, VersionConflict
from bot.store.forget import FORMER, renamed
from bot.tournaments.model import OPEN, SIGNUP, Tournament

T = TypeVar("T")

_COLUMNS = "id, guild, channel, status, version, due_at, created_at, data, cross_server"


class _SqliteQueries(Protocol):
    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
    async def _transaction(self, work: Any) -> Any: ...


class _PostgresQueries(Protocol):
    def _one(self) -> AbstractAsyncContextManager[asyncpg.Connection]: ...


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
        _data(t),
        t.cross_server,
    )


def _data(t: Tournament) -> str:
    return orjson.dumps(t.dump()).decode()


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


#: The tournaments whose document may name a player (checked exactly by ``_forgotten``).
_NAMING = "SELECT id, data FROM tournaments WHERE data LIKE {}"


class SqliteTournaments:
    """``SqliteStore``'s tournament calls."""

    async def create_tournament(self: _SqliteQueries, t: Tournament) -> None:
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

    async def get_tournament(self: _SqliteQueries, tournament_id: str) -> Tournament | None:
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return _row(rows[0]) if rows else None

    async def save_tournament(self: _SqliteQueries, t: Tournament, expected: int) -> None:
        """Write ``t`` (its ``version`` the next one) where the row's version is ``expected``;
        VersionConflict if another change came first."""

        def update(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE tournaments SET status = ?, version = ?, due_at = ?, data = ? "
                "WHERE id = ? AND version = ?",
                (t.status, t.version, t.due_at, _data(t), t.id, expected),
            )
            if cursor.rowcount != 1:
                raise VersionConflict(f"tournament {t.id} changed meanwhile")

        await self._transaction(update)

    async def due_tournaments(self: _SqliteQueries, now: float, limit: int) -> list[Tournament]:
        """Open tournaments whose attention time has come, the earliest first."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE due_at IS NOT NULL AND due_at <= ? "
            "ORDER BY due_at LIMIT ?",
            (now, limit),
        )
        return [_row(r) for r in rows]

    async def tournaments_in_guild(
        self: _SqliteQueries, guild: str, limit: int
    ) -> list[Tournament]:
        """A server's tournaments, open ones first, then the newest."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE guild = ? "
            f"ORDER BY status IN ({', '.join('?' * len(OPEN))}) DESC, created_at DESC LIMIT ?",
            (guild, *OPEN, limit),
        )
        return [_row(r) for r in rows]

    async def cross_server_signups(self: _SqliteQueries, limit: int) -> list[Tournament]:
        """Tournaments open to other servers whose sign-up is open, the newest first."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM tournaments WHERE cross_server = 1 AND status = ? "
            "ORDER BY created_at DESC LIMIT ?",
            (SIGNUP, limit),
        )
        return [_row(r) for r in rows]

    async def all_tournaments(self: _SqliteQueries) -> list[Tournament]:
        """Every tournament (``python -m bot migrate`` copies them)."""
        rows = await self._fetchall(f"SELECT {_COLUMNS} FROM tournaments ORDER BY created_at")
        return [_row(r) for r in rows]

    async def forget_in_tournaments(self: _SqliteQueries, user: str) -> int:
        """`/game forget-me`: every tournament the player signed up for names them no more
        (``_forgotten``); how many were changed. The version moves, so a change in flight
        is retried on the renamed document."""

        def forget(conn: sqlite3.Connection) -> int:
            rows = conn.execute(_NAMING.format("?"), (f'%"{user}"%',)).fetchall()
            changed = 0
            for tournament_id, text in rows:
                data = _forgotten(text, user)
                if data is not None:
                    conn.execute(
                        "UPDATE tournaments SET data = ?, version = version + 1 WHERE id = ?",
                        (data, tournament_id),
                    )
                    changed += 1
            return changed

        return int(await self._transaction(forget))


class PostgresTournaments:
    """``PostgresStore``'s tournament calls."""

    async def create_tournament(self: _PostgresQueries, t: Tournament) -> None:
        async with self._one() as conn:
            try:
                await conn.execute(
                    f"INSERT INTO tournaments ({_COLUMNS}) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    *_values(t),
                )
            except asyncpg.UniqueViolationError as error:
                raise StoreError(f"tournament {t.id!r} already exists") from error

    async def get_tournament(self: _PostgresQueries, tournament_id: str) -> Tournament | None:
        async with self._one() as conn:
            row = await conn.fetchrow(
                f"SELECT {_COLUMNS} FROM tournaments WHERE id = $1", tournament_id
            )
        return _row(row) if row is not None else None

    async def save_tournament(self: _PostgresQueries, t: Tournament, expected: int) -> None:
        async with self._one() as conn:
            done = await conn.execute(
                "UPDATE tournaments SET status = $1, version = $2, due_at = $3, data = $4 "
                "WHERE id = $5 AND version = $6",
                t.status,
                t.version,
                t.due_at,
                _data(t),
                t.id,
                expected,
            )
        if done != "UPDATE 1":
            raise VersionConflict(f"tournament {t.id} changed meanwhile")

    async def due_tournaments(self: _PostgresQueries, now: float, limit: int) -> list[Tournament]:
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM tournaments WHERE due_at IS NOT NULL AND due_at <= $1 "
                "ORDER BY due_at LIMIT $2",
                now,
                limit,
            )
        return [_row(r) for r in rows]

    async def tournaments_in_guild(
        self: _PostgresQueries, guild: str, limit: int
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

    async def cross_server_signups(self: _PostgresQueries, limit: int) -> list[Tournament]:
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM tournaments WHERE cross_server AND status = $1 "
                "ORDER BY created_at DESC LIMIT $2",
                SIGNUP,
                limit,
            )
        return [_row(r) for r in rows]

    async def all_tournaments(self: _PostgresQueries) -> list[Tournament]:
        async with self._one() as conn:
            rows = await conn.fetch(f"SELECT {_COLUMNS} FROM tournaments ORDER BY created_at")
        return [_row(r) for r in rows]

    async def forget_in_tournaments(self: _PostgresQueries, user: str) -> int:
        async with self._one() as conn, conn.transaction():
            rows = await conn.fetch(_NAMING.format("$1") + " FOR UPDATE", f'%"{user}"%')
            changed = 0
            for row in rows:
                data = _forgotten(row["data"], user)
                if data is not None:
                    await conn.execute(
                        "UPDATE tournaments SET data = $1, version = version + 1 WHERE id = $2",
                        data,
                        row["id"],
                    )
                    changed += 1
            return changed


__all__ = ["PostgresTournaments", "SqliteTournaments"]
