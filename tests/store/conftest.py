"""The store suite's ``store``: an opened store on this test's ``backend`` (SQLite, then
PostgreSQL), closed afterwards."""

from collections.abc import AsyncIterator

import pytest

from bot.store import Store
from tests.backends import Backend


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    opened = await backend.opened()
    yield opened
    await opened.close()
