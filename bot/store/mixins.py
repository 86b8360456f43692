"""What a store mixin (``seasons_sql``, ``tournaments_sql``, ``titles_sql``, ``web_tables``) calls
on the store class it is mixed into, per backend: one pair of protocols for every mixin to be
typed against."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

import asyncpg


class SqliteQueries(Protocol):
    """``SqliteStore``'s queries that a mixin calls."""

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...
    async def _execute(self, sql: str, params: Sequence[Any]) -> None: ...
    async def _transaction(self, work: Any) -> Any: ...


class PostgresQueries(Protocol):
    """``PostgresStore``'s one connection that a mixin borrows."""

    def _one(self) -> AbstractAsyncContextManager[asyncpg.Connection]: ...
