"""Change notifications (``bot.changes``): the service tells every committed change, once,
after the commit; the PostgreSQL bridge carries them to another process within a second."""

from __future__ import annotations

import asyncio

import pytest

from bot.changes import Change, Changes, PostgresBridge
from bot.errors import ServiceError
from bot.service import GameService
from tests.backends import Backend

G, C = "guild", "chan"
ANA, BO = "101", "102"


@pytest.fixture
async def service(backend: Backend):
    store = await backend.opened()
    yield GameService(store, seed_factory=lambda: "changes-seed")
    await store.close()


def test_every_listener_hears_even_when_one_fails() -> None:
    changes = Changes()
    heard: list[Change] = []

    def broken(_change: Change) -> None:
        raise RuntimeError("a listener's bug")

    changes.subscribe(broken)
    stop = changes.subscribe(heard.append)
    changes.publish("abc", 3)
    stop()
    changes.publish("abc", 4)
    assert heard == [Change("abc", 3)]


async def test_the_service_tells_each_committed_change_after_it_is_stored(
    service: GameService,
) -> None:
    heard: list[tuple[Change, int | None]] = []

    def listener(change: Change) -> None:
        stored = asyncio.get_running_loop().create_task(service.store.get_game(change.game_id))
        heard.append((change, None))
        stored.add_done_callback(lambda t: heard.append((change, t.result().version)))

    service.changes.subscribe(listener)
    record = await service.new_game("street-art", G, C, ANA, "Ana")
    record = await service.join(G, C, BO, "Bo", record.id)
    await service.add_ai(G, C, ANA, record.id)
    record = (await service.start(G, C, ANA, record.id)).record
    await asyncio.sleep(0.05)
    versions = [change.version for change, stored in heard if stored is None]
    assert versions == sorted(versions) and versions[-1] == record.version
    # Each change was in the store when it was told.
    assert all(stored >= change.version for change, stored in heard if stored is not None)
    told = len(versions)
    with pytest.raises(ServiceError):
        await service.move(G, C, "999", {"type": "play"}, record.id)  # refused: nothing told
    assert len([1 for _c, stored in heard if stored is None]) == told


async def test_the_bridge_carries_changes_between_processes(backend: Backend) -> None:
    if backend.name != "postgres":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    bots, web = Changes(), Changes()
    heard: asyncio.Queue[Change] = asyncio.Queue()
    mine: list[Change] = []
    web.subscribe(heard.put_nowait)
    bots.subscribe(mine.append)
    sender, listener = PostgresBridge(backend.url, bots), PostgresBridge(backend.url, web)
    await sender.open()
    await listener.open()
    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        bots.publish("game01", 7)
        assert await asyncio.wait_for(heard.get(), 1.0) == Change("game01", 7)
        assert loop.time() - started < 1.0
        await asyncio.sleep(0.1)
        assert mine == [Change("game01", 7)]  # its own notice is not heard twice
        # Changes committed together go out one after the other on the one connection, each
        # heard, with whether it owes posts.
        for version in range(8, 20):
            bots.publish("game01", version, owed=version % 2 == 0)
        burst = [await asyncio.wait_for(heard.get(), 2.0) for _version in range(8, 20)]
        assert burst == [Change("game01", v, v % 2 == 0) for v in range(8, 20)]
    finally:
        await sender.close()
        await listener.close()
