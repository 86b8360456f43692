"""The store's part of titles (issue 38): the titles kept for a player on a server, and the
games a player timed out of there (ten finished games in a row without one earn a title).

A mixin per backend, as ``seasons_sql``."""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from bot.store.mixins import PostgresQueries, SqliteQueries

#: A kept title's columns, in ``KeptTitle``'s order.
_KEPT = "guild, player, title, at, game_id, given_by"


class KeptTitle(NamedTuple):
    """One row of ``titles`` (in ``_KEPT``'s order): ``game_id``, the game it was kept for;
    ``given_by``, the player who gave it ("" for a title earned)."""

    guild: str
    player: str
    title: str
    at: float
    game_id: str = ""
    given_by: str = ""


_OF = "SELECT title, game_id FROM titles WHERE guild = {} AND player = {} ORDER BY at, title"
_TIMEOUTS = (
    "SELECT t.game_id FROM timeouts t JOIN games g ON g.id = t.game_id "
    "WHERE g.guild = {} AND t.player = {}"
)


class SqliteTitles:
    """``SqliteStore``'s title calls."""

    async def keep_title(self: SqliteQueries, kept: KeptTitle) -> bool:
        """Keep a title for its player; False if it was kept already (an earned one), or the
        giver gave one for that game already."""

        def insert(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                f"INSERT OR IGNORE INTO titles ({_KEPT}) VALUES (?, ?, ?, ?, ?, ?)", kept
            )
            return cursor.rowcount == 1

        return bool(await self._transaction(insert))

    async def titles_of(self: SqliteQueries, guild: str, player: str) -> list[tuple[str, str]]:
        """The titles kept for a player on a server, each with the game it was kept for (a
        page shows only those whose game its reader may see)."""
        rows = await self._fetchall(_OF.format("?", "?"), (guild, player))
        return [(str(title), str(game_id)) for title, game_id in rows]

    async def player_timeouts(self: SqliteQueries, guild: str, player: str) -> set[str]:
        """The games on a server ``player`` timed out of."""
        rows = await self._fetchall(_TIMEOUTS.format("?", "?"), (guild, player))
        return {str(row[0]) for row in rows}

    async def all_titles(self: SqliteQueries) -> list[KeptTitle]:
        """Every title kept (``python -m bot migrate`` copies them)."""
        rows = await self._fetchall(f"SELECT {_KEPT} FROM titles ORDER BY {_KEPT}")
        return [KeptTitle(*row) for row in rows]

    async def forget_in_titles(self: SqliteQueries, user: str) -> None:
        """`/game forget-me`: the titles kept for the player, and those they gave, go."""

        def forget(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM titles WHERE player = ? OR given_by = ?", (user, user))

        await self._transaction(forget)


class PostgresTitles:
    """``PostgresStore``'s title calls."""

    async def keep_title(self: PostgresQueries, kept: KeptTitle) -> bool:
        async with self._one() as conn:
            done = await conn.execute(
                f"INSERT INTO titles ({_KEPT}) VALUES ($1, $2, $3, $4, $5, $6) "
                "ON CONFLICT DO NOTHING",
                *kept,
            )
        return bool(done == "INSERT 0 1")

    async def titles_of(self: PostgresQueries, guild: str, player: str) -> list[tuple[str, str]]:
        async with self._one() as conn:
            rows = await conn.fetch(_OF.format("$1", "$2"), guild, player)
        return [(str(row["title"]), str(row["game_id"])) for row in rows]

    async def player_timeouts(self: PostgresQueries, guild: str, player: str) -> set[str]:
        async with self._one() as conn:
            rows = await conn.fetch(_TIMEOUTS.format("$1", "$2"), guild, player)
        return {str(row["game_id"]) for row in rows}

    async def all_titles(self: PostgresQueries) -> list[KeptTitle]:
        async with self._one() as conn:
            rows = await conn.fetch(f"SELECT {_KEPT} FROM titles ORDER BY {_KEPT}")
        return [KeptTitle(*row) for row in rows]

    async def forget_in_titles(self: PostgresQueries, user: str) -> None:
        async with self._one() as conn:
            await conn.execute("DELETE FROM titles WHERE player = $1 OR given_by = $1", user)


__all__ = ["PostgresTitles", "SqliteTitles"]
