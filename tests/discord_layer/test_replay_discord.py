"""`/game replay` (its boards, its log and GIF, its paged story) through discord.py's real
dispatch (tests/harness): what a player sees (private, the board of the turn, its lines, the
buttons), what the buttons do, and that a running game shows nothing its public posts did not.

Moves are made through the service with a random agent (the game's own Discord tests play
through the panels); every look at the game goes through Discord.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from PIL import Image

from bot import replay
from bot.ai import RandomAgent
from bot.pictures import draw_board
from bot.store.base import ACTIVE, FINISHED, GameRecord
from cogs import items
from cogs import replay as viewers
from cogs.app import create_bot
from tests.harness import Channel, FakeDiscord, Harness, Response, SeenMessage, User

pytest_plugins = ["tests.harness.fixtures"]

ANA = User(id=1001, name="ana", global_name="Ana")
BO = User(id=1002, name="bo", global_name="Bo")
CY = User(id=1003, name="cy", global_name="Cy")
WATCHER = User(id=1009, name="watcher", global_name="Watcher")
PLAYERS = [ANA, BO, CY]
TABLE = Channel(id=2015, name="replays")
GUILD = 3015


async def table(harness_factory, tmp_path: Path, game: str = "street-art") -> tuple[Harness, str]:
    """Three humans at a started game of ``game`` in the channel (no thread); its id."""
    bot = create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", discord_token="")
    # A GIF of a whole game draws every board: about 2 s alone, over 10 s beside a busy suite.
    # The settle timeout only ends a hung test, so it is generous here.
    h = await harness_factory(
        bot,
        FakeDiscord(),
        guild_id=GUILD,
        channels=[TABLE],
        members=[*PLAYERS, WATCHER],
        settle_timeout=60.0,
    )
    seeds = (f"replay-discord-{n}" for n in range(1000))
    h.bot.service.seed_factory = lambda: next(seeds)
    replay.CACHE = replay.ReplayCache()  # no replay of another test's store answers here
    lobby = (await h.slash(ANA, "game new", game=game, thread=False)).message
    for user in PLAYERS[1:]:
        await h.click(user, h.message(lobby), label="Join")
    await h.click(ANA, h.message(lobby), label="Start")
    return h, lobby.embeds[0]["title"].rsplit(" ", 1)[1]


async def moves(h: Harness, game_id: str, count: int = 100_000) -> GameRecord:
    """Up to ``count`` random moves of whoever is to move (through the service)."""
    service = h.bot.service
    record = await service.get(game_id)
    agent = RandomAgent("replay-discord")
    for _ in range(count):
        waiting = service.to_move(record)
        if not waiting:
            break
        action = agent.choose(service.engine(record), service.state(record), waiting[0])
        record = (await service.move(str(GUILD), str(TABLE.id), waiting[0], action, game_id)).record
    return record


def footer(message: SeenMessage) -> str:
    return str(message.embeds[0]["footer"]["text"])


def labels(message: SeenMessage) -> dict[str, bool]:
    """Each button's label and whether it can be clicked."""
    return {str(b.label): not b.disabled for b in message.buttons}


