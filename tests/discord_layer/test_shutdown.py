"""A graceful stop (issue 22), in-process through discord.py's real dispatch: once a stop is
asked (what SIGTERM and SIGINT do), a new interaction is told the bot is restarting, the one in
flight finishes and posts its board, then the store closes with every write in it."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

from bot.store import open_store
from bot.store.base import ACTIVE
from tests.discord_layer.test_threads import ANA, BO, TABLE, boards, game_id, open_table, table
from tests.harness import Harness, User, payloads

pytest_plugins = ["tests.harness.fixtures"]


def new_interaction(h: Harness, user: User, command: str) -> dict[str, Any]:
    """The INTERACTION_CREATE of ``/command`` by ``user`` in the table's channel (what
    ``Harness.slash`` sends), to deliver while another interaction is in flight."""
    where = h.channel(TABLE)
    data = payloads.command_data(h.fake, h.world, h.catalogue, command, {}, where.id)
    record = h.fake.new_interaction(
        type=2, user=user, channel_id=where.id, guild_id=h.world.guild_id, name=command
    )
    payload = payloads.interaction_base(h.fake, h.world, record, where)
    payload["data"] = data
    return payload


async def test_a_stop_finishes_the_interactions_in_flight_and_refuses_new_ones(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO, thread=False)
    service = h.bot.service
    start = service.start

    async def slow_start(*args: Any, **kwargs: Any) -> Any:
        """The start is in flight when the stop comes, and another player clicks then."""
        h.bot.drain.stop(signal.SIGTERM.name)
        await h.dispatch_gateway("INTERACTION_CREATE", new_interaction(h, BO, "game board"))
        await asyncio.sleep(0.5)  # the store is slow today
        return await start(*args, **kwargs)

    service.start = slow_start  # type: ignore[method-assign]
    started = await h.slash(ANA, "game start")
    assert h.bot.drain.stopped is not None
    await h.bot.drain.stopped
    figures = h.bot.drain.figures
    assert figures["finished"] == 1 and figures["cut_short"] == 0 and figures["refused"] == 1
    assert figures["seconds"] < 20
    assert started.acknowledged and len(boards(h.fake.channel_messages(TABLE.id))) == 1
    told = [m.snapshot() for m in h.fake.messages.values()]
    told = [m for m in told if "restarting" in m.text()]
    assert len(told) == 1 and told[0].ephemeral and told[0].visible_to == BO.id
    assert h.bot.store is None and h.bot.is_closed()
    print(f"stop: {figures}")
    store = open_store(f"sqlite:///{tmp_path / 'games.db'}")
    await store.open()
    try:
        record = await store.get_game(game_id(lobby))
        assert record is not None and record.status == ACTIVE
        assert await store.unsent(record.id) == []  # nothing acknowledged was lost
    finally:
        await store.close()
