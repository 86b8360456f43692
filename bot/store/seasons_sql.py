"""The store's part of seasons (issue 38): one row per season of a server's game, its document
as JSON under a version (compare-and-swap), when it next wants the scheduler, and the players
who timed out of each game (a timeout is a loss for the season).

A mixin per backend, as ``tournaments_sql``. A season's results are the ``results`` rows of
its window (``Store.season_results``, beside the other results queries).
"""

from __future__ import annotations

import sqlite3
from typing import Any

import orjson

from bot.seasons.model import Season
from bot.store.documents import Documents, Swap, dumped, postgres_marks, sqlite_marks
from bot.store.mixins import PostgresQueries, SqliteQueries

_COLUMNS = "guild, game, number, status, version, starts_at, ends_at, due_at, data"
SEASONS = Documents("seasons", _COLUMNS, ("guild", "game", "number"))


def _row(row: Any) -> Season:
    return Season.load(
        orjson.loads(row[8]),
        guild=str(row[0]),
        game=str(row[1]),
        number=int(row[2]),
        status=str(row[3]),
        version=int(row[4]),
        starts_at=float(row[5]),
        ends_at=float(row[6]),
        due_at=None if row[7] is None else float(row[7]),
    )


def _values(s: Season) -> tuple[Any, ...]:
    return (
        s.guild,
        s.game,
        s.number,
        s.status,
        s.version,
        s.starts_at,
        s.ends_at,
        s.due_at,
        dumped(s),
    )


def _swap(s: Season, expected: int) -> Swap:
    return Swap(
        s, (s.guild, s.game, s.number), expected, f"season {s.number} of {s.game} changed meanwhile"
    )


def _forgotten(text: str, user: str) -> str | None:
    """A season's document without ``user``'s line (their results are deleted too), nor the
    role the bot gave them, nor the roles step's sentence naming them; None if it has none."""
    data = orjson.loads(text)
    lines = [line for line in data.get("lines", []) if line.get("player") != user]
    crowned = {p: role for p, role in data.get("crowned", {}).items() if p != user}
    roles = None if f"<@{user}>" in (data.get("roles") or "") else data.get("roles")
    forgotten = {**data, "lines": lines, "crowned": crowned, "roles": roles}
    if forgotten == {**data, "crowned": data.get("crowned", {})}:
        return None
    return orjson.dumps(forgotten).decode()


class SqliteSeasons:
    """``SqliteStore``'s season calls."""

    async def create_season(self: SqliteQueries, s: Season) -> bool:
        """Insert a season; False if that number of that game on that server exists (made
        already, by this process before a restart or by another)."""

        def insert(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                f"INSERT OR IGNORE INTO seasons ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                _values(s),
            )
            return cursor.rowcount == 1

        return bool(await self._transaction(insert))

    async def seasons_of(self: SqliteQueries, guild: str, game: str, limit: int) -> list[Season]:
        """A server's seasons of one game, the newest first."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM seasons WHERE guild = ? AND game = ? "
            "ORDER BY number DESC LIMIT ?",
            (guild, game, limit),
        )
        return [_row(r) for r in rows]

    async def get_season(self: SqliteQueries, guild: str, game: str, number: int) -> Season | None:
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM seasons WHERE guild = ? AND game = ? AND number = ?",
            (guild, game, number),
        )
        return _row(rows[0]) if rows else None

    async def save_season(self: SqliteQueries, s: Season, expected: int) -> None:
        """Write ``s`` (its ``version`` the next one) where the row's version is ``expected``;
        VersionConflict if another change came first."""

        def update(conn: sqlite3.Connection) -> None:
            SEASONS.sqlite_save(conn, _swap(s, expected))

        await self._transaction(update)

    async def due_seasons(self: SqliteQueries, now: float, limit: int) -> list[Season]:
        """Seasons whose end (or owed results post) has come, the earliest first."""
        rows = await self._fetchall(SEASONS.due(sqlite_marks), (now, limit))
        return [_row(r) for r in rows]

    async def note_timeouts(self: SqliteQueries, game_id: str, players: list[str]) -> None:
        """``players`` timed out of ``game_id`` (again is a no-op)."""

        def insert(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "INSERT OR IGNORE INTO timeouts (game_id, player) VALUES (?, ?)",
                [(game_id, p) for p in players],
            )

        await self._transaction(insert)

    async def timeouts_of(
        self: SqliteQueries, guild: str, game: str, since: float
    ) -> dict[str, set[str]]:
        """Who timed out of each of a server's games of one kind begun at or after ``since``."""
        rows = await self._fetchall(
            "SELECT t.game_id, t.player FROM timeouts t JOIN games g ON g.id = t.game_id "
            "WHERE g.guild = ? AND g.game = ? AND g.created_at >= ?",
            (guild, game, since),
        )
        out: dict[str, set[str]] = {}
        for game_id, player in rows:
            out.setdefault(str(game_id), set()).add(str(player))
        return out

    async def game_timeouts(self: SqliteQueries, game_id: str) -> list[str]:
        """Who timed out of one game (``python -m bot migrate`` copies them)."""
        rows = await self._fetchall(
            "SELECT player FROM timeouts WHERE game_id = ? ORDER BY player", (game_id,)
        )
        return [str(row[0]) for row in rows]

    async def all_seasons(self: SqliteQueries) -> list[Season]:
        """Every season (``python -m bot migrate`` copies them)."""
        rows = await self._fetchall(f"SELECT {_COLUMNS} FROM seasons ORDER BY guild, game, number")
        return [_row(r) for r in rows]

    async def forget_in_seasons(self: SqliteQueries, user: str) -> int:
        """`/game forget-me`: every frozen season table loses the player's line; how many."""

        def forget(conn: sqlite3.Connection) -> int:
            return SEASONS.sqlite_forget(conn, user, _forgotten)

        return int(await self._transaction(forget))


