"""The store's part of the web table (issue 26): each game's public id and public flag, and
the web secret kept when none is configured (issue 35).

A mixin per backend, so the two store classes gain these calls with one line each. A game's
row is written by the Discord layer when it learns the game's channel (whether everyone on the
server can view it); the web server reads it to find a game by the id in a page's address.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from bot.store.mixins import PostgresQueries, SqliteQueries


@dataclass(frozen=True)
class WebTable:
    """One game's web-table row: ``public``: its channel is one everyone on its server can
    view (only such games are shown to the world)."""

    game_id: str
    public_id: str
    public: bool


_COLUMNS = "game_id, public_id, public"
_UPSERT = (
    "INSERT INTO web_tables (game_id, public_id, public, updated_at) VALUES ({}) "
    "ON CONFLICT (game_id) DO UPDATE SET public_id = excluded.public_id, "
    "public = excluded.public, updated_at = excluded.updated_at"
)


@dataclass(frozen=True)
class PlacedTable:
    """A game's web-table row with where the game is played: what its public flag is
    worked out from again when Discord says a channel, thread or role changed."""

    table: WebTable
    guild: str
    channel: str
    thread: str | None


_PLACED = (
    "SELECT w.game_id, w.public_id, w.public, g.guild, g.channel, g.thread "
    "FROM web_tables w JOIN games g ON g.id = w.game_id WHERE g.guild = {}"
)
#: The same, of the games played in one channel or thread (a thread's parent is its game's
#: channel).
_PLACED_IN = _PLACED + " AND (g.channel = {} OR g.thread = {})"
#: Keep the first value written under a name; every process then reads the same one.
_KEEP_SECRET = "INSERT INTO kept_secrets (name, value) VALUES ({}) ON CONFLICT (name) DO NOTHING"
#: Keep a value copied from another store in place of the one kept (a move's source is the
#: truth: the links it signed keep working).
_COPY_SECRET = (
    "INSERT INTO kept_secrets (name, value) VALUES ({}) "
    "ON CONFLICT (name) DO UPDATE SET value = excluded.value"
)
_ALL_SECRETS = "SELECT name, value FROM kept_secrets ORDER BY name"


def _row(row: Any) -> WebTable:
    return WebTable(str(row[0]), str(row[1]), bool(row[2]))


def _placed(row: Any) -> PlacedTable:
    thread = str(row[5]) if row[5] is not None else None
    return PlacedTable(_row(row), str(row[3]), str(row[4]), thread)


class SqliteWebTables:
    """``SqliteStore``'s web-table calls."""

    async def save_web_table(self: SqliteQueries, table: WebTable) -> None:
        """Record (or update) a game's public id and flag."""
        await self._execute(
            _UPSERT.format("?, ?, ?, ?"),
            (table.game_id, table.public_id, int(table.public), time.time()),
        )

    async def web_table(self: SqliteQueries, public_id: str) -> WebTable | None:
        """The row a page's address names, if any."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM web_tables WHERE public_id = ?", (public_id,)
        )
        return _row(rows[0]) if rows else None

    async def web_table_of(self: SqliteQueries, game_id: str) -> WebTable | None:
        """A game's row, if it has one."""
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM web_tables WHERE game_id = ?", (game_id,)
        )
        return _row(rows[0]) if rows else None

    async def web_tables_in(
        self: SqliteQueries, guild: str, channel: str | None = None
    ) -> list[PlacedTable]:
        """Every web-table row of a server's games (of those played in ``channel``, a
        channel or thread, if given), with where each game is played."""
        if channel is None:
            rows = await self._fetchall(_PLACED.format("?"), (guild,))
        else:
            rows = await self._fetchall(_PLACED_IN.format("?", "?", "?"), (guild, channel, channel))
        return [_placed(row) for row in rows]

    async def kept_secret(self: SqliteQueries, name: str, fresh: str) -> str:
        """The secret kept under ``name``: ``fresh`` if none was kept yet (then kept)."""
        await self._execute(_KEEP_SECRET.format("?, ?"), (name, fresh))
        rows = await self._fetchall("SELECT value FROM kept_secrets WHERE name = ?", (name,))
        return str(rows[0][0])

    async def all_kept_secrets(self: SqliteQueries) -> dict[str, str]:
        """Every secret kept, by name (``python -m bot migrate`` copies them)."""
        return {str(name): str(value) for name, value in await self._fetchall(_ALL_SECRETS)}

    async def copy_kept_secrets(self: SqliteQueries, kept: dict[str, str]) -> None:
        """Keep ``kept`` (copied from another store) in place of what is kept here."""
        for name, value in kept.items():
            await self._execute(_COPY_SECRET.format("?, ?"), (name, value))


class PostgresWebTables:
    """``PostgresStore``'s web-table calls."""

    async def save_web_table(self: PostgresQueries, table: WebTable) -> None:
        async with self._one() as conn:
            await conn.execute(
                _UPSERT.format("$1, $2, $3, $4"),
                table.game_id,
                table.public_id,
                table.public,
                time.time(),
            )

    async def web_table(self: PostgresQueries, public_id: str) -> WebTable | None:
        async with self._one() as conn:
            row = await conn.fetchrow(
                f"SELECT {_COLUMNS} FROM web_tables WHERE public_id = $1", public_id
            )
        return _row(row) if row is not None else None

    async def web_table_of(self: PostgresQueries, game_id: str) -> WebTable | None:
        async with self._one() as conn:
            row = await conn.fetchrow(
                f"SELECT {_COLUMNS} FROM web_tables WHERE game_id = $1", game_id
            )
        return _row(row) if row is not None else None

    async def web_tables_in(
        self: PostgresQueries, guild: str, channel: str | None = None
    ) -> list[PlacedTable]:
        async with self._one() as conn:
            if channel is None:
                rows = await conn.fetch(_PLACED.format("$1"), guild)
            else:
                rows = await conn.fetch(_PLACED_IN.format("$1", "$2", "$2"), guild, channel)
        return [_placed(row) for row in rows]

    async def kept_secret(self: PostgresQueries, name: str, fresh: str) -> str:
        async with self._one() as conn:
            await conn.execute(_KEEP_SECRET.format("$1, $2"), name, fresh)
            return str(await conn.fetchval("SELECT value FROM kept_secrets WHERE name = $1", name))

    async def all_kept_secrets(self: PostgresQueries) -> dict[str, str]:
        async with self._one() as conn:
            rows = await conn.fetch(_ALL_SECRETS)
        return {str(row["name"]): str(row["value"]) for row in rows}

    async def copy_kept_secrets(self: PostgresQueries, kept: dict[str, str]) -> None:
        async with self._one() as conn:
            for name, value in kept.items():
                await conn.execute(_COPY_SECRET.format("$1, $2"), name, value)


__all__ = ["PlacedTable", "PostgresWebTables", "SqliteWebTables", "WebTable"]
