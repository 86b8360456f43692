"""A small pool of read-only SQLite connections, so readers never queue behind the writer.

In WAL mode a reader sees the last committed snapshot while a writer works, but only on a
connection of its own: aiosqlite runs each connection's calls one after another on its worker
thread. Each read here borrows one connection for its few statements, inside one deferred
transaction so a record and its seats come from the same snapshot, and gives it back.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import aiosqlite


class ReaderPool:
    """``size`` connections to ``path`` that may only read (``PRAGMA query_only``).

    Borrowing is first come, first served: a connection given back goes straight to the
    longest waiter. (An ``asyncio.Queue`` would let a busy reader take its connection back
    before the waiter it woke could run, and a few busy readers could starve everyone else.)
    """

    def __init__(self, path: str, size: int, busy_timeout_ms: int) -> None:
        self.path = path
        self.size = size
        self.busy_timeout_ms = busy_timeout_ms
        self._free: list[aiosqlite.Connection] = []
        self._waiters: deque[asyncio.Future[aiosqlite.Connection]] = deque()
        self._all: list[aiosqlite.Connection] = []

    async def open(self) -> None:
        try:
            for _ in range(self.size):
                conn = await aiosqlite.connect(self.path, isolation_level=None)
                self._all.append(conn)
                self._free.append(conn)
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
            await self._borrow()
        self._free.clear()
        for conn in conns:
            with suppress(sqlite3.Error):
                await conn.close()

    async def _borrow(self) -> aiosqlite.Connection:
        if self._free and not self._waiters:
            return self._free.pop()
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._give_back(waiter.result())  # handed over just as we were cancelled
            else:
                with suppress(ValueError):  # already dropped by _give_back
                    self._waiters.remove(waiter)
            raise

    def _give_back(self, conn: aiosqlite.Connection) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return
        self._free.append(conn)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[aiosqlite.Connection]:
        """Borrow a connection for one consistent read (one snapshot of the database)."""
        conn = await self._borrow()
        try:
            await conn.execute("BEGIN")
            try:
                yield conn
            finally:
                if conn.in_transaction:
                    await conn.execute("COMMIT")
        finally:
            self._give_back(conn)