class PostgresSeasons:
    """``PostgresStore``'s season calls."""

    async def create_season(self: PostgresQueries, s: Season) -> bool:
        async with self._one() as conn:
            done = await conn.execute(
                f"INSERT INTO seasons ({_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                "ON CONFLICT DO NOTHING",
                *_values(s),
            )
        return bool(done == "INSERT 0 1")

    async def seasons_of(self: PostgresQueries, guild: str, game: str, limit: int) -> list[Season]:
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT {_COLUMNS} FROM seasons WHERE guild = $1 AND game = $2 "
                "ORDER BY number DESC LIMIT $3",
                guild,
                game,
                limit,
            )
        return [_row(r) for r in rows]

    async def get_season(
        self: PostgresQueries, guild: str, game: str, number: int
    ) -> Season | None:
        async with self._one() as conn:
            row = await conn.fetchrow(
                f"SELECT {_COLUMNS} FROM seasons WHERE guild = $1 AND game = $2 AND number = $3",
                guild,
                game,
                number,
            )
        return _row(row) if row is not None else None

    async def save_season(self: PostgresQueries, s: Season, expected: int) -> None:
        async with self._one() as conn:
            await SEASONS.postgres_save(conn, _swap(s, expected))

    async def due_seasons(self: PostgresQueries, now: float, limit: int) -> list[Season]:
        async with self._one() as conn:
            rows = await conn.fetch(SEASONS.due(postgres_marks), now, limit)
        return [_row(r) for r in rows]

    async def note_timeouts(self: PostgresQueries, game_id: str, players: list[str]) -> None:
        async with self._one() as conn:
            await conn.executemany(
                "INSERT INTO timeouts (game_id, player) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                [(game_id, p) for p in players],
            )

    async def timeouts_of(
        self: PostgresQueries, guild: str, game: str, since: float
    ) -> dict[str, set[str]]:
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT t.game_id, t.player FROM timeouts t JOIN games g ON g.id = t.game_id "
                "WHERE g.guild = $1 AND g.game = $2 AND g.created_at >= $3",
                guild,
                game,
                since,
            )
        out: dict[str, set[str]] = {}
        for row in rows:
            out.setdefault(str(row["game_id"]), set()).add(str(row["player"]))
        return out

    async def game_timeouts(self: PostgresQueries, game_id: str) -> list[str]:
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT player FROM timeouts WHERE game_id = $1 ORDER BY player", game_id
            )
        return [str(row["player"]) for row in rows]

    async def all_seasons(self: PostgresQueries) -> list[Season]:
        async with self._one() as conn:
            rows = await conn.fetch(f"SELECT {_COLUMNS} FROM seasons ORDER BY guild, game, number")
        return [_row(r) for r in rows]

    async def forget_in_seasons(self: PostgresQueries, user: str) -> int:
        async with self._one() as conn, conn.transaction():
            return await SEASONS.postgres_forget(conn, user, _forgotten)


__all__ = ["PostgresSeasons", "SqliteSeasons"]
