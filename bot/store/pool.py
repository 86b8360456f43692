"""A small pool of read-only SQLite connections, so readers never queue behind the writer.

In WAL mode a reader sees the last committed snapshot while a writer works, but only on a
connection of its own. Each connection here has a thread of its own (``bot.store.connection``),
and a read is one call there: its statements run inside one deferred transaction, so a record
and its seats come from the same snapshot, and the answer comes back in one hop (aiosqlite made
four: ``BEGIN``, the games, their seats, ``COMMIT``). Most reads come before an interaction's
first response, so every hop saved is one the player would have waited for.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

from bot.store.connection import Connection

T = TypeVar("T")


def _query_only(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA query_only = ON")


class ReaderPool:
    """``size`` connections to ``path`` that may only read (``PRAGMA query_only``).

    A read goes to the connection with the fewest reads in flight (each runs its reads one
    after another), so one slow read holds up only the reads that share its connection.
    """

    def __init__(self, path: str, size: int, busy_timeout_ms: int) -> None:
        self.path = path
        self.size = size
        self.busy_timeout_ms = busy_timeout_ms
        self._all: list[Connection] = []
        self._busy: dict[Connection, int] = {}

    async def open(self) -> None:
        try:
            for i in range(self.size):
                conn = Connection(
                    self.path, name=f"sqlite-reader-{i}", busy_timeout_ms=self.busy_timeout_ms
                )
                await conn.open()
                self._all.append(conn)
                self._busy[conn] = 0
                await conn.call(_query_only)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Let every read queued so far finish, then close the connections; safe to call
        twice."""
        conns, self._all = self._all, []
        self._busy.clear()
        for conn in conns:
            await conn.close()

    def _pick(self) -> Connection:
        return min(self._all, key=self._busy.__getitem__)

    async def read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` (a plain function of a ``sqlite3`` connection) as one read, in one
        hop, inside a deferred transaction: one snapshot of the database."""
        conn = self._pick()
        self._busy[conn] += 1
        try:
            return await conn.read(work)
        finally:
            if conn in self._busy:
                self._busy[conn] -= 1
