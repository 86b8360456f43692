"""Two bot processes over one store (issue 16, sharded processes): each has its own service,
its own scheduler and its own connection to the database, and serves a disjoint range of
shards. Every reminder and timeout is sent by exactly one of them, and two moves racing on one
game from both processes are applied once (the store's compare-and-swap decides).

Two stores on one database are what two processes see of it (separate connections: SQLite's
own locking between them, or PostgreSQL's row locks). ``open_process_store`` is the one place
that knows the backend: the shared ``backend`` fixture (ids ``sqlite``/``postgres``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.ui import TextDisplay

from bot.ai import RandomAgent, decide_in_thread
from bot.errors import StaleRequest
from bot.read_model import turn_version
from bot.service import GameService
from bot.store.base import GameRecord, Shards, Store
from cogs.scheduler import Scheduler
from tests.backends import Backend
from tests.bot import test_scheduler

SHARD_COUNT = 2
#: The two processes' shard ranges: disjoint, and together every shard.
RANGES = ((0,), (1,))
REMIND_AFTER, TIMEOUT_AFTER = 60.0, 600.0

OpenStore = Callable[[], Awaitable[Store]]


class Channel(test_scheduler.Channel):
    """A channel of one process's Discord connection: the text of what was posted in it."""

    def __init__(self, channel_id: int) -> None:
        super().__init__()
        self.id = channel_id

    async def send(  # type: ignore[override]
        self, content: str | None = None, view: discord.ui.View | None = None, **_: Any
    ) -> SimpleNamespace:
        """Keeps the post's text (its content, or the text displays of its V2 layout) and
        answers with the message the scheduler remembers."""
        items = list(view.walk_children()) if view is not None else []
        shown = [item.content for item in items if isinstance(item, TextDisplay)]
        self.sent.append("\n".join([content or "", *shown]))
        return SimpleNamespace(channel=self, id=len(self.sent))


class Bot(test_scheduler.Bot):
    """One process's bot, as the scheduler uses it, whose posts answer with a message."""

    channels: dict[int, Channel]  # type: ignore[assignment]

    def get_partial_messageable(self, channel_id: int, **_: Any) -> Channel:
        return self.channels.setdefault(channel_id, Channel(channel_id))


@pytest.fixture
async def open_process_store(backend: Backend) -> AsyncIterator[OpenStore]:
    """Opens one more process's view of this test's database (closed after the test)."""
    opened: list[Store] = []

    async def open_one() -> Store:
        store = await backend.opened()
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        await store.close()


def guild_on(shard: int, n: int) -> str:
    """A server id (a snowflake) whose shard of ``SHARD_COUNT`` is ``shard``."""
    return str(((shard + SHARD_COUNT * (n + 1)) << 22) | (4321 + n))


async def processes(open_process_store: OpenStore) -> list[GameService]:
    return [
        GameService(
            await open_process_store(),
            seed_factory=lambda: "two-processes",
            remind_after=REMIND_AFTER,
            timeout_after=TIMEOUT_AFTER,
        )
        for _ in RANGES
    ]


async def started(service: GameService, guild: str, channel: str) -> GameRecord:
    players = [f"{channel}{n}" for n in range(3)]  # user ids, which a reminder mentions
    record = await service.new_game("street-art", guild, channel, players[0], "P0")
    for n, player in enumerate(players[1:], 1):
        await service.join(guild, channel, player, f"P{n}", record.id)
    return (await service.start(guild, channel, players[0], record.id)).record


