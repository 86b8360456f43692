"""The Street Art: Mural board (images/mural.py) draws any public view as a phone-readable PNG:
2 to 4 players, mid-game and over, any display name, the same bytes for the same view, within
the size and time budgets, and nothing the view does not show (the deck below its top)."""

from __future__ import annotations

import copy
import io
import random
import time
from typing import Any

import pytest
from PIL import Image

from images import mural
from rules.mural import MURAL
from tests.images.drawing import draw, draw_game

SIZE_BUDGET = 250 * 1024
NAMES = ["Ana", "Bo", "Alexandra the Magnificent Graffiti Queen of the Night", "Zoë 🎲 中文"]


def played(count: int, decisions: int, seed: str = "render") -> dict[str, Any]:
    """A state after ``decisions`` random decisions (never "back"), as the public sees it."""
    rng = random.Random(seed)
    state = MURAL.start([f"p{i}" for i in range(count)], seed, {})
    for _ in range(decisions):
        if not MURAL.to_move(state):
            break
        player = MURAL.to_move(state)[0]
        legal = [a for a in MURAL.legal(state, player) if a["type"] != "back"]
        paint = [a for a in legal if a["type"] == "paint"]
        state, _ = MURAL.play(state, player, rng.choice(paint or legal))
    return state


def public(state: dict[str, Any]) -> dict[str, Any]:
    view = MURAL.view(state, None)
    view["names"] = {p: NAMES[i] for i, p in enumerate(state["players"])}
    return view


def image_of(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("decisions", [0, 90, 5000])
def test_every_table_size_renders_mid_game_and_at_the_end(count: int, decisions: int) -> None:
    png = draw_game("street-art-mural", public(played(count, decisions)))
    assert png.startswith(b"\x89PNG") and len(png) < SIZE_BUDGET
    image = image_of(png)  # drawn for a phone: narrow, never taller than twice its width
    assert image.width == mural.PHONE_W and image.width >= 0.5 * image.height
    detail = image_of(draw(mural.render_detail, public(played(count, decisions))))
    assert detail.width == mural.WIDTH and detail.width >= 1.3 * detail.height


def test_the_same_view_gives_the_same_bytes_within_the_time_budget() -> None:
    view = public(played(4, 120))
    draw(mural.render, view)  # warm the cached disc faces
    start = time.perf_counter()
    first = draw(mural.render, view)
    elapsed = time.perf_counter() - start
    assert first == draw(mural.render, copy.deepcopy(view))
    assert elapsed < 0.5, f"{elapsed * 1000:.0f} ms"


def test_the_deck_below_its_top_never_shows() -> None:
    state = played(3, 60)
    other = copy.deepcopy(state)
    other["deck"][1:] = list(reversed(other["deck"][1:]))
    assert other["deck"] != state["deck"]
    assert draw(mural.render, public(state)) == draw(mural.render, public(other))


def near(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    """Equal but for the palette quantisation of the PNG."""
    return all(abs(a - b) <= 24 for a, b in zip(pixel, colour, strict=False))


def test_a_contact_is_marked_when_its_segments_match() -> None:
    """Setup aligns all three contacts: each shows the green "=" mark; turning disc 1 breaks
    the first."""
    state = MURAL.start(["a", "b"], "contacts", {})
    image = image_of(draw(mural.render_detail, public(state))).convert("RGB")
    board = draw(mural.render, public(state))
    x = mural.disc_centre(0)[0] + mural.DISC_R + mural.DISC_GAP // 2
    y = mural.disc_centre(0)[1]
    assert near(image.getpixel((x + 8, y + 9)), mural.GOOD)
    while MURAL.view(state, None)["contacts"][0]["same"]:
        state["discs"][0]["orientation"] = (state["discs"][0]["orientation"] + 1) % 8
    image = image_of(draw(mural.render_detail, public(state))).convert("RGB")
    assert not near(image.getpixel((x + 8, y + 9)), mural.GOOD)
    assert draw(mural.render, public(state)) != board


def test_names_the_font_cannot_draw_fall_back_to_the_seat() -> None:
    view = public(played(2, 30))
    view["names"] = {"p0": "🎉🎉", "p1": ""}
    assert draw(mural.render, view).startswith(b"\x89PNG")


def test_the_header_tells_the_latest_turn_tersely() -> None:
    view = public(MURAL.start(["p0", "p1"], "header", {}))
    view["previous"] = {
        "player": "p1",
        "events": [
            {"type": "rotated", "player": "p1", "kind": "double", "discs": [1, 2],
             "steps": [1, -1], "aligned": [1]},
            {"type": "collected", "player": "p1", "paint": "R", "disc": 1, "segment": 0},
            {"type": "mixed", "player": "p1", "paints": ["R", "Y"]},
            {"type": "queued", "paints": ["R", "Y"]},
        ],
    }  # fmt: skip
    names = {"p0": "Ana", "p1": "Bo"}
    assert mural.last_turn_text(view, names) == (
        "Last turn: Bo — turned disc 2 ↻1, 3 ↺1 · took R · mixed R+Y"
    )
    assert mural.turned_discs(view) == {1, 2}
