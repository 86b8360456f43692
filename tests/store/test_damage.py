"""A damaged database as a disk fault really leaves it: a page of a real SQLite file zeroed.

At a root page (of a table or an index) start-up refuses the file with one sentence naming it,
in time that does not grow with the history; deeper in a table, the background check finds
it and the store takes no more writes, every player told one sentence; deeper in an index, the
index is rebuilt from its table and nothing is lost. The same damage met by a read at run time
is the store's damage too, on both backends (PostgreSQL's ``data_corrupted``)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot import metrics
from bot.errors import ServiceError
from bot.i18n import use
from bot.store import DamagedDatabase, SqliteStore, Store, StoreError
from bot.store.connection import Connection
from tests.backends import Backend
from tests.store.damaged_files import fill, history, leaf, root, sound, zero

SENTENCE = "The game store is damaged; an admin has been told."
#: Not a timing assertion: a guard so that a check that never ends fails the test.
GUARD_SECONDS = 30


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
async def ids(path: Path) -> list[str]:
    return await history(path)


@pytest.fixture
async def store(path: Path, ids: list[str]) -> AsyncIterator[SqliteStore]:
    opened = SqliteStore(path)
    yield opened
    await opened.close()


def damaged_count() -> float:
    return metrics.REGISTRY.get_sample_value("tabletop_store_damaged_total") or 0.0


def refused_at_start(error: BaseException, path: Path) -> None:
    message = str(error)
    assert isinstance(error, DamagedDatabase)
    assert str(path) in message and "restore a backup" in message
    assert ". " not in message  # one sentence


@pytest.mark.parametrize("tree", ["games", "games_by_channel"])
async def test_a_zeroed_root_page_stops_the_start_naming_the_file(
    path: Path, ids: list[str], tree: str
) -> None:
    zero(path, root(path, tree))
    with pytest.raises(DamagedDatabase) as info:
        await SqliteStore(path).open()
    refused_at_start(info.value, path)
    assert tree in str(info.value)


async def test_a_page_deep_in_a_table_is_found_by_the_background_check(
    path: Path, store: SqliteStore, caplog: pytest.LogCaptureFixture
) -> None:
    zero(path, leaf(path, "games"))
    await store.open()  # start-up reads only the root pages: it starts
    assert store.damage.detail is None
    counted = damaged_count()
    await store.watch(pause=0)
    assert store.damage.detail is not None and "games" in store.damage.detail
    assert damaged_count() == counted + 1
    told = [r for r in caplog.records if r.levelno == logging.ERROR and "damaged" in r.message]
    assert len(told) == 1 and str(path) in told[0].message and "backup" in told[0].message
    with pytest.raises(ServiceError) as info:  # no write is taken any more, none at all
        await store.save_guild_settings("1", {"lang": "pt_BR"})
    assert isinstance(info.value, DamagedDatabase) and info.value.message == SENTENCE
    with use("pt_BR"), pytest.raises(ServiceError) as info:
        await store.save_guild_settings("1", {"lang": "pt_BR"})
    assert info.value.message != SENTENCE  # in the player's own language
    assert len([r for r in caplog.records if "is damaged" in r.message]) == 1  # logged once
    assert damaged_count() == counted + 1


async def test_a_page_deep_in_an_index_is_rebuilt_and_nothing_is_lost(
    path: Path, store: SqliteStore, ids: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    zero(path, leaf(path, "games_by_channel"))
    assert not sound(path)
    await store.open()
    await store.watch(pause=0)
    assert store.damage.detail is None
    assert "games_by_channel" in caplog.text and "rebuilt" in caplog.text
    for i, game_id in enumerate(ids):  # every game, found by the rebuilt index
        (found,) = await store.games_in_channel("guild", f"c{i}")
        assert found.id == game_id
    await store.save_guild_settings("1", {"lang": "pt_BR"})  # and it takes writes
    await store.close()
    assert sound(path)


async def test_a_read_that_meets_a_damaged_page_is_the_stores_damage(
    path: Path, store: SqliteStore, ids: list[str]
) -> None:
    """Run time: SQLite's "database disk image is malformed" is ``DamagedDatabase``, told
    to the player as the sentence, and from then on the store takes no write."""
    zero(path, leaf(path, "games"))
    await store.open()
    failures = []
    for game_id in ids:
        try:
            await store.get_game(game_id)
        except StoreError as error:
            failures.append(error)
    assert failures and all(isinstance(e, DamagedDatabase) for e in failures)
    assert all(isinstance(e, ServiceError) and e.message == SENTENCE for e in failures)
    with pytest.raises(DamagedDatabase):
        await store.save_guild_settings("1", {"lang": "pt_BR"})
    assert await store.get_game(ids[0]) is not None  # a read elsewhere still answers


async def test_damage_at_run_time_stops_the_writes_on_either_backend(backend: Backend) -> None:
    """Met by a write at run time, on a real file or a real server: PostgreSQL's analog of
    "malformed" is its ``data_corrupted`` error (SQLSTATE XX001), raised by the server."""
    if backend.path is not None:  # before the store opens: start-up reads the roots only
        ids = await history(backend.path)
        zero(backend.path, leaf(backend.path, "games"))
    store: Store = await backend.opened()
    try:
        if backend.path is None:
            ids = await fill(store, 3)
            await corrupt_games(backend)
        try:
            await meet_the_damage(store, ids)
        finally:
            await heal_games(backend)
        assert store.damage.detail is not None
        with pytest.raises(DamagedDatabase) as info:  # a table with no fault of its own
            await store.save_player_prefs("2", {"alerts": "dm"})
        assert isinstance(info.value, ServiceError) and info.value.message == SENTENCE
        assert await store.player_prefs(["2"]) == {}  # nothing written; reads still answer
    finally:
        await store.close()


async def meet_the_damage(store: Store, ids: list[str]) -> None:
    """Read and write every game until one meets the damage."""
    for game_id in ids:
        try:
            record = await store.get_game(game_id)
            assert record is not None
            await store.set_timers(game_id, record.version, None, None)
        except DamagedDatabase:
            return
    pytest.fail("no read or write met the damage")


async def corrupt_games(backend: Backend) -> None:
    """PostgreSQL's own ``data_corrupted``, raised by the server on every write of a game."""
    conn = await asyncpg.connect(backend.url)
    try:
        await conn.execute(
            "CREATE FUNCTION corrupted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "RAISE EXCEPTION 'invalid page in block 7' USING ERRCODE = 'data_corrupted'; "
            "END $$"
        )
        await conn.execute(
            "CREATE TRIGGER corrupted BEFORE UPDATE ON games "
            "FOR EACH ROW EXECUTE FUNCTION corrupted()"
        )
    finally:
        await conn.close()


