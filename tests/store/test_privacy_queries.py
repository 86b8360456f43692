"""The store's counts and places behind the caps and the visibility of ratings, on both
backends: ``count_games`` (by status, and by a player's own seats) and ``rated_places``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.service import GameService
from bot.store.base import ACTIVE, FINISHED, LOBBY, OPEN_STATUSES
from tests.backends import Backend
from tests.store.games import GUILD, play, started


@pytest.fixture
async def service(backend: Backend) -> AsyncIterator[GameService]:
    store = await backend.opened()
    yield GameService(store, seed_factory=lambda: "queries")
    await store.close()


async def test_counts_and_rated_places(service: GameService) -> None:
    store = service.store
    done = await play(service, await started(service, "c1", "artsee", ("1", "2")), 5000)
    assert done.status == FINISHED
    await started(service, "c2", "artsee", ("1", "3"))
    await service.new_game("artsee", GUILD, "c3", "1", "One")
    await service.new_game("artsee", GUILD, "c4", "4", "Four")

    assert await store.count_games(GUILD, (ACTIVE,)) == 1
    assert await store.count_games(GUILD, (LOBBY,)) == 2
    assert await store.count_games(GUILD, OPEN_STATUSES, player="1") == 2
    assert await store.count_games(GUILD, (LOBBY,), player="4") == 1
    assert await store.count_games(GUILD, OPEN_STATUSES, player="2") == 0
    assert await store.count_games("elsewhere", OPEN_STATUSES) == 0

    assert await store.rated_places(GUILD, "artsee", "1") == [("c1", None)]
    assert await store.rated_places(GUILD, "artsee", "3") == []
    assert await store.rated_places(GUILD, "street-art", "1") == []
