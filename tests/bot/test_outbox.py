"""The outbox (issue 22) over one database seen by two processes (both backends): the posts
a change owes are written with it, claimed by one worker at a time, in order per game, and
two schedulers whose shards overlap send each reminder once."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot import outbox
from bot.store.base import Shards
from cogs.scheduler import Scheduler
from tests.bot.test_two_processes import (
    RANGES,
    SHARD_COUNT,
    Bot,
    OpenStore,
    guild_on,
    open_process_store,  # noqa: F401 (a fixture)
    processes,
    started,
)

LATER = 10 * outbox.FRONT_LEASE


async def test_a_move_owes_its_post_and_one_worker_claims_it(
    open_process_store: OpenStore,  # noqa: F811
) -> None:
    first, second = await processes(open_process_store)
    games = [await started(first, guild_on(0, n), str(500 + n)) for n in range(3)]
    # A start owes its first board; nobody posted it (no front door here).
    assert [len(await first.store.unsent(g.id)) for g in games] == [1, 1, 1]
    assert await second.store.outbox_pending() == 3  # the tabletop_outbox_pending metric
    record = games[0]
    for _move in range(3):
        player = first.to_move(record)[0]
        action = first.legal(record, player)[0]
        record = (await first.move(record.guild, record.channel, player, action)).record
    owed = await second.store.unsent(games[0].id)
    assert owed[0].kind == outbox.START and len(owed) >= 2
    assert [r.seq for r in owed] == sorted(r.seq for r in owed)
    # Within the front door's lease, no worker takes them.
    now = time.time()
    assert await second.store.claim_outbox("w2", now, 30, 100) == []
    # Later, two workers race: each game's oldest row goes to exactly one of them.
    claims = await asyncio.gather(
        first.store.claim_outbox("w1", now + LATER, 30, 100),
        second.store.claim_outbox("w2", now + LATER, 30, 100),
    )
    keys = [r.key for claim in claims for r in claim]
    assert len(keys) == len(set(keys)) == 3
    assert {r.game_id for claim in claims for r in claim} == {g.id for g in games}
    first_of_game = next(r for claim in claims for r in claim if r.game_id == record.id)
    assert first_of_game.key == owed[0].key and first_of_game.attempts == 1
    # Held: nobody claims the game's next row before the first is sent.
    assert await first.store.claim_outbox("w3", now + LATER, 30, 100) == []
    await second.store.outbox_sent(first_of_game.key, "1", "2")
    (following,) = await first.store.claim_outbox("w3", now + LATER, 30, 100)
    assert following.key == owed[1].key
    # A row given back is claimable again from its retry time, and counts its tries.
    await first.store.release_owed(following.key, "w3", now + LATER + 5)
    assert await first.store.claim_outbox("w4", now + LATER, 30, 100) == []
    (again,) = await second.store.claim_outbox("w4", now + LATER + 5, 30, 100)
    assert again.key == following.key and again.attempts == 2


async def test_overlapping_shards_still_remind_each_table_once(
    open_process_store: OpenStore,  # noqa: F811
) -> None:
    first, second = await processes(open_process_store)
    games = [
        await started((first, second)[n % 2], guild_on(n % SHARD_COUNT, n), str(700 + n))
        for n in range(8)
    ]
    bots = [Bot(first), Bot(second)]
    everything = Shards(SHARD_COUNT, (*RANGES[0], *RANGES[1]))  # both serve every shard
    schedulers = [Scheduler(bot, everything) for bot in bots]  # type: ignore[arg-type]
    every_reminder = max(g.remind_at or 0 for g in games)
    await asyncio.gather(*(s.tick(every_reminder + 1) for s in schedulers))
    posted = [
        text
        for bot in bots
        for channel in bot.channels.values()
        for text in channel.sent
        if "is waiting for you" in text
    ]
    assert len(posted) == len(games)  # each once, whichever process won the claim
    unsent = [r for g in games for r in await second.store.unsent(g.id)]
    assert [r for r in unsent if r.kind == outbox.REMINDER] == []  # each marked sent


async def test_overlapping_shards_are_warned_of_once_naming_the_other_process(
    open_process_store: OpenStore,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    first, second = await processes(open_process_store)
    now = time.time()
    apart = [
        Scheduler(Bot(service), Shards(SHARD_COUNT, ids))  # type: ignore[arg-type]
        for service, ids in zip((first, second), RANGES, strict=True)
    ]
    for scheduler in apart:
        await scheduler.announce(now)
    assert "overlap" not in caplog.text  # disjoint ranges: no warning
    everything = Scheduler(Bot(second), Shards(SHARD_COUNT, (0, 1)))  # type: ignore[arg-type]
    await everything.announce(now + 1)
    await everything.announce(now + 2)  # the next tick: no second warning
    warnings = [r.getMessage() for r in caplog.records if "overlap" in r.getMessage()]
    assert len(warnings) == 1 and first.holder in warnings[0]


def test_row_keys_are_sixteen_hex_digits_and_never_repeat_in_a_burst() -> None:
    keys = [outbox.new_key() for _ in range(10_000)]
    assert len(set(keys)) == len(keys)
    assert all(len(key) == 16 and int(key, 16) >= 0 for key in keys)
