"""The Street Art board renderer (images/street_art.py) draws any view of the contract
(docs/street-art-contract.md) as a phone-readable PNG: 2 to 5 players, mid-game and over, any
display name, the same bytes for the same view, and nothing of a hand."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import images
from images import kit, street_art
from rules.street_art.data import CARDS
from tests.images.drawing import draw, draw_game, names_of

ROOT = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SIZE_BUDGET = 250 * 1024

LONG = "Alexandra the Magnificent Fire-Breathing Juggler of the Night Market"
UNICODE_NAMES = [
    "Bo 🎲",  # emoji the font lacks
    "🎉🎉🎉",  # nothing drawable left
    "Zoë Ça-va ß",  # Latin accents
    "Дмитрий Ω",  # Cyrillic and Greek
    "中文名字",  # CJK: not in DejaVu Sans
    "محمد",  # Arabic (right to left)
    "e\u0301\u200dx\ufe0f👨\u200d👩\u200d👧",  # combining mark, joiners, variation selector
    "",  # empty: falls back to the id
    "tab\tnew\nline\x00null",
]


def player(pid: str, seat: int, hearts: int, top: str | None, pile: int, hand: int) -> dict:
    return {"id": pid, "hearts": hearts, "top": top, "pile": pile, "hand_size": hand, "seat": seat}


def mid_game_view(n: int, *, names: dict[str, str] | None = None) -> dict[str, Any]:
    """Turn 14: D (seat 3) played the Fire Breather and stole 4 hearts from A, who showed it
    most recently (the rulebook's example); now it is the next player's turn."""
    tops = ["fire-breather", "juggler", "brass-band", "fire-breather", "rain"]
    ids = ["111111111111111111", "222222222222222222", "ai:1", "444444444444444444", "ai:2"][:n]
    actor = ids[-1] if n < 4 else ids[3]
    victim = ids[0]
    players = [player(pid, i, [6, 3, 9, 10, 2][i], tops[i], i + 2, 5) for i, pid in enumerate(ids)]
    players[ids.index(actor)]["top"] = "fire-breather"
    current = ids[(ids.index(actor) + 1) % n]
    view: dict[str, Any] = {
        "game": "street-art",
        "viewer": None,
        "players": players,
        "middle": 21,
        "box": 0,
        "draw_pile": 17,
        "phase": "play",
        "current": current,
        "to_move": [current],
        "turn": 14,
        "last": {
            "player": actor,
            "events": [
                {"type": "played", "player": actor, "card": "fire-breather"},
                {
                    "type": "stole",
                    "from": victim,
                    "to": actor,
                    "hearts": 4,
                    "card": "fire-breather",
                },
                {"type": "drew", "player": actor, "cards": 1},
                {"type": "turn", "player": current},
            ],
        },
        "outcome": None,
    }
    if names is not None:
        view["names"] = names
    return view


def game_over_view(n: int) -> dict[str, Any]:
    """The middle ran dry: two players tie on 18 hearts and both win."""
    view = mid_game_view(n)
    scores = {p["id"]: h for p, h in zip(view["players"], [18, 18, 7, 11, 6], strict=False)}
    for p in view["players"]:
        p["hearts"] = scores[p["id"]]
    last_player = view["players"][1]["id"]
    winners = [pid for pid, s in scores.items() if s == max(scores.values())]
    view.update(
        middle=0,
        phase="over",
        current=None,
        to_move=[],
        last={
            "player": last_player,
            "events": [
                {"type": "played", "player": last_player, "card": "juggler"},
                {"type": "took", "player": last_player, "hearts": 2},
                {"type": "game_over", "scores": scores, "winners": winners},
            ],
        },
        outcome={"scores": scores, "winners": winners, "details": {}},
    )
    return view


def decode(png: bytes) -> Image.Image:
    assert png.startswith(PNG_SIGNATURE)
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("make", [mid_game_view, game_over_view], ids=["mid-game", "over"])
def test_renders_a_png_for_2_to_5_players(n, make):
    png = draw_game("street-art", make(n))
    im = decode(png)
    assert im.width == street_art.WIDTH
    rows = 1 if n <= 3 else 2
    assert im.height > rows * street_art.TILE_H
    assert im.width >= 1.3 * im.height, "landscape: Discord shows it large inline"
    assert len(png) < SIZE_BUDGET


@pytest.mark.parametrize("n", [3, 5])
def test_long_and_unicode_names_render(n):
    view = mid_game_view(n)
    ids = [p["id"] for p in view["players"]]
    for names in (
        dict.fromkeys(ids, LONG),
        dict(zip(ids, UNICODE_NAMES, strict=False)),
        dict(zip(ids, UNICODE_NAMES[n:], strict=False)),
    ):
        decode(draw(street_art.render, {**view, "names": names}))
    decode(draw(street_art.render, {**game_over_view(n), "names": dict.fromkeys(ids, LONG)}))


def test_display_names_fall_back_to_the_id_then_the_seat():
    view = mid_game_view(3, names={"111111111111111111": "Ana 🎲", "ai:1": "🎉"})
    names = street_art.display_names(view, names_of(view))
    assert names == {
        "111111111111111111": "Ana",
        "222222222222222222": "222222222222222222",
        "ai:1": "Player 3",
    }


def test_drawable_drops_what_the_font_lacks_and_keeps_what_it_has():
    assert kit.drawable("Zoë 🎲 Ω") == "Zoë Ω"
    assert kit.drawable("👨\u200d👩\u200d👧") == ""
    assert kit.drawable("e\u0301") == "e\u0301"
    assert kit.drawable("a\tb\n") == "a b"


def test_equal_views_give_equal_bytes():
    a = draw(street_art.render, mid_game_view(5, names={"ai:1": LONG}))
    b = draw(street_art.render, copy.deepcopy(mid_game_view(5, names={"ai:1": LONG})))
    assert a == b
    assert draw(street_art.render, json.loads(json.dumps(game_over_view(4)))) == draw(
        street_art.render, game_over_view(4)
    )


def test_a_public_view_renders():
    view = mid_game_view(4)
    assert "hand" not in view and view["viewer"] is None
    decode(draw_game("street-art", view))


def test_the_board_never_depends_on_a_hand():
    public = mid_game_view(5)
    seated = {**public, "hand": ["brass-band", "brass-band", "fireworks", "juggler", "rain"]}
    other_hand = {**public, "hand": ["beatboxer"]}
    png = draw(street_art.render, public)
    assert draw(street_art.render, seated) == png
    assert draw(street_art.render, other_hand) == png


def test_every_turn_phase_and_the_game_over_banner_render():
    for phase in ("play", "fireworks", "brass-band"):
        decode(draw(street_art.render, {**mid_game_view(3), "phase": phase}))
    decode(draw(street_art.render, {**mid_game_view(3), "last": None, "turn": 1}))


def test_rain_shows_the_losses_and_the_card_that_left():
    """The rulebook's example: "D plays a Rain. Therefore A must put 3 hearts into the box, and
    B and C 2 each." Then all piles are collected, so no card shows."""
    view = mid_game_view(4)
    a, b, c, d = (p["id"] for p in view["players"])
    view["names"] = {a: "A", b: "B", c: "C", d: "D"}
    for p in view["players"]:
        p.update(top=None, pile=0)
    view["last"] = {
        "player": d,
        "events": [
            {"type": "played", "player": d, "card": "rain"},
            {"type": "rain", "player": d, "losses": {a: 3, b: 2, c: 2}},
            {"type": "piles_collected", "cards": 9},
        ],
    }
    assert street_art.heart_changes(view["last"]["events"]) == {a: -3, b: -2, c: -2}
    text = street_art.last_move_text(view["last"], street_art.display_names(view, names_of(view)))
    assert text == "D played Rain, A −3, B −2, C −2 ♥ to the box"
    decode(draw(street_art.render, view))


def test_heart_changes_follow_the_rulebook_example():
    """A takes 4 from the middle; B steals them with the second Fire Breather."""
    took = [{"type": "took", "player": "A", "hearts": 4}]
    stole = [{"type": "stole", "from": "A", "to": "B", "hearts": 4, "card": "fire-breather"}]
    assert street_art.heart_changes(took) == {"A": 4}
    assert street_art.heart_changes(stole) == {"A": -4, "B": 4}


def test_every_card_has_its_own_face_colour_and_icon():
    faces = {card: street_art.card_face(card).tobytes() for card in CARDS}
    assert len(set(faces.values())) == len(CARDS)
    assert set(street_art.STYLES) == set(CARDS)
    icons = {street_art.STYLES[card].icon for card in CARDS}
    assert len(icons) == len(CARDS), "each card type has its own drawn shape"
    for card in CARDS:  # specials show a symbol, stars their value, in the corners
        assert street_art.card_corner(card)


def test_the_size_budget_holds_for_a_busy_five_player_board():
    view = mid_game_view(
        5, names=dict.fromkeys((p["id"] for p in mid_game_view(5)["players"]), LONG)
    )
    for p in view["players"]:
        p["hand_size"] = 9
        p["hearts"] = 59
    assert len(draw(street_art.render, view)) < SIZE_BUDGET


def test_unknown_game_is_a_key_error():
    with pytest.raises(KeyError):
        draw_game("no-such-game", mid_game_view(3))


def test_views_from_the_engine_render():
    """A random playout of the real engine: every public view renders."""
    rules = pytest.importorskip("rules")
    game = rules.GAMES["street-art"]
    players = ["u1", "u2", "u3", "u4"]
    state = game.start(players, "render-seed", {})
    rnd = random.Random(7)
    for _ in range(400):
        to_move = game.to_move(state)
        if not to_move:
            break
        state, _ = game.play(state, to_move[0], rnd.choice(game.legal(state, to_move[0])))
        decode(draw(street_art.render, game.view(state, None)))
    assert game.outcome(state) is not None


def test_images_import_no_discord_store_bot_or_cogs():
    probe = (
        "import sys, json\n"
        "import images, images.kit, images.street_art\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('discord', 'aiosqlite', 'aiohttp', 'bot', 'cogs')]\n"
        "print(json.dumps(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == []


def test_the_hand_is_drawn_as_card_faces_left_to_right_and_an_empty_hand_as_nothing() -> None:
    hand = ["fireworks", "juggler", "rain"]
    png = images.render_hand("street-art", {"hand": hand}, names={})
    assert png is not None
    with Image.open(io.BytesIO(png)) as picture:
        picture = picture.convert("RGB")
        assert picture.size == (2 * 20 + 3 * 146 + 2 * 18, 204 + 2 * 20)
        for i, card in enumerate(hand):  # each card's frame has that card's colour
            x = 20 + i * (146 + 18) + 3
            seen = picture.getpixel((x, 20 + 102))
            expected = street_art.STYLES[card].colour
            assert max(abs(a - b) for a, b in zip(seen, expected, strict=True)) < 12, card
    assert images.render_hand("street-art", {"hand": []}, names={}) is None
    assert images.render_hand("street-art", {}, names={}) is None  # a spectator's view
