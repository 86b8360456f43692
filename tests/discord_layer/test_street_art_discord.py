"""Street Art through Discord as players use it: raw interactions in, what each player sees out.

Every test drives the real bot (``cogs.app.create_bot``) through discord.py's real dispatch with the
HTTP layer recorded (tests/harness); at teardown every recorded payload is checked against
Discord's limits and its OpenAPI spec.
"""

from __future__ import annotations

import io
import random
import time
from pathlib import Path

import discord
from PIL import Image

import images
from bot.read_model import ReadModel
from cogs.app import create_bot
from images.street_art import HAND_ROW
from tests.harness import Channel, FakeDiscord, Harness, Response, SeenMessage, User
from tests.harness.steps import choice_buttons

pytest_plugins = ["tests.harness.fixtures"]


def street_art_hand(cards: list[str]) -> bytes:
    picture = images.render_hand("street-art", {"hand": cards}, names={})
    assert picture is not None
    return picture


ANA = User(id=1001, name="ana", global_name="Ana")
BO = User(id=1002, name="bo", global_name="Bo")
CY = User(id=1003, name="cy", global_name="Cy")
DEE = User(id=1004, name="dee", global_name="Dee")
MOD = User(
    id=1005, name="mod", global_name="Mod", permissions=discord.Permissions(manage_guild=True)
)
EVERYONE = [ANA, BO, CY, DEE, MOD]
BY_ID = {user.id: user for user in EVERYONE}
TABLE = Channel(id=2001, name="street-art")
GUILD = 3001


def new_bot(tmp_path: Path) -> discord.Client:
    return create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", discord_token="")


async def table(harness_factory, tmp_path: Path, fake: FakeDiscord | None = None) -> Harness:
    """A server with one channel and five members; games dealt from fixed seeds, so every run
    plays the same cards."""
    h = await harness_factory(
        new_bot(tmp_path), fake or FakeDiscord(), guild_id=GUILD, channels=[TABLE], members=EVERYONE
    )
    seeds = (f"discord-test-{n}" for n in range(1000))
    h.bot.service.seed_factory = lambda: next(seeds)
    return h


def assert_is_board(post: SeenMessage) -> None:
    """What every public turn post must carry: words, the image, and the buttons."""
    assert not post.ephemeral
    png = post.image()
    assert png is not None and png == post.files["board.png"]
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.width >= 800
    labels = [b.label for b in post.buttons]
    assert "Board" in labels and "Rules" in labels
    assert "Your hand" not in post.text()


