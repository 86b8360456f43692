"""Real SQLite files with a page zeroed as a disk fault leaves it (``os.pwrite``), for the tests
of a damaged database: a history of a few hundred games, so that the ``games`` table and its
indexes have pages below their root."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from dataclasses import replace
from pathlib import Path

from bot.service import GameService
from bot.store import SqliteStore, Store
from tests.store.games import started

#: Games in the history: enough for every b-tree of ``games`` to have leaves below its root.
GAMES = 600


async def history(path: Path, games: int = GAMES) -> list[str]:
    """A database at ``path`` of ``games`` running games (``fill``); their ids."""
    store = SqliteStore(path)
    await store.open()
    try:
        return await fill(store, games)
    finally:
        await store.close()


async def fill(store: Store, games: int = GAMES) -> list[str]:
    """``games`` running games, each in a channel of its own (one real game, started through
    the service, copied through the store); their ids."""
    service = GameService(store, seed_factory=lambda: "damaged")
    first = await started(service, "c0")
    copies = [replace(first, id=f"g{i:05d}", channel=f"c{i}", owed=[]) for i in range(1, games)]
    await asyncio.gather(*(store.create_game(copy) for copy in copies))
    return [first.id, *(copy.id for copy in copies)]


def pages(path: Path, tree: str) -> list[tuple[int, str]]:
    """The pages of one table or index, root first: (page number, dbstat's page type)."""
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file itself
        rows = raw.execute(
            "SELECT pageno, pagetype FROM dbstat WHERE name = ? ORDER BY path", (tree,)
        ).fetchall()
    return [(int(page), str(kind)) for page, kind in rows]


def root(path: Path, tree: str) -> int:
    return pages(path, tree)[0][0]


def leaf(path: Path, tree: str) -> int:
    """A leaf page below the root, from the middle of the tree."""
    leaves = [page for page, kind in pages(path, tree)[1:] if kind == "leaf"]
    assert leaves, f"{tree} has no page below its root"
    return leaves[len(leaves) // 2]


def zero(path: Path, page: int) -> None:
    """Overwrite one page of the file with zeros, as a failed disk write leaves it."""
    with sqlite3.connect(path) as raw:
        size = int(raw.execute("PRAGMA page_size").fetchone()[0])
    fd = os.open(path, os.O_RDWR)
    try:
        os.pwrite(fd, bytes(size), (page - 1) * size)
    finally:
        os.close(fd)


def sound(path: Path) -> bool:
    with sqlite3.connect(path) as raw:
        return [row[0] for row in raw.execute("PRAGMA quick_check")] == ["ok"]
