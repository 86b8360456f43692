"""The Street Kings renderers (images/street_kings.py) draw real engine views: the board as a
phone-sized PNG at every stage of a game, and the last race as an animated GIF; nothing secret
(a face-down location card, a hidden upgrade, a hand) changes a single pixel."""

from __future__ import annotations

import copy
import io
import itertools
import random
import time
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from PIL import Image

from images import kit, street_kings
from rules.street_kings import STREET_KINGS
from rules.street_kings.data import upgrade_of
from tests.images.drawing import draw, names_of

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_BUDGET = 250 * 1024
GIF_BUDGET = 250 * 1024
NAMES = ["Alexandra the Magnificent", "Bo 🎲", "Zoë", "Дмитрий"]

State = dict[str, Any]


def playout(
    n: int, seed: int, until: Callable[[State], bool], options: dict[str, Any] | None = None
) -> State:
    """Random legal moves from a seeded game until ``until`` holds (the test fails if it never
    does, so every state below is one the engine really reaches)."""
    rnd = random.Random(seed)
    state = STREET_KINGS.start([f"p{i}" for i in range(n)], str(seed), options or {})
    for _ in range(5000):
        if until(state):
            return state
        movers = STREET_KINGS.to_move(state)
        assert movers, "the game ended before the wanted state"
        player = movers[0]
        state, _ = STREET_KINGS.play(state, player, rnd.choice(STREET_KINGS.legal(state, player)))
    raise AssertionError("the wanted state never came")


def public(state: State) -> dict[str, Any]:
    view = STREET_KINGS.view(state, None)
    view["names"] = {f"p{i}": NAMES[i] for i in range(len(state["players"]))}
    return view


def hidden_spot(state: State) -> bool:
    return any(spot["card"] and not spot["revealed"] for spot in state["spots"])


def has_upgrades(state: State) -> bool:
    return any(car["upgrades"] for seat in state["seats"] for car in seat["cars"])


STATES: dict[str, tuple[int, int, Callable[[State], bool], dict[str, Any]]] = {
    "action-4p-hidden-spot": (
        4,
        3,
        lambda s: s["phase"] == "action" and s["round"] >= 3 and hidden_spot(s),
        {},
    ),
    "mid-race-4p": (4, 5, lambda s: s["race"] is not None and s["race"]["log"], {}),
    "after-race-2p": (2, 2, lambda s: s["last_race"] is not None and s["phase"] == "action", {}),
    "after-race-4p": (4, 1, lambda s: s["last_race"] is not None and s["round"] >= 4, {}),
    "hidden-upgrades-3p": (
        3,
        7,
        lambda s: s["phase"] == "action" and s["last_race"] is not None and has_upgrades(s),
        {"hidden_upgrades": True},
    ),
    "game-over-3p": (3, 9, lambda s: s["phase"] == "over", {"shorter_game": True}),
}


@cache
def state_of(name: str) -> State:
    n, seed, until, options = STATES[name]
    return playout(n, seed, until, options)


def decode(data: bytes, fmt: str) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    assert im.format == fmt
    return im


# ---------------------------------------------------------------------------------- the board


@pytest.mark.parametrize("name", sorted(STATES))
def test_every_stage_renders_a_phone_sized_png_within_budget(name: str) -> None:
    png = draw(street_kings.render, public(state_of(name)))
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) < PNG_BUDGET
    im = decode(png, "PNG")
    assert im.width == street_kings.BOARD_W
    # drawn for a phone, market included: at 285 CSS px wide it stays under ~570 CSS px tall
    assert im.width >= 0.5 * im.height, (im.width, im.height)


def test_equal_views_give_equal_bytes() -> None:
    view = public(state_of("after-race-4p"))
    assert draw(street_kings.render, view) == draw(street_kings.render, copy.deepcopy(view))


def test_a_face_down_location_card_never_shows_but_a_revealed_one_does() -> None:
    state = state_of("action-4p-hidden-spot")
    index = next(i for i, spot in enumerate(state["spots"]) if spot["card"])
    swapped = copy.deepcopy(state)
    deck = swapped["location_deck"]
    swapped["spots"][index]["card"], deck[0] = deck[0], swapped["spots"][index]["card"]
    assert draw(street_kings.render, public(state)) == draw(street_kings.render, public(swapped))
    # the same swap, face up, is drawn: the check above would see a leak
    shown = copy.deepcopy(state)
    shown["spots"][index]["revealed"] = True
    shown_swapped = copy.deepcopy(swapped)
    shown_swapped["spots"][index]["revealed"] = True
    assert draw(street_kings.render, public(shown)) != draw(
        street_kings.render, public(shown_swapped)
    )


def swap_upgrades(state: State) -> State:
    """Every upgrade on a car exchanged for a deck card of another stat (same counts)."""
    out = copy.deepcopy(state)
    deck = out["upgrade_deck"]
    for seat in out["seats"]:
        for car in seat["cars"]:
            for k, card in enumerate(car["upgrades"]):
                other = next(
                    i
                    for i, c in enumerate(deck)
                    if upgrade_of(c).kind == "part" and upgrade_of(c).stat != upgrade_of(card).stat
                )
                car["upgrades"][k], deck[other] = deck[other], card
    return out


