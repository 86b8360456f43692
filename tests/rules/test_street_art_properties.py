"""Random Street Art playouts (hypothesis): seeds, seat counts, options and choice sequences.

Every game ends well below the turn cap, never crashes, conserves the 60 cards and the 60
hearts, replays identically from its action log, survives ``load(dump(s))`` at every step,
accepts exactly its legal actions, and shows nobody a card of another hand: dealing again
what a viewer cannot see (the other hands, the draw pile's order) changes neither their view,
nor whose move it is, nor their legal moves, before a move or after it, mid-turn too.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.street_art import STREET_ART
from rules.street_art.data import CARDS, DECK, HEARTS
from tests.rules.protocol_checks import (
    assert_hidden_stays_hidden,
    assert_same_course,
    assert_turn_structure,
)

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Random playouts here last under 60 turns; this is far below the default cap of 500.
WELL_BELOW_THE_CAP = 150
PLAYER_KEYS = {"id", "hearts", "top", "pile", "hand_size", "seat"}


@st.composite
def tables(draw) -> dict[str, Any]:
    count = draw(st.integers(min_value=2, max_value=5))
    options = {
        "two_players": count == 2 or draw(st.booleans()),
        "fireworks_may_take_from_middle": draw(st.booleans()),
        "keep_top_on_reshuffle": draw(st.booleans()),
    }
    return {
        "players": [f"p{i}" for i in range(count)],
        "seed": draw(st.text(max_size=6)),
        "options": options,
        "choices": draw(st.lists(st.integers(min_value=0, max_value=2**16), min_size=1)),
        # Random games rarely empty the draw pile; half of them start with most of it already
        # played onto the discard piles, so the reshuffle rules are exercised too.
        "draw_pile_left": draw(st.one_of(st.none(), st.integers(min_value=0, max_value=6))),
    }


def opening(game: dict[str, Any]):
    """The game's first state: a fresh deal, or one whose draw pile was mostly played out."""
    state = STREET_ART.start(game["players"], game["seed"], game["options"])
    left = game["draw_pile_left"]
    if left is None:
        return state
    piles = [list(seat.pile) for seat in state.seats]
    for i, card in enumerate(state.draw_pile[left:]):
        piles[i % len(piles)].append(card)
    count = len(state.draw_pile) - left
    seats = tuple(
        dataclasses.replace(
            seat,
            pile=tuple(piles[i]),
            # The play timestamp of the last card dealt onto this pile.
            played_at=max((n + 1 for n in range(count) if n % len(piles) == i), default=0),
        )
        for i, seat in enumerate(state.seats)
    )
    return dataclasses.replace(state, seats=seats, draw_pile=state.draw_pile[:left], clock=count)


def chooser(choices: list[int]):
    """Pick the i-th decision from the drawn sequence, cycling through it."""
    step = 0

    def choose(options: list[Any]) -> Any:
        nonlocal step
        pick = options[(choices[step % len(choices)] + step) % len(options)]
        step += 1
        return pick

    return choose


def candidate_actions(state) -> list[dict[str, Any]]:
    """Legal and illegal actions alike, to check that ``play`` accepts exactly ``legal``."""
    victims = [*state.players, "middle", "nobody"]
    return [
        *({"type": "play", "card": card} for card in CARDS),
        *({"type": "fireworks", "victim": victim} for victim in victims),
        {"type": "stop"},
        {"type": "dance"},
    ]


def assert_conserved(state) -> None:
    cards = Counter(DECK)
    held = Counter(state.draw_pile)
    for seat in state.seats:
        held.update(seat.hand)
        held.update(seat.pile)
    assert held == cards, "all 60 cards are in hands, the draw pile or the discard piles"
    assert all(seat.hearts >= 0 for seat in state.seats)
    assert state.middle >= 0 and state.box >= 0
    assert state.middle + state.box + sum(seat.hearts for seat in state.seats) == HEARTS


def assert_round_trips(state) -> None:
    data = STREET_ART.dump(state)
    assert STREET_ART.load(data) == state
    assert STREET_ART.load(json.loads(json.dumps(data))) == state


def scrambled(state, keep: str | None, shown: str | None = None):
    """The same table with every hand but ``keep``'s and the draw pile dealt anew; the card
    ``shown`` (about to be played, so no longer hidden) stays in the current player's hand."""
    current = state.seats[state.current].player
    hidden = list(state.draw_pile)
    for seat in state.seats:
        if seat.player != keep:
            hidden.extend(seat.hand)
    if shown is not None and current != keep:
        hidden.remove(shown)
    random.Random(len(hidden)).shuffle(hidden)
    seats = []
    for seat in state.seats:
        if seat.player != keep:
            kept = [shown] if shown is not None and seat.player == current else []
            size = len(seat.hand) - len(kept)
            seat = dataclasses.replace(seat, hand=tuple(sorted(kept + hidden[:size])))
            hidden = hidden[size:]
        seats.append(seat)
    return dataclasses.replace(state, seats=tuple(seats), draw_pile=tuple(hidden))


