"""Tournaments across servers, by choice (issue 38), through discord.py's real dispatch on two
servers the bot is on: a server takes part with `/game config open_tournaments:`, its host
opens a tournament with `open:`, and a player of another server that takes part finds it with
`/game tournament list` and joins with its button. The games are played in threads of the
host's channel and show in the player's `/game mine`. Everything else is refused in a sentence
only the asker reads: a server that does not take part, a player who is not a member of the
host server, a private channel, a host that stopped taking part."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import discord

from tests.discord_layer.test_threads import new_bot
from tests.harness import Channel, FakeDiscord, Harness, SeenMessage, User
from tests.harness.fake_discord import World

pytest_plugins = ["tests.harness.fixtures"]

#: Manage Server, on top of what every member has (``@everyone``): `/game config`.
ADMIN = discord.Permissions(manage_guild=True)
HANA = User(id=1301, name="hana", global_name="Hana", permissions=ADMIN)
CY = User(id=1302, name="cy", global_name="Cy")
BO = User(id=1303, name="bo", global_name="Bo")
DI = User(id=1304, name="di", global_name="Di")
OTTO = User(id=1305, name="otto", global_name="Otto", permissions=ADMIN)
HOST, OTHER = 3301, 3302
TABLE = Channel(id=2301, name="games")
SECRET = Channel(
    id=2302,
    name="secret",
    overwrites=((HOST, 0, 0, discord.Permissions.view_channel.flag),),
)
LOUNGE = Channel(id=2303, name="lounge")
#: Street Kings: two players a table, the quickest game for the AI standing in.
GAME = "street-kings"


async def two_servers(harness_factory, tmp_path: Path) -> tuple[Harness, World]:
    """The host server (Hana, Cy and Bo) and another (Otto, Cy, Bo and Di): Cy and Bo are
    members of both, Di only of the other."""
    h = await harness_factory(
        new_bot(tmp_path),
        FakeDiscord(),
        guild_id=HOST,
        guild_name="Host Club",
        channels=[TABLE, SECRET],
        members=[HANA, CY, BO],
    )
    other = await h.add_guild(OTHER, [LOUNGE], [OTTO, CY, BO, DI], guild_name="Other Club")
    return h, other


async def takes_part(h: Harness, admin: User) -> None:
    said = await h.slash(admin, "game config", open_tournaments=True)
    assert "open_tournaments (with other servers): **on**" in said.ephemeral_text()


async def open_cup(h: Harness, cap: int = 2, **terms: object) -> tuple[SeenMessage, str]:
    """Hana opens a cup open to other servers in the host's channel: its post and id."""
    opened = await h.slash(
        HANA, "game tournament new", game=GAME, format="cup", cap=cap, open=True, **terms
    )
    (post,) = opened.public_messages
    assert "Open to players of other servers that take part." in post.text()
    return post, re.search(r"Tournament `(\w+)`", post.text())[1]  # type: ignore[index]


async def listed_there(h: Harness, other: World, user: User) -> SeenMessage:
    with h.on_server(other):
        shown = await h.slash(user, "game tournament list", channel=LOUNGE)
    (answer,) = shown.ephemeral_messages
    return answer


