"""Games in a private channel and in a private thread stay private, through discord.py's real
dispatch: a member who cannot see the place tries every read path (commands with ``game:``,
buttons on the game's own messages, autocomplete, the lists, stats and the leaderboard) and
learns nothing, not even that the game exists; the members who can see it still can."""

from __future__ import annotations

import itertools
from pathlib import Path

import discord

from bot.store.base import FINISHED
from cogs import cooldowns
from tests.discord_layer.test_threads import new_bot, play_out
from tests.harness import Channel, FakeDiscord, Harness, Response, SeenMessage, User

pytest_plugins = ["tests.harness.fixtures"]

ANA = User(id=1101, name="ana", global_name="Anastasia")
BO = User(id=1102, name="bo", global_name="Bonifacio")
OUT = User(id=1109, name="out", global_name="Outsider")
GUILD = 3101
PUBLIC = Channel(id=2101, name="lobby")
VIEW = discord.Permissions(view_channel=True).value
#: Only Ana and Bo see #secret: @everyone (the guild's id) is denied View Channel there.
SECRET = Channel(
    id=2102,
    name="secret",
    overwrites=((GUILD, 0, 0, VIEW), (ANA.id, 1, VIEW, 0), (BO.id, 1, VIEW, 0)),
)
#: A private thread of the public channel, with Ana and Bo in it.
PRIVATE_THREAD = Channel(
    id=2103, name="hush", type=12, parent_id=PUBLIC.id, thread_members=(1101, 1102)
)

#: Every `/game` command that takes ``game:``, with what else it needs.
BY_ID: list[tuple[str, dict[str, object]]] = [
    ("game board", {}),
    ("game status", {}),
    ("game replay", {"view": "story"}),
    ("game replay", {}),
    ("game replay", {"view": "gif"}),
    ("game hand", {}),
    ("game rules", {}),
    ("game join", {}),
    ("game leave", {}),
    ("game start", {}),
    ("game away", {}),
    ("game undo", {}),
    ("game abandon", {}),
    ("game kick", {"player": ANA}),
]


async def world(harness_factory, tmp_path: Path) -> Harness:
    """The server, its cooldowns out of the way (every read comes a long while after the last:
    a cooldown's refusal says nothing of a game, and is tested in ``test_limits``)."""
    h = await harness_factory(
        new_bot(tmp_path),
        FakeDiscord(),
        guild_id=GUILD,
        channels=[PUBLIC, SECRET, PRIVATE_THREAD],
        members=[ANA, BO, OUT],
    )
    later = itertools.count(step=3600)
    cooldowns._OF[h.bot] = cooldowns.Cooldowns(clock=lambda: float(next(later)))
    return h


def game_id(message: SeenMessage) -> str:
    found = [b.custom_id.split(":")[1] for b in message.buttons if b.custom_id.startswith("g:")]
    assert found, message.text()
    return found[0]


async def played_game(
    h: Harness, place: Channel, *, finish: bool, players: tuple[User, User] = (ANA, BO)
) -> tuple[str, SeenMessage]:
    """A game of Ana and Bo (or two other ``players``, the host first) and an AI in
    ``place``, started, and finished if ``finish``."""
    host, guest = players
    h.bot.service.remind_after, h.bot.service.timeout_after = None, 60.0
    lobby = (await h.slash(host, "game new", channel=place, game="artsee", thread=False)).message
    await h.click(guest, h.message(lobby), label="Join")
    await h.click(host, h.message(lobby), label="Add AI")  # an AI level's rating, too
    await h.click(host, h.message(lobby), label="Start")
    ref = game_id(lobby)
    if finish:
        record = await h.bot.service.get(ref)
        await play_out(h, record)
        assert (await h.bot.service.get(ref)).status == FINISHED
    return ref, h.message(lobby)


def leaked(response: Response, ref: str) -> list[str]:
    """What of a hidden game an answer gives away: its id, its players' names or ids, a
    picture, a public post."""
    found = []
    for message in response.messages:
        text = message.text().replace(unknown(ref), "")  # the id they sent, echoed
        for secret in (ref, ANA.global_name, BO.global_name, str(ANA.id), str(BO.id)):
            if secret and secret in text:
                found.append(f"{secret!r} in {text[:200]!r}")
        if message.files:
            found.append(f"pictures {list(message.files)}")
        if not message.ephemeral:
            found.append(f"a public post {message.text()[:100]!r}")
    return found


def unknown(ref: str) -> str:
    return f"There is no game `{ref}` on this server — `/game list` shows them."


