"""Start-up in time that does not grow with the history: the SQLite file opened once, with a
bounded check (header, schema, a write), the page-by-page check left to ``python -m bot check``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

import bot.store.integrity
from bot.__main__ import check_store
from bot.config import Settings
from bot.store import ReadOnlyDatabase, SqliteStore, StoreError
from bot.store.startup import write_test


async def test_opening_reads_no_page_beyond_the_bounded_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``quick_check`` reads every page (3.6 s at 100k games): it is not run at start-up."""
    path = tmp_path / "games.db"
    first = SqliteStore(path)
    await first.open()
    await first.close()

    def every_page(_conn: sqlite3.Connection) -> list[str]:
        raise AssertionError("start-up read every page")

    monkeypatch.setattr(bot.store.integrity, "quick_check", every_page)
    monkeypatch.setattr("bot.store.sqlite.quick_check", every_page)
    monkeypatch.setattr(bot.store.integrity, "damaged_trees", every_page)
    monkeypatch.setattr("bot.store.sqlite.damaged_trees", every_page)
    again = SqliteStore(path)
    await again.open()
    await again.close()


def test_the_store_the_start_up_check_opened_serves_the_bot_on_its_own_loop(
    tmp_path: Path,
) -> None:
    """``python -m bot run`` opens the file once: the check's store, opened on one event
    loop, is the one the bot then uses on another."""
    settings = Settings.load(database_url=f"sqlite:///{tmp_path / 'games.db'}")
    store = asyncio.run(check_store(settings))
    assert isinstance(store, SqliteStore)

    async def use() -> None:
        assert store is not None
        await store.save_guild_settings("1", {"lang": "pt_BR"})
        assert await store.guild_settings("1") == {"lang": "pt_BR"}
        await store.close()

    asyncio.run(use())


def test_a_file_this_process_may_not_write_is_refused_naming_it_and_its_owner(
    tmp_path: Path,
) -> None:
    """``BEGIN IMMEDIATE`` alone succeeds on a read-only file; the write test does not."""
    path = tmp_path / "games.db"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    try:
        with pytest.raises(ReadOnlyDatabase) as info:
            write_test(conn, str(path))
        assert not conn.in_transaction
    finally:
        conn.close()
    message = str(info.value)
    assert str(path) in message and "read-only" in message and "belongs to" in message
    assert ". " not in message  # one sentence


async def test_a_file_that_is_not_a_database_is_refused_by_its_header(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.write_bytes(b"PK\x03\x04 a zip file, say" * 100)
    with pytest.raises(StoreError, match="header"):
        await SqliteStore(path).open()