def assert_hand_picture(panel: SeenMessage) -> None:
    """The private panel shows the hand as card faces too, one face per card held, at most
    ``HAND_ROW`` to a row (wide enough to read on a phone)."""
    assert "Your hand:" not in panel.content, "each fact once: the picture shows the hand"
    held = panel.alt_text.split("Your hand: ", 1)[1]
    count = sum(int(part.rsplit("×", 1)[1]) if "×" in part else 1 for part in held.split(", "))
    per_row, rows = min(HAND_ROW, count), -(-count // HAND_ROW)
    with Image.open(io.BytesIO(panel.files["hand.png"])) as picture:
        assert picture.format == "PNG"
        assert picture.width == 2 * 20 + per_row * 146 + (per_row - 1) * 18
        assert picture.height > rows * 146


async def open_lobby(h: Harness, *players: User) -> SeenMessage:
    lobby = (await h.slash(players[0], "game new", game="street-art")).message
    assert not lobby.ephemeral
    assert [b.label for b in lobby.buttons] == ["Join", "Leave", "Add AI", "Start"]
    for player in players[1:]:
        await h.click(player, h.message(lobby), label="Join")
    return h.message(lobby)


async def start_game(h: Harness, lobby: SeenMessage, host: User) -> SeenMessage:
    response = await h.click(host, lobby, label="Start")
    board = response.public_messages[-1]
    assert_is_board(board)
    assert "begins" in board.text()
    return board


def current_player(board: SeenMessage) -> User:
    (player_id,) = board.mentions
    return BY_ID[player_id]


def turn_ending(panel: SeenMessage) -> str:
    """The value, in a hand panel's select, of a card that ends the turn at once (not
    Fireworks or Brass Band, which ask a follow-up)."""
    return next(
        o["value"]
        for o in panel.selects[0].options
        if "Fireworks" not in o["label"] and "Brass" not in o["label"]
    )


def board_of(response: Response) -> SeenMessage | None:
    # The game's own boards, in its thread (not the result post in the channel).
    boards = [
        m for m in response.public_messages if m.files.get("board.png") and m.channel_id != TABLE.id
    ]
    return boards[-1] if boards else None


FOLLOW_UPS: list[str] = []  # labels of follow-up buttons clicked, so the game test can check them


async def play_turn(
    h: Harness, board: SeenMessage, rng: random.Random, use_slash: bool
) -> SeenMessage:
    """One whole turn as a player would take it, follow-ups included; returns the next board."""
    player = current_player(board)
    if use_slash:
        choices = await h.autocomplete(player, "streetart play", focused="card", value="")
        assert choices, "the player to move always has a card to play"
        response = await h.slash(player, "streetart play", card=rng.choice(choices)["value"])
    else:
        panel = (await h.click(player, board, label="My hand")).message
        assert panel.ephemeral and panel.visible_to == player.id
        assert_hand_picture(panel)
        select = panel.selects[0]
        value = rng.choice(select.options)["value"]
        response = await h.select(player, panel, select.custom_id, [value])
    for _ in range(20):  # follow-ups: a Fireworks victim, another Brass Band or stop
        posted = board_of(response)
        if posted is not None:
            return posted
        panel = response.ephemeral_messages[-1]
        buttons = choice_buttons(panel)  # the choices, not the panel's help (issue 39)
        assert buttons, f"a turn that is not over offers its next choice: {panel.content}"
        labels = [b.label or "" for b in buttons]
        assert not any(player.global_name in label for label in labels), "never aim at yourself"
        button = rng.choice(buttons)
        FOLLOW_UPS.append(button.label or "")
        response = await h.click(player, panel, button.custom_id)
    raise AssertionError("a turn never ended")


# -- the whole game -------------------------------------------------------------------------------


async def test_a_whole_three_player_game_by_commands_and_buttons(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = await open_lobby(h, ANA, BO)
    joined = await h.slash(CY, "game join")
    assert "Cy joined" in joined.public_text()
    # Issue 24: each slash join posted a new lobby, and the older copies kept live Join and
    # Start buttons. The one lobby message is edited in place; the answer links it.
    with_buttons = [m.id for m in h.channel_messages(TABLE) if m.buttons]
    assert with_buttons == [lobby.id] and "3. Cy" in h.message(lobby).text()
    assert f"/{TABLE.id}/{lobby.id})" in joined.original.text()
    refused = await h.click(BO, h.message(lobby), label="Start")
    assert "Only the host (Ana)" in refused.ephemeral_text()
    board = await start_game(h, h.message(lobby), ANA)
    assert h.message(lobby).buttons == []  # the lobby closed

    rng = random.Random(7)
    FOLLOW_UPS.clear()
    boards = 1
    while "Game over" not in board.text():
        board = await play_turn(h, board, rng, use_slash=boards % 3 == 0)
        assert_is_board(board)
        boards += 1
        assert boards < 400, "the game never ended"
        if "Game over" not in board.text():
            (ping,) = board.mentions
            assert board.text().splitlines()[-1] == f"➡️ <@{ping}>, your move."
    # The winners said once: by the game's own "Game over" line, then the scores alone.
    assert "Final scores" in board.text() and "Winner" not in board.text()
    assert board.text().count("Game over") == 1
    # "The final post. It says "Game over" twice, and its footer still points to the hand."
    assert board.text().count("Game over") == 1 and "/game hand" not in board.text()
    assert board.mentions == []  # nobody is pinged for the end
    # This seed's game took follow-up choices of both kinds through buttons.
    assert any(" steal " in label for label in FOLLOW_UPS)  # "Bo has 3 ♥: steal 2 ♥"
    assert any("Brass Band" in label for label in FOLLOW_UPS)
    public_text = "\n".join(m.text() for m in h.channel_messages(h.thread(TABLE)))
    assert "Your hand" not in public_text and "Your move" not in public_text


async def test_board_rules_status_and_list_answer_privately(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    private = await h.click(DEE, board, label="Board")
    assert private.message.ephemeral and private.message.image()
    rules = await h.click(DEE, board, label="Rules")
    assert rules.message.ephemeral and "Brass Band" in rules.message.text()
    status = await h.slash(BO, "game status")
    assert status.message.ephemeral and "turn" in status.message.text()
    listing = await h.slash(DEE, "game list")
    assert listing.message.ephemeral and "Street Art" in listing.message.text()
    hand = await h.slash(BO, "game hand")
    assert hand.message.ephemeral and "Your hand:" in hand.message.alt_text
    board_cmd = await h.slash(CY, "game board")
    assert board_cmd.message.ephemeral and board_cmd.message.image()
    await play_turn(h, board, random.Random(2), use_slash=True)
    history = await h.slash(ANA, "game replay", view="story")
    assert history.message.ephemeral and " played " in history.message.text()


# -- bad input: an ephemeral sentence, nothing changed ---------------------------------------------


async def test_bad_moves_get_a_private_sentence(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    mover = current_player(board)
    waiting = next(p for p in (ANA, BO, CY) if p != mover)
    out_of_turn = await h.slash(waiting, "streetart play", card="rain")
    assert f"It is {mover.global_name}'s turn" in out_of_turn.ephemeral_text()
    assert out_of_turn.public_messages == []

    stranger = await h.slash(DEE, "game hand")
    assert "You are not in a game in this channel — `/game list`" in stranger.ephemeral_text()
    stranger_play = await h.slash(DEE, "streetart play", card="juggler")
    assert "not in a game in this channel" in stranger_play.ephemeral_text()

    hand = (await h.click(mover, board, label="My hand")).message
    held = hand.alt_text.split("Your hand: ", 1)[1]
    missing = next(c for c in ("Rain", "Fire Breather", "Juggler", "Beatboxer") if c not in held)
    not_held = await h.slash(mover, "streetart play", card=missing)
    assert "do not hold" in not_held.ephemeral_text()
    nonsense = await h.slash(mover, "streetart play", card="a kazoo")
    assert "no Street Art card called" in nonsense.ephemeral_text()

    unknown = await h.slash(ANA, "game board", game="zzzzzz")
    assert "no game `zzzzzz`" in unknown.ephemeral_text()
    # Nothing above changed the game: the same player is still to move.
    status = await h.slash(ANA, "game status")
    assert f"It is {mover.global_name}'s turn" in status.ephemeral_text()


async def test_lobby_refusals(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = (await h.slash(ANA, "game new", game="street-art")).message
    assert "(1/5; 3–5 with these options)" in lobby.text()
    too_few = await h.click(ANA, lobby, label="Start")
    assert "3 to 5 players" in too_few.ephemeral_text()
    again = await h.slash(ANA, "game new", game="street-art")
    assert "already in game" in again.ephemeral_text()
    twice = await h.click(BO, lobby, label="Join")
    assert "Bo joined" in twice.message.text()
    twice = await h.click(BO, h.message(lobby), label="Join")
    assert "already in game" in twice.ephemeral_text()
    not_seated = await h.click(DEE, h.message(lobby), label="Leave")
    assert "You are not in game" in not_seated.ephemeral_text()


async def test_joining_a_full_or_started_game_and_abandoning(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = await open_lobby(h, ANA, BO, CY)
    for _ in range(2):
        await h.click(ANA, h.message(lobby), label="Add AI")
    full = await h.click(DEE, h.message(lobby), label="Join")
    assert "is full" in full.ephemeral_text()
    unknown_option = await h.slash(
        DEE, "game new", options={"game": "street-art", "options": "colour=red"}
    )
    assert "no option colour" in unknown_option.ephemeral_text()

    await start_game(h, h.message(lobby), ANA)
    game_id = h.message(lobby).heading.rsplit(" ", 1)[1]
    late = await h.slash(DEE, "game join", game=game_id)
    assert "already started" in late.ephemeral_text()
    not_host = await h.slash(BO, "game abandon")
    assert "Only the host or someone with Manage Server" in not_host.ephemeral_text()
    by_mod = await h.slash(MOD, "game abandon", game=game_id)
    (told,) = [m for m in by_mod.public_messages if "abandoned by Mod" in m.text()]
    assert told.channel_id == h.thread(TABLE).id  # said where the game is played
    assert "Abandoned." in h.message(lobby).text()  # and shown on its lobby message
    after = await h.slash(BO, "game hand")
    assert "not in a game in this channel" in after.ephemeral_text()


async def test_a_click_on_an_out_of_date_panel_shows_the_current_board(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    mover = current_player(board)
    old_panel = (await h.click(mover, board, label="My hand")).message
    rng = random.Random(1)
    await play_turn(h, board, rng, use_slash=True)  # the game moves on
    select = old_panel.selects[0]
    stale = await h.select(mover, old_panel, select.custom_id, [select.options[0]["value"]])
    assert "out of date" in stale.ephemeral_text()
    assert stale.message.ephemeral and stale.message.image()
    assert stale.public_messages == []


async def test_leaving_a_running_game_hands_the_seat_to_an_ai(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    leaver = current_player(board)
    left = await h.slash(leaver, "game leave")
    posted = board_of(left)
    assert posted is not None and "an AI plays their seat" in posted.text()
    assert leaver.id not in posted.mentions


# -- restart --------------------------------------------------------------------------------------


async def test_a_restarted_bot_answers_buttons_the_first_one_posted(
    harness_factory, tmp_path: Path
) -> None:
    fake = FakeDiscord()
    first = await table(harness_factory, tmp_path, fake)
    board = await start_game(first, await open_lobby(first, ANA, BO, CY), ANA)
    await first.close()

    second = await harness_factory(new_bot(tmp_path), fake)  # same database, same Discord
    mover = current_player(board)
    panel = (await second.click(mover, board, label="My hand")).message
    assert panel.ephemeral and "Your hand:" in panel.alt_text
    select = panel.selects[0]
    response = await second.select(mover, panel, select.custom_id, [select.options[0]["value"]])
    assert response.ephemeral_messages or board_of(response) is not None


# -- the clock ------------------------------------------------------------------------------------


async def test_reminders_and_timeouts_are_posted_in_the_channel(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    # The AI's timeout is tested here: no vacation days (those: test_vacation.py).
    await h.bot.service.configure(str(GUILD), vacation_days=0)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    late = current_player(board)
    scheduler = h.bot.get_cog("Scheduler")
    start = time.time()

    await scheduler.tick(start + 25 * 3600)
    await h.settle()
    reminder = h.channel_messages(h.thread(TABLE))[-1]
    assert reminder.mentions == [late.id] and "is waiting for you" in reminder.content
    await scheduler.tick(start + 26 * 3600)  # a reminder is sent once
    await h.settle()
    assert h.channel_messages(h.thread(TABLE))[-1] == reminder

    await scheduler.tick(start + 73 * 3600)
    await h.settle()
    posted = h.channel_messages(h.thread(TABLE))[-1]
    assert_is_board(posted)
    assert f"Time ran out for {late.global_name}" in posted.text()
    assert late.id not in posted.mentions
    # The old board's buttons were for the earlier version: the late player sees the current one.
    panel = (await h.click(late, posted, label="My hand")).message
    assert panel.ephemeral and "Your hand:" in panel.alt_text


async def test_an_expired_interaction_still_gets_the_turn_posted(
    harness_factory, tmp_path: Path
) -> None:
    """Discord answers 10062 when we were too slow: the move is stored, so the board is posted
    to the channel instead, and the game goes on."""
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    mover = current_player(board)
    panel = (await h.click(mover, board, label="My hand")).message
    select = panel.selects[0]
    value = turn_ending(panel)
    before = len(h.channel_messages(h.thread(TABLE)))
    h.fake.fail_next("POST", "/interactions/{interaction_id}/{interaction_token}/callback")
    response = await h.select(mover, panel, select.custom_id, [value], allow_errors=True)
    assert response.interaction.callback_type is None  # Discord never took our answer
    h.take_problems()  # the unanswered interaction was provoked on purpose
    (posted,) = h.channel_messages(h.thread(TABLE))[before:]
    assert_is_board(posted)
    assert mover.id not in posted.mentions and len(posted.mentions) == 1
    status = await h.slash(mover, "game status")
    assert f"It is {current_player(posted).global_name}'s turn" in status.ephemeral_text()


async def until_fireworks_in_hand(h: Harness) -> tuple[SeenMessage, User]:
    """A 3-player game played on until the player to move holds Fireworks: (board, player)."""
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    rng = random.Random(5)
    for _ in range(60):
        mover = current_player(board)
        choices = await h.autocomplete(mover, "streetart play", focused="card", value="Fireworks")
        if choices:
            return board, mover
        board = await play_turn(h, board, rng, use_slash=True)
    raise AssertionError("no Fireworks was dealt in 60 turns")


async def test_a_command_in_the_middle_of_a_turn_offers_the_pending_choice(
    harness_factory, tmp_path: Path
) -> None:
    """Fireworks played: typing another /streetart play brings back the victim buttons."""
    h = await table(harness_factory, tmp_path)
    _, mover = await until_fireworks_in_hand(h)
    played = await h.slash(mover, "streetart play", card="fireworks")
    victims = [b.label for b in played.message.buttons]
    assert played.message.ephemeral and all(" has " in label for label in victims)
    again = await h.slash(mover, "streetart play", card="juggler")
    assert "Finish your turn first" in again.ephemeral_text()
    assert [b.label for b in again.message.buttons] == victims


async def test_the_host_changes_options_in_the_lobby_and_everyone_can_read_them(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = (await h.slash(ANA, "game new", game="street-art")).message
    await h.click(BO, h.message(lobby), label="Join")
    shown = (await h.slash(BO, "game rules")).message  # how to play, then the table's options
    assert shown.ephemeral and shown.embeds[0]["title"].endswith("how to play")
    assert "`two_players=False`" in shown.text() and "game of two" in shown.text()
    assert "`/game rules options:name=value`" in shown.text()

    not_host = await h.slash(BO, "game rules", options={"options": "two_players=true"})
    assert "Only the host (Ana) can change the options" in not_host.ephemeral_text()
    unknown = await h.slash(ANA, "game rules", options={"options": "colour=red"})
    assert "no option colour" in unknown.ephemeral_text()
    malformed = await h.slash(ANA, "game rules", options={"options": "two_players"})
    assert "Write options as `name=value`" in malformed.ephemeral_text()

    changed = await h.slash(ANA, "game rules", options={"options": "two_players=true"})
    assert changed.public_messages and not changed.ephemeral_messages
    assert "Options changed: two_players=True" in changed.original.text()
    now = h.message(lobby)  # the lobby itself, edited in place
    assert "two_players=True" in now.text()  # the lobby's Options field
    assert "(2/5; 2–5 with these options)" in now.text(), "the range widened"
    board = await start_game(h, h.message(lobby), ANA)  # two players may start now
    assert board.image()
    fixed = await h.slash(ANA, "game rules", options={"options": "turn_cap=10"})
    assert "already started" in fixed.ephemeral_text()
    after = await h.slash(BO, "game rules")
    assert "fixed once the game has started" in after.message.text()


async def test_a_choice_on_the_panel_redraws_it_and_the_end_of_the_turn_clears_the_picture(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board, mover = await until_fireworks_in_hand(h)
    panel = (await h.click(mover, board, label="My hand")).message
    special = [o for o in panel.selects[0].options if o["label"] == "Play Fireworks"]
    chosen = await h.select(mover, panel, panel.selects[0].custom_id, [special[0]["value"]])
    follow_up = h.message(panel)
    assert follow_up.buttons and "Your hand:" in follow_up.alt_text
    assert_hand_picture(follow_up)  # one card fewer than before
    assert chosen.public_messages == []
    last = await h.click(mover, follow_up, follow_up.buttons[-1].custom_id)
    while board_of(last) is None:
        last = await h.click(mover, h.message(panel), h.message(panel).buttons[-1].custom_id)
    done = h.message(panel)
    assert done.content.startswith("✅") and done.files == {} and done.buttons == []


async def test_a_choice_from_a_second_select_of_a_long_decision_is_played(
    harness_factory, tmp_path: Path, monkeypatch
) -> None:
    """Decisions beyond 25 moves come as several selects; the second one routes like the first."""
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    mover = current_player(board)
    real_legal = ReadModel.legal
    monkeypatch.setattr(ReadModel, "legal", lambda read, player: real_legal(read, player)[:1] * 30)
    panel = (await h.click(mover, board, label="My hand")).message
    assert len(panel.selects) == 2
    second = panel.selects[1]
    response = await h.select(mover, panel, second.custom_id, [second.options[-1]["value"]])
    monkeypatch.undo()
    posted = board_of(response)
    assert posted is not None and current_player(posted) != mover


async def test_a_turn_picture_a_game_adds_goes_with_that_turn_only(
    harness_factory, tmp_path: Path, monkeypatch
) -> None:
    """images.TURN_EXTRAS (Street Kings' race replay): attached beside the board to the post
    of the turn whose events call for it, and to no other post."""
    seen: list[list[str]] = []

    def replay_of_rain(view: dict, events: list[dict], **_: object) -> list[tuple[str, bytes]]:
        seen.append([e["type"] for e in events])
        rained = any(e["type"] == "played" and e["card"] == "rain" for e in events)
        return [("replay.png", street_art_hand(["rain"]))] if rained else []

    monkeypatch.setitem(images.TURN_EXTRAS, "street-art", replay_of_rain)
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    assert list(board.files) == ["board.png"]
    rng = random.Random(11)
    for _ in range(80):
        board = await play_turn(h, board, rng, use_slash=True)
        rained = "played **Rain**" in board.text()
        assert list(board.files) == (["board.png", "replay.png"] if rained else ["board.png"])
        assert board.image() == board.files["board.png"]
        if rained:
            break
    else:
        raise AssertionError("nobody played Rain in 80 turns")
    assert seen and all(types for types in seen[1:])  # the turn's events reach the game


async def test_another_games_commands_say_which_game_is_yours(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = (await h.slash(ANA, "game new", game="artsee")).message
    await h.click(BO, h.message(lobby), label="Join")
    await h.click(ANA, h.message(lobby), label="Start")
    wrong = await h.slash(ANA, "streetart play", card="rain")
    assert wrong.ephemeral_text() == (
        "Your game here is ArtSee, not Street Art — use its own commands."
    )
    assert wrong.public_messages == []