def assert_views_keep_secrets(state) -> None:
    for viewer in [None, *state.players]:
        view = STREET_ART.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
        for entry, seat in zip(view["players"], state.seats, strict=True):
            assert set(entry) == PLAYER_KEYS, "hand_size is the only hand information"
            assert entry["hand_size"] == len(seat.hand)
        if viewer is None:
            assert "hand" not in view
        else:
            own = state.seats[state.players.index(viewer)].hand
            assert view["hand"] == sorted(own)
        # Nothing tells apart tables that differ only in what the viewer cannot see.
        assert_hidden_stays_hidden(STREET_ART, state, scrambled(state, viewer), viewer)


def assert_course_keeps_secrets(state, player: str, action: dict[str, Any]) -> None:
    """The same move at a table whose hidden cards were dealt again, for each viewer: whose
    move and the phase come next, the viewer's view and legal moves are the same, unless the
    viewer is the mover and draws (other cards, in the other world)."""
    _, events = STREET_ART.play(state, player, action)
    drew = any(event["type"] == "drew" and event["player"] == player for event in events)
    for viewer in [None, *state.players]:
        redealt = scrambled(state, viewer, action.get("card"))
        worlds, actions = (state, redealt), (action, action)
        news = drew and viewer == player
        assert_same_course(STREET_ART, worlds, player, actions, [viewer], news)


def play_out(game: dict[str, Any], check_every_step: bool):
    """Play one game to its end; return the final state and the action log."""
    state = opening(game)
    choose = chooser(game["choices"])
    log = []
    while True:
        if check_every_step:
            assert_conserved(state)
            assert_round_trips(state)
            assert_views_keep_secrets(state)
            assert_turn_structure(STREET_ART, state, list(state.players))
        movers = STREET_ART.to_move(state)
        if not movers:
            return state, log
        player = choose(movers)
        if check_every_step:
            probe = choose(candidate_actions(state))
            if probe not in STREET_ART.legal(state, player):
                try:
                    STREET_ART.play(state, player, probe)
                except IllegalAction as error:
                    assert error.reason.endswith("."), "a sentence"
                else:
                    raise AssertionError(f"{probe} is not legal but was accepted")
            bystander = choose(state.players)
            if bystander not in movers:
                try:
                    STREET_ART.play(state, bystander, STREET_ART.legal(state, player)[0])
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("a player moved out of turn")
        action = choose(STREET_ART.legal(state, player))
        if check_every_step:
            assert_course_keeps_secrets(state, player, action)
        before = STREET_ART.dump(state) if check_every_step else None
        state_after, events = STREET_ART.play(state, player, action)
        if check_every_step:
            assert STREET_ART.dump(state) == before, "play never mutates its input"
            assert json.loads(json.dumps(events)) == events
        endings = [i for i, event in enumerate(events) if event["type"] == "game_over"]
        assert endings in ([], [len(events) - 1]), "game_over comes once, last"
        assert bool(endings) == (STREET_ART.to_move(state_after) == [])
        log.append((player, action))
        state = state_after
        assert state.turn < WELL_BELOW_THE_CAP


@SETTINGS
@given(tables())
def test_random_games_keep_every_invariant_and_replay_from_their_log(game):
    state, log = play_out(game, check_every_step=True)
    replay = opening(game)
    for player, action in log:
        replay, _ = STREET_ART.play(replay, player, action)
    assert replay == state
    assert STREET_ART.dump(replay) == STREET_ART.dump(state)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_soak_every_invariant_in_many_more_games(game):
    """The invariants over many more tables (``pytest -m slow``): ``make test`` plays a few."""
    play_out(game, check_every_step=True)


@settings(max_examples=300, deadline=None)
@given(tables())
def test_random_games_end_with_the_middle_empty_far_below_the_turn_cap(game):
    state, _ = play_out(game, check_every_step=False)
    result = STREET_ART.outcome(state)
    assert result is not None
    assert result.details == {"ended_by": "middle_empty"}
    assert state.middle == 0
    assert state.turn < WELL_BELOW_THE_CAP < STREET_ART.default_options["turn_cap"]
    best = max(result.scores.values())
    assert result.winners == [p for p in state.players if result.scores[p] == best]
