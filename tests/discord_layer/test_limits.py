"""Floods stay harmless, through discord.py's real dispatch: 200 `/game new` in one channel and
one click repeated 100 times meet their caps, every answer is a sentence within Discord's limits
(the fake Discord refuses anything over them, and the harness fails the test on it), and another
table still answers at once. Hand panels hold no task each."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import discord

from bot.limits import LOBBIES_PER_CHANNEL, LOBBIES_PER_HOST
from cogs.cooldowns import BURST, SECONDS
from tests.discord_layer.test_threads import GUILD, new_bot
from tests.harness import Channel, FakeDiscord, Harness, Response, User

pytest_plugins = ["tests.harness.fixtures"]

FLOOD = Channel(id=2201, name="flood")
QUIET = Channel(id=2202, name="quiet")
MORE = [Channel(id=2203 + i, name=f"more-{i}") for i in range(LOBBIES_PER_HOST)]
PLAYERS = [User(id=5000 + i, name=f"p{i}", global_name=f"P{i}") for i in range(40)]
MOD = User(
    id=4999, name="mod", global_name="Mod", permissions=discord.Permissions(manage_guild=True)
)


async def world(harness_factory, tmp_path: Path) -> Harness:
    h = await harness_factory(
        new_bot(tmp_path),
        FakeDiscord(),
        guild_id=GUILD,
        channels=[FLOOD, QUIET, *MORE],
        members=[*PLAYERS, MOD],
    )
    h.bot.service.remind_after = h.bot.service.timeout_after = None
    return h


def answered(response: Response) -> str:
    """The one answer of an interaction, which must be a sentence (text, not nothing)."""
    text = response.text().strip()
    assert text, "an interaction went unanswered"
    return text


async def test_two_hundred_new_games_in_one_channel_meet_the_caps(harness_factory, tmp_path):
    h = await world(harness_factory, tmp_path)
    answers: list[str] = []
    for i in range(200):
        player = PLAYERS[i % len(PLAYERS)]
        answers.append(answered(await h.slash(player, "game new", channel=FLOOD, game="artsee")))
    lobbies = await h.bot.service.games_in_guild(str(GUILD), str(FLOOD.id), limit=500)
    assert len(lobbies) == LOBBIES_PER_CHANNEL
    refusals = [a for a in answers if "waiting for players already" in a or "already in" in a]
    assert len(refusals) == 200 - LOBBIES_PER_CHANNEL
    assert any(f"{LOBBIES_PER_CHANNEL} games waiting" in a for a in answers)

    # /game join without an id among all those lobbies: a short sentence, a few ids.
    joining = answered(await h.slash(PLAYERS[-1], "game join", channel=FLOOD))
    assert "Several games are waiting here" in joining and len(joining) < 200
    assert joining.count("`") <= 2 * 5 + 2

    # The server's other tables still answer at once.
    start = time.perf_counter()
    quiet = await h.slash(PLAYERS[-1], "game new", channel=QUIET, game="artsee")
    assert quiet.public_messages and time.perf_counter() - start < 1.0
    assert (quiet.ack_seconds or 0) < 0.5


async def test_a_player_sits_in_a_few_lobbies_at_most(harness_factory, tmp_path):
    h = await world(harness_factory, tmp_path)
    ana = PLAYERS[0]
    for channel in MORE:
        await h.slash(ana, "game new", channel=channel, game="artsee")
    refused = answered(await h.slash(ana, "game new", channel=FLOOD, game="artsee"))
    assert f"You sit in {LOBBIES_PER_HOST} games waiting for players" in refused
    assert "leave one" in refused


async def test_the_running_caps_are_the_servers_to_set(harness_factory, tmp_path):
    h = await world(harness_factory, tmp_path)
    shown = answered(await h.slash(MOD, "game config", server_games=1, player_games=2))
    assert "server_games: **1**" in shown and "player_games: **2**" in shown
    a, b, c = PLAYERS[:3]
    first = (await h.slash(a, "game new", channel=FLOOD, game="artsee")).message
    await h.click(b, h.message(first), label="Join")
    await h.click(a, h.message(first), label="Start")
    second = (await h.slash(c, "game new", channel=QUIET, game="artsee")).message
    await h.click(b, h.message(second), label="Join")  # Bo's second game: the cap is 2
    refused = await h.click(c, h.message(second), label="Start")
    assert "This server runs 1 game already" in refused.ephemeral_text()
    assert "server_games" in refused.ephemeral_text()
    third = (await h.slash(PLAYERS[3], "game new", channel=MORE[0], game="artsee")).message
    full = await h.click(b, h.message(third), label="Join")
    assert "You play 2 games on this server already" in full.ephemeral_text()


async def test_the_same_click_a_hundred_times_draws_once(harness_factory, tmp_path):
    h = await world(harness_factory, tmp_path)
    a, b = PLAYERS[:2]
    lobby = (await h.slash(a, "game new", channel=FLOOD, game="artsee", thread=False)).message
    await h.click(b, h.message(lobby), label="Join")
    await h.click(a, h.message(lobby), label="Start")
    board_post = next(m for m in reversed(h.channel_messages(FLOOD)) if m.buttons)
    pictures, refusals = 0, 0
    for _ in range(100):
        response = await h.click(b, h.message(board_post), label="Board")
        answered(response)
        pictures += sum(len(m.files) for m in response.messages)
        refusals += "ask again in" in response.text()
    assert pictures == BURST["board"] and refusals == 100 - BURST["board"]
    assert SECONDS["board"] <= 10

    # Hand panels with their choices hold no task each (discord.py gives an ephemeral view a
    # 15-minute timeout task of its own): 150 of them leave the bot's tasks as they were.
    ref = next(c.custom_id.split(":")[1] for c in board_post.buttons if c.custom_id)
    mover = int(h.bot.service.to_move(await h.bot.service.get(ref))[0])
    player = next(p for p in (a, b) if p.id == mover)
    before = set(asyncio.all_tasks())
    for _ in range(150):
        panel = await h.slash(player, "game hand", channel=FLOOD)
        assert panel.message.selects or panel.message.buttons, "a panel with choices"
    held = set(asyncio.all_tasks()) - before
    assert not held, f"{len(held)} tasks held by 150 panels: {list(held)[:2]}"
