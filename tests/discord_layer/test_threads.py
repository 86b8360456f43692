"""A game in its own thread (issue 13), through discord.py's real dispatch: the lobby opens the
thread at the start, every later post goes there, the lobby message is edited in place, the
channel gets one result post, and the thread is archived an hour after the end. Without the
permissions a thread needs, the game runs in the channel and the host is told why.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import discord
import pytest

from bot import limits
from bot.store.base import FINISHED, GameRecord
from cogs import inbox
from cogs.app import create_bot
from cogs.threads import ARCHIVE_AFTER, NAME_LIMIT
from rules import GAMES
from rules.protocol import player_range
from tests.harness import Channel, FakeDiscord, Harness, SeenMessage, User

pytest_plugins = ["tests.harness.fixtures"]

ANA = User(id=1001, name="ana", global_name="Ana")
BO = User(id=1002, name="bo", global_name="Bo")
CY = User(id=1003, name="cy", global_name="Cy")
WATCHER = User(id=1009, name="watcher", global_name="Watcher")
EVERYONE = [ANA, BO, CY, WATCHER]
TABLE = Channel(id=2001, name="games")
GUILD = 3001
#: Far enough ahead that every reminder and deadline has come (seconds).
LATER = 10_000 * 3600


def new_bot(tmp_path: Path) -> discord.Client:
    return create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", discord_token="")


async def table(
    harness_factory,
    tmp_path: Path,
    fake: FakeDiscord | None = None,
    bot_denied: discord.Permissions | None = None,
) -> Harness:
    h = await harness_factory(
        new_bot(tmp_path),
        fake or FakeDiscord(),
        guild_id=GUILD,
        channels=[TABLE],
        members=EVERYONE,
        bot_denied=bot_denied,
    )
    seeds = (f"thread-test-{n}" for n in range(1000))
    h.bot.service.seed_factory = lambda: next(seeds)
    return h


def game_id(lobby: SeenMessage) -> str:
    return lobby.embeds[0]["title"].rsplit(" ", 1)[1]


async def record_of(h: Harness, lobby: SeenMessage) -> GameRecord:
    return await h.bot.service.get(game_id(lobby))


async def open_table(h: Harness, game: str, *humans: User, **new: object) -> SeenMessage:
    """A lobby of ``game`` with ``humans`` seated and AI seats up to the fewest it starts
    with; returns the lobby message."""
    lobby = (await h.slash(humans[0], "game new", options={"game": game, **new})).message
    for human in humans[1:]:
        await h.click(human, h.message(lobby), label="Join")
    low = player_range(GAMES[game])[0]
    for _ in range(low - len(humans)):
        await h.click(humans[0], h.message(lobby), label="Add AI")
    return h.message(lobby)


def boards(messages: list[SeenMessage]) -> list[SeenMessage]:
    return [m for m in messages if m.files.get("board.png")]


async def play_out(h: Harness, record: GameRecord) -> None:
    """Play the game to its end: each time the clock runs out the AI decides for the humans
    (the scheduler posts every turn, as it does for a player who never comes back)."""
    scheduler = h.bot.get_cog("Scheduler")
    for step in range(1, 2000):
        if (await h.bot.service.get(record.id)).status == FINISHED:
            return
        # The end's archive time is an hour after the real clock: ticks stay before it.
        await scheduler.tick(time.time() + ARCHIVE_AFTER / 2 + step * 1e-3)
        await h.settle()
    raise AssertionError("the game never ended")


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_game_runs_in_its_thread_and_leaves_two_posts_in_the_channel(
    game: str, harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    h.bot.service.remind_after, h.bot.service.timeout_after = None, 60.0
    if game == "street-kings":  # a shorter race keeps the test short
        lobby = await open_table(h, game, ANA, options="shorter_game=true")  # type: ignore[arg-type]
    else:
        lobby = await open_table(h, game, ANA)
    started = await h.click(ANA, lobby, label="Start")

    thread = h.thread(TABLE)
    record = await record_of(h, lobby)
    title = GAMES[game].title
    assert thread.name.startswith(f"{title} · {record.id} · Ana, AI 1")
    assert len(thread.name) <= NAME_LIMIT and record.thread == str(thread.id)
    assert thread.id == lobby.id, "the thread is opened from the lobby message"
    opened = h.message(lobby)
    assert f"In progress in <#{thread.id}>" in opened.text() and opened.buttons == []
    (first,) = boards(started.public_messages)
    assert first.channel_id == thread.id and "begins" in first.text()
    assert f"<#{thread.id}>" in started.ephemeral_text()  # the host is sent to the thread

    # Inside the thread a command needs no game id, and a click comes from the thread.
    status = await h.slash(ANA, "game status", channel=thread)
    assert record.id in status.ephemeral_text()
    panel = (await h.click(ANA, h.channel_messages(thread)[-1], label="My hand")).message
    assert panel.ephemeral and panel.channel_id == thread.id

    await play_out(h, record)
    record = await h.bot.service.get(record.id)
    lobby_now, result = h.channel_messages(TABLE)
    # The end is told once in the channel (the result post, which the lobby links) and once
    # in the thread (the final board): the lobby does not repeat the scores, nor the result
    # post the board.
    assert lobby_now.id == lobby.id and "Final scores" not in lobby_now.text()
    # Its seats are no numbered list then: "1. Ana" under "Finished." read as a standing.
    assert not re.search(r"^\d+\. ", lobby_now.text(), re.M), lobby_now.text()
    assert f"/{TABLE.id}/{result.id})" in lobby_now.text()
    assert f"<#{thread.id}>" in lobby_now.text() and lobby_now.buttons == []
    assert "Final scores" in result.text() and "Winner" in result.text()
    assert f"<#{thread.id}>" in result.text() and result.files == {}
    in_thread = h.channel_messages(thread)
    assert len(boards(in_thread)) > 2 and "Game over" in in_thread[-1].text()
    # Only the newest post keeps a live My hand: every older board lost it when replaced.
    live = [m for m in in_thread if any(b.label == "My hand" for b in m.buttons)]
    assert live == [] and all(b.label != "My hand" for b in result.buttons)
    assert record.archive_at is not None and record.archive_at > time.time()


async def test_the_thread_is_archived_an_hour_after_the_end_even_across_a_restart(
    harness_factory, tmp_path: Path
) -> None:
    fake = FakeDiscord()
    first = await table(harness_factory, tmp_path, fake)
    first.bot.service.remind_after, first.bot.service.timeout_after = None, 60.0
    lobby = await open_table(first, "artsee", ANA)
    await first.click(ANA, lobby, label="Start")
    record = await record_of(first, lobby)
    await play_out(first, record)
    thread = first.thread(TABLE)
    assert not fake.channels[thread.id]["thread_metadata"]["archived"]
    await first.close()

    second = await harness_factory(new_bot(tmp_path), fake)  # same database, same Discord
    scheduler = second.bot.get_cog("Scheduler")
    await scheduler.tick(time.time() + ARCHIVE_AFTER / 2)
    await second.settle()
    assert not fake.channels[thread.id]["thread_metadata"]["archived"], "not before the hour"
    await scheduler.tick(time.time() + ARCHIVE_AFTER + 60)
    await second.settle()
    assert fake.channels[thread.id]["thread_metadata"]["archived"]
    assert (await second.bot.service.get(record.id)).archive_at is None  # done once


async def test_a_move_typed_in_the_channel_is_posted_in_the_thread(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "street-art", ANA, BO, CY)
    await h.click(ANA, lobby, label="Start")
    thread = h.thread(TABLE)
    service = h.bot.service
    (mover,) = service.to_move(await record_of(h, lobby))
    player = next(user for user in (ANA, BO, CY) if str(user.id) == mover)
    choices = await h.autocomplete(player, "streetart play", focused="card", channel=TABLE)
    # A card that ends the turn at once (not Fireworks or Brass Band, which ask a follow-up).
    card = next(c["value"] for c in choices if not {"Fireworks", "Brass"} & set(c["name"].split()))
    moved = await h.slash(player, "streetart play", channel=TABLE, card=card)
    first, board = boards(moved.public_messages)  # the first board, retired; the new one
    assert board.channel_id == thread.id and board.id > first.id
    assert "My hand" in [b.label for b in board.buttons]
    assert "My hand" not in [b.label for b in first.buttons]
    assert f"Posted in <#{thread.id}>" in moved.ephemeral_text()
    assert h.channel_messages(TABLE) == [h.message(lobby)]


@pytest.mark.parametrize(
    ("denied", "named"),
    [
        (discord.Permissions(create_public_threads=True), "Create Public Threads"),
        (discord.Permissions(send_messages_in_threads=True), "Send Messages in Threads"),
    ],
)
async def test_without_a_thread_permission_the_game_runs_in_the_channel(
    denied: discord.Permissions, named: str, harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path, bot_denied=denied)
    lobby = await open_table(h, "artsee", ANA, BO)
    started = await h.click(ANA, lobby, label="Start")
    assert h.threads(TABLE) == []
    (board,) = boards(started.public_messages)
    assert board.channel_id == TABLE.id
    (line,) = started.ephemeral_messages
    assert named in line.text() and "played here in the channel" in line.text()
    assert (await record_of(h, lobby)).thread is None


async def test_a_403_from_discord_keeps_the_game_in_the_channel(
    harness_factory, tmp_path: Path
) -> None:
    """Discord may refuse what the interaction's permissions promised (an overwrite changed
    meanwhile): Missing Permissions (50013) keeps the game in the channel too."""
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO)
    h.fake.fail_next(
        "POST",
        "/channels/{channel_id}/messages/{message_id}/threads",
        status=403,
        code=50013,
        message="Missing Permissions",
    )
    started = await h.slash(ANA, "game start")
    assert h.threads(TABLE) == []
    assert "Create Public Threads" in started.ephemeral_text()
    assert any(m.channel_id == TABLE.id for m in boards(started.public_messages))
    assert "In progress here" in h.message(lobby).text()


async def test_a_host_can_keep_one_game_in_the_channel(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO, thread=False)
    started = await h.click(ANA, lobby, label="Start")
    assert h.threads(TABLE) == [] and started.ephemeral_messages == []
    (board,) = boards(started.public_messages)
    assert board.channel_id == TABLE.id


async def test_a_game_started_inside_a_thread_stays_there(harness_factory, tmp_path: Path) -> None:
    """A thread cannot have threads: a game opened in one is played in it, and the host is
    told why."""
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO)
    await h.click(ANA, lobby, label="Start")
    thread = h.thread(TABLE)
    inner = (await h.slash(CY, "game new", game="artsee", channel=thread)).message
    await h.click(WATCHER, inner, label="Join")
    started = await h.click(CY, h.message(inner), label="Start")
    assert "cannot have threads" in started.ephemeral_text()
    assert all(m.channel_id == thread.id for m in started.public_messages)


# -- the server's settings ------------------------------------------------------------------------

MOD = User(
    id=1005, name="mod", global_name="Mod", permissions=discord.Permissions(manage_guild=True)
)


async def settings_table(harness_factory, tmp_path: Path, fake: FakeDiscord | None = None):
    h = await harness_factory(
        new_bot(tmp_path),
        fake or FakeDiscord(),
        guild_id=GUILD,
        channels=[TABLE],
        members=[*EVERYONE, MOD],
    )
    return h


async def test_only_a_server_manager_changes_the_settings(harness_factory, tmp_path: Path) -> None:
    h = await settings_table(harness_factory, tmp_path)
    refused = await h.slash(ANA, "game config", threads=False)
    assert "Manage Server" in refused.ephemeral_text() and refused.public_messages == []
    shown = await h.slash(ANA, "game new", game="artsee")  # still the defaults
    await h.click(BO, shown.message, label="Join")
    await h.click(ANA, h.message(shown.message), label="Start")
    assert len(h.threads(TABLE)) == 1

    changed = await h.slash(MOD, "game config", threads=False, lobby_hours=6, clock="1h")
    text = changed.ephemeral_text()
    assert "threads: **off**" in text and "lobby_hours: **6**" in text and "clock: **1h**" in text
    assert changed.public_messages == []
    assert "threads: **off**" in (await h.slash(MOD, "game config")).ephemeral_text()


async def test_new_games_take_the_servers_settings_and_keep_them(
    harness_factory, tmp_path: Path
) -> None:
    fake = FakeDiscord()
    h = await settings_table(harness_factory, tmp_path, fake)
    await h.slash(MOD, "game config", threads=False, clock="12h")
    lobby = (await h.slash(ANA, "game new", game="artsee")).message
    await h.click(BO, lobby, label="Join")
    before = time.time()
    started = await h.click(ANA, h.message(lobby), label="Start")
    assert h.threads(TABLE) == [] and started.ephemeral_messages == []  # no thread, by choice
    record = await record_of(h, lobby)
    assert record.deadline is not None and record.remind_at is not None
    assert before + 12 * 3600 <= record.deadline <= time.time() + 12 * 3600
    assert before + 6 * 3600 <= record.remind_at <= time.time() + 6 * 3600

    # A host's own choice wins over the server's, and a later change leaves open games alone.
    own = (await h.slash(CY, "game new", game="artsee", thread=True, clock="off")).message
    await h.close()
    second = await settings_table(harness_factory, tmp_path, fake)  # kept across a restart
    await second.slash(MOD, "game config", threads=False, clock="72h")
    await second.click(WATCHER, own, label="Join")
    await second.click(CY, second.message(own), label="Start")
    assert len(second.threads(TABLE)) == 1
    mine = await record_of(second, own)
    assert mine.deadline is None and mine.remind_at is None
    assert (await second.bot.service.get(record.id)).prefs["clock"] == "12h"


# -- lobbies end ------------------------------------------------------------------------------


async def test_a_lobby_nobody_starts_closes_after_its_hours(
    harness_factory, tmp_path: Path
) -> None:
    h = await settings_table(harness_factory, tmp_path)
    scheduler = h.bot.get_cog("Scheduler")
    opened = time.time()
    default = (await h.slash(ANA, "game new", game="artsee")).message
    await h.slash(MOD, "game config", lobby_hours=2)
    short = (await h.slash(BO, "game new", game="artsee")).message

    await scheduler.tick(opened + 3 * 3600)  # the fake clock: three hours on
    await h.settle()
    closed = h.message(short)
    assert "This lobby closed: nobody started it within 2 hours" in closed.text()
    assert closed.buttons == [] and (await record_of(h, short)).status == "abandoned"
    assert h.message(default).buttons, "the server's default is 24 hours"

    await scheduler.tick(opened + 25 * 3600)
    await h.settle()
    assert "within 24 hours" in h.message(default).text() and h.message(default).buttons == []
    again = await h.slash(ANA, "game join", game=game_id(default))
    assert "abandoned" in again.ephemeral_text().lower()
    assert h.threads(TABLE) == []


async def test_a_lobby_that_started_is_never_closed(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO)
    await h.click(ANA, lobby, label="Start")
    await h.bot.get_cog("Scheduler").tick(time.time() + 25 * 3600)
    await h.settle()
    assert "closed" not in h.message(lobby).text()
    assert (await record_of(h, lobby)).status == "active"


async def test_a_lobby_opened_with_autostart_starts_when_the_last_seat_is_taken(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = (await h.slash(ANA, "game new", game="street-art-mural", autostart=True)).message
    await h.click(ANA, lobby, label="Add AI")
    await h.click(ANA, h.message(lobby), label="Add AI")
    assert (await record_of(h, lobby)).status == "lobby"
    filled = await h.click(BO, h.message(lobby), label="Join")  # the fourth and last seat
    assert (await record_of(h, lobby)).status == "active"
    thread = h.thread(TABLE)
    (board,) = boards(filled.public_messages)
    assert board.channel_id == thread.id and "begins" in board.text()
    assert h.message(lobby).buttons == [], "the lobby's buttons are gone once it starts"
    assert f"In progress in <#{thread.id}>" in h.message(lobby).text()


# -- spectators -------------------------------------------------------------------------------


async def test_anyone_can_watch_the_game_of_a_thread_or_of_a_channel_with_one_game(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    h.bot.service.remind_after, h.bot.service.timeout_after = None, 60.0
    lobby = await open_table(h, "artsee", ANA, BO)
    await h.click(ANA, lobby, label="Start")
    thread = h.thread(TABLE)
    record = await record_of(h, lobby)
    for where in (thread, TABLE):  # its thread, and a channel with this one game
        board = await h.slash(WATCHER, "game board", channel=where)
        assert board.message.ephemeral and board.message.image()
        assert record.id in board.message.text() and board.public_messages == []
        status = await h.slash(WATCHER, "game status", channel=where)
        assert "turn" in status.ephemeral_text() and record.id in status.ephemeral_text()
        history = await h.slash(WATCHER, "game replay", view="story", channel=where)
        assert f"game {record.id}: history" in history.ephemeral_text()
    hand = await h.slash(WATCHER, "game hand", channel=thread)
    assert "not in a game" in hand.ephemeral_text(), "a spectator sees no hand"

    # A second game here: in the channel a spectator must say which; in a thread, never.
    other = await open_table(h, "artsee", CY)
    several = await h.slash(WATCHER, "game board", channel=TABLE)
    assert "Several games" in several.ephemeral_text() and game_id(other) in several.text()
    assert record.id in (await h.slash(WATCHER, "game status", channel=thread)).ephemeral_text()
    mine = await h.slash(CY, "game status", channel=TABLE)
    assert game_id(other) in mine.ephemeral_text(), "a player's own game comes first"

    await play_out(h, record)  # over, its thread still shows it
    after = await h.slash(WATCHER, "game board", channel=thread)
    assert record.id in after.ephemeral_text() and "Final scores" in after.ephemeral_text()


# -- the inbox --------------------------------------------------------------------------------

ROOMS = [Channel(id=2100 + n, name=f"room-{n}") for n in range(30)]


async def test_the_inbox_lists_a_players_games_across_channels_page_by_page(
    harness_factory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "LOBBIES_PER_HOST", len(ROOMS))  # paging here, not the cap
    h = await harness_factory(
        new_bot(tmp_path), FakeDiscord(), guild_id=GUILD, channels=ROOMS, members=EVERYONE
    )
    lobbies = [
        (await h.slash(ANA, "game new", game="artsee", channel=room)).message for room in ROOMS
    ]
    await h.click(ANA, lobbies[0], label="Add AI")
    await h.click(ANA, h.message(lobbies[0]), label="Start")
    playing = await record_of(h, lobbies[0])
    thread = h.thread(ROOMS[0])

    first = await h.slash(ANA, "game mine", channel=ROOMS[5])
    page = first.message
    assert page.ephemeral and first.public_messages == []
    lines = page.embeds[0]["description"].splitlines()
    assert len(lines) == 25 and [b.label for b in page.buttons] == ["Next ▶"]
    started = lines[0]  # games in progress first
    assert playing.id in started
    assert "**your move**" in started
    latest = h.channel_messages(thread)[-1]
    assert f"/{GUILD}/{thread.id}/{latest.id})" in started  # a link to its latest post
    # Issue 24: lines were cut at 160 characters inside the link's URL. Every line keeps its
    # link whole and the page stays within an embed's limit, however long the names.
    assert all(len(line) <= inbox.LINE_LIMIT for line in lines)
    assert all(re.search(r"\]\(https://discord\.com/channels/\d+/\d+/\d+\)", x) for x in lines)
    waiting = next(line for line in lines if game_id(lobbies[1]) in line)
    assert "lobby, 2/5 seated" not in waiting and "1/5 seated" in waiting
    assert f"/{GUILD}/{ROOMS[1].id}/{lobbies[1].id})" in waiting  # its lobby message

    second = await h.click(ANA, page, label="Next ▶")
    rest = h.message(page)
    assert second.public_messages == [] and rest.id == page.id  # the same private message
    more = rest.embeds[0]["description"].splitlines()
    assert len(more) == 5 and [b.label for b in rest.buttons] == ["◀ Previous"]
    seen = {line.split("`")[1] for line in lines + more}
    assert seen == {game_id(lobby) for lobby in lobbies}

    nothing = await h.slash(BO, "game mine", channel=ROOMS[0])
    assert "You sit in no game" in nothing.ephemeral_text()
    server = (await h.slash(BO, "game list", scope="server", channel=ROOMS[0])).message
    top = server.embeds[0]["description"].splitlines()
    assert len(top) == 25 and [b.label for b in server.buttons] == ["Next ▶"]
    assert playing.id in top[0]  # the latest moved first
    await h.click(BO, server, label="Next ▶")  # the page after the last game shown, by its key
    tail = h.message(server).embeds[0]["description"].splitlines()
    assert len(tail) == 5 and {line.split("`")[1] for line in top + tail} == seen
    await h.click(BO, h.message(server), label="◀ Previous")
    assert h.message(server).embeds[0]["description"].splitlines() == top
    here = (await h.slash(BO, "game list", channel=thread)).message
    (line,) = here.embeds[0]["description"].splitlines()
    assert playing.id in line and "waiting for Ana" in line


# -- rematch ----------------------------------------------------------------------------------


async def test_the_players_who_click_rematch_sit_again_at_a_new_game_in_a_new_thread(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    h.bot.service.remind_after, h.bot.service.timeout_after = None, 60.0
    lobby = (await h.slash(ANA, "game new", game="artsee")).message
    await h.click(BO, lobby, label="Join")
    await h.click(ANA, h.message(lobby), label="Add AI")
    await h.click(ANA, h.message(lobby), label="Start")
    old = await record_of(h, lobby)
    await play_out(h, old)
    first_thread = h.thread(TABLE)
    _, result = h.channel_messages(TABLE)
    final_board = h.channel_messages(first_thread)[-1]
    assert "Rematch" in [b.label for b in result.buttons]
    assert "Rematch" in [b.label for b in final_board.buttons]

    refused = await h.click(WATCHER, result, label="Rematch")
    assert "Only the players" in refused.ephemeral_text() and refused.public_messages == []

    asked = await h.click(BO, result, label="Rematch")
    assert "You sit at the rematch" in asked.ephemeral_text()
    rematch_lobby = h.channel_messages(TABLE)[-1]
    assert rematch_lobby.channel_id == TABLE.id and "Rematch of game" in rematch_lobby.text()
    new = await h.bot.service.get(game_id(rematch_lobby))
    assert new.status == "lobby" and [s.user for s in new.seats] == [str(BO.id), "ai:normal:1"]
    again = await h.click(BO, result, label="Rematch")
    assert "already" in again.ephemeral_text()

    started = await h.click(ANA, final_board, label="Rematch")  # from inside the old thread
    new = await h.bot.service.get(new.id)
    assert new.status == "active" and new.options == old.options and new.seed != old.seed
    assert sorted(s.user for s in new.seats) == sorted(s.user for s in old.seats)
    second_thread = next(t for t in h.threads(TABLE) if t.id != first_thread.id)
    assert new.thread == str(second_thread.id) and second_thread.id == rematch_lobby.id
    assert any(m.channel_id == second_thread.id for m in boards(started.public_messages))
    assert h.message(rematch_lobby).buttons == []
    assert len(h.channel_messages(TABLE)) == 3  # lobby, result, the rematch's lobby


async def test_a_rematch_is_asked_for_within_ten_minutes_of_the_end(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    h.bot.service.remind_after, h.bot.service.timeout_after = None, 60.0
    lobby = await open_table(h, "artsee", ANA)
    await h.click(ANA, lobby, label="Start")
    await play_out(h, await record_of(h, lobby))
    _, result = h.channel_messages(TABLE)
    h.bot.service._clock = lambda: time.time() + 11 * 60  # the service's clock, 11 minutes on
    late = await h.click(ANA, result, label="Rematch")
    assert "within 10 minutes" in late.ephemeral_text() and late.public_messages == []


# -- the clocks -------------------------------------------------------------------------------


async def test_a_seats_clock_runs_on_across_a_restart_and_posts_in_the_thread(
    harness_factory, tmp_path: Path
) -> None:
    fake = FakeDiscord()
    first = await table(harness_factory, tmp_path, fake)
    lobby = (await first.slash(ANA, "game new", game="artsee", clock="1h")).message
    await first.click(BO, lobby, label="Join")
    await first.click(ANA, first.message(lobby), label="Start")
    record = await record_of(first, lobby)
    (late,) = record.clocks
    assert record.clocks[late][1] - record.clocks[late][0] == 1800  # reminded at half of 1h
    thread = first.thread(TABLE)
    await first.close()

    second = await harness_factory(new_bot(tmp_path), fake)
    scheduler = second.bot.get_cog("Scheduler")
    await scheduler.tick(record.clocks[late][0])
    await second.settle()
    reminder = second.channel_messages(thread)[-1]
    assert reminder.mentions == [int(late)] and "is waiting for you" in reminder.content
    await scheduler.tick(record.clocks[late][1])
    await second.settle()
    posted = second.channel_messages(thread)[-1]
    assert "Time ran out for" in posted.text() and posted.files.get("board.png")
    assert second.channel_messages(TABLE) == [second.message(lobby)]


# -- away, back and kick ----------------------------------------------------------------------


async def test_away_hands_the_seat_to_its_ai_until_back(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO)
    await h.click(ANA, lobby, label="Start")
    thread = h.thread(TABLE)
    service = h.bot.service
    record = await record_of(h, lobby)
    alone = await h.slash(BO, "game away", channel=thread)  # Ana still plays: allowed
    (told,) = [m for m in alone.public_messages if "Bo is away" in m.text()]
    assert told.channel_id == thread.id
    record = await service.get(record.id)
    assert record.seat_of(str(BO.id)).away and str(BO.id) not in service.to_move(record)
    assert str(BO.id) not in record.clocks, "an away seat has no clock"
    last = await h.slash(ANA, "game away", channel=thread)
    assert "Nobody else plays here" in last.ephemeral_text()
    twice = await h.slash(BO, "game away", channel=thread)
    assert "away already" in twice.ephemeral_text()

    # While Bo is away, every decision of his is his AI's: the game goes on with Ana alone.
    for _ in range(3):
        (mover,) = service.to_move(await service.get(record.id))
        assert mover == str(ANA.id)
        board = h.channel_messages(thread)[-1]
        panel = (await h.click(ANA, board, label="My hand")).message
        if panel.selects:
            option = panel.selects[0].options[0]["value"]
            await h.select(ANA, panel, panel.selects[0].custom_id, [option])
        else:
            await h.click(ANA, panel, panel.buttons[0].custom_id)
    back = await h.slash(BO, "game away", back=True, channel=thread)
    assert any("Bo is back" in m.text() for m in back.public_messages)
    record = await service.get(record.id)
    assert not record.seat_of(str(BO.id)).away


async def test_the_host_or_a_server_manager_kicks_a_player_to_an_ai(
    harness_factory, tmp_path: Path
) -> None:
    h = await settings_table(harness_factory, tmp_path)
    lobby = await open_table(h, "street-art", ANA, BO, CY)
    await h.click(ANA, lobby, label="Start")
    thread = h.thread(TABLE)
    refused = await h.slash(BO, "game kick", player=CY, channel=thread)
    assert "Only the host or someone with Manage Server" in refused.ephemeral_text()
    kicked = await h.slash(ANA, "game kick", player=CY, channel=thread)
    assert any("seat was handed to an AI" in m.text() for m in kicked.public_messages)
    record = await record_of(h, lobby)
    assert record.seat_of(str(CY.id)).ai
    by_mod = await h.slash(MOD, "game kick", player=BO, channel=thread)  # not seated himself
    assert any("seat was handed to an AI" in m.text() for m in by_mod.public_messages)
    assert (await record_of(h, lobby)).seat_of(str(BO.id)).ai
    nobody = await h.slash(MOD, "game kick", player=WATCHER, channel=thread)
    assert "not playing" in nobody.ephemeral_text()

    other = (await h.slash(BO, "game new", game="artsee")).message  # a lobby: out of it
    await h.click(CY, other, label="Join")
    await h.slash(BO, "game kick", player=CY, game=game_id(other))
    assert [s.user for s in (await record_of(h, other)).seats] == [str(BO.id)]


async def test_a_thread_closed_to_the_bot_gets_the_post_here_and_the_player_is_told(
    harness_factory, tmp_path: Path
) -> None:
    """A thread the bot may no longer post in (an overwrite changed after the start): a post
    sent there from the channel comes back as the answer here, with what an admin can fix."""
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO)
    await h.click(ANA, lobby, label="Start")
    thread = h.thread(TABLE)
    h.fake.fail_next(
        "POST", "/channels/{channel_id}/messages", status=403, code=50001, message="Missing Access"
    )
    abandoned = await h.slash(ANA, "game abandon", channel=TABLE)
    (post,) = [m for m in abandoned.public_messages if "abandoned" in m.text()]
    assert post.channel_id == TABLE.id and post.channel_id != thread.id
    assert "Send Messages in Threads" in abandoned.ephemeral_text()
    assert "something went wrong" not in abandoned.ephemeral_text().lower()
