"""Street Kings through Discord as players use it: a whole Shorter Game by `/kings` commands,
the private panel's selects and buttons, the animated race on the turn post, and bad input
answered privately with the game unchanged."""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image

from tests.discord_layer.test_street_art_discord import (
    ANA,
    BO,
    BY_ID,
    CY,
    TABLE,
    assert_is_board,
    board_of,
    table,
)
from tests.harness import Harness, Response, SeenMessage, User

pytest_plugins = ["tests.harness.fixtures"]


async def open_kings(h: Harness, host: User, *others: User, options: str = "") -> SeenMessage:
    fields = {"game": "street-kings", **({"options": options} if options else {})}
    lobby = (await h.slash(host, "game new", options=fields)).message
    for player in others:
        await h.click(player, h.message(lobby), label="Join")
    response = await h.click(host, h.message(lobby), label="Start")
    board = response.public_messages[-1]
    assert_is_board(board)
    return board


def mover(board: SeenMessage) -> User:
    (player_id,) = board.mentions
    return BY_ID[player_id]


PREFERRED = ("Qualify in lane", "Race the", "class race", "Fire NOZ", "Done selling", "Buy nothing")


def pick(labels: list[str], rng: random.Random) -> int:
    """A quick player: qualify, race, answer; otherwise any move but a NOZ policy change."""
    for prefix in PREFERRED:
        matches = [i for i, label in enumerate(labels) if prefix in label]
        if matches:
            return rng.choice(matches)
    return rng.choice([i for i, label in enumerate(labels) if not label.startswith("NOZ:")])


async def answer_panel(
    h: Harness, player: User, panel: SeenMessage, rng: random.Random
) -> Response:
    """Pick on a private panel: its buttons mid-turn, else its select."""
    if panel.buttons and not panel.selects:
        labels = [b.label or "" for b in panel.buttons]
        return await h.click(player, panel, panel.buttons[pick(labels, rng)].custom_id)
    select = panel.selects[0]
    labels = [o["label"] for o in select.options]
    value = select.options[pick(labels, rng)]["value"]
    return await h.select(player, panel, select.custom_id, [value])


async def play_decision(
    h: Harness, board: SeenMessage, rng: random.Random, slash: bool
) -> SeenMessage:
    """One player's decisions until a public board is posted; returns it."""
    player = mover(board)
    response = None
    if slash:
        for command, option in (
            ("kings qualify", "lane"),
            ("kings race", "car"),
            ("kings class", "choice"),
        ):
            choices = await h.autocomplete(player, command, focused=option, value="")
            if choices:
                response = await h.slash(player, command, **{option: rng.choice(choices)["value"]})
                break
    if response is None:
        panel = (await h.click(player, board, label="My hand")).message
        assert panel.ephemeral and "Your hand:" in panel.content
        response = await answer_panel(h, player, panel, rng)
    for _ in range(30):
        posted = board_of(response)
        if posted is not None:
            return posted
        response = await answer_panel(h, player, response.ephemeral_messages[-1], rng)
    raise AssertionError("a turn never ended")


async def test_a_whole_shorter_game_by_commands_and_panels(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    board = await open_kings(h, ANA, BO, options="shorter_game=true")
    assert "Street Kings" in board.text() and "begins" in board.text()
    rng = random.Random(5)
    gifs = 0
    for turn in range(300):
        if "Game over" in board.text():
            break
        board = await play_decision(h, board, rng, slash=turn % 2 == 0)
        assert_is_board(board)
        if "race.gif" in board.files:
            gifs += 1
            with Image.open(io.BytesIO(board.files["race.gif"])) as gif:
                assert gif.format == "GIF" and gif.n_frames > 3
            assert "Race result" in board.text()
    assert "Game over" in board.text() and "Street King" in board.text()
    assert "Final scores" in board.text()
    assert gifs >= 3, "every race is shown step by step"
    public = "\n".join(m.text() for m in h.channel_messages(TABLE))
    assert "Your hand" not in public and "location cards:" not in public


async def test_bad_input_is_answered_privately_and_changes_nothing(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await open_kings(h, ANA, BO, CY, options="shorter_game=true")
    first = mover(board)
    service = h.bot.service
    record = (await service.channel_games(str(h.world.guild_id), str(TABLE.id)))[0]

    async def unchanged(response: Response, expected: str) -> None:
        assert expected in response.ephemeral_text()
        assert response.public_messages == []
        assert (await service.get(record.id)).version == version

    version = (await service.get(record.id)).version
    await unchanged(
        await h.slash(first, "kings class", choice="A"),
        "You own no A car, so you cannot choose a A race",
    )
    other = next(p for p in (ANA, BO, CY) if p != first)
    await unchanged(await h.slash(other, "kings pass"), "turn")
    choices = await h.autocomplete(first, "kings class", focused="choice", value="")
    assert [c["value"] for c in choices] == ["D", "C"]
    response = await h.slash(first, "kings class", choice="D")
    panel = response.ephemeral_messages[-1]  # the class is chosen; the first action follows
    assert "D class" in panel.content
    select = panel.selects[0]
    lane_1 = next(o["value"] for o in select.options if o["label"] == "Qualify in lane 1")
    taken = board_of(await h.select(first, panel, select.custom_id, [lane_1]))
    assert taken is not None and "qualified in lane 1" in taken.text()
    version = (await service.get(record.id)).version
    taker = mover(taken)
    await unchanged(
        await h.slash(taker, "kings qualify", lane="1"), "Lane 1 is taken: choose a free lane"
    )
    await unchanged(await h.slash(taker, "kings show", car="A01"), "You do not own that car")