async def heal_games(backend: Backend) -> None:
    if backend.path is not None:
        return
    conn = await asyncpg.connect(backend.url)
    try:
        await conn.execute("DROP TRIGGER corrupted ON games")
        await conn.execute("DROP FUNCTION corrupted()")
    finally:
        await conn.close()


async def test_a_damaged_index_met_at_run_time_is_rebuilt_and_the_writes_come_back(
    path: Path, store: SqliteStore, ids: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    """A lookup through a damaged index fails as the store's damage; the check it starts
    rebuilds the index, and the store takes writes again with every game found."""
    zero(path, leaf(path, "games_by_channel"))
    await store.open()
    met = []
    for i in range(len(ids)):
        try:
            await store.games_in_channel("guild", f"c{i}")
        except DamagedDatabase as error:
            met.append(error)
            break
    assert met and met[0].message == SENTENCE
    for _ in range(GUARD_SECONDS * 10):  # not a timing assertion: a guard against a hang
        if store.damage.detail is None:
            break
        await asyncio.sleep(0.1)
    assert store.damage.detail is None and "takes writes again" in caplog.text
    await store.save_guild_settings("1", {"lang": "pt_BR"})
    for i, game_id in enumerate(ids):
        assert [r.id for r in await store.games_in_channel("guild", f"c{i}")] == [game_id]


async def test_a_check_stopped_while_its_connection_opens_leaves_no_thread(path: Path) -> None:
    """The background check is cancelled when the bot stops, perhaps while its connection
    is being opened: the connection's thread ends all the same (it would wait for work for
    ever, and the stop with it)."""
    for _ in range(20):  # whether the thread connected before the cancel varies: try often
        conn = Connection(str(path), name="sqlite-check", busy_timeout_ms=1000)
        opening = asyncio.create_task(conn.open())
        await asyncio.sleep(0)  # the thread is started; the task waits for it to connect
        opening.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(opening, GUARD_SECONDS)
        assert not any(t.name == "sqlite-check" and t.is_alive() for t in threading.enumerate())
