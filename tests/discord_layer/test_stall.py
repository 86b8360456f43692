"""A stalled table (issue 27, item 6), through discord.py's real dispatch and the scheduler's
fake clock: a player gone for days is reminded while their clock spends vacation days, and at
the third reminder in a row with no move the host gets one message with the choices: kick to
AI, extend the clock, or abandon, each taking the service's own path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import DAY
from bot.store.base import ABANDONED
from tests.discord_layer.test_threads import (
    ANA,
    TABLE,
    WATCHER,
    settings_table,
)
from tests.discord_layer.test_vacation import clocked_game
from tests.harness import Harness, SeenMessage

pytest_plugins = ["tests.harness.fixtures"]

STALLED = "has stalled"


def stall_messages(h: Harness) -> list[SeenMessage]:
    return [m for m in h.channel_messages(h.thread(TABLE)) if STALLED in m.text()]


@pytest.mark.parametrize("choice", ["Extend the clock", "Kick to AI", "Abandon"])
async def test_three_reminders_with_no_move_ask_the_host_once(
    choice: str, harness_factory, tmp_path: Path
) -> None:
    h = await settings_table(harness_factory, tmp_path)
    _lobby, record = await clocked_game(h, "24h")
    scheduler, service = h.bot.get_cog("Scheduler"), h.bot.service
    (late,) = record.clocks
    name = "Ana" if late == str(ANA.id) else "Bo"

    async def tick_to(at: float) -> None:
        await scheduler.tick(at)
        await h.settle()

    remind_at, deadline = record.clocks[late][0], record.clocks[late][1]
    assert remind_at is not None and deadline is not None
    await tick_to(remind_at)  # the first reminder
    for _ in range(2):  # a vacation day spent, and a reminder at half of it
        await tick_to(deadline)
        deadline += DAY
        await tick_to(deadline - DAY / 2)
    (asked,) = stall_messages(h)
    assert asked.mentions == [int(ANA.id)], "the host is pinged"
    assert f"{name} has not moved through three reminders" in asked.text()
    assert [b.label for b in asked.buttons] == ["Kick to AI", "Extend the clock", "Abandon"]
    await tick_to(deadline)
    await tick_to(deadline + DAY / 2)  # a fourth reminder: no second message
    deadline += DAY
    assert len(stall_messages(h)) == 1
    assert await service.store.unsent(record.id) == []

    refused = await h.click(WATCHER, h.message(asked), label=choice)
    assert "Only the host or someone with Manage Server" in refused.ephemeral_text()
    chosen = await h.click(ANA, h.message(asked), label=choice)
    assert h.message(asked).buttons == [], "one choice: the buttons go"
    told = "\n".join(m.text() for m in chosen.public_messages)
    record = await service.get(record.id)
    if choice == "Extend the clock":
        assert record.clocks[late][1] == deadline + DAY
        assert f"{name}'s clock runs a day longer" in told
    elif choice == "Kick to AI":
        assert record.seat_of(late).ai and f"{name}'s seat was handed to an AI" in told
    else:
        assert record.status == ABANDONED and "was abandoned by Ana" in told
