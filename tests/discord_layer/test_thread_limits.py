"""Threads within Discord's limits (issue 27, item 5), through discord.py's real dispatch: a
post to an archived thread Discord will not reopen (50083) reopens it and goes in, and so does
an edit there (issue 34: Discord reopens a thread for no edit); near the
server's cap of active threads the oldest finished games' threads are archived early and the
admins told once; at the cap a new game is played in its channel, with a line saying why.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cogs import threads
from cogs.app import create_bot
from tests.backends import Backend
from tests.discord_layer.test_threads import (
    ANA,
    BO,
    CY,
    EVERYONE,
    GUILD,
    TABLE,
    WATCHER,
    open_table,
    play_out,
    record_of,
    table,
)
from tests.harness import FakeDiscord, User

pytest_plugins = ["tests.harness.fixtures"]


async def test_a_post_to_an_archived_locked_thread_reopens_it_first(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = (await h.slash(ANA, "game new", game="artsee", clock="1h")).message
    await h.click(BO, lobby, label="Join")
    await h.click(ANA, h.message(lobby), label="Start")
    record = await record_of(h, lobby)
    thread = h.thread(TABLE)
    assert h.fake.channels[thread.id]["thread_metadata"]["auto_archive_duration"] == 10080
    metadata = h.fake.channels[thread.id]["thread_metadata"]
    metadata["archived"] = metadata["locked"] = True  # Discord answers 50083 to a post now
    (late,) = record.clocks
    await h.bot.get_cog("Scheduler").tick(record.clocks[late][0])
    await h.settle()
    reminder = h.channel_messages(thread)[-1]
    assert "is waiting for you" in reminder.content
    assert not h.fake.channels[thread.id]["thread_metadata"]["archived"]
    assert await h.bot.service.store.unsent(record.id) == []


async def test_an_edit_in_an_archived_thread_reopens_it_and_is_made(
    harness_factory, backend: Backend
) -> None:
    """Discord archived the thread after a week without a post, and refuses every edit in
    it (50083): when the clock runs out and the AI's board is posted, the board it replaces
    still loses its live buttons, and the thread is open again."""
    h = await harness_factory(
        create_bot(database_url=backend.url, discord_token=""),
        FakeDiscord(),
        guild_id=GUILD,
        channels=[TABLE],
        members=EVERYONE,
    )
    lobby = (await h.slash(ANA, "game new", game="artsee", clock="1h")).message
    await h.click(BO, lobby, label="Join")
    await h.click(ANA, h.message(lobby), label="Start")
    record = await record_of(h, lobby)
    thread = h.thread(TABLE)
    (old,) = h.channel_messages(thread)
    assert "My hand" in [b.label for b in old.buttons]
    (late,) = record.clocks
    remind_at, deadline = record.clocks[late]
    assert remind_at is not None and deadline is not None
    scheduler = h.bot.get_cog("Scheduler")
    await scheduler.tick(remind_at)  # the reminder: a post that is not the game's latest
    await h.settle()
    h.fake.channels[thread.id]["thread_metadata"]["archived"] = True
    await scheduler.tick(deadline + 1)
    await h.settle()
    edits = [r for r in h.fake.requests if r.method == "PATCH" and r.path.endswith(f"/{old.id}")]
    assert [r.status for r in edits] == [400, 200]  # refused with 50083, then made
    assert edits[0].response["code"] == 50083
    labels = [b.label for b in h.message(old).buttons]
    assert "My hand" not in labels and "Board" not in labels, labels
    newest = h.channel_messages(thread)[-1]
    assert newest.id != old.id and "My hand" in [b.label for b in newest.buttons]
    assert not h.fake.channels[thread.id]["thread_metadata"]["archived"]
    assert await h.bot.service.store.unsent(record.id) == []


async def test_near_the_thread_cap_old_threads_go_first_and_at_it_games_stay_in_the_channel(
    harness_factory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(threads, "NEAR_CAP", 2)
    monkeypatch.setattr(threads, "THREAD_CAP", 3)
    h = await table(harness_factory, tmp_path)
    h.bot.service.remind_after, h.bot.service.timeout_after = None, 60.0
    service = h.bot.service

    guild = str(GUILD)

    async def start(host: User) -> str:
        """A game opened and started by ``host`` (one open game a player in a channel)."""
        nonlocal lobby
        lobby = await open_table(h, "artsee", host)
        started = await h.click(host, lobby, label="Start")
        return started.ephemeral_text()

    lobby = None
    await start(ANA)
    first = await record_of(h, lobby)
    await play_out(h, first)  # finished: its thread waits an hour for its archiving
    first = await service.get(first.id)
    assert first.archive_at is not None and await service.count_threads(guild) == 1
    await start(BO)
    assert await service.count_threads(guild) == 2
    assert "played here in the channel" not in await start(ANA)  # the finished game's thread goes
    old = h.fake.channels[int(first.thread or 0)]["thread_metadata"]
    assert old["archived"] and (await service.get(first.id)).archive_at is None
    warnings = [m for m in h.channel_messages(TABLE) if "near Discord's cap" in m.text()]
    assert len(warnings) == 1
    assert "played here in the channel" not in await start(CY)  # three now: the cap
    told = await start(WATCHER)
    assert "played here in the channel" in told and "cap of 3" in told
    assert len(h.threads(TABLE)) == 4
    warnings = [m for m in h.channel_messages(TABLE) if "near Discord's cap" in m.text()]
    assert len(warnings) == 1, "the admins are told once"
    assert time.time() < (first.archive_at or 0), "archived before its hour"
