"""A small pool of read-only SQLite connections, so readers never queue behind the writer.

In WAL mode a reader sees the last committed snapshot while a writer works, but only on a
connection of its own: aiosqlite runs each connection's calls one after another on its worker
thread. Each read here borrows one connection for its few statements, inside one deferred
transaction so a record and its seats come from the same snapshot, and gives it back.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import aiosqlite


class ReaderPool:
    """``size`` connections to ``path`` that may only read (``PRAGMA query_only``)."""

    def __init__(self, path: str, size: int, busy_timeout_ms: int) -> None:
        self.path = path
        self.size = size
        self.busy_timeout_ms = busy_timeout_ms
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._all: list[aiosqlite.Connection] = []

    async def open(self) -> None:
        try:
            for _ in range(self.size):
                conn = await aiosqlite.connect(self.path, isolation_level=None)
                self._all.append(conn)
                self._idle.put_nowait(conn)
                await conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms):d}")
                await conn.execute("PRAGMA query_only = ON")
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Wait for every borrowed connection to come back (a read in flight finishes first),
        then close them all; safe to call twice."""
        conns, self._all = self._all, []
        for _ in conns:
            await self._idle.get()
        for conn in conns:
            with suppress(sqlite3.Error):
                await conn.close()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[aiosqlite.Connection]:
        """Borrow a connection for one consistent read (one snapshot of the database)."""
        conn = await self._idle.get()
        try:
            await conn.execute("BEGIN")
            try:
                yield conn
            finally:
                if conn.in_transaction:
                    await conn.execute("COMMIT")
        finally:
            self._idle.put_nowait(conn)
