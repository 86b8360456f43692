"""The web table from Discord (issue 26), through discord.py's real dispatch: a board post in a
channel everyone can view links the game's public page, a hand panel links that player's own
page, and a game in a channel @everyone cannot view gets no public page."""

from __future__ import annotations

import asyncio
import re
import socket
import time
from pathlib import Path

import aiohttp
import discord
import pytest

from cogs import delivery, web_table
from cogs.app import create_bot
from tests.discord_layer.test_threads import boards
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


def web_bot(tmp_path: Path, **settings: str) -> tuple[discord.Client, str]:
    """A bot whose web table listens on a free port (``settings``: more of them), and the
    table's address."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    bot = create_bot(
        database_url=f"sqlite:///{tmp_path / 'games.db'}",
        discord_token="",
        web_port=port,
        web_base_url=base,
        web_secret="d1sc0rdLayerTestK3y-9aB7cD5eF3gH1iJ0kL2mN4oP",
        **settings,
    )
    return bot, base


async def started(
    harness_factory,
    tmp_path: Path,
    everyone: discord.Permissions = DEFAULT_MEMBER_PERMISSIONS,
    *,
    thread: bool = False,
) -> tuple[Harness, SeenMessage, str]:
    """A started two-player game in a bot whose web table listens on a free port."""
    bot, base = web_bot(tmp_path)
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


async def test_a_move_from_a_hand_page_reaches_the_discord_table(
    harness_factory, tmp_path: Path
) -> None:
    """Moves played on hand pages, until one ends a turn: the boards of that turn (and of the
    AI turns after it) are posted in the channel by the delivery worker at once (not at its
    next round), and once."""
    h, _board, _base = await started(harness_factory, tmp_path)
    service, door = h.bot.service, web_table.DOOR
    assert door is not None
    game = (await service.store.games_in_channel(str(GUILD), str(TABLE.id)))[0].id
    before = boards(h.fake.channel_messages(TABLE.id))
    # Each request on a connection of its own: a kept-alive one looks like a busy bot.
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as session:
        for _move in range(30):
            record = await service.get(game)
            player = service.read(record).waiting_humans[0]
            url = door.links.hand(game, player, time.time())
            async with session.get(url) as response:
                version = re.search(r'name="version" value="(\d+)"', await response.text())
            assert version is not None
            form = {"index": "0", "version": version.group(1)}
            async with session.post(f"{url}/move", data=form, allow_redirects=False) as answer:
                assert answer.status == 303 and answer.headers["Location"].endswith("=moved")
            await h.settle()
            if len(boards(h.fake.channel_messages(TABLE.id))) > len(before):
                break
        else:
            pytest.fail("thirty moves on hand pages and no board reached the channel")
    posted = len(boards(h.fake.channel_messages(TABLE.id)))
    assert await service.store.unsent(game) == []
    worker = delivery.worker(h.bot)
    assert worker is not None and await worker.drain(time.time() + 600) == 0
    assert len(boards(h.fake.channel_messages(TABLE.id))) == posted  # none twice


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


async def test_a_thread_just_opened_is_public_before_discord_tells_the_cache(
    harness_factory, tmp_path: Path
) -> None:
    """Discord tells the cache of a new thread by a later gateway event, which the game's
    first board may come before: a thread the bot opened itself needs no event to be known
    public (as on a busy machine, where the event came late and the board had no link)."""
    h, _board, _base = await started(harness_factory, tmp_path, thread=True)
    service, door = h.bot.service, web_table.DOOR
    assert door is not None
    (record,) = await service.store.games_in_channel(str(GUILD), str(TABLE.id))
    assert record.thread is not None
    guild = h.bot.get_guild(GUILD)
    assert guild is not None
    thread = guild.get_thread(int(record.thread))
    assert thread is not None
    guild._remove_thread(thread)  # the gateway's word not yet in
    assert web_table.table_button(record) is not None
    web_table.OPENED.discard(record.thread)  # a thread not of the bot's making: not known
    assert web_table.table_button(record) is None
