"""Random Street Kings playouts (hypothesis): seeds, seat counts, variants and choice sequences.

Every game ends far below the round cap, never crashes, keeps every card in exactly one place
and every credit count non-negative, replays identically from its action log, is never mutated
by ``play``, accepts exactly its legal actions, and at every decision, mid-race included, lets
nothing hidden decide whose turn it is, what the public or a player sees, or what a player may
do, then or after a move that shows nothing new: a location card in another hand, a face-down
location card one did not place, a deck's order, or (Hidden Upgrades) another player's upgrades
(issue 9).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.street_kings import STREET_KINGS as GAME
from rules.street_kings.data import CARS, LOCATIONS, upgrade_deck, upgrade_of
from rules.street_kings.moves import accepted
from rules.street_kings.table import Table
from tests.rules.protocol_checks import (
    assert_hidden_stays_hidden,
    assert_same_course,
    assert_turn_structure,
)

CHECKED = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FAST = settings(max_examples=40, deadline=None)
#: Random games here take at most about 25 rounds; the cap (a safety net) is 100.
WELL_BELOW_THE_CAP = 50
#: Round trips are checked at every 4th decision (and the whole log is replayed).
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


def redealt(state, viewer: str | None, mover: str | None = None):
    """The same table with everything ``viewer`` (``None``: the public) cannot see dealt anew
    (and ``mover`` cannot, when given: what a move may depend on is what its mover knows): the
    other hands, face-down location cards they did not place, the order of every deck, the
    seed of the shuffles to come, and (Hidden Upgrades) the upgrades on other players' cars,
    dealt from those and the upgrade deck so that every car keeps its count of upgrades and one
    upgrade per colour. The result is a table the rules could have reached."""
    state = copy.deepcopy(state)
    rng = random.Random(repr((viewer, mover)) + state["seed"])
    state["seed"] = f"re-dealt {rng.random()}"
    knowers = {viewer, mover}
    others = [i for i, p in enumerate(state["players"]) if p not in knowers]
    secret_spots = [
        spot
        for spot in state["spots"]
        if spot["card"] and not spot["revealed"] and spot["by"] not in knowers
    ]
    hidden = list(state["location_deck"])
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
    for cls in "DCBA":
        rng.shuffle(state["car_decks"][cls])
    cars = [car for i in others for car in state["seats"][i]["cars"]]
    if not state["options"]["hidden_upgrades"]:
        cars = []
    state["upgrade_deck"] = redeal_upgrades(state["upgrade_deck"], cars, rng)
    return state


def redeal_upgrades(deck: list[str], cars: list[dict[str, Any]], rng: random.Random) -> list[str]:
    """Deal ``cars`` their upgrades anew from theirs and ``deck`` (no crew on a car, one colour
    each); returns the new deck. A shuffle that cannot fill a car is drawn again (a few tries
    always do: the old deal is one answer)."""
    counts = [len(car["upgrades"]) for car in cars]
    pool = [*deck, *(card for car in cars for card in car["upgrades"])]
    for _ in range(20):
        rng.shuffle(pool)
        left, deals = list(pool), []
        for count in counts:
            deal: list[str] = []
            for card in list(left):
                info = upgrade_of(card)
                fits = info.kind != "crew" and info.colour not in {
                    upgrade_of(c).colour for c in deal
                }
                if len(deal) < count and fits:
                    deal.append(card)
                    left.remove(card)
            deals.append(deal)
        if [len(deal) for deal in deals] == counts:
            for car, deal in zip(cars, deals, strict=True):
                car["upgrades"] = deal
            return left
    raise AssertionError("no re-deal of the hidden upgrades found")


def assert_secrets_kept(state) -> None:
    """Views are JSON, only a seated viewer's holds a hand, and nothing hidden from a viewer
    decides whose turn it is, what they see (the phase in it) or what they may do."""
    for viewer in [None, *state["players"]]:
        view = GAME.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
        assert ("hand" in view) == (viewer is not None)
        assert_hidden_stays_hidden(GAME, state, redealt(state, viewer), viewer)


#: Events of a step that show a viewer something hidden until then: a card off a deck, a
#: location turned over (and the race it runs), a deck shuffled, a new round's shop.
NEWS = {
    "location_drawn",
    "location_revealed",
    "dealership_revealed",
    "shop_restocked",
    "reshuffled",
    "round",
}


def assert_course_keeps_secrets(state, player: str, action: dict[str, Any]) -> None:
    """The same move at a table re-dealt in what neither a viewer nor the mover can see: whose
    turn and the phase come out the same, and so do the viewer's view and legal moves, for a
    move that shows nobody anything new (a forced pass or a race stop that hung on a hidden
    card would not)."""
    _, events = GAME.play(state, player, action)
    if any(event["type"] in NEWS for event in events):
        return
    for viewer in [None, *state["players"]]:
        worlds, actions = (state, redealt(state, viewer, player)), (action, action)
        assert_same_course(GAME, worlds, player, actions, [viewer], news=False)


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
            assert_secrets_kept(state)
        if checks and len(log) % EXPENSIVE_EVERY == 0:
            assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state
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
        if checks:
            assert_course_keeps_secrets(state, player, action)
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


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_soak_every_invariant_in_many_more_games(game):
    """The invariants over many more tables (``pytest -m slow``): ``make test`` plays a few."""
    play_out(game, checks=True)


@FAST
@given(tables())
def test_random_games_end_far_below_the_round_cap(game):
    state, _ = play_out(game, checks=False)
    result = GAME.outcome(state)
    assert result is not None
    assert state["ended_by"] in ("championship", "golds")
    assert state["round"] < WELL_BELOW_THE_CAP < GAME.default_options["round_cap"]
