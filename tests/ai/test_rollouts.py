"""The rollout policies ``hard``'s playouts move every seat with: they take what a player would
take at once, and a playout that follows them ends."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

from bot.ai.rollouts import NOISE, street_art, street_art_playout
from rules import GAMES
from rules.street_art.engine import Seat, StreetArtState, _Table

GAME = GAMES["street-art"]


def table(
    hands: list[tuple[str, ...]], tops: list[str | None], hearts: list[int]
) -> StreetArtState:
    """Three seats with these hands, pile tops and hearts; p0 to move."""
    state = GAME.start(["p0", "p1", "p2"], "rollout", {})
    seats = tuple(
        Seat(
            player=f"p{n}",
            hand=hand,
            pile=(top,) if top else (),
            hearts=hearts[n],
            played_at=n + 1 if top else 0,
        )
        for n, (hand, top) in enumerate(zip(hands, tops, strict=True))
    )
    return replace(state, seats=seats, current=0)


def choices(state: StreetArtState, draws: int = 200) -> dict[str, int]:
    """How often each card is chosen by p0 over ``draws`` seeded generators."""
    moves = GAME.legal(state, "p0")
    counts: dict[str, int] = {}
    for n in range(draws):
        card = street_art(_Table(state), moves, random.Random(n))["card"]
        counts[card] = counts.get(card, 0) + 1
    return counts


def test_a_star_that_steals_beats_a_bigger_one_from_the_middle_most_of_the_time() -> None:
    """A Street Painter showing on p1 with 5 hearts: p0's Street Painter steals 3 (the margin
    to p1 moves twice), a Fire Breather would take 4 from the middle. The policy steals, but now
    and then (its noise) plays something else, so the playouts spread over what a player might
    do."""
    hands = [("street-painter", "fire-breather", "brass-band"), ("rain",), ("rain",)]
    state = table(hands, [None, "street-painter", None], [0, 5, 0])
    counts = choices(state)
    assert counts["fire-breather"] < counts["street-painter"], counts
    assert counts["street-painter"] >= 200 * (1 - NOISE) - 15, counts
    assert len(counts) == 3, "the noise reaches every move"


def test_fireworks_aim_at_the_richest_rival_and_a_rain_counts_the_rivals_losses() -> None:
    hands = [("rain", "brass-band"), ("rain",), ("rain",)]
    state = table(hands, [None, "fire-breather", "living-statue"], [0, 9, 9])
    assert max(choices(state), key=choices(state).get) == "rain", "4 + 3 hearts driven away"
    aiming = replace(table(hands, [None, None, None], [0, 1, 7]), phase="fireworks")
    moves = GAME.legal(aiming, "p0")
    picks = {street_art(_Table(aiming), moves, random.Random(n))["victim"] for n in range(20)}
    assert "p2" in picks and len(picks) <= 2


def test_a_playout_by_the_policy_always_ends() -> None:
    for seed in range(5):
        state = GAME.start(["p0", "p1", "p2"], f"ends-{seed}", {})
        end = street_art_playout(state, 400, random.Random(seed), lambda: False)
        assert end is not None and GAME.outcome(end) is not None


def test_a_playout_on_the_working_table_is_the_playout_through_play() -> None:
    """The same moves and draws as the policy played step by step through ``play``: the same
    hearts, piles and draw pile at the end, whether to the game's end or a few turns on."""
    for seed, turns in itertools.product(range(4), (3, 400)):
        state = GAME.start(["p0", "p1", "p2"], f"same-{seed}", {})
        fast = street_art_playout(state, turns, random.Random(seed), lambda: False)
        assert fast is not None
        rng = random.Random(seed)
        for _ in range(turns):
            if GAME.outcome(state) is not None:
                break
            mover = GAME.to_move(state)[0]
            while True:
                move = street_art(_Table(state), GAME.legal(state, mover), rng)
                state, events = GAME.play(state, mover, move)
                if GAME.outcome(state) or any(e["type"] == "turn" for e in events):
                    break
        assert fast.seats == state.seats
        assert (fast.draw_pile, fast.middle, fast.phase) == (
            state.draw_pile,
            state.middle,
            state.phase,
        )


def test_a_playout_stops_when_the_clock_runs_out() -> None:
    state = GAME.start(["p0", "p1", "p2"], "late", {})
    assert street_art_playout(state, 400, random.Random(1), lambda: True) is None
