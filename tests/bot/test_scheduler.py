"""The scheduler: one game's failure never stops the others, and a dead loop starts again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot import outbox
from bot.service import GameService
from cogs.scheduler import Scheduler
from tests.backends import Backend
from tests.store.games import started

#: Not a timing assertion: a guard so that a loop that never comes back fails the test.
GUARD_SECONDS = 30


class Channel:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, content: str | None = None, **_: Any) -> None:
        self.sent.append(content or "")


class Bot:
    """What the scheduler uses of the bot: its service, readiness, channels and servers."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.channels: dict[int, Channel] = {}

    async def wait_until_ready(self) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, **_: Any) -> Channel:
        return self.channels.setdefault(channel_id, Channel())

    def get_guild(self, guild_id: int) -> None:
        """No server is cached: public posts fall back to the default language."""
        return None


@pytest.fixture
async def service(backend: Backend) -> AsyncIterator[GameService]:
    store = await backend.opened()
    yield GameService(store, seed_factory=lambda: "clock", remind_after=60, timeout_after=600)
    await store.close()


async def two_due_games(service: GameService) -> list:
    return [
        await started(service, channel, players=(f"{channel}1", f"{channel}2", f"{channel}3"))
        for channel in ("11", "22")
    ]


async def test_a_failing_game_is_logged_and_the_others_are_still_reminded(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    """A reminder needs no engine (only the game's clocks), so what can fail is its post:
    that game's reminder stays owed in the outbox, for the delivery worker, and the other
    games are reminded all the same, each once."""
    broken, fine = await two_due_games(service)
    bot = Bot(service)
    scheduler = Scheduler(bot)  # type: ignore[arg-type]

    async def fail(content: str | None = None, **_: Any) -> None:
        raise KeyError("a bug in one game's post")  # neither HTTPException nor ServiceError

    bot.get_partial_messageable(int(broken.channel)).send = fail  # type: ignore[method-assign]
    now = fine.remind_at + 1
    await scheduler.tick(now)
    assert len(bot.channels[22].sent) == 1 and "waiting for you" in bot.channels[22].sent[0]
    assert f"game {broken.id}" in caplog.text
    owed = [r for r in await service.store.unsent(broken.id) if r.kind == outbox.REMINDER]
    assert len(owed) == 1  # not lost: the delivery worker sends it
    await scheduler.tick(now + 1)  # claimed once: no tick reminds either game again
    assert len(bot.channels[22].sent) == 1


async def test_the_loop_starts_again_after_it_dies(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    await two_due_games(service)
    scheduler = Scheduler(Bot(service))  # type: ignore[arg-type]
    scheduler.restart_seconds = 0
    ticks: list[float] = []
    ticked_again = asyncio.Event()

    async def due(now: float, shards: object = None) -> list:
        ticks.append(now)
        if len(ticks) == 1:
            raise RuntimeError("the store went away for a moment")
        ticked_again.set()
        return []

    monkeypatch.setattr(service, "due", due)
    scheduler.every_minute.change_interval(seconds=3600)
    await scheduler.cog_load()
    try:
        await asyncio.wait_for(ticked_again.wait(), GUARD_SECONDS)
        assert len(ticks) == 2 and scheduler.every_minute.is_running()
    finally:
        await scheduler.cog_unload()