async def test_a_player_of_another_server_finds_joins_and_plays_in_the_host_s_thread(
    harness_factory, tmp_path: Path
) -> None:
    h, other = await two_servers(harness_factory, tmp_path)
    refused = await h.slash(HANA, "game tournament new", game=GAME, format="cup", open=True)
    assert "does not take part in tournaments open to other servers" in refused.ephemeral_text()
    assert "`/game config open_tournaments:True`" in refused.ephemeral_text()
    assert refused.public_messages == [], "nothing is opened"
    await takes_part(h, HANA)
    post, tid = await open_cup(h)

    # Cy's server does not take part yet: nothing of the host's is listed or joinable there.
    answer = await listed_there(h, other, CY)
    assert tid not in answer.text() and answer.buttons == []
    assert "once an admin turns on `/game config open_tournaments:`" in answer.text()
    with h.on_server(other):
        joined = await h.slash(CY, "game tournament join", channel=LOUNGE, tournament=tid)
    assert "does not take part in tournaments open to other servers" in joined.ephemeral_text()

    with h.on_server(other):
        await takes_part(h, OTTO)
        offered = await h.autocomplete(CY, "game tournament join", focused="tournament")
        assert [c["value"] for c in offered] == [tid]
        assert await h.autocomplete(OTTO, "game tournament start", focused="tournament") == []
    # Di is no member of the host server: she would not see the games' threads.
    answer = await listed_there(h, other, DI)
    assert f"`{tid}`" in answer.text() and "on **Host Club**" in answer.text()
    with h.on_server(other):
        said = await h.click(DI, answer, label=f"Join {tid}")
    assert f"Join the server **Host Club** first: the games of tournament `{tid}`" in (
        said.ephemeral_text()
    )
    assert "Players (1/2)" in h.message(post).text()

    answer = await listed_there(h, other, CY)
    with h.on_server(other):
        said = await h.click(CY, answer, label=f"Join {tid}")
        assert said.ephemeral_text() == f"You are in tournament `{tid}`.", "and nothing else"
    await h.settle()
    assert "Players (2/2): Hana, Cy" in h.message(post).text()

    # The cup was full: its game is played in a thread of the host's channel.
    t = await h.bot.tournaments.get(tid)
    (table,) = t.played[0].tables
    record = await h.bot.service.get(table.game_id)
    assert (record.guild, record.channel) == (str(HOST), str(TABLE.id))
    assert record.thread == str(h.thread(TABLE).id)
    assert h.thread(TABLE).type == 11, "a public thread: every player who can view the channel"
    assert sorted(s.user for s in record.seats) == sorted([str(HANA.id), str(CY.id)])

    # Cy's games, asked on his own server, include the tournament's (linked on the host's).
    with h.on_server(other):
        mine = await h.slash(CY, "game mine", channel=LOUNGE)
    line = next(x for x in mine.ephemeral_text().splitlines() if table.game_id in x)
    assert f"https://discord.com/channels/{HOST}/" in line


async def test_a_private_channel_and_a_server_that_stops_taking_part_are_refused(
    harness_factory, tmp_path: Path
) -> None:
    h, other = await two_servers(harness_factory, tmp_path)
    await takes_part(h, HANA)
    with h.on_server(other):
        await takes_part(h, OTTO)
    hidden = await h.slash(
        HANA, "game tournament new", channel=SECRET, game=GAME, format="swiss", open=True
    )
    assert "held in a channel everyone here can view" in hidden.ephemeral_text()
    assert hidden.public_messages == []

    _post, tid = await open_cup(h, cap=4)
    answer = await listed_there(h, other, CY)
    with h.on_server(other):
        await h.click(CY, answer, label=f"Join {tid}")

    # The host's channel is made private: the tournament is no longer shown elsewhere.
    view = discord.Permissions.view_channel.flag
    private = dataclasses.replace(TABLE, overwrites=((HOST, 0, 0, view),))
    await h.dispatch_gateway("CHANNEL_UPDATE", h.world.channel_json(private, h.world.owner_id))
    assert tid not in (await listed_there(h, other, BO)).text()
    with h.on_server(other):
        said = await h.slash(BO, "game tournament join", channel=LOUNGE, tournament=tid)
        assert f"Tournament `{tid}` is no longer open to other servers." in said.ephemeral_text()
    await h.dispatch_gateway("CHANNEL_UPDATE", h.world.channel_json(TABLE, h.world.owner_id))
    assert tid in (await listed_there(h, other, BO)).text()

    # The host stops taking part: no new player from elsewhere, but the tournament runs on.
    await h.slash(HANA, "game config", open_tournaments=False)
    assert tid not in (await listed_there(h, other, BO)).text()
    with h.on_server(other):
        said = await h.slash(BO, "game tournament join", channel=LOUNGE, tournament=tid)
        assert f"Tournament `{tid}` is no longer open to other servers." in said.ephemeral_text()
        standings = await h.slash(CY, "game tournament standings", channel=LOUNGE, tournament=tid)
        assert "No round has ended yet." in standings.ephemeral_text()
    await h.slash(HANA, "game tournament start", tournament=tid)
    await h.settle()
    (table,) = (await h.bot.tournaments.get(tid)).played[0].tables
    assert str(CY.id) in table.seats and len(h.threads(TABLE)) == 1
