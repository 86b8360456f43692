"""Random ArtSee playouts (hypothesis): seat counts, seeds, visitor policies, choice sequences.

Every game ends, never crashes, conserves the 80 cards, the 20 masterpieces and every player's
visitors, replays identically from its action log, survives ``load(dump(s))``, never mutates
its input, accepts exactly its legal actions (and the compound ones made of two legal steps),
and shows nobody a card front of another hand: re-dealing what a viewer cannot see (the other
hands, keeping their backs, and the draw piles below their tops) leaves their view, whose move
it is and their legal moves unchanged, before a move and after it, mid-turn too.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.artsee import ARTSEE
from rules.artsee.data import EXHIBITS, MASTERPIECES, VISITORS
from rules.artsee.engine import POLICIES, ArtSeeState
from tests.rules.protocol_checks import (
    assert_hidden_stays_hidden,
    assert_same_course,
    assert_turn_structure,
)
from tests.rules.test_street_art_properties import chooser

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tables(draw) -> dict[str, Any]:
    count = draw(st.integers(min_value=2, max_value=5))
    return {
        "players": [f"p{i}" for i in range(count)],
        "seed": draw(st.text(max_size=6)),
        "policies": draw(st.lists(st.sampled_from(POLICIES), min_size=count, max_size=count)),
        "choices": draw(st.lists(st.integers(min_value=0, max_value=2**16), min_size=1)),
    }


def opening(game: dict[str, Any]) -> ArtSeeState:
    state = ARTSEE.start(game["players"], game["seed"], {})
    for player, policy in zip(game["players"], game["policies"], strict=True):
        state, _ = ARTSEE.play(state, player, {"type": "policy", "policy": policy})
    return state


def candidate_actions(state: ArtSeeState) -> list[dict[str, Any]]:
    """Legal and illegal actions alike, to check that ``play`` accepts exactly ``legal``."""
    some_cards = sorted(EXHIBITS)[::7] + list(state.galleries[state.current].hand)
    return [
        *({"type": "card", "card": c} for c in some_cards),
        *({"type": "place", "column": c} for c in (0, 1, 2, 5, "left", "right", "up")),
        *({"type": "claim", "token": t} for t in ("PO-5", "AB-9", "LA-6", "XX-1")),
        *({"type": "slot", "slot": s} for s in (0, 1, 3, -1)),
        *({"type": "draw", "pile": p} for p in (0, 1, 2, 3)),
        *({"type": "welcome", "column": c} for c in (1, 2, 4)),
        {"type": "back"},
        {"type": "pass"},
        {"type": "enough"},
        {"type": "dance"},
    ]


def assert_conserved(state: ArtSeeState, count: int) -> None:
    cards = list(state.box) + [c for pile in state.piles for c in pile]
    for g in state.galleries:
        cards += [*g.hand, *(c for col in g.columns for c in col)]
    assert sorted(cards) == sorted(EXHIBITS), "all 80 exhibits, each once"
    tokens = list(state.supply) + [t for g in state.galleries for t, _ in g.masterpieces]
    assert sorted(tokens) == sorted(MASTERPIECES), "all 20 masterpieces, each once"
    for g in state.galleries:
        assert g.supply >= 0 and all(v >= 0 for v in g.visitors)
        assert g.supply + g.on_cards == VISITORS[count], "visitors are the player's own"
        assert len(g.visitors) == len(g.columns) and all(g.columns)
        slots = [s for _, s in g.masterpieces]
        assert len(set(slots)) == len(slots) and all(0 <= s <= len(g.columns) for s in slots)
        categories = [MASTERPIECES[t].category for t, _ in g.masterpieces]
        assert len(set(categories)) == len(categories), "one token per category"


def assert_round_trips(state: ArtSeeState) -> None:
    data = ARTSEE.dump(state)
    assert ARTSEE.load(data) == state
    assert ARTSEE.load(json.loads(json.dumps(data))) == state


def scrambled(state: ArtSeeState, keep: str | None, seed: int) -> ArtSeeState:
    """The same table with what ``keep`` cannot see dealt anew: every other hand gets other cards
    with the same backs, each pile keeps the back of its top card and its size, and the box
    takes the rest. The chosen, unplaced card of another player is part of their hand."""
    generator = random.Random(seed)
    others = [g for g in state.galleries if g.player != keep]
    hidden = [c for g in others for c in g.hand] + list(state.box)
    hidden += [c for pile in state.piles for c in pile]
    by_back: dict[str, list[str]] = defaultdict(list)
    generator.shuffle(hidden)
    for c in hidden:
        by_back[EXHIBITS[c].featured].append(c)

    def take(back: str) -> str:
        c = by_back[back].pop()
        hidden.remove(c)
        return c

    hands = {g.player: tuple(sorted(take(EXHIBITS[c].featured) for c in g.hand)) for g in others}
    tops = [take(EXHIBITS[p[0]].featured) if p else None for p in state.piles]
    piles = []
    for top, pile in zip(tops, state.piles, strict=True):
        rest = [hidden.pop() for _ in range(len(pile) - 1)] if pile else []
        piles.append(tuple([top, *rest]) if top else ())
    galleries = tuple(
        replace(g, hand=hands[g.player]) if g.player in hands else g for g in state.galleries
    )
    progress = state.progress
    if progress.chosen and state.players[state.current] != keep:
        # the chosen card is still in the hand: choose the re-dealt card of the same back
        current = galleries[state.current].hand
        chosen = next(
            c for c in current if EXHIBITS[c].featured == EXHIBITS[progress.chosen].featured
        )
        progress = replace(progress, chosen=chosen)
    return replace(
        state,
        galleries=galleries,
        piles=(piles[0], piles[1]),
        box=tuple(sorted(hidden)),
        progress=progress,
    )


def assert_views_keep_secrets(state: ArtSeeState, seed: int) -> None:
    for viewer in [None, *state.players]:
        view = ARTSEE.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
        for entry, g in zip(view["players"], state.galleries, strict=True):
            assert entry["hand"] == sorted(EXHIBITS[c].featured for c in g.hand), "backs shown"
        fronts = {c for g in state.galleries if g.player != viewer for c in g.hand}
        assert not fronts & set(_strings(view)), "no front of another hand in the view"
        if viewer is None:
            assert "hand_cards" not in view
        else:
            own = state.galleries[state.players.index(viewer)].hand
            assert view["hand_cards"] == sorted(own)
        assert_hidden_stays_hidden(ARTSEE, state, scrambled(state, viewer, seed), viewer)


def assert_course_keeps_secrets(state: ArtSeeState, player: str, action: dict, seed: int) -> None:
    """The same move where what each viewer cannot see was dealt again: whose move, the phase
    agree afterwards, and the viewer's whole view and legal moves unless a card was drawn (the
    new top card's back is news). A chosen card is named by its back in the other world;
    placing a card shows its front, so that step is compared only for its own player, whose
    hand stays as it is."""
    _, events = ARTSEE.play(state, player, action)
    drew = any(event["type"] == "drew" for event in events)
    others = [p for p in state.players if p != player]
    for viewer in (None, player, others[seed % len(others)]):  # the public, mover, one more
        if viewer != player and action["type"] in ("place", "play"):
            continue
        redealt = scrambled(state, viewer, seed)
        there = action
        if action["type"] == "card" and viewer != player:
            back = EXHIBITS[action["card"]].featured
            hand = redealt.galleries[redealt.current].hand
            there = {**action, "card": next(c for c in hand if EXHIBITS[c].featured == back)}
        worlds, actions = (state, redealt), (action, there)
        assert_same_course(ARTSEE, worlds, player, actions, [viewer], drew)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def assert_no_question_without_a_choice(state: ArtSeeState) -> None:
    legal = assert_turn_structure(ARTSEE, state, list(state.players))
    if state.phase == "welcome":
        assert all(len(legal[p]) >= 2 for p in ARTSEE.to_move(state)), "a question has a choice"


def assert_accepts_exactly_legal(state: ArtSeeState, player: str, probe: dict[str, Any]) -> None:
    if probe in ARTSEE.legal(state, player):
        ARTSEE.play(state, player, probe)
        return
    try:
        ARTSEE.play(state, player, probe)
    except IllegalAction as error:
        assert error.reason.endswith("."), "a sentence"
    else:
        raise AssertionError(f"{probe} is not legal but was accepted in phase {state.phase}")


def assert_compound_is_two_steps(state: ArtSeeState, player: str, choose) -> None:
    """A compound play/claim is accepted exactly when its two steps are, with the same result."""
    if state.phase not in ("card", "claim") or player not in ARTSEE.to_move(state):
        return
    first = choose(ARTSEE.legal(state, player))
    if first["type"] not in ("card", "claim"):
        return
    middle, _ = ARTSEE.play(state, player, first)
    seconds = ARTSEE.legal(middle, player) if middle.phase in ("column", "slot") else []
    for second in seconds[:-1]:  # the last is "back"
        stepwise, _ = ARTSEE.play(middle, player, second)
        compound = {**first, **{k: v for k, v in second.items() if k != "type"}}
        if first["type"] == "card":
            compound["type"] = "play"
        at_once, _ = ARTSEE.play(state, player, compound)
        assert replace(at_once, last_action=None) == replace(stepwise, last_action=None)


def play_out(game: dict[str, Any], check_every_step: bool):
    state = opening(game)
    count = len(game["players"])
    choose = chooser(game["choices"])
    log: list[tuple[str, dict[str, Any]]] = []
    backed: set[int] = set()  # the turns in which a choice was taken back
    for step in range(5000):
        if check_every_step:
            assert_conserved(state, count)
            assert_round_trips(state)
            assert_views_keep_secrets(state, step)
            assert_no_question_without_a_choice(state)
        movers = ARTSEE.to_move(state)
        if not movers:
            return state, log
        player = choose(movers)
        if check_every_step:
            assert_accepts_exactly_legal(state, player, choose(candidate_actions(state)))
            assert_compound_is_two_steps(state, player, choose)
        if choose(range(40)) == 0:  # now and then, a standing order from anyone
            action = {"type": "policy", "policy": choose(POLICIES)}
            player = choose(state.players)
        else:
            action = choose(ARTSEE.legal(state, player))
            if action["type"] == "back":  # taking a choice back is fine, but once a turn
                if state.turn in backed:
                    action = choose([a for a in ARTSEE.legal(state, player) if a != action])
                backed.add(state.turn)
        if check_every_step:
            assert_course_keeps_secrets(state, player, action, step)
        before = ARTSEE.dump(state) if check_every_step else None
        after, events = ARTSEE.play(state, player, action)
        if check_every_step:
            assert ARTSEE.dump(state) == before, "play never mutates its input"
            assert json.loads(json.dumps(events)) == events
        endings = [i for i, event in enumerate(events) if event["type"] == "game_over"]
        assert endings in ([], [len(events) - 1]), "game_over comes once, last"
        assert bool(endings) == (ARTSEE.to_move(after) == [])
        log.append((player, action))
        state = after
    raise AssertionError("a game did not end in 5000 decisions")


@SETTINGS
@given(tables())
def test_random_games_keep_every_invariant_and_replay_from_their_log(game):
    state, log = play_out(game, check_every_step=True)
    replay = ARTSEE.start(game["players"], game["seed"], {})
    for player, action in [
        *zip(
            game["players"],
            ({"type": "policy", "policy": p} for p in game["policies"]),
            strict=True,
        ),
        *log,
    ]:
        replay, _ = ARTSEE.play(replay, player, action)
    assert replay == state
    result = ARTSEE.outcome(state)
    assert result is not None and result.winners
    assert not any(state.piles) and not any(g.hand for g in state.galleries)


@settings(max_examples=60, deadline=None)
@given(tables())
def test_random_games_end_after_equal_turns_with_winners_by_the_rules(game):
    state, _ = play_out(game, check_every_step=False)
    result = ARTSEE.outcome(state)
    assert result is not None
    best = max(result.scores.values())
    tied = [p for p in state.players if result.scores[p] == best]
    visitors = result.details["visitors_in_gallery"]
    most = max(visitors[p] for p in tied)
    assert result.winners == [p for p in tied if visitors[p] == most]


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_soak_every_invariant_in_many_more_games(game):
    """The first property over many more tables (``pytest -m slow``)."""
    play_out(game, check_every_step=True)
