"""A table's public flag follows Discord (issue 35): when its channel is made private, or the
server's @everyone role loses View Channel, the gateway's event is enough for its pages to
answer 404 within seconds and for its open live-page streams to end; no move is needed (a
finished game would never have one)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
import discord

from tests.discord_layer.test_web_links import GUILD, TABLE, started
from tests.harness import Harness
from tests.harness.models import DEFAULT_MEMBER_PERMISSIONS
from tests.harness.payloads import role_json
from web.links import public_id

pytest_plugins = ["tests.harness.fixtures"]


async def channel_made_private(h: Harness) -> None:
    view = discord.Permissions(view_channel=True).value
    private = dataclasses.replace(TABLE, overwrites=((GUILD, 0, 0, view),))
    await h.dispatch_gateway("CHANNEL_UPDATE", h.world.channel_json(private, h.world.owner_id))


async def everyone_loses_view_channel(h: Harness) -> None:
    hidden = discord.Permissions(DEFAULT_MEMBER_PERMISSIONS.value)
    hidden.view_channel = False
    role = role_json(GUILD, "@everyone", hidden.value, 0)
    await h.dispatch_gateway("GUILD_ROLE_UPDATE", {"guild_id": str(GUILD), "role": role})


async def hidden_within(url: str, seconds: float = 30) -> float:
    """Seconds until ``url`` answers 404 (it must within ``seconds``)."""
    started_at = time.monotonic()
    async with aiohttp.ClientSession() as session:
        while time.monotonic() - started_at < seconds:
            async with session.get(url) as response:
                if response.status == 404:
                    return time.monotonic() - started_at
            await asyncio.sleep(0.05)
    raise AssertionError(f"{url} was still shown after {seconds} s")


async def check_hidden_by(
    harness_factory: object, tmp_path: Path, hide: Callable[[Harness], Awaitable[None]]
) -> float:
    h, _board, base = await started(harness_factory, tmp_path)
    (record,) = await h.bot.service.store.games_in_channel(str(GUILD), str(TABLE.id))
    door_secret = h.bot.settings.web_secret.encode()
    page = f"{base}/g/{public_id(door_secret, record.id)}"
    async with aiohttp.ClientSession() as session:
        for _attempt in range(100):  # the bot records the table just after the start
            async with session.get(page) as response:
                if response.status == 200:
                    break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the table never became public")
        stream = await session.get(f"{page}/events")
        assert stream.status == 200
        while (await asyncio.wait_for(stream.content.readline(), 10)).strip():
            pass  # the first event: the version now
        await hide(h)
        seconds = await hidden_within(page)
        # The open stream ends on its own (the page's script then finds the 404).
        rest = await asyncio.wait_for(stream.content.read(), 30)
        assert b"data:" not in rest
        stream.close()
    print(f"channel made private -> 404 in {seconds:.2f} s")
    return seconds


async def test_a_channel_made_private_hides_its_table_and_ends_its_streams(
    harness_factory, tmp_path: Path
) -> None:
    await check_hidden_by(harness_factory, tmp_path, channel_made_private)


async def test_everyone_losing_view_channel_hides_the_table(
    harness_factory, tmp_path: Path
) -> None:
    await check_hidden_by(harness_factory, tmp_path, everyone_loses_view_channel)
