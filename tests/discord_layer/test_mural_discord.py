"""Street Art: Mural through Discord as players use it: a whole 2-player game by `/mural`
commands and the ephemeral panel, and each bad input of the issue answered privately with the
game unchanged. The harness validates every payload against Discord's limits and OpenAPI spec."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

from PIL import Image

from cogs.app import create_bot
from rules.mural import MURAL
from rules.mural.state import rotation_options
from tests.harness import Channel, FakeDiscord, Harness, Response, SeenMessage, User
from tests.harness.steps import choice_buttons

pytest_plugins = ["tests.harness.fixtures"]

ANA = User(id=1101, name="ana", global_name="Ana")
BO = User(id=1102, name="bo", global_name="Bo")
CY = User(id=1103, name="cy", global_name="Cy")
BY_ID = {user.id: user for user in (ANA, BO, CY)}
WALL = Channel(id=2101, name="mural")
GUILD = 3101
GAME = "street-art-mural"


def seed_revealing(tile: str) -> str:
    """A seed whose face-up technique is ``tile`` (setup shuffles from the seed only)."""
    return next(
        seed
        for seed in (f"mural-{n}" for n in range(500))
        if MURAL.start(["a", "b"], seed, {})["techniques"][0] == tile
    )


async def table(harness_factory, tmp_path: Path, seed: str) -> Harness:
    bot = create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", discord_token="")
    h = await harness_factory(
        bot, FakeDiscord(), guild_id=GUILD, channels=[WALL], members=[ANA, BO, CY]
    )
    h.bot.service.seed_factory = lambda: seed
    return h


async def start(h: Harness) -> SeenMessage:
    lobby = (await h.slash(ANA, "game new", game=GAME)).message
    await h.click(BO, h.message(lobby), label="Join")
    board = (await h.click(ANA, h.message(lobby), label="Start")).public_messages[-1]
    assert_is_board(board)
    h.game_id = lobby.heading.rsplit(" ", 1)[1]  # type: ignore[attr-defined]
    return board


def assert_is_board(post: SeenMessage) -> None:
    assert not post.ephemeral
    png = post.image()
    assert png is not None and png == post.files["board.png"]
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.width >= 800  # drawn for a phone
    assert {"Board", "Rules"} <= {b.label for b in post.buttons}


def board_of(response: Response) -> SeenMessage | None:
    # The game's own boards, in its thread (not the result post in the channel).
    boards = [
        m for m in response.public_messages if m.files.get("board.png") and m.channel_id != WALL.id
    ]
    return boards[-1] if boards else None


def mover(board: SeenMessage) -> User:
    assert len(board.mentions) == 1, board.text()
    (player_id,) = board.mentions
    return BY_ID[player_id]


async def record(h: Harness):
    return await h.bot.service.get(h.game_id, str(GUILD))  # type: ignore[attr-defined]


def pick(labels: list[str], rng: random.Random) -> int:
    """A player who paints when they can, rarely passes and never goes back."""
    usable = [i for i, label in enumerate(labels) if label != "← Back"]
    painting = [i for i in usable if labels[i].startswith("Paint ")]
    if painting and rng.random() < 0.8:
        return rng.choice(painting)
    staying = [i for i in usable if not labels[i].startswith("Pass")]
    if staying and rng.random() < 0.93:
        return rng.choice(staying)
    return rng.choice(usable)


async def on_panel(h: Harness, player: User, response: Response, rng: random.Random) -> Response:
    """Take one choice from the ephemeral panel the response shows (buttons or a select)."""
    panel = response.ephemeral_messages[-1]
    assert panel.visible_to == player.id
    sure = [b for b in panel.buttons if ":sure:" in (b.custom_id or "")]
    if sure:  # the player chose to pass and was asked first: they are sure
        return await h.click(player, panel, sure[0].custom_id)
    if panel.selects:
        select = panel.selects[0]
        labels = [o["label"] for o in select.options]
        value = select.options[pick(labels, rng)]["value"]
        return await h.select(player, panel, select.custom_id, [value])
    choices = choice_buttons(panel)  # the choices, not the panel's help (issue 39)
    labels = [b.label or "" for b in choices]
    assert labels, f"a turn that is not over offers its next choice: {panel.content}"
    return await h.click(player, panel, choices[pick(labels, rng)].custom_id)


async def by_command(h: Harness, player: User, rng: random.Random) -> Response | None:
    """Start the turn with a `/mural` command built from the autocompletes, if one applies."""
    cards = await h.autocomplete(player, "mural paint", focused="card")
    if cards:
        card = rng.choice(cards)["value"]
        cells = await h.autocomplete(player, "mural paint", focused="cell", card=card)
        return await h.slash(player, "mural paint", card=card, cell=rng.choice(cells)["value"])
    kinds = await h.autocomplete(player, "mural rotate", focused="kind")
    if not kinds:
        return None
    kind = rng.choice(kinds)["value"]
    discs = await h.autocomplete(player, "mural rotate", focused="disc", kind=kind)
    disc = rng.choice(discs)["value"]
    turns = await h.autocomplete(player, "mural rotate", focused="turn", kind=kind, disc=disc)
    return await h.slash(player, "mural rotate", kind=kind, disc=disc, turn=turns[0]["value"])


async def test_a_whole_two_player_game_by_commands_and_the_panel(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path, "mural-whole")
    board = await start(h)
    rules = await h.click(CY, board, label="Rules")
    assert rules.message.ephemeral and "Giro Simples" in rules.message.text()
    rng = random.Random(3)
    turns = commands = 0
    taken_cell_refused = False
    while "Game over" not in board.text():
        player = mover(board)
        if not taken_cell_refused:
            taken_cell_refused = await try_a_taken_cell(h, player)
        response = None
        if turns % 3 == 1:
            response = await by_command(h, player, rng)
            commands += response is not None
        if response is None:
            response = await h.click(player, board, label="My hand")
            # The backpack is drawn, not listed above its picture: each fact once.
            assert "**Backpack**" not in response.message.content
            assert "**Score so far**" in response.message.content
        for _ in range(60):
            posted = board_of(response)
            if posted is not None:
                break
            response = await on_panel(h, player, response, rng)
        else:
            raise AssertionError("a turn never ended")
        board = posted
        assert_is_board(board)
        turns += 1
        assert turns < 300, "the game never ended"
    # The winners said once: by the game's own "Game over" line, then the scores alone.
    assert "Final scores" in board.text() and "Winner" not in board.text()
    assert board.text().count("Game over") == 1
    # "The final post. It says "Game over" twice, and its footer still points to the hand."
    assert board.text().count("Game over") == 1 and "/game hand" not in board.text()
    assert commands >= 5 and turns >= 20, (commands, turns)
    assert taken_cell_refused
    outcome = h.bot.service.outcome(await record(h))
    assert outcome is not None and len(outcome.winners) == 1
    history = await h.slash(BO, "game replay", view="story", game=h.game_id)  # type: ignore[attr-defined]
    assert history.message.ephemeral
    pages = [history.message.text()]  # the newest page, then the others
    for button in history.message.buttons:
        if ":history:" in (button.custom_id or ""):
            pages.append((await h.click(BO, history.message, button.custom_id)).message.text())
    assert any(" rotation " in page for page in pages)
    public = "\n".join(m.text() for m in h.channel_messages(WALL))
    assert "**Backpack**" not in public and "Your move" not in public


async def test_a_command_in_the_middle_of_a_turn_is_applied_when_it_is_legal(
    harness_factory, tmp_path: Path
) -> None:
    """A mural turn has several steps: after a free action a second `/mural` command goes on
    with the same turn (the shared flow only re-offers a pending choice when the command is
    not a legal move now)."""
    h = await table(harness_factory, tmp_path, seed_revealing("BT3"))
    board = await start(h)
    player = mover(board)
    picked = await h.slash(player, "mural technique", tile="Queue Pick")
    choice = next(b for b in picked.message.buttons if b.label.startswith("Take"))
    taken = await h.click(player, picked.message, choice.custom_id)
    assert taken.ephemeral_messages and board_of(taken) is None
    kinds = await h.autocomplete(player, "mural rotate", focused="kind")
    rotated = await h.slash(player, "mural rotate", kind=kinds[0]["value"])
    assert "Finish your turn first" not in rotated.ephemeral_text()
    assert rotated.message.ephemeral and "Your move continues" in rotated.message.content


PASS = "Pass (out until next round)"


async def test_a_pass_from_the_panel_asks_first_and_applies_only_when_confirmed(
    harness_factory, tmp_path: Path
) -> None:
    """ "The first select offers "Pass (out until next round)" with no confirmation. Ask before
    a pass ends a player's round." A confirmation is good only at the version it was asked."""
    h = await table(harness_factory, tmp_path, seed_revealing("BT3"))
    board = await start(h)
    player = mover(board)
    panel = (await h.click(player, board, label="My hand")).message
    before = (await record(h)).version
    # The whole rotations are selects; a pass, a move alone, is a button under them.
    asked = await h.click(player, panel, label=PASS)
    panel = h.message(panel)
    assert "**Pass?** You will be out until the next round" in panel.content
    assert (await record(h)).version == before and board_of(asked) is None  # nothing applied
    yes = panel.button(f"Yes: {PASS}")
    usual = [b for b in panel.buttons if b.custom_id != yes.custom_id] + panel.selects
    assert usual, "the usual choices stay below the question"

    # A free action meanwhile: the old confirmation is out of date and passes nobody.
    picked = await h.slash(player, "mural technique", tile="Queue Pick")
    take = next(b for b in picked.message.buttons if b.label.startswith("Take"))
    await h.click(player, picked.message, take.custom_id)
    moved = (await record(h)).version
    stale = await h.click(player, panel, yes.custom_id)
    assert (await record(h)).version == moved and board_of(stale) is None
    assert "out of date" in stale.ephemeral_text()  # the current board, privately

    # Asked again at the current version, and confirmed: the pass is applied.
    h2 = await table(harness_factory, tmp_path / "again", seed_revealing("BT3"))
    board = await start(h2)
    player = mover(board)
    panel = (await h2.click(player, board, label="My hand")).message
    await h2.click(player, panel, label=PASS)
    confirmed = await h2.click(player, h2.message(panel), label=f"Yes: {PASS}")
    posted = board_of(confirmed)
    assert posted is not None and f"**{player.global_name}** passed." in posted.text()


