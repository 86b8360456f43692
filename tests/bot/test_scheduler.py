"""The scheduler: one game's failure never stops the others, and a dead loop starts again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

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
    service: GameService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    broken, fine = await two_due_games(service)
    bot = Bot(service)
    scheduler = Scheduler(bot)  # type: ignore[arg-type]
    remind = service.claim_reminders

    async def remind_or_fail(record: Any, now: float) -> tuple[list[str], str | None]:
        if record.id == broken.id:
            raise KeyError("an engine bug")  # neither HTTPException nor ServiceError
        return await remind(record, now)

    monkeypatch.setattr(service, "claim_reminders", remind_or_fail)
    now = fine.remind_at + 1
    await scheduler.tick(now)
    assert len(bot.channels[22].sent) == 1 and "waiting for you" in bot.channels[22].sent[0]
    assert 11 not in bot.channels
    assert f"game {broken.id}" in caplog.text
    stopped = await service.get(broken.id)
    assert stopped.remind_at is None and stopped.deadline is None  # not retried every minute
    # The next tick still runs: a new move restarts the broken game's clock and it is served.
    monkeypatch.setattr(service, "claim_reminders", remind)
    await service.store.set_timers(broken.id, broken.version, now, None)
    await scheduler.tick(now + 1)
    assert len(bot.channels[11].sent) == 1


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
