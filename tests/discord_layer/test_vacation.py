"""Vacation days (issue 27, item 4), through discord.py's real dispatch and the scheduler's
fake clock: a late seat's clock spends one of the player's days a year on the server and runs a
day longer, the table is told who is on vacation and until when, and once the days are spent
the AI decides as before. `/game away until:` plans an absence the table sees.
"""

from __future__ import annotations

import datetime
import time
from pathlib import Path

from bot.service import DAY
from bot.store.base import GameRecord
from tests.discord_layer.test_threads import ANA, BO, MOD, TABLE, record_of, settings_table
from tests.harness import Harness, SeenMessage

pytest_plugins = ["tests.harness.fixtures"]


async def clocked_game(h: Harness, clock: str) -> tuple[SeenMessage, GameRecord]:
    """Ana's game of ArtSee with Bo on ``clock``, started: its lobby message and the game."""
    lobby = (await h.slash(ANA, "game new", game="artsee", clock=clock)).message
    await h.click(BO, lobby, label="Join")
    await h.click(ANA, h.message(lobby), label="Start")
    return lobby, await record_of(h, lobby)


async def test_a_late_clock_spends_vacation_days_until_none_are_left(
    harness_factory, tmp_path: Path
) -> None:
    h = await settings_table(harness_factory, tmp_path)
    configured = await h.slash(MOD, "game config", vacation_days=2)
    assert "vacation_days: **2**" in configured.ephemeral_text()
    _lobby, record = await clocked_game(h, "24h")
    thread = h.thread(TABLE)
    scheduler, service = h.bot.get_cog("Scheduler"), h.bot.service
    (late,) = record.clocks
    name = "Ana" if late == str(ANA.id) else "Bo"
    deadline = record.clocks[late][1]
    assert deadline is not None

    for spent in (1, 2):
        await scheduler.tick(deadline)
        await h.settle()
        record = await service.get(record.id)
        assert record.clocks[late][1] == deadline + DAY, "a day longer, not the AI's move"
        deadline += DAY
        told = h.channel_messages(thread)[-1]
        assert f"{name}'s time ran out: a vacation day was spent" in told.text()
        assert f"<t:{int(deadline)}:f>" in told.text()
        year = time.gmtime().tm_year
        assert await service.store.vacation_days_spent(record.guild, late, year) == spent
        status = await h.slash(ANA, "game status", channel=thread)
        assert f"{name} is on vacation until <t:{int(deadline)}:f>" in status.ephemeral_text()
        assert await service.store.unsent(record.id) == []

    await scheduler.tick(deadline)  # none left: the AI decides, as before
    await h.settle()
    (posted,) = [m for m in h.channel_messages(thread) if "Time ran out for" in m.text()]
    assert posted.files.get("board.png")
    record = await service.get(record.id)
    assert late not in record.clocks or record.clocks[late][1] != deadline + DAY
    assert "on vacation" not in posted.text()


async def test_away_until_plans_an_absence_the_whole_table_sees(
    harness_factory, tmp_path: Path
) -> None:
    h = await settings_table(harness_factory, tmp_path)
    lobby = (await h.slash(ANA, "game new", game="artsee")).message
    await h.click(BO, lobby, label="Join")
    await h.click(ANA, h.message(lobby), label="Start")
    thread = h.thread(TABLE)
    bad = await h.slash(BO, "game away", until="2020-01-01", channel=thread)
    assert "from tomorrow to a year ahead" in bad.ephemeral_text()
    day = datetime.datetime.now(datetime.UTC).date() + datetime.timedelta(days=5)
    until = int(datetime.datetime.combine(day, datetime.time(), datetime.UTC).timestamp())
    planned = await h.slash(BO, "game away", until=day.isoformat(), channel=thread)
    (told,) = [m for m in planned.public_messages if "Bo is on vacation until" in m.text()]
    assert told.channel_id == thread.id and "14 left this year" in told.text()
    assert f"<t:{until}:f>" in told.text()
    record = await record_of(h, lobby)
    assert not record.seat_of(str(BO.id)).away, "the seat stays Bo's"
    status = await h.slash(ANA, "game status", channel=thread)
    assert f"Bo is on vacation until <t:{until}:f>" in status.ephemeral_text()
    back = await h.slash(BO, "game away", back=True, channel=thread)
    assert any("Bo is back" in m.text() for m in back.public_messages)
    status = await h.slash(ANA, "game status", channel=thread)
    assert "on vacation" not in status.ephemeral_text()


async def test_a_game_on_a_clock_shorter_than_a_day_spends_no_vacation_day(
    harness_factory, tmp_path: Path
) -> None:
    h = await settings_table(harness_factory, tmp_path)
    _lobby, record = await clocked_game(h, "1h")
    (late,) = record.clocks
    await h.bot.get_cog("Scheduler").tick(record.clocks[late][1])
    await h.settle()
    assert "Time ran out for" in h.channel_messages(h.thread(TABLE))[-1].text()
    year = time.gmtime().tm_year
    assert await h.bot.service.store.vacation_days_spent(record.guild, late, year) == 0