async def test_the_viewer_steps_through_a_finished_game_privately(
    harness_factory, tmp_path: Path
) -> None:
    h, game_id = await table(harness_factory, tmp_path)
    record = await moves(h, game_id)
    assert record.status == FINISHED
    replayed = await replay.open_replay(h.bot.service, record)
    last = replayed.last

    opened = await h.slash(WATCHER, "game replay", game=game_id)
    assert opened.deferred and opened.public_messages == []
    viewer = opened.message
    assert viewer.ephemeral and f"game {game_id}: replay" in viewer.heading

    # Issue 24: "Turn 0 of 45" over a board labelled "Turn 1". The viewer counts as the board
    # does (the view's own turn), and says how far along the game it is apart.
    def at(turn: int) -> str:
        return f"Turn {replayed.view(turn)['turn']} · post {turn + 1} of {last + 1}"

    assert replayed.view(0)["turn"] == 1
    assert footer(viewer) == at(0) and "The deal" in viewer.text()
    arrows = {"⏮": False, "◀": False, "▶": True, "⏭": True, "GIF": True}
    assert arrows.items() <= labels(viewer).items()
    deal = viewer.image()
    assert deal is not None and Image.open(io.BytesIO(deal)).format == "PNG"

    forward = await h.click(WATCHER, viewer, label="▶")
    assert forward.callback_type == 6, "acknowledged first, then the viewer is edited"
    viewer = forward.message
    assert viewer.id == opened.message.id and footer(viewer) == at(1)
    assert replayed.lines(1)[0] in viewer.text() and viewer.image() != deal

    end = (await h.click(WATCHER, viewer, label="⏭")).message
    assert footer(end) == at(last)
    arrows = {"⏮": True, "◀": True, "▶": False, "⏭": False, "GIF": True}
    assert arrows.items() <= labels(end).items()
    assert end.image() == await replay.board(h.bot.service.pictures, replayed, last)
    back = (await h.click(WATCHER, end, label="◀")).message
    assert footer(back) == at(last - 1)
    start = (await h.click(WATCHER, back, label="⏮")).message
    assert footer(start) == at(0) and start.image() == deal

    # The middle of the game is one tap from the start (it took 23 ▶ before): a row of jumps
    # to a quarter, the half and three quarters, each labelled with the board's counter.
    middle = round(last / 2)
    half = f"Turn {replayed.view(middle)['turn']}"
    jumped = (await h.click(WATCHER, start, label=half)).message
    assert footer(jumped) == at(middle) and not labels(jumped)[half]
    made = await h.click(WATCHER, start, label="GIF")
    assert made.deferred and made.public_messages == []
    gif = made.ephemeral_messages[-1].files[f"game-{game_id}.gif"]
    assert len(gif) <= replay.GIF_LIMIT and Image.open(io.BytesIO(gif)).n_frames > 1


async def test_export_attaches_the_log_with_its_seed_once_the_game_is_over(
    harness_factory, tmp_path: Path
) -> None:
    h, game_id = await table(harness_factory, tmp_path)
    record = await moves(h, game_id, count=5)
    assert record.status == ACTIVE
    running = await h.slash(BO, "game replay", game=game_id, view="log")
    sent = running.message
    assert sent.ephemeral and "no seed" in sent.text()
    data = json.loads(sent.files[f"game-{game_id}.json"])
    assert "seed" not in data and record.seed not in sent.files[f"game-{game_id}.json"].decode()
    assert data["game_id"] == game_id and data["game"] == "street-art"
    assert [p["name"] for p in data["players"]] == ["Ana", "Bo", "Cy"]

    record = await moves(h, game_id)
    over = (await h.slash(BO, "game replay", game=game_id, view="log")).message
    data = json.loads(over.files[f"game-{game_id}.json"])
    assert data["seed"] == record.seed and "python -m bot replay" in over.text()
    rows = await h.bot.service.store.actions(game_id)
    assert [a["seq"] for a in data["actions"]] == [row.seq for row in rows]
    assert set(data["actions"][0]) == {"seq", "player", "action", "at"}
    again = replay.rebuild_file(data)
    assert h.bot.service.engine(record).dump(again.turns[-1].state) == record.state

    with_gif = (await h.slash(BO, "game replay", game=game_id, view="gif")).message
    assert set(with_gif.files) == {f"game-{game_id}.json", f"game-{game_id}.gif"}


async def test_no_gif_of_a_running_game(harness_factory, tmp_path: Path) -> None:
    h, game_id = await table(harness_factory, tmp_path)
    refused = await h.slash(ANA, "game replay", game=game_id, view="gif")
    assert refused.public_messages == [] and "still running" in refused.ephemeral_text()
    viewer = (await h.slash(ANA, "game replay", game=game_id)).message
    assert "GIF" not in labels(viewer)