async def try_a_taken_cell(h: Harness, player: User) -> bool:
    """Once a card is on the mural and ``player`` can paint: painting onto its cell is
    refused privately and changes nothing. False while that is not possible yet."""
    state = h.bot.service.state(await record(h))
    painted = [
        f"{'ABCDE'[c]}{r + 1}"
        for r, row in enumerate(state["mural"])
        for c, cell in enumerate(row)
        if cell is not None
    ]
    cards = await h.autocomplete(player, "mural paint", focused="card")
    if not painted or not cards:
        return False
    await refused(
        h, player, "mural paint", "already painted", card=cards[0]["value"], cell=painted[0]
    )
    return True


# -- bad input -----------------------------------------------------------------------------------


async def refused(h: Harness, player: User, command: str, says: str, **options: Any) -> None:
    """The command is answered privately with ``says`` and the game is unchanged."""
    before = (await record(h)).version
    response = await h.slash(player, command, **options)
    assert says in response.ephemeral_text(), response.ephemeral_text()
    assert response.public_messages == []
    assert (await record(h)).version == before


async def test_each_bad_input_gets_a_private_sentence_and_changes_nothing(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path, seed_revealing("BT3"))
    board = await start(h)
    player = mover(board)
    other = BO if player == ANA else ANA
    state = h.bot.service.state(await record(h))

    await refused(h, other, "mural pass", "It is")
    await refused(h, CY, "mural pass", "not in a game")
    await refused(h, player, "mural mix", "Mixing needs two basic paints", paints="R+Y")
    display = state["display"][0]
    await refused(h, player, "mural paint", f"cannot pay {display}", card=display)
    await refused(h, player, "mural paint", "top card of the deck", card=state["deck"][0])
    await refused(h, player, "mural paint", "no Graffiti card", card="Mona Lisa")
    await refused(h, player, "mural end-turn", "Take your main action first")

    # A rotation that aligns nothing collectable.
    disc, steps = next(
        (d, s)
        for d in range(4)
        for s in (1, -1)
        if ((d,), (s,)) not in rotation_options(state, "simple")
    )
    await refused(
        h,
        player,
        "mural rotate",
        "nothing to collect",
        kind="simple",
        disc=str(disc + 1),
        turn=f"{steps:+d}",
    )

    # A technique already used this round.
    picked = await h.slash(player, "mural technique", tile="BT3")
    take = next(b for b in picked.message.buttons if b.label.startswith("Take"))
    await h.click(player, picked.message, take.custom_id)
    await refused(h, player, "mural technique", "already used Queue Pick", tile="BT3")
    await refused(h, player, "mural technique", "no technique", tile="Banksy")