async def test_each_reminder_and_timeout_is_sent_by_exactly_one_process(
    open_process_store: OpenStore, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = await processes(open_process_store)
    # Games on both shards, opened from either process: where a game was created is no
    # matter, only the shard of its server.
    games = [
        await started((first, second)[n // 2], guild_on(n % SHARD_COUNT, n), str(100 + n))
        for n in range(4)
    ]
    assert {Shards(SHARD_COUNT, (0,)).owns(g.guild) for g in games} == {True, False}
    bots = [Bot(first), Bot(second)]
    schedulers = [
        Scheduler(bot, Shards(SHARD_COUNT, ids))  # type: ignore[arg-type]
        for bot, ids in zip(bots, RANGES, strict=True)
    ]

    def sent(text: str) -> dict[str, list[int]]:
        """For each game, which processes (0, 1) posted ``text`` in its channel."""
        return {
            g.id: [
                i
                for i, bot in enumerate(bots)
                if int(g.channel) in bot.channels
                for message in bot.channels[int(g.channel)].sent
                if text in message
            ]
            for g in games
        }

    every_reminder = max(g.remind_at or 0 for g in games)
    assert every_reminder < min(g.deadline or 0 for g in games)
    await asyncio.gather(*(s.tick(every_reminder + 1) for s in schedulers))
    reminded = sent("is waiting for you")
    owner = {g.id: 0 if Shards(SHARD_COUNT, RANGES[0]).owns(g.guild) else 1 for g in games}
    assert reminded == {g.id: [owner[g.id]] for g in games}

    every_deadline = max(g.deadline or 0 for g in games)
    await asyncio.gather(*(s.tick(every_deadline + 1) for s in schedulers))
    timed_out = sent("Time ran out")
    assert timed_out == {g.id: [owner[g.id]] for g in games}
    assert "could not" not in caplog.text  # no process lost a race and logged it


async def test_racing_moves_on_one_game_from_both_processes_are_applied_once(
    open_process_store: OpenStore,
) -> None:
    first, second = await processes(open_process_store)
    record = await started(first, guild_on(0, 0), "300")
    before = len(await first.store.actions(record.id))
    player = first.to_move(record)[0]
    action = RandomAgent("race").choose(first.engine(record), first.state(record), player)
    # Both processes read the game and apply the move before either writes it: neither has
    # seen the other's move when it commits, so only the compare-and-swap can keep it single.
    barrier = asyncio.Barrier(2)
    for service in (first, second):
        hold_first_commit(service, barrier)

    async def click(service: GameService) -> Any:
        try:
            return await service.move(
                record.guild,
                record.channel,
                player,
                action,
                ref=record.id,
                expected_version=turn_version(record),
            )
        except StaleRequest as refused:
            return refused

    outcomes = await asyncio.gather(click(first), click(second))
    refused = [o for o in outcomes if isinstance(o, StaleRequest)]
    assert len(refused) == 1, outcomes
    after = await second.store.actions(record.id)  # every seat is human: no AI moves after
    assert [(a.player, a.action) for a in after[before:]] == [(player, action)]
    stored = await second.store.get_game(record.id)
    assert stored is not None and stored.version == refused[0].record.version


def hold_first_commit(service: GameService, barrier: asyncio.Barrier) -> None:
    """Make the service's first ``commit_move`` wait until the other process reached its own."""
    store: Any = service.store
    commit = store.commit_move
    waited = False

    async def commit_move(*args: Any, **kwargs: Any) -> int:
        nonlocal waited
        if not waited:
            waited = True
            await barrier.wait()
        return await commit(*args, **kwargs)

    store.commit_move = commit_move


async def test_the_process_that_loses_a_timeout_race_says_so_in_one_info_line(
    open_process_store: OpenStore, caplog: pytest.LogCaptureFixture
) -> None:
    """Two processes that both serve a game (overlapping shards) time it out at once: both
    read it, both ask its AI, and the store's compare-and-swap lets one commit. Losing that
    race is normal: an INFO line, no ERROR with a traceback, and the table told once."""
    caplog.set_level(logging.INFO, logger="bot.service")
    asked: list[str] = []
    both_asked = asyncio.Event()

    async def decide(*args: Any) -> dict[str, Any]:
        """The AI's decision, once both processes are deciding (each has read the game)."""
        asked.append(args[4])
        if len(asked) == 2:
            both_asked.set()
        await both_asked.wait()
        return await decide_in_thread(*args)

    services = [
        GameService(
            await open_process_store(),
            seed_factory=lambda: "race",
            remind_after=REMIND_AFTER,
            timeout_after=TIMEOUT_AFTER,
            decide=decide,
        )
        for _ in RANGES
    ]
    game = await started(services[0], guild_on(0, 0), "100")
    bots = [Bot(service) for service in services]
    schedulers = [Scheduler(bot, None) for bot in bots]  # type: ignore[arg-type]
    assert game.deadline is not None
    await asyncio.gather(*(s.tick(game.deadline + 1) for s in schedulers))
    posts = [m for bot in bots for c in bot.channels.values() for m in c.sent]
    assert len([m for m in posts if "Time ran out" in m]) == 1
    assert [r.message for r in caplog.records if r.levelno >= logging.ERROR] == []
    lost = [r for r in caplog.records if "another process" in r.message]
    assert len(lost) == 1 and lost[0].levelno == logging.INFO and not lost[0].exc_info
