"""Random Street Art: Mural playouts (hypothesis): seeds, seat counts, options, choices.

Every game ends, never crashes, conserves every paint cube (discs + queue + backpacks + cards
equal what ever left the stock), replays identically from its log, survives ``load(dump(s))``,
accepts exactly its legal actions, keeps each decision within a select menu, and shows nobody
the deck below its top card or the face-down technique: dealing them again changes no view,
nor whose move it is, nor anyone's legal moves, before a move or after it, mid-turn too.
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
from rules.mural import MURAL
from rules.mural.data import CARDS, PAINTS, TECHNIQUES
from tests.rules.mural_tables import in_play
from tests.rules.protocol_checks import (
    assert_hidden_stays_hidden,
    assert_same_course,
    assert_turn_structure,
)

SETTINGS = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Decisions in one game: a few hundred in practice; this bound proves that games end.
DECISION_CAP = 3000


@st.composite
def tables(draw) -> dict[str, Any]:
    count = draw(st.integers(min_value=2, max_value=4))
    return {
        "players": [f"p{i}" for i in range(count)],
        "seed": draw(st.text(max_size=6)),
        "options": {
            "disc_sides": draw(st.sampled_from(["A", "B", "random"])),
            "master_turn_may_hold": draw(st.booleans()),
            "painting_discards": draw(st.sampled_from(["queue_end", "after_first_3"])),
        },
        "choices": draw(st.lists(st.integers(min_value=0, max_value=2**16), min_size=1)),
        # Random players seldom paint 6-7 cards; half the games start with few sprays left,
        # so the early end (last spray) and its final lap are exercised too.
        "sprays": draw(st.one_of(st.none(), st.integers(min_value=1, max_value=2))),
    }


def opening(game: dict[str, Any]):
    state = MURAL.start(game["players"], game["seed"], game["options"])
    for seat in state["seats"]:
        seat["sprays"] = game["sprays"] or seat["sprays"]
    return state


def chooser(choices: list[int]):
    """Pick from the drawn sequence, painting when possible most of the time. "back" is never
    picked (it only undoes a choice not yet made, so a fixed sequence could cycle through it
    forever); passing is picked rarely."""
    step = 0

    def choose(options: list[Any]) -> Any:
        nonlocal step
        n = choices[step % len(choices)] + step
        step += 1
        options = [o for o in options if not (isinstance(o, dict) and o.get("type") == "back")]
        keep = [o for o in options if not (isinstance(o, dict) and o.get("type") == "pass")]
        if keep and n % 9:
            options = keep
        painting = [o for o in options if isinstance(o, dict) and o.get("type") == "paint"]
        if painting and n % 4:
            options = painting
        return options[n % len(options)]

    return choose


def candidate_actions(state) -> list[dict[str, Any]]:
    """Legal and illegal actions alike, to check that ``play`` accepts exactly ``legal``."""
    return [
        {"type": "rotate", "kind": "big"},
        {"type": "disc", "discs": [3]},
        {"type": "turn", "steps": [4]},
        {"type": "paint", "card": state["deck"][0] if state["deck"] else "G01"},
        {"type": "cell", "row": 0, "col": 0},
        {"type": "mix", "paints": ["R", "A"]},
        {"type": "technique", "tile": "BT3"},
        {"type": "pass"},
        {"type": "end_turn"},
        {"type": "collect", "disc": 0, "segment": 0},
        {"type": "dance"},
    ]


def assert_conserved(state) -> None:
    held = Counter(in_play(state))
    assert held == Counter({p: n for p, n in state["taken"].items() if n}), "no cube appears"
    painted = [cell["card"] for row in state["mural"] for cell in row if cell is not None]
    cards = state["display"] + state["deck"] + painted
    assert sorted(cards) == sorted(CARDS), "every card is in the display, deck or mural"
    for seat in state["seats"]:
        assert seat["grafiteiros"] >= 0 and seat["sprays"] >= 0
        assert all(p in PAINTS for p in seat["backpack"])


def scrambled(state):
    """The same table with the deck below its top and the face-down technique changed."""
    other = copy.deepcopy(state)
    rest = other["deck"][1:]
    random.Random(len(rest)).shuffle(rest)
    other["deck"][1:] = rest[::-1]
    if other["round"] == 1:
        spare = [t for t in sorted(TECHNIQUES) if t not in other["techniques"]]
        other["techniques"][1] = spare[0]
    return other


def assert_views_keep_secrets(state) -> None:
    for viewer in [None, *state["players"]]:
        view = MURAL.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
        assert "seed" not in view and "rng" not in view and "deck" not in view
        assert_hidden_stays_hidden(MURAL, state, scrambled(state), viewer)
        if state["round"] == 1:
            assert state["techniques"][1] not in view["techniques"]


def play_out(game: dict[str, Any], check_every_step: bool):
    state = opening(game)
    choose = chooser(game["choices"])
    log = []
    for _ in range(DECISION_CAP):
        if check_every_step:
            assert_conserved(state)
            assert MURAL.load(json.loads(json.dumps(MURAL.dump(state)))) == state
            assert_views_keep_secrets(state)
            assert_turn_structure(MURAL, state, state["players"])
        movers = MURAL.to_move(state)
        if not movers:
            return state, log
        player = movers[0]
        legal = MURAL.legal(state, player)
        if check_every_step:
            probe = choose(candidate_actions(state))
            if probe not in legal:
                try:
                    MURAL.play(state, player, probe)
                except IllegalAction as error:
                    assert error.reason.endswith("."), "a sentence"
                else:
                    raise AssertionError(f"{probe} is not legal but was accepted")
            bystander = next(p for p in state["players"] if p != player)
            try:
                MURAL.play(state, bystander, legal[0])
            except IllegalAction:
                pass
            else:
                raise AssertionError("a player moved out of turn")
        action = choose(legal)
        if check_every_step:
            # The same move with the deck and the hidden technique dealt again: the same
            # course, the turn's pending decision too; the same views and legal moves unless
            # the move shows the next deck top (a painting) or the second technique (round 2).
            after, events = MURAL.play(state, player, action)
            news = after["round"] != state["round"] or any(e["type"] == "painted" for e in events)
            worlds, actions = (state, scrambled(state)), (action, action)
            viewers = [None, *state["players"]]
            keys = ("phase", "turn")
            assert_same_course(MURAL, worlds, player, actions, viewers, news, keys)
        before = MURAL.dump(state) if check_every_step else None
        after, events = MURAL.play(state, player, action)
        if check_every_step:
            assert MURAL.dump(state) == before, "play never mutates its input"
            assert json.loads(json.dumps(events)) == events
        endings = [i for i, e in enumerate(events) if e["type"] == "game_over"]
        assert endings in ([], [len(events) - 1]), "game_over comes once, last"
        log.append((player, action))
        state = after
    raise AssertionError("the game did not end")


@SETTINGS
@given(tables())
def test_random_games_keep_every_invariant_and_replay_from_their_log(game):
    state, log = play_out(game, check_every_step=True)
    replay = opening(game)
    for player, action in log:
        replay, _ = MURAL.play(replay, player, action)
    assert replay == state


@settings(max_examples=20, deadline=None)
@given(tables())
def test_random_games_end_with_a_winner_by_the_tie_breaks(game):
    state, _ = play_out(game, check_every_step=False)
    result = MURAL.outcome(state)
    assert result is not None and len(result.winners) == 1
    assert result.details["ended_by"] in ("trigger", "round_2")
    assert result.winners == result.details["ranking"][:1]


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_soak_many_random_games_keep_every_invariant(game):
    play_out(game, check_every_step=True)