async def test_a_technique_without_a_grafiteiro_is_refused(harness_factory, tmp_path: Path) -> None:
    """The other player passes; the first spends all 4 grafiteiros on big and double rotations
    over four turns, then asks for the technique. Each of those turns ends with a public board,
    even while the same player moves again."""
    h = await table(harness_factory, tmp_path, seed_revealing("BT3"))
    board = await start(h)
    player = mover(board)
    other = BO if player == ANA else ANA
    for turn, kind in enumerate(("big", "big", "double", "double")):
        if turn == 1:
            await h.slash(other, "mural pass")
        discs = await h.autocomplete(player, "mural rotate", focused="disc", kind=kind)
        disc = discs[0]["value"]
        turns = await h.autocomplete(player, "mural rotate", focused="turn", kind=kind, disc=disc)
        rotated = await h.slash(
            player, "mural rotate", kind=kind, disc=disc, turn=turns[0]["value"]
        )
        collect = [b for b in rotated.message.buttons if b.label.startswith("Collect")]
        if collect:
            await h.click(player, rotated.message, collect[0].custom_id)
        ended = board_of(await h.slash(player, "mural end-turn"))
        assert ended is not None and mover(ended) == (other if turn == 0 else player)
    seat = h.bot.service.state(await record(h))["seats"][0 if player == ANA else 1]
    assert seat["grafiteiros"] == 0 and seat["rotations"] == {"big": 2, "double": 2}
    await refused(h, player, "mural technique", "no grafiteiro left", tile="BT3")