def test_hidden_upgrades_show_only_their_count() -> None:
    state = state_of("hidden-upgrades-3p")
    assert draw(street_kings.render, public(state)) == draw(
        street_kings.render, public(swap_upgrades(state))
    )
    # without the variant the same swap is drawn
    open_state = copy.deepcopy(state)
    open_state["options"]["hidden_upgrades"] = False
    assert draw(street_kings.render, public(open_state)) != draw(
        street_kings.render, public(swap_upgrades(open_state))
    )


def test_a_players_hand_is_never_drawn() -> None:
    state = state_of("action-4p-hidden-spot")
    view = STREET_KINGS.view(state, "p0")
    other = copy.deepcopy(view)
    other["hand"] = sorted(state["location_deck"][:3])
    assert other["hand"] != view["hand"]
    assert draw(street_kings.render, view) == draw(street_kings.render, other)


def test_race_positions_move_the_pawns() -> None:
    view = public(state_of("mid-race-4p"))
    racer = next(p for p in view["race"]["order"] if p not in view["race"]["finished"])
    moved = copy.deepcopy(view)
    moved["race"]["pos"][racer] += 1
    assert draw(street_kings.render, view) != draw(street_kings.render, moved)


def test_the_championship_round_is_marked() -> None:
    view = public(state_of("after-race-4p"))
    marked = copy.deepcopy(view)
    marked["championship"] = True
    assert draw(street_kings.render, view) != draw(street_kings.render, marked)


def test_names_without_drawable_characters_fall_back_to_the_seat() -> None:
    view = public(state_of("after-race-2p"))
    view["names"] = {"p0": "🎉🎉", "p1": ""}
    assert kit.display_names(view, names_of(view)) == {"p0": "Player 1", "p1": "p1"}
    assert draw(street_kings.render, view).startswith(PNG_SIGNATURE)


def test_pawns_differ_by_shape_and_label_even_with_one_initial() -> None:
    view = public(state_of("after-race-4p"))
    names = {p["id"]: "Sam" for p in view["players"]}
    pawns = street_kings.pawns_of(view, names)
    assert len({pawn.label for pawn in pawns.values()}) == 4
    assert len({pawn.shape for pawn in pawns.values()}) == 4


def test_the_board_renders_fast() -> None:
    view = public(state_of("after-race-4p"))
    draw(street_kings.render, view)  # warm the caches (fonts, cards)
    start = time.perf_counter()
    draw(street_kings.render, view)
    assert time.perf_counter() - start < 0.5


# ----------------------------------------------------------------------------------- the race


def test_no_race_yet_gives_no_gif() -> None:
    state = STREET_KINGS.start(["p0", "p1"], "1", {})
    assert street_kings.render_race(public(state), {}) is None


@pytest.mark.parametrize("name", ["after-race-2p", "after-race-4p", "game-over-3p"])
def test_the_last_race_is_an_animated_gif_ending_on_the_results(name: str) -> None:
    view = public(state_of(name))
    start = time.perf_counter()
    gif = street_kings.render_race(view, names_of(view))
    elapsed = time.perf_counter() - start
    assert gif is not None
    assert gif.startswith(b"GIF89a")
    assert len(gif) < GIF_BUDGET
    assert elapsed < 1.0
    im = decode(gif, "GIF")
    groups = street_kings.move_groups(view["last_race"]["log"])
    assert im.n_frames == len(groups) + 2 >= 3
    durations = []
    for k in range(im.n_frames):
        im.seek(k)
        durations.append(im.info["duration"])
    assert durations[-1] > max(durations[:-1])
    assert "loop" not in im.info  # no loop count: played once, it stays on the results


def test_every_move_frame_changes_the_picture() -> None:
    view = public(state_of("after-race-4p"))
    frames, _ = street_kings.race_frames(view, view["last_race"], names_of(view))
    for before, after in itertools.pairwise(frames):
        assert before.tobytes() != after.tobytes()


def test_a_long_race_shares_a_frame_per_step() -> None:
    log = [
        {"step": step, "stat": "TS", "player": f"p{lane}", "from": step, "to": step + 1}
        for step in range(12)
        for lane in range(4)
    ]
    assert len(log) > street_kings.MAX_MOVE_FRAMES
    groups = street_kings.move_groups(log)
    assert [len(g) for g in groups] == [4] * 12
    assert len(street_kings.move_groups(log[:8])) == 8


def test_a_noz_boost_stays_with_the_move_it_follows() -> None:
    log = [
        {"step": 0, "stat": "TS", "player": "p0", "from": 0, "to": 2},
        {"step": 0, "stat": "NOZ", "player": "p0", "from": 2, "to": 5},
        {"step": 0, "stat": "TS", "player": "p1", "from": 0, "to": 3},
    ]
    assert [len(g) for g in street_kings.move_groups(log)] == [2, 1]


@pytest.mark.parametrize("lang", kit.LANGS)
def test_the_route_label_ends_before_the_first_location(lang: str) -> None:
    """The label left of the route ("Route", "Lap 3"; "Percurso" in Portuguese) never runs into
    the first location's chip."""
    view = public(state_of("after-race-4p"))
    segments = street_kings.race_segments(view["last_race"])
    g = street_kings.TrackGeometry(12, 100, 40, 40, 20, 56, 4, 24, 120)
    first_chip = street_kings.route_layout(g, segments, lang).chips[0][0]
    fnt = kit.font(street_kings.ROUTE_LABEL_PX, True)
    for label in (kit.tr(lang, "Route"), kit.tr(lang, "Lap {n}").format(n=3)):
        assert street_kings.GIF_MARGIN + kit.text_width(label, fnt) < first_chip[0], label
