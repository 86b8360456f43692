"""Rollout policies: how ``hard``'s playouts move every seat, per game, where a random move is
too poor a model of a player and a greedy turn (a search of each move) too dear for the many
playouts the game needs.

A rollout policy reads the determinized state it is given (``bot.ai.search``: what is hidden
there was dealt at random) and picks one of ``moves`` at once, without playing any of them.

Street Art is mostly luck, so ``hard`` needs many playouts to the game's end to see what a
move sets up or gives away; random moves for everyone (what it played before) steal a rival's
hearts only by chance, so they miss the danger of a card left showing. The policy here takes
the move with the most immediate hearts, as a player does, with a little noise so that the
playouts spread over what the others might do.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.street_art.data import BEATBOXER, BRASS_BAND, CARDS, FIREWORKS, FIREWORKS_HEARTS, RAIN
from rules.street_art.engine import AIM, BRASS, rain_loss

Action = dict[str, Any]
Rollout = Callable[[Any, str, list[Action], random.Random], Action]

#: How often a rollout step is a random move instead of the best-looking one.
NOISE = 0.15
#: Hearts taken from a rival count more than hearts from the middle: the margin moves twice,
#: but only against one of the rivals.
STOLEN = 1.5
#: Hearts a Rain costs the rivals count for less than hearts one gains.
DRIVEN_AWAY = 0.5


def street_art(state: Any, player: str, moves: list[Action], rng: random.Random) -> Action:
    """The move worth most hearts now (``_street_art_gain``); a random one now and then."""
    if len(moves) == 1:
        return moves[0]
    if rng.random() < NOISE:
        return rng.choice(moves)
    seat = next(s for s in state.seats if s.player == player)
    return max(moves, key=lambda move: (_street_art_gain(state, seat, move), rng.random()))


def _street_art_gain(state: Any, seat: Any, move: Action) -> float:
    """The hearts a move brings its player at once, by the rules' sources: a matching Street
    Star's victim or the middle, the Beatboxers showing, the Brass Bands in hand, the richest
    rival for Fireworks, the rivals' losses for a Rain."""
    rivals = [s for s in state.seats if s.player != seat.player]
    if state.phase == AIM:
        victim = next((s for s in rivals if s.player == move.get("victim")), None)
        if victim is None:  # the middle, with option fireworks_may_take_from_middle
            return min(FIREWORKS_HEARTS, state.middle)
        return STOLEN * min(FIREWORKS_HEARTS, victim.hearts)
    if state.phase == BRASS:
        return 1.0 if move.get("type") == "play" else 0.0
    card = move["card"]
    info = CARDS[card]
    if info.kind == "star":
        value = info.value or 0
        showing = [s for s in rivals if s.top == card]
        if showing:
            victim = max(showing, key=lambda s: s.played_at)
            return STOLEN * min(value, victim.hearts)
        return min(value, state.middle)
    if card == BEATBOXER:
        return min(1 + sum(1 for s in rivals if s.top == BEATBOXER), state.middle)
    if card == BRASS_BAND:
        return min(seat.hand.count(BRASS_BAND), state.middle)
    if card == FIREWORKS:
        return STOLEN * min(FIREWORKS_HEARTS, max((s.hearts for s in rivals), default=0))
    if card == RAIN:
        beatboxers = sum(1 for s in rivals if s.top == BEATBOXER)
        lost = sum(min(rain_loss(s.top, beatboxers), s.hearts) for s in rivals)
        return DRIVEN_AWAY * lost
    return 0.0


ROLLOUTS: dict[str, Rollout] = {"street-art": street_art}
