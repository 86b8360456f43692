"""Reading a SQLite file's b-trees for damage: their root pages at start-up, in time that does
not grow with the history, and each table with its indexes in the background after it.

Every table and index is a b-tree whose root page ``sqlite_schema`` names. SQLite's ``dbstat``
table reads a b-tree's pages through the pager (so a page still in the ``-wal`` file is read
as the bot sees it), and ``LIMIT 1`` stops it at the root: one page per b-tree, 40 of them,
whatever the size of the file. A page whose header is not a b-tree page's (zeroed by a disk
fault, say) is a ``corrupted`` row.

The background check is ``PRAGMA quick_check(table)``, a table and its indexes at a time, so
a caller can pause between them. A damaged index holds nothing that is not in its table, so it
is rebuilt: ``REINDEX``, or, when its damaged pages cannot even be read to be cleared (a zeroed
page), the index made again from its own ``CREATE INDEX`` and the file compacted (``VACUUM``)
so that no page of the old one is left behind. A damaged table is a restore (README, Backups).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import suppress
from dataclasses import dataclass

#: The b-trees of the file: tables and indexes with pages of their own.
_TREES = "SELECT name, type, tbl_name, sql FROM sqlite_schema WHERE rootpage > 0 ORDER BY rootpage"


@dataclass(frozen=True)
class Tree:
    """One b-tree of the file: a table, or an index of ``table``. ``sql`` is its ``CREATE``
    statement (None for the index SQLite keeps for a ``UNIQUE`` or ``PRIMARY KEY``)."""

    name: str
    kind: str
    table: str
    sql: str | None

    @property
    def rebuildable(self) -> bool:
        """An index that can be made again from its own statement."""
        return self.kind == "index" and self.sql is not None


def trees(conn: sqlite3.Connection) -> list[Tree]:
    return [Tree(*row) for row in conn.execute(_TREES)]


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def damaged_roots(conn: sqlite3.Connection) -> list[str]:
    """The tables and indexes whose root page is not a b-tree page (one page read each)."""
    return [
        tree.name
        for tree in trees(conn)
        if conn.execute(
            "SELECT pagetype FROM dbstat WHERE name = ? LIMIT 1", (tree.name,)
        ).fetchone()[0]
        == "corrupted"
    ]


def quick_check(conn: sqlite3.Connection, table: str | None = None) -> list[str]:
    """``PRAGMA quick_check`` of the whole file, or of one table and its indexes: ``["ok"]``
    for sound pages; a damage SQLite cannot even walk past is one line saying so."""
    pragma = "PRAGMA quick_check" if table is None else f"PRAGMA quick_check({_quote(table)})"
    try:
        return [str(row[0]) for row in conn.execute(pragma)]
    except sqlite3.DatabaseError as exc:
        return [str(exc)]


def damaged_trees(conn: sqlite3.Connection, table: str) -> list[Tree]:
    """The b-trees of ``table`` (itself and its indexes) with a page that is not a b-tree
    page: every page of each is read, so this is for the background check."""
    return [
        tree
        for tree in trees(conn)
        if tree.table == table
        and conn.execute(
            "SELECT 1 FROM dbstat WHERE name = ? AND pagetype = 'corrupted' LIMIT 1", (tree.name,)
        ).fetchone()
        is not None
    ]


def rebuild_index(conn: sqlite3.Connection, index: Tree) -> str:
    """Make ``index`` again from its table (on the writer, outside any transaction); how."""
    try:
        conn.execute(f"REINDEX {_quote(index.name)}")
        return "REINDEX"
    except sqlite3.DatabaseError:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    # REINDEX first clears the old pages, and a page without a b-tree header cannot be
    # cleared: forget the old index (its pages left unused), make it again, then compact.
    assert index.sql is not None
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("PRAGMA writable_schema = ON")
        conn.execute("DELETE FROM sqlite_schema WHERE type = 'index' AND name = ?", (index.name,))
        conn.execute("PRAGMA writable_schema = RESET")
        conn.execute(index.sql)
        conn.execute("COMMIT")
    finally:
        conn.execute("PRAGMA writable_schema = OFF")
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    conn.execute("VACUUM")
    return "CREATE INDEX and VACUUM"


def lower_priority(conn: sqlite3.Connection) -> None:
    """Run on a check's own connection thread: it may only read, and the kernel schedules it
    after the threads that serve players (a thread's nice value, on Linux)."""
    conn.execute("PRAGMA query_only = ON")
    with suppress(AttributeError, OSError):  # no per-thread priority on this system
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
