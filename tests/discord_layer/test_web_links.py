"""The web table from Discord (issue 26), through discord.py's real dispatch: a board post in a
channel everyone can view links the game's public page, a hand panel links that player's own
page, and a game in a channel @everyone cannot view gets no public page."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp
import discord

from cogs.app import create_bot
from tests.harness import Channel, FakeDiscord, Harness, SeenMessage, User
from tests.harness.models import DEFAULT_MEMBER_PERMISSIONS

pytest_plugins = ["tests.harness.fixtures"]

ANA = User(id=1001, name="ana", global_name="Ana")
BO = User(id=1002, name="bo", global_name="Bo")
TABLE = Channel(id=2026, name="web-table")
GUILD = 3026


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def started(
    harness_factory,
    tmp_path: Path,
    everyone: discord.Permissions = DEFAULT_MEMBER_PERMISSIONS,
    *,
    thread: bool = False,
) -> tuple[Harness, SeenMessage, str]:
    """A started two-player game in a bot whose web table listens on a free port."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    bot = create_bot(
        database_url=f"sqlite:///{tmp_path / 'games.db'}",
        discord_token="",
        web_port=port,
        web_base_url=base,
        web_secret="discord-layer test",
    )
    h = await harness_factory(
        bot,
        FakeDiscord(),
        guild_id=GUILD,
        channels=[TABLE],
        members=[ANA, BO],
        everyone_permissions=everyone,
    )
    lobby = (await h.slash(ANA, "game new", game="street-art", thread=thread)).message
    await h.click(BO, h.message(lobby), label="Join")
    await h.click(ANA, h.message(lobby), label="Add AI")
    board = (await h.click(ANA, h.message(lobby), label="Start")).public_messages[-1]
    return h, board, base


async def status_of(url: str) -> tuple[int, str]:
    """The page's status once the bot has recorded the game (it does so just after a change)."""
    async with aiohttp.ClientSession() as session:
        for _attempt in range(40):
            async with session.get(url) as response:
                if response.status != 404:
                    return response.status, await response.text()
            await asyncio.sleep(0.05)
        return 404, ""


async def test_a_public_game_links_its_page_and_each_hand_its_own(
    harness_factory, tmp_path: Path
) -> None:
    h, board, base = await started(harness_factory, tmp_path)
    links = [b for b in board.buttons if b.label == "Web table"]
    assert len(links) == 1 and links[0].url is not None
    assert links[0].url.startswith(f"{base}/g/") and links[0].custom_id is None
    status, page = await status_of(links[0].url)
    assert status == 200 and "Street Art" in page and "Ana" in page
    panel = (await h.click(ANA, board, label="My hand")).message
    hand = [b for b in panel.buttons if b.label == "Open on the web"]
    assert len(hand) == 1 and hand[0].url is not None and hand[0].url.startswith(f"{base}/h/")
    status, page = await status_of(hand[0].url)
    assert status == 200 and "Only you can see this page." in page


async def test_a_game_in_its_own_public_thread_links_its_page(
    harness_factory, tmp_path: Path
) -> None:
    _h, board, base = await started(harness_factory, tmp_path, thread=True)
    (link,) = [b for b in board.buttons if b.label == "Web table"]
    assert link.url is not None and link.url.startswith(f"{base}/g/")
    status, _page = await status_of(link.url)
    assert status == 200


async def test_a_game_everyone_cannot_view_has_no_public_page(
    harness_factory, tmp_path: Path
) -> None:
    hidden = discord.Permissions(DEFAULT_MEMBER_PERMISSIONS.value)
    hidden.view_channel = False
    h, board, base = await started(harness_factory, tmp_path, everyone=hidden)
    assert [b for b in board.buttons if b.label == "Web table"] == []
    record = (await h.bot.service.store.games_in_channel(str(GUILD), str(TABLE.id)))[0]
    for _attempt in range(40):
        row = await h.bot.service.store.web_table_of(record.id)
        if row is not None:
            break
        await asyncio.sleep(0.05)
    assert row is not None and not row.public
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{base}/g/{row.public_id}") as answer,
    ):
        assert answer.status == 404