async def test_an_outsider_learns_nothing_of_games_in_private_places(harness_factory, tmp_path):
    h = await world(harness_factory, tmp_path)
    hidden = {
        "channel": await played_game(h, SECRET, finish=True),
        "thread": await played_game(h, PRIVATE_THREAD, finish=False),
    }
    tried, leaks = 0, []
    for where, (ref, lobby) in hidden.items():
        for command, extra in BY_ID:
            response = await h.slash(OUT, command, channel=PUBLIC, game=ref, **extra)
            tried += 1
            leaks += [f"{where} /{command}: {x}" for x in leaked(response, ref)]
            assert response.ephemeral_text() == unknown(ref), (command, response.text())
        # The buttons of the game's own messages, as if the outsider still had them (Discord
        # sends no interaction from a private thread to a non-member: no click there).
        if where == "thread":
            continue
        posts = [m for m in h.channel_messages(int(lobby.channel_id)) if m.buttons]
        for post in posts[-2:]:
            for button in post.buttons:
                response = await h.click(OUT, post, button)
                tried += 1
                leaks += [f"{where} {button.label}: {x}" for x in leaked(response, ref)]
    for scope in ("server", "here"):
        response = await h.slash(OUT, "game list", channel=PUBLIC, scope=scope)
        tried += 1
        for ref, _ in hidden.values():
            leaks += [f"/game list {scope}: {x}" for x in leaked(response, ref)]
        assert "No games" in response.text()
    choices = await h.autocomplete(OUT, "game board", focused="game", channel=PUBLIC)
    tried += 1
    assert choices == []
    stats = await h.slash(OUT, "game stats", channel=PUBLIC, options={"user": ANA})
    assert "has not finished a game" in stats.text(), stats.text()
    board = await h.slash(OUT, "game season", channel=PUBLIC, game="artsee", season="all")
    tried += 2
    assert ANA.global_name not in board.text() and str(ANA.id) not in board.text()
    assert "**1.**" not in board.text(), "not even an AI level rated in the hidden game"
    season = await h.slash(OUT, "game season", channel=PUBLIC, game="artsee")
    tried += 1
    assert str(ANA.id) not in season.text() and "Not ranked yet" not in season.text()
    assert leaks == [], leaks
    assert tried >= 2 * len(BY_ID)

    # Crafted buttons: the outsider's own viewers of a public game, their ids turned to a
    # hidden game's (replay steps, GIF, history pages, board): refused without a word of it.
    public, _lobby = await played_game(h, PUBLIC, finish=False)
    viewers = [
        (await h.slash(OUT, "game replay", channel=PUBLIC, game=public, view=view)).message
        for view in ("boards", "story")
    ]
    for viewer in viewers:
        for button in viewer.buttons:
            for ref, _ in hidden.values():
                crafted = button.custom_id.replace(f":{public}:", f":{ref}:")
                data = {"custom_id": crafted, "component_type": 2}
                response = await h.raw_component(OUT, viewer, data)
                tried += 1
                assert response.text(), "a crafted click is answered"
                assert leaked(response, ref) == [], (crafted, response.text())

    # Those who can see the places still see their games.
    for where, (ref, _lobby) in hidden.items():
        shown = await h.slash(BO, "game status", channel=PUBLIC, game=ref)
        assert ANA.global_name in shown.text(), (where, shown.text())
    listed = await h.slash(BO, "game list", channel=PUBLIC, scope="server")
    assert hidden["thread"][0] in listed.text()
    mine = await h.slash(BO, "game mine", channel=PUBLIC)
    assert hidden["thread"][0] in mine.text()
    assert "won" in (await h.slash(BO, "game stats", channel=PUBLIC, options={"user": ANA})).text()
    inside = (await h.slash(BO, "game season", channel=PUBLIC, game="artsee", season="all")).text()
    assert f"<@{ANA.id}>" in inside and "**3.**" in inside, inside
    board = await h.slash(ANA, "game board", channel=PUBLIC, game=hidden["channel"][0])
    assert board.ephemeral_messages and board.ephemeral_text() != unknown(hidden["channel"][0])


async def test_forget_me_asks_first_then_leaves_a_former_player(harness_factory, tmp_path):
    h = await world(harness_factory, tmp_path)
    finished, _lobby = await played_game(h, PUBLIC, finish=True)
    running, _lobby = await played_game(h, SECRET, finish=False)

    asked = await h.slash(BO, "game forget-me", channel=PUBLIC)
    question = asked.message
    assert question.ephemeral and "cannot be undone" in question.text()
    assert await h.bot.service.store.count_games(str(GUILD), ("active",), player=str(BO.id)) == 1

    done = await h.click(BO, question, label="Forget me")
    assert "you are forgotten" in done.text() and "2 games" in done.text()
    told = [m for m in h.channel_messages(SECRET) if "an AI plays their seat" in m.text()]
    assert told, "the running game's table is told"
    for ref in (finished, running):
        record = await h.bot.service.get(ref)
        assert str(BO.id) not in {s.user for s in record.seats}
        assert "Former player 2" in " ".join(s.name for s in record.seats)
        await h.bot.service.history(record)  # replays exactly, or raises
    replayed = await h.slash(ANA, "game replay", channel=PUBLIC, game=finished)
    assert replayed.message.image() and BO.global_name not in replayed.text()
    stats = await h.slash(ANA, "game stats", channel=PUBLIC, options={"user": BO})
    assert "has not finished a game" in stats.text()
