"""The ArtSee board renderer (images/artsee.py) draws any public view of the engine as a
phone-readable PNG: 2 to 5 players, every phase, the end, long galleries, any display name, the
same bytes for the same view, fast and small, and nothing of a hand but its card backs."""

from __future__ import annotations

import io
import json
import random
import time
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

import images
from images import artsee, kit
from rules.artsee import ARTSEE
from rules.artsee.engine import ArtSeeState
from tests.images.drawing import draw, draw_game, names_of

SIZE_BUDGET = 250 * 1024
TIME_BUDGET_MS = 400  # generous for a loaded 2-core CI box; typical is 40-110 ms
NAMES = ["Ana", "Bo 🎲", "Alexandra the Magnificent Curator of the Night Museum", "中文名字", ""]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image


def playout(count: int, seed: str, policies: dict[str, str] | None = None) -> list[ArtSeeState]:
    """Every state of one random game."""
    players = [f"p{i}" for i in range(count)]
    state = ARTSEE.start(players, seed, {})
    for player, policy in (policies or {}).items():
        state, _ = ARTSEE.play(state, player, {"type": "policy", "policy": policy})
    rnd = random.Random(seed)
    states = [state]
    while ARTSEE.to_move(state):
        player = rnd.choice(ARTSEE.to_move(state))
        state, _ = ARTSEE.play(state, player, rnd.choice(ARTSEE.legal(state, player)))
        states.append(state)
    return states


def public(state: ArtSeeState, names: list[str] | None = None) -> dict[str, Any]:
    view = ARTSEE.view(state, None)
    view["names"] = {f"p{i}": name for i, name in enumerate(names or NAMES)}
    return view


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_every_phase_and_the_end_render_for_every_player_count(count: int) -> None:
    states = playout(count, f"render-{count}", {"p1": "ask"})
    seen_phases = set()
    for state in states[:: max(1, len(states) // 10)] + states[-1:]:
        seen_phases.add(state.phase)
        image = decode(draw(artsee.render, public(state)))
        assert image.width == artsee.PHONE_W and image.height > 300  # the end: no supply row
        detail = decode(draw(artsee.render_detail, public(state)))
        assert detail.width >= artsee.WIDTH
    assert "over" in seen_phases


def test_each_phase_renders() -> None:
    by_phase: dict[str, ArtSeeState] = {}
    for seed in ("a", "b", "c"):
        for state in playout(3, seed, {"p1": "ask", "p2": "ask"}):
            by_phase.setdefault(state.phase, state)
    assert set(by_phase) == {"card", "column", "claim", "slot", "draw", "welcome", "over"}
    for state in by_phase.values():
        decode(draw_game("artsee", public(state)))


def test_renders_are_fast_small_and_deterministic() -> None:
    state = playout(5, "budget")[-1]
    view = public(state)
    start = time.perf_counter()
    png = draw(artsee.render, view)
    elapsed_ms = (time.perf_counter() - start) * 1000
    assert len(png) < SIZE_BUDGET and elapsed_ms < TIME_BUDGET_MS
    assert draw(artsee.render, json.loads(json.dumps(view))) == png


def test_a_very_long_gallery_widens_the_detail_and_keeps_cards_readable() -> None:
    state = playout(2, "long")[0]
    long_row = tuple((card,) for card in sorted(c for pile in state.piles for c in pile)[:30])
    assert len(long_row) == 30
    gallery = replace(state.galleries[0], columns=long_row, visitors=(1,) * 30)
    wide = replace(state, galleries=(gallery, state.galleries[1]))
    geo = artsee.geometry(ARTSEE.view(wide, None))
    assert geo.card_w == artsee.CARD_W_MIN and geo.width > artsee.WIDTH
    image = decode(draw(artsee.render_detail, public(wide)))
    assert image.width == geo.width and image.width >= 1.3 * image.height
    board = decode(draw(artsee.render, public(wide)))  # the phone board narrows its cells
    assert board.width == artsee.PHONE_W


def test_the_board_counts_the_art_pieces_each_column_shows() -> None:
    """The table's numbers are the pieces of every card of a column, by category: what the
    arrow of a card played next to it scores."""
    state = playout(2, "pieces")[40]
    for player in ARTSEE.view(state, None)["players"]:
        for column in player["columns"]:
            counts = artsee.column_pieces(column)
            assert sum(counts.values()) == sum(len(artsee.EXHIBITS[c].pieces) for c in column)
            for category, n in counts.items():
                assert n == sum(category in artsee.EXHIBITS[c].pieces for c in column)


def test_the_view_of_a_seated_player_draws_the_same_public_board() -> None:
    """Hand fronts and the chosen card are never drawn: a player's own view renders exactly as
    the public one."""
    for state in playout(3, "secret")[:30:3]:
        seated = ARTSEE.view(state, state.players[state.current])
        seated["names"] = public(state)["names"]
        assert draw(artsee.render, seated) == draw(artsee.render, public(state))


def test_visitor_letters_are_unique_even_when_initials_clash() -> None:
    view = public(playout(3, "letters")[0], ["Ana", "Abe", "Bo"])
    letters = artsee.seat_letters(view, kit.display_names(view, names_of(view)))
    assert letters == {"p0": "1", "p1": "2", "p2": "B"}


def test_unknown_names_fall_back_to_a_drawable_name() -> None:
    view = public(playout(2, "names")[0], ["🎉🎉", ""])
    assert kit.display_names(view, names_of(view)) == {"p0": "Player 1", "p1": "p1"}
    decode(draw(artsee.render, view))


def test_the_private_hand_shows_each_card_front_in_order_and_frames_the_chosen_one() -> None:
    state = ARTSEE.start(["a", "b"], "hand-picture", {})
    me, other = ARTSEE.to_move(state)[0], "ab".replace(ARTSEE.to_move(state)[0], "")
    own = ARTSEE.view(state, me)
    cards = own["hand_cards"]
    picture = decode(images.render_hand("artsee", own, names={}))
    width = 2 * artsee.MARGIN + len(cards) * (artsee.CARD_W_MAX + artsee.HAND_GAP) - artsee.HAND_GAP
    assert picture.width == width
    for i, card in enumerate(cards):  # each card's fill is its featured category's colour
        x = artsee.MARGIN + i * (artsee.CARD_W_MAX + artsee.HAND_GAP) + 8  # inside the edge
        seen = picture.convert("RGB").getpixel((x, artsee.MARGIN + 70))
        expected = artsee.CATEGORY_COLOURS[artsee.EXHIBITS[card].featured]
        assert max(abs(a - b) for a, b in zip(seen, expected, strict=True)) < 16, card

    chosen = cards[-1]
    state, _ = ARTSEE.play(state, me, {"type": "card", "card": chosen})
    framed = decode(images.render_hand("artsee", ARTSEE.view(state, me), names={}))
    assert framed.size == picture.size and framed.tobytes() != picture.tobytes()
    assert (
        images.render_hand("artsee", ARTSEE.view(state, None), names={}) is None
    )  # the public: nothing
    assert images.render_hand("artsee", ARTSEE.view(state, other), names={}) != images.render_hand(
        "artsee", ARTSEE.view(state, me), names={}
    )
