"""Readers never wait for writers; clicks still apply once; a backup taken mid-burst plays on."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.errors import ServiceError
from bot.service import GameService
from bot.store import SqliteStore, StoreError, open_store
from tests.backends import Backend
from tests.store.games import GUILD, play, started

#: Not a timing assertion: a guard so that a read that does wait fails instead of hanging.
GUARD_SECONDS = 30


@pytest.fixture
async def service(backend: Backend) -> AsyncIterator[GameService]:
    store = await backend.opened()
    yield GameService(store, seed_factory=lambda: "readers")
    await store.close()


@pytest.fixture
async def sqlite_service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = open_store(f"sqlite:///{tmp_path / 'games.db'}")
    await store.open()
    yield GameService(store, seed_factory=lambda: "readers")
    await store.close()


async def test_a_read_completes_while_a_write_transaction_is_held_open(
    service: GameService,
) -> None:
    store = service.store
    record = await started(service, "c")
    inside, release = asyncio.Event(), asyncio.Event()

    async def slow_write() -> None:
        async with store._write() as conn:  # type: ignore[attr-defined]
            # No placeholders: the one statement both backends' connections take as it is.
            await conn.execute(f"UPDATE games SET version = version + 100 WHERE id = '{record.id}'")
            inside.set()
            await release.wait()

    writer = asyncio.create_task(slow_write())
    await inside.wait()
    read = await asyncio.wait_for(store.get_game(record.id), GUARD_SECONDS)
    listed = await asyncio.wait_for(store.games_in_channel(GUILD, "c"), GUARD_SECONDS)
    assert not writer.done()  # the write transaction was open all along
    assert read is not None and read.version == record.version  # the last committed snapshot
    assert [r.id for r in listed] == [record.id]
    release.set()
    await writer
    after = await store.get_game(record.id)
    assert after is not None and after.version == record.version + 100


async def test_two_clicks_on_one_board_apply_once(service: GameService) -> None:
    record = await started(service, "c")
    player = service.to_move(record)[0]
    action = service.legal(record, player)[0]
    results = await asyncio.gather(
        *(
            service.move(GUILD, "c", player, action, ref=record.id, expected_version=record.version)
            for _ in range(2)
        ),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(applied) == 1 and len(refused) == 1 and isinstance(refused[0], ServiceError)
    assert len(await service.store.actions(record.id)) == 1


async def test_reads_and_moves_interleave_without_losing_a_move(service: GameService) -> None:
    records = [
        await started(service, f"c{i}", players=(f"{i}a", f"{i}b", f"{i}c")) for i in range(4)
    ]

    async def reader() -> int:
        seen = 0
        for _ in range(40):
            for record in records:
                got = await service.store.get_game(record.id)
                assert got is not None and got.state is not None
                seen += 1
            await asyncio.sleep(0)
        return seen

    moved = await asyncio.gather(*(play(service, r, 12, seed=r.id) for r in records), reader())
    for before, after in zip(records, moved[:4], strict=True):
        assert len(await service.store.actions(before.id)) == after.version - before.version


async def test_a_backup_taken_during_a_burst_of_moves_plays_on(
    sqlite_service: GameService, tmp_path: Path
) -> None:
    service = sqlite_service
    records = [
        await started(service, f"c{i}", players=(f"{i}a", f"{i}b", f"{i}c")) for i in range(3)
    ]
    copy_path = tmp_path / "backups" / "copy.db"
    # A second store on the same file stands for `python -m bot backup` in another process.
    other = SqliteStore(tmp_path / "games.db")
    await other.open()
    try:
        burst = asyncio.gather(*(play(service, r, 30, seed=r.id) for r in records))
        await asyncio.sleep(0)
        copied = await other.backup(copy_path)
        await burst
    finally:
        await other.close()
    assert copied == len(records)
    with pytest.raises(StoreError, match="exists already"):
        await service.store.backup(copy_path)

    restored = open_store(f"sqlite:///{copy_path}")
    await restored.open()
    try:
        again = GameService(restored, seed_factory=lambda: "readers")
        for record in records:
            saved = await again.get(record.id)
            assert len(await again.history(saved)) == len(await restored.actions(record.id))
            moved = await play(again, saved, 3, seed="after")
            assert moved.version > saved.version or moved.status != "active"
    finally:
        await restored.close()
    with sqlite3.connect(copy_path) as raw:
        assert raw.execute("PRAGMA quick_check").fetchone()[0] == "ok"


async def test_a_busy_reader_cannot_starve_the_others(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "games.db", readers=1)
    await store.open()
    try:
        record = await started(GameService(store, seed_factory=lambda: "fair"), "c")
        done = asyncio.Event()

        async def busy() -> int:
            reads = 0
            while not done.is_set():
                await store.get_game(record.id)
                reads += 1
            return reads

        hog = asyncio.create_task(busy())
        await asyncio.sleep(0)
        assert await asyncio.wait_for(store.get_game(record.id), GUARD_SECONDS) is not None
        done.set()
        assert await hog > 0
    finally:
        await store.close()
