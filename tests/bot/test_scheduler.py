"""The scheduler: one game's failure never stops the others, and a dead loop starts again."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import outbox
from bot.service import GameService
from bot.store import SqliteStore
from cogs.scheduler import Scheduler
from tests.backends import Backend
from tests.store.damaged_files import history, leaf, zero
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
    service: GameService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The net under the net: a tick that fails all the same ends the loop's task, whose
    exception is taken (so asyncio never reports it as never retrieved), and it starts again."""
    scheduler = Scheduler(Bot(service))  # type: ignore[arg-type]
    scheduler.restart_seconds = 0
    ticks: list[float] = []
    ticked_again = asyncio.Event()

    async def tick(now: float) -> None:
        ticks.append(now)
        if len(ticks) == 1:
            raise RuntimeError("a bug outside every step of the tick")
        ticked_again.set()

    monkeypatch.setattr(scheduler, "tick", tick)
    scheduler.every_minute.change_interval(seconds=3600)
    await scheduler.cog_load()
    try:
        await asyncio.wait_for(ticked_again.wait(), GUARD_SECONDS)
        assert len(ticks) == 2 and scheduler.every_minute.is_running()
    finally:
        await scheduler.cog_unload()
    await never_retrieved_said(caplog)


async def test_a_failing_query_never_stops_the_loop(
    service: GameService,
    backend: Backend,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A real query that fails (its table gone from the database), in the start-up step and
    in every tick: each failure is logged, and the loop ticks on and runs the tick's other
    steps."""
    scheduler = Scheduler(Bot(service))  # type: ignore[arg-type]
    scheduler.every_minute.change_interval(seconds=0.01)
    timed_out: list[float] = []
    three_ticks = asyncio.Event()
    due = service.due

    async def counted(now: float, shards: object = None) -> list:
        timed_out.append(now)  # the last step of a tick: the ones before it went on
        if len(timed_out) == 3:
            three_ticks.set()
        return await due(now, None)

    monkeypatch.setattr(service, "due", counted)
    await backend.execute("ALTER TABLE processes RENAME TO processes_gone")
    try:
        await scheduler.cog_load()
        try:
            await asyncio.wait_for(three_ticks.wait(), GUARD_SECONDS)
            assert scheduler.every_minute.is_running()
        finally:
            await scheduler.cog_unload()
    finally:
        await backend.execute("ALTER TABLE processes_gone RENAME TO processes")
    failed = [r for r in caplog.records if "announcing this process failed" in r.message]
    assert len(failed) >= 3 and "processes" in failed[0].message  # one line each, the cause
    await never_retrieved_said(caplog)


async def never_retrieved_said(caplog: pytest.LogCaptureFixture) -> None:
    """Whether asyncio reported a task whose exception nobody took (it says so when the task
    is collected)."""
    gc.collect()
    await asyncio.sleep(0)
    assert "never retrieved" not in caplog.text


async def test_a_reminders_lease_runs_from_the_ticks_now(
    backend: Backend, service: GameService
) -> None:
    """The front door's first go at a reminder's post lasts ``FRONT_LEASE`` from the time the
    tick reminds at, the one every other time of the claim is reckoned from."""
    record = await started(service, "33", players=("331", "332", "333"))
    assert record.remind_at is not None
    now = record.remind_at + 86400.0  # a tick a day late (the machine slept, say)
    users, key = await service.claim_reminders(record, now)
    assert users and key is not None
    lease = await backend.fetchval("SELECT lease_until FROM outbox WHERE key = ?", key)
    assert lease == now + outbox.FRONT_LEASE


async def test_a_damaged_store_is_told_once_not_at_every_tick(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A page of the file zeroed deep in a table, found by the background check: the log
    says so once, with the restore steps, and the ticks that follow (which the damaged
    store refuses to write) add no error of their own."""
    path = tmp_path / "games.db"
    await history(path)
    zero(path, leaf(path, "games"))
    store = SqliteStore(path)
    await store.open()
    try:
        await store.watch(pause=0)
        scheduler = Scheduler(Bot(GameService(store)))  # type: ignore[arg-type]
        for minute in range(3):
            await scheduler.tick(time.time() + 60 * minute)
    finally:
        await store.close()
    errors = [r.message for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "is damaged" in errors[0] and "backup" in errors[0]