async def test_history_pages_25_lines_at_a_time(harness_factory, tmp_path: Path) -> None:
    h, game_id = await table(harness_factory, tmp_path)
    record = await moves(h, game_id)
    lines = (await replay.open_replay(h.bot.service, record)).all_lines()
    pages = -(-len(lines) // 25)
    assert pages >= 2, "a whole game tells more than a page"

    shown = await h.slash(CY, "game replay", view="story", game=game_id)
    page = shown.message
    assert page.ephemeral and f"game {game_id}: history" in page.heading
    assert footer(page).endswith(f"page {pages} of {pages}") and lines[-1] in page.text()
    # Each turn's lines are led by the board's own counter, never a count of its own.
    record_view = h.bot.service.engine(record).view(h.bot.service.state(record), None)
    assert f"*Turn {record_view['turn'] - 1}* · " in page.text()
    assert labels(page) == {"◀ Earlier": True}
    earlier = (await h.click(CY, page, label="◀ Earlier")).message
    assert earlier.id == page.id and footer(earlier).endswith(f"page {pages - 1} of {pages}")
    first_line = (pages - 2) * 25
    assert earlier.text().count("\n") >= 24 and lines[first_line] in earlier.text()
    assert set(labels(earlier)) == ({"◀ Earlier", "Later ▶"} if pages > 2 else {"Later ▶"})
    later = (await h.click(CY, earlier, label="Later ▶")).message
    assert footer(later) == footer(page)


async def test_a_click_on_a_game_that_moved_on_says_so_and_shows_it_now(
    harness_factory, tmp_path: Path
) -> None:
    h, game_id = await table(harness_factory, tmp_path)
    await moves(h, game_id, count=3)
    viewer = (await h.slash(ANA, "game replay", game=game_id)).message
    history = (await h.slash(ANA, "game replay", view="story", game=game_id)).message
    record = await moves(h, game_id, count=40)
    clicked = (await h.click(ANA, viewer, label="⏭")).message
    assert "has changed since this was shown" in clicked.text()
    told = await replay.open_replay(h.bot.service, record)
    assert f"post {told.last + 1} of {told.last + 1}" in footer(clicked)
    if history.buttons:
        paged = (await h.click(ANA, history, label="◀ Earlier")).message
        assert "has changed since this was shown" in paged.text()


async def test_a_crafted_viewer_click_gets_a_sentence_not_a_failure(
    harness_factory, tmp_path: Path
) -> None:
    h, game_id = await table(harness_factory, tmp_path)
    viewer = (await h.slash(ANA, "game replay", game=game_id)).message
    crafted = items.custom_id("zzzzzz", "rpnext", 1, 0)
    assert items.parse(crafted) is not None, "the codec reads the viewer's verbs"
    gone = await h.raw_component(ANA, viewer, {"custom_id": crafted, "component_type": 2})
    assert gone.public_messages == [] and "not one this bot can use" in gone.ephemeral_text()


def everything_seen(response: Response) -> str:
    """All text and file bytes a response showed, as one string to search."""
    parts = [m.text() for m in response.messages]
    parts += [data.decode("latin-1") for m in response.messages for data in m.files.values()]
    return "\n".join(parts)


async def test_a_running_games_replay_shows_only_what_its_public_posts_told(
    harness_factory, tmp_path: Path
) -> None:
    """ArtSee: the card a player has chosen stays hidden until it is placed. Mid-turn, the
    replay ends at the last public post: its board is the public view of then, drawn as the
    post drew it, and nothing of the chosen card's step is told; no seed anywhere."""
    h, game_id = await table(harness_factory, tmp_path, "artsee")
    service = h.bot.service
    record = await moves(h, game_id, count=6)
    while record.journal:  # finish any turn in progress: start from a public post
        record = await moves(h, game_id, count=1)
    posted_view, names = service.view(record, None), service.names(record)
    mover = service.to_move(record)[0]
    action = service.legal(record, mover)[0]
    assert action["type"] == "card", "the mover chooses a card from their hand"
    result = await service.move(str(GUILD), str(TABLE.id), mover, action, game_id)
    assert result.record.journal and not result.turn_over, "a turn in progress"

    opened = await h.slash(WATCHER, "game replay", game=game_id)
    end = await h.click(WATCHER, opened.message, label="⏭")
    viewer = end.message
    replayed = await replay.open_replay(service, result.record)
    assert replayed.view(replayed.last) == posted_view
    drawn = draw_board("artsee", posted_view, names, replayed.lines(replayed.last))
    assert viewer.image() == drawn
    exported = await h.slash(WATCHER, "game replay", game=game_id, view="log")
    for response in (opened, end, exported):
        seen = everything_seen(response)
        assert action["card"] not in seen and result.record.seed not in seen
        assert all(m.ephemeral for m in response.messages)


def test_every_viewer_verb_round_trips_through_the_codec_and_only_the_viewer_takes_it() -> None:
    from_codec = items.VIEWER_VERBS.split("|")
    assert set(from_codec) == set(viewers.HANDLERS)
    for verb in from_codec:
        text = items.custom_id("abc234", verb, 41, 7)
        assert items.parse(text) == items.Click("abc234", verb, 41, 7)
        assert re.fullmatch(items.VIEWER_TEMPLATE, text)
        assert not re.fullmatch(items.BUTTON_TEMPLATE, text), "GameButton never takes it"
