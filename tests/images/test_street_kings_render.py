"""The Street Kings renderers draw any public view as a phone-sized PNG (2 to 4 players, hidden
upgrades, any name, mid-race and over), fast and small, and the last race as an animated GIF
with one frame per movement that only a turn ending a race gets."""

from __future__ import annotations

import io
import random
import time
from typing import Any

import pytest
from PIL import Image

import images
from images import street_kings
from rules.street_kings import STREET_KINGS as GAME

NAMES = ["Ana", "Bo 🎲 with a very long display name indeed", "Дмитрий", "中文名字"]


def views_after_a_race(players: int, options: dict[str, Any]) -> tuple[dict[str, Any], list]:
    """The public view right after the first race of a random game, and the events that ended it."""
    state = GAME.start([f"p{i}" for i in range(players)], "render", options)
    rng = random.Random(players)
    while GAME.to_move(state):
        player = GAME.to_move(state)[0]
        state, events = GAME.play(state, player, rng.choice(GAME.legal(state, player)))
        if any(e["type"] == "race_over" for e in events):
            break
    view = GAME.view(state, None)
    view["names"] = {f"p{i}": NAMES[i] for i in range(players)}
    return view, events


@pytest.mark.parametrize(
    "players,options",
    [(2, {"shorter_game": True}), (3, {"hidden_upgrades": True}), (4, {"elite_class": True})],
)
def test_the_board_is_a_phone_sized_png_drawn_fast(players, options):
    view, _ = views_after_a_race(players, options)
    start = time.perf_counter()
    png = images.render("street-kings", view)
    elapsed = time.perf_counter() - start
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.width == 1400 and image.height < 1400
    assert len(png) < 300_000
    assert elapsed < 0.5
    assert images.render("street-kings", view) == png, "the same view draws the same bytes"


def test_the_race_gif_shows_every_movement_then_the_result():
    view, events = views_after_a_race(4, {})
    made = images.extras("street-kings", view, events)
    assert list(made) == ["race.gif"]
    with Image.open(io.BytesIO(made["race.gif"])) as gif:
        assert gif.format == "GIF" and gif.is_animated
        assert gif.n_frames == len(view["last_race"]["log"]) + 2  # the grid, each move, the podium
    assert len(made["race.gif"]) < 1_000_000


def test_no_gif_for_a_turn_without_a_race():
    view, _ = views_after_a_race(2, {})
    assert (
        images.extras("street-kings", view, [{"type": "qualified", "player": "p0", "lane": 1}])
        == {}
    )
    assert images.extras("street-art", view, [{"type": "race_over"}]) == {}


def test_hidden_upgrades_draw_as_counts():
    view, _ = views_after_a_race(3, {"hidden_upgrades": True})
    assert all(car["upgrades"] is None for p in view["players"] for car in p["cars"])
    assert street_kings.render(view)
