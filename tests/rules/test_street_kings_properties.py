"""Random Street Kings playouts (hypothesis): seeds, seat counts, variants and choice sequences.

Every game ends far below the round cap, never crashes, keeps every card in exactly one place
and every credit count non-negative, replays identically from its action log, is never mutated
by ``play``, accepts exactly its legal actions, and shows nobody a location card in another
hand, a face-down location card they did not place, a deck's order, or (Hidden Upgrades)
another player's upgrades.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.street_kings import STREET_KINGS as GAME
from rules.street_kings.data import CARS, LOCATIONS, upgrade_deck
from rules.street_kings.moves import accepted
from rules.street_kings.table import Table
from tests.rules.protocol_checks import assert_turn_structure

CHECKED = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FAST = settings(max_examples=120, deadline=None)
#: Random games here take at most about 25 rounds; the cap (a safety net) is 100.
WELL_BELOW_THE_CAP = 50
#: Views and round trips are checked at every 4th decision (and the whole log is replayed).
EXPENSIVE_EVERY = 4
VARIANTS = (
    "custom_finish_line",
    "no_crew",
    "no_noz",
    "hidden_upgrades",
    "super_store",
    "infinite_actions",
)


@st.composite
def tables(draw) -> dict[str, Any]:
    options = {key: draw(st.booleans()) for key in VARIANTS}
    setup = draw(st.sampled_from(["normal", "shorter_game", "elite_class"]))
    if setup != "normal":
        options[setup] = True
    return {
        "players": [f"p{i}" for i in range(draw(st.integers(min_value=2, max_value=4)))],
        "seed": draw(st.text(max_size=6)),
        "options": options,
        "choices": draw(
            st.lists(st.integers(min_value=0, max_value=2**16), min_size=1, max_size=4)
        ),
    }


def chooser(choices: list[int]):
    """Random picks seeded by the drawn numbers (a fixed cycle through them could loop forever
    on free decisions such as the NOZ policy)."""
    rng = random.Random(json.dumps(choices))

    def choose(options: list[Any]) -> Any:
        return options[rng.randrange(len(options))]

    return choose


def assert_conserved(state) -> None:
    cars = Counter(state["out_of_game"])
    for cls in "DCBA":
        cars.update(state["car_decks"][cls])
        cars.update(state["car_discard"][cls])
        cars.update(state["dealership"].get(cls, []))
    upgrades = Counter([*state["upgrade_deck"], *state["shop"], *state["junk"]])
    locations = Counter([*state["location_deck"], *state["location_discard"]])
    locations.update(spot["card"] for spot in state["spots"] if spot["card"])
    for place in state["seats"]:
        assert place["credits"] >= 0, "credits never negative"
        assert all(n >= 0 for n in place["trophies"].values())
        cars.update(car["id"] for car in place["cars"])
        upgrades.update(card for car in place["cars"] for card in car["upgrades"])
        upgrades.update(place["crew"])
        locations.update(place["hand"])
    opts = state["options"]
    assert cars == Counter(list(CARS)), "every car in exactly one place"
    assert upgrades == Counter(upgrade_deck(opts["no_crew"], opts["no_noz"]))
    assert locations == Counter(list(LOCATIONS)), "every location card in exactly one place"


def scrambled(state, viewer: str | None):
    """The same table with everything ``viewer`` cannot see dealt anew: other hands, face-down
    location cards they did not place, the order of every deck, and (Hidden Upgrades) the
    upgrades on other players' cars."""
    state = copy.deepcopy(state)
    rng = random.Random(repr(viewer))
    hidden = list(state["location_deck"])
    others = [i for i, p in enumerate(state["players"]) if p != viewer]
    secret_spots = [
        spot
        for spot in state["spots"]
        if spot["card"] and not spot["revealed"] and spot["by"] != viewer
    ]
    for i in others:
        hidden.extend(state["seats"][i]["hand"])
    hidden.extend(spot["card"] for spot in secret_spots)
    rng.shuffle(hidden)
    for i in others:
        size = len(state["seats"][i]["hand"])
        state["seats"][i]["hand"], hidden = sorted(hidden[:size]), hidden[size:]
    for spot in secret_spots:
        spot["card"] = hidden.pop()
    state["location_deck"] = hidden
    rng.shuffle(state["upgrade_deck"])
    for cls in "DCBA":
        rng.shuffle(state["car_decks"][cls])
    if state["options"]["hidden_upgrades"]:
        for i in others:
            for car in state["seats"][i]["cars"]:
                car["upgrades"] = [f"x{rng.random()}" for _ in car["upgrades"]]
    return state


def assert_views_keep_secrets(state) -> None:
    for viewer in [None, *state["players"]]:
        view = GAME.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
        assert ("hand" in view) == (viewer is not None)
        assert GAME.view(scrambled(state, viewer), viewer) == view, "no secret in the view"


def assert_one_mover_at_a_time(state) -> None:
    assert_turn_structure(GAME, state, state["players"])
    assert len(GAME.to_move(state)) <= 1


def candidates(state, player) -> list[dict[str, Any]]:
    """Legal moves and near misses, to check that ``play`` accepts exactly ``legal``."""
    cars = list(CARS)[::7]
    return [
        {"type": "qualify", "lane": 1},
        {"type": "show", "car": cars[0]},
        {"type": "buy_car", "car": "B01"},
        {"type": "class", "class": "A"},
        {"type": "place", "card": "L01", "spot": 1},
        {"type": "buy", "card": (state["shop"] or ["engine1-1"])[0], "car": cars[1]},
        {"type": "race", "car": cars[2]},
        {"type": "noz_policy", "policy": "never"},
        {"type": "noz", "use": True},
        {"type": "fly"},
    ]


def play_out(game: dict[str, Any], checks: bool):
    state = GAME.start(game["players"], game["seed"], game["options"])
    choose = chooser(game["choices"])
    log = []
    while True:
        if checks:
            assert_conserved(state)
            assert_one_mover_at_a_time(state)
        if checks and len(log) % EXPENSIVE_EVERY == 0:
            assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state
            assert_views_keep_secrets(state)
        movers = GAME.to_move(state)
        if not movers:
            return state, log
        player = movers[0]
        legal = GAME.legal(state, player)
        if checks:
            probe = choose(candidates(state, player))
            # A narrowed shop list still takes a direct purchase or sale of the whole list.
            if probe not in accepted(Table(state), player):
                try:
                    GAME.play(state, player, probe)
                except IllegalAction as error:
                    assert error.reason.endswith("."), error.reason
                else:
                    raise AssertionError(f"{probe} is not legal but was accepted")
        action = choose(legal)
        before = copy.deepcopy(state) if checks else None
        after, events = GAME.play(state, player, action)
        if checks:
            assert state == before, "play never mutates its input"
            assert json.loads(json.dumps(events)) == events
        log.append((player, action))
        state = after
        assert state["round"] < WELL_BELOW_THE_CAP


@CHECKED
@given(tables())
def test_random_games_keep_every_invariant_and_replay_from_their_log(game):
    state, log = play_out(game, checks=True)
    replay = GAME.start(game["players"], game["seed"], game["options"])
    for player, action in log:
        replay, _ = GAME.play(replay, player, action)
    assert replay == state


@FAST
@given(tables())
def test_random_games_end_far_below_the_round_cap(game):
    state, _ = play_out(game, checks=False)
    result = GAME.outcome(state)
    assert result is not None
    assert state["ended_by"] in ("championship", "golds")
    assert state["round"] < WELL_BELOW_THE_CAP < GAME.default_options["round_cap"]
