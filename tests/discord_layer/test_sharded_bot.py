"""The bot with SHARD_COUNT/SHARD_IDS set, through discord.py's real dispatch: an
``AutoShardedBot`` that plays as the plain one does (the same command tree and its error
sentences), whose scheduler reminds the tables of its own shards and leaves the others' to
the processes that serve them."""

from __future__ import annotations

import time
from pathlib import Path

from discord.ext import commands

from bot.store.base import Shards
from cogs.app import create_bot
from tests.harness import Channel, Harness, User

pytest_plugins = ["tests.harness.fixtures"]

ANA = User(id=1001, name="ana", global_name="Ana")
BO = User(id=1002, name="bo", global_name="Bo")
TABLE = Channel(id=2001, name="games")
#: A server on shard 0 of 2 (``(id >> 22) % 2``), and one on shard 1, served elsewhere.
OURS, THEIRS = 6 << 22 | 3001, 7 << 22 | 3001
LATER = 10_000 * 3600


async def sharded(harness_factory, tmp_path: Path) -> Harness:
    bot = create_bot(
        database_url=f"sqlite:///{tmp_path / 'games.db'}",
        discord_token="",
        shard_count=2,
        shard_ids="0",
    )
    assert isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (2, [0])
    return await harness_factory(bot, guild_id=OURS, channels=[TABLE], members=[ANA, BO])


async def test_a_sharded_bot_answers_commands_and_refusals_as_the_plain_one(
    harness_factory, tmp_path: Path
) -> None:
    h = await sharded(harness_factory, tmp_path)
    refused = await h.slash(ANA, "game hand")
    assert refused.ephemeral_messages and "You are not in a game" in refused.ephemeral_text()
    lobby = (await h.slash(ANA, "game new", options={"game": "street-art"})).message
    assert not lobby.ephemeral and "Street Art" in lobby.text()
    joined = await h.click(BO, h.message(lobby), label="Join")
    assert "Bo" in h.message(lobby).text() and not joined.errors


async def test_its_scheduler_reminds_its_own_shards_only(harness_factory, tmp_path: Path) -> None:
    h = await sharded(harness_factory, tmp_path)
    scheduler = h.bot.get_cog("Scheduler")
    assert scheduler.shards == Shards(2, (0,))
    service = h.bot.service
    # The AI's timeout is tested here: no vacation days (those: test_vacation.py).
    await service.configure(str(OURS), vacation_days=0)
    ours = await service.new_game("street-art", str(OURS), str(TABLE.id), str(ANA.id), "Ana")
    await service.join(str(OURS), str(TABLE.id), str(BO.id), "Bo", ours.id)
    await service.add_ai(str(OURS), str(TABLE.id), str(ANA.id), ours.id)
    theirs = await service.new_game("street-art", str(THEIRS), "4001", "11", "Cy")
    await service.join(str(THEIRS), "4001", "12", "Di", theirs.id)
    await service.join(str(THEIRS), "4001", "13", "Ed", theirs.id)
    await service.start(ours.guild, ours.channel, ours.host, ours.id)
    waiting = (await service.start(theirs.guild, theirs.channel, theirs.host, theirs.id)).record
    before = len(h.channel_messages(TABLE))

    await scheduler.tick(time.time() + LATER)  # every clock has run out
    await h.settle()
    posted = h.channel_messages(TABLE)[before:]
    assert any("Time ran out for" in m.text() for m in posted), [m.text() for m in posted]
    # The other shard's game is its own process's to time out: untouched here.
    left = await service.get(theirs.id)
    assert (left.version, left.clocks) == (waiting.version, waiting.clocks)
    assert await service.store.actions(theirs.id) == []
