"""Tables that keep one versioned JSON document a row (``seasons``, ``tournaments``): the
queries their store mixins share on both backends, so a compare-and-swap, the scheduler's due
rows and forget-me's rewrite are written once."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import asyncpg
import orjson

from bot.store.base import VersionConflict

#: A backend's placeholders for so many parameters.
Marks = Callable[[int], list[str]]
#: A document's rewrite without a player (``user``), or None when it does not name them.
Forgetting = Callable[[str, str], "str | None"]


class Document(Protocol):
    """A season or a tournament: the columns a write moves, and its whole document."""

    status: str
    version: int
    due_at: float | None

    def dump(self) -> dict[str, Any]: ...


def dumped(document: Document) -> str:
    """A document's ``data`` column."""
    return orjson.dumps(document.dump()).decode()


def sqlite_marks(count: int) -> list[str]:
    """SQLite's placeholders for ``count`` parameters."""
    return ["?"] * count


def postgres_marks(count: int) -> list[str]:
    """PostgreSQL's placeholders for ``count`` parameters, numbered."""
    return [f"${n}" for n in range(1, count + 1)]


def naming(user: str) -> str:
    """The LIKE pattern of the documents that may name ``user`` (checked exactly after)."""
    return f'%"{user}"%'


@dataclass(frozen=True)
class Swap:
    """One compare-and-swap write: ``document`` (its ``version`` the next one) into the row
    named by ``key`` where the version is still ``expected``; ``conflict`` says which row
    changed meanwhile when it is not."""

    document: Document
    key: tuple[Any, ...]
    expected: int
    conflict: str

    def values(self) -> tuple[Any, ...]:
        """The parameters of ``Documents.save``."""
        d = self.document
        return (d.status, d.version, d.due_at, dumped(d), *self.key, self.expected)


@dataclass(frozen=True)
class Documents:
    """A table of documents: its ``table``, the ``columns`` its row decoder reads (in order)
    and the ``key`` columns that name one row."""

    table: str
    columns: str
    key: tuple[str, ...]

    def _where_key(self, marks: Sequence[str]) -> str:
        pairs = zip(self.key, marks, strict=True)
        return " AND ".join(f"{column} = {mark}" for column, mark in pairs)

    def due(self, marks: Marks) -> str:
        """The rows whose ``due_at`` has come (parameters: now, limit), the earliest first."""
        now, limit = marks(2)
        return (
            f"SELECT {self.columns} FROM {self.table} WHERE due_at IS NOT NULL "
            f"AND due_at <= {now} ORDER BY due_at LIMIT {limit}"
        )

    def save(self, marks: Marks) -> str:
        """The compare-and-swap write (parameters: ``Swap.values``)."""
        status, version, due_at, text, *key, expected = marks(5 + len(self.key))
        return (
            f"UPDATE {self.table} SET status = {status}, version = {version}, "
            f"due_at = {due_at}, data = {text} "
            f"WHERE {self._where_key(key)} AND version = {expected}"
        )

    def naming(self, marks: Marks) -> str:
        """The rows whose document may name a player (parameter: ``naming``'s pattern): their
        key, then their document."""
        (pattern,) = marks(1)
        return f"SELECT {', '.join(self.key)}, data FROM {self.table} WHERE data LIKE {pattern}"

    def rewrite(self, marks: Marks) -> str:
        """A row's document replaced, its version moved (parameters: the document, the key),
        so a change in flight is retried on the new document."""
        text, *key = marks(1 + len(self.key))
        return (
            f"UPDATE {self.table} SET data = {text}, version = version + 1 "
            f"WHERE {self._where_key(key)}"
        )

    def sqlite_save(self, conn: sqlite3.Connection, swap: Swap) -> None:
        """Write ``swap``; VersionConflict if another change came first."""
        if conn.execute(self.save(sqlite_marks), swap.values()).rowcount != 1:
            raise VersionConflict(swap.conflict)

    async def postgres_save(self, conn: asyncpg.Connection, swap: Swap) -> None:
        """``sqlite_save`` on PostgreSQL."""
        if await conn.execute(self.save(postgres_marks), *swap.values()) != "UPDATE 1":
            raise VersionConflict(swap.conflict)

    def sqlite_forget(self, conn: sqlite3.Connection, user: str, forgotten: Forgetting) -> int:
        """Every document that names ``user`` rewritten by ``forgotten``; how many."""
        rows = conn.execute(self.naming(sqlite_marks), (naming(user),)).fetchall()
        changed = 0
        for *key, text in rows:
            rewritten = forgotten(text, user)
            if rewritten is not None:
                conn.execute(self.rewrite(sqlite_marks), (rewritten, *key))
                changed += 1
        return changed

    async def postgres_forget(
        self, conn: asyncpg.Connection, user: str, forgotten: Forgetting
    ) -> int:
        """``sqlite_forget`` on PostgreSQL, in the caller's transaction (the rows locked)."""
        rows = await conn.fetch(self.naming(postgres_marks) + " FOR UPDATE", naming(user))
        changed = 0
        for row in rows:
            rewritten = forgotten(row["data"], user)
            if rewritten is not None:
                key = (row[column] for column in self.key)
                await conn.execute(self.rewrite(postgres_marks), rewritten, *key)
                changed += 1
        return changed
