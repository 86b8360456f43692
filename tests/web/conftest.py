"""The web table's fixtures: a service on each backend, the web app over it, and a game whose
table is public (as the Discord layer records it when everyone may view its channel)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import GameService
from bot.store.base import GameRecord
from bot.store.web_tables import WebTable
from tests.backends import Backend
from web.app import create_app
from web.links import Links, public_id
from web.ratelimit import RateLimit

GUILD, CHANNEL = "4242", "777"
ANA, BO = "101", "102"
#: A name that would run a script if any page forgot to escape it.
EVIL = '<script>alert("x")</script>Ana'
SECRET = b"test web secret"


@dataclass
class Web:
    service: GameService
    client: TestClient
    links: Links

    async def public_game(
        self, game: str = "street-art", *, ai: int = 1, public: bool = True
    ) -> GameRecord:
        """A started game of ``game``: Ana (a name to escape) and Bo, then ``ai`` AI seats;
        its web row recorded as public (or not)."""
        service = self.service
        record = await service.new_game(game, GUILD, CHANNEL, ANA, EVIL)
        await service.join(GUILD, CHANNEL, BO, "Bo", record.id)
        for _n in range(ai):
            await service.add_ai(GUILD, CHANNEL, ANA, record.id)
        record = (await service.start(GUILD, CHANNEL, ANA, record.id)).record
        await service.store.save_web_table(
            WebTable(record.id, public_id(SECRET, record.id), public)
        )
        return record

    def table(self, record: GameRecord) -> str:
        return f"/g/{public_id(SECRET, record.id)}"


@pytest.fixture
async def web(backend: Backend) -> AsyncIterator[Web]:
    store = await backend.opened()
    service = GameService(store, seed_factory=lambda: "web-seed")
    app = create_app(service, SECRET, limit=RateLimit(burst=10_000, per_second=10_000))
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        yield Web(service, client, Links(str(client.make_url("")).rstrip("/"), SECRET))
    finally:
        await client.close()
        await store.close()
