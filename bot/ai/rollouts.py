"""Rollout policies: how ``hard``'s playouts move every seat, per game, where a random move is
too poor a model of a player and a greedy turn (a search of each move) too dear for the many
playouts the game needs.

Street Art is mostly luck, so ``hard`` needs many playouts to the game's end to see what a
move sets up or gives away; random moves for everyone (what it played before) steal a rival's
hearts only by chance, so they miss the danger of a card left showing. The policy here takes
the move with the most immediate hearts, as a player does, with a little noise so that the
playouts spread over what the others might do.

A playout runs on the engine's own working table (``rules.street_art.engine._Table``: the
rules' code, the same moves and shuffles as ``play``), which is frozen into a state only at
its end: ``play`` checks the move and freezes a new state (its seats, its news as JSON) after
every step, which was half of a decision's time, and a playout needs neither. A playout makes
the same moves and the same random draws as one through ``play`` would.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.street_art.data import BEATBOXER, BRASS_BAND, CARDS, FIREWORKS, FIREWORKS_HEARTS, RAIN
from rules.street_art.engine import AIM, BRASS, MIDDLE, PLAY, StreetArtState, _Table, rain_loss

Action = dict[str, Any]
#: ``playout(state, turns, rng, must_stop)``: the state ``turns`` turns on (or at the game's
#: end), every seat moved by the policy; ``None`` if the clock ran out first.
Playout = Callable[[Any, int, random.Random, Callable[[], bool]], Any | None]

#: How often a rollout step is a random move instead of the best-looking one.
NOISE = 0.15
#: Hearts taken from a rival count more than hearts from the middle: the margin moves twice,
#: but only against one of the rivals.
STOLEN = 1.5
#: Hearts a Rain costs the rivals count for less than hearts one gains.
DRIVEN_AWAY = 0.5


def street_art_playout(
    state: StreetArtState, turns: int, rng: random.Random, must_stop: Callable[[], bool]
) -> StreetArtState | None:
    """``turns`` turns of Street Art (or up to its end), every step the policy's
    (``street_art``), on one working table frozen at the end."""
    table = _Table(state)
    mover = table.me
    for _ in range(turns):
        if table.over:
            break
        if must_stop():
            return None
        mover = table.me
        while True:
            table.events = []
            step(table, street_art(table, moves(table), rng))
            if table.over or any(event["type"] == "turn" for event in table.events):
                break
    return table.freeze(mover, state.turn_number)


def moves(table: _Table) -> list[Action]:
    """The current player's legal moves, in the order ``StreetArt.legal`` lists them."""
    hand = table.hands[table.current]
    if table.phase == PLAY:
        return [{"type": "play", "card": card} for card in CARDS if card in hand]
    if table.phase == BRASS:
        another = [{"type": "play", "card": BRASS_BAND}] if BRASS_BAND in hand else []
        return [*another, {"type": "stop"}]
    others = table.others()
    middle = [MIDDLE] if table.options.fireworks_may_take_from_middle else []
    victims = [
        *(table.players[seat] for seat in others if table.hearts[seat]),
        *middle,
        *(table.players[seat] for seat in others if not table.hearts[seat]),
    ]
    return [{"type": "fireworks", "victim": victim} for victim in victims]


def step(table: _Table, move: Action) -> None:
    """``move`` played on the working table, as ``StreetArt.play`` plays it (unchecked: it is
    one of ``moves``)."""
    if table.phase == AIM:
        table.aim_fireworks(move["victim"])
    elif move["type"] == "stop":
        table.stop_brass_band()
    else:
        table.play_card(move["card"])


def street_art(table: _Table, moves: list[Action], rng: random.Random) -> Action:
    """The move worth most hearts now (``_street_art_gains``); a random one now and then."""
    if len(moves) == 1:
        return moves[0]
    if rng.random() < NOISE:
        return rng.choice(moves)
    gains = _street_art_gains(table, moves)
    best = max(range(len(moves)), key=lambda i: (gains[i], rng.random()))
    return moves[best]


def _street_art_gains(table: _Table, moves: list[Action]) -> list[float]:
    """The hearts each move brings the current player at once, by the rules' sources: a
    matching Street Star's victim or the middle, the Beatboxers showing, the Brass Bands in
    hand, the richest rival for Fireworks, the rivals' losses for a Rain. What every move
    reads (the rivals, their tops) is read once: this runs at every step of every playout."""
    rivals = table.others()
    if table.phase == AIM:
        return [_fireworks_gain(table, move["victim"]) for move in moves]
    if table.phase == BRASS:
        return [1.0 if move.get("type") == "play" else 0.0 for move in moves]
    tops = [(seat, table.top(seat)) for seat in rivals]
    beatboxers = sum(1 for _, top in tops if top == BEATBOXER)
    gains = []
    for move in moves:
        card = move["card"]
        info = CARDS[card]
        if info.kind == "star":
            value = info.value or 0
            showing = [seat for seat, top in tops if top == card]
            if showing:
                victim = max(showing, key=lambda seat: table.played_at[seat])
                gains.append(STOLEN * min(value, table.hearts[victim]))
            else:
                gains.append(min(value, table.middle))
        elif card == BEATBOXER:
            gains.append(min(1 + beatboxers, table.middle))
        elif card == BRASS_BAND:
            gains.append(min(table.hands[table.current].count(BRASS_BAND), table.middle))
        elif card == FIREWORKS:
            richest = max((table.hearts[seat] for seat in rivals), default=0)
            gains.append(STOLEN * min(FIREWORKS_HEARTS, richest))
        elif card == RAIN:
            lost = sum(min(rain_loss(top, beatboxers), table.hearts[seat]) for seat, top in tops)
            gains.append(DRIVEN_AWAY * lost)
        else:
            gains.append(0.0)
    return gains


def _fireworks_gain(table: _Table, victim: str) -> float:
    """Fireworks aimed at ``victim``: two hearts of the middle (option
    fireworks_may_take_from_middle), or of a rival, which count more."""
    if victim == MIDDLE:
        return min(FIREWORKS_HEARTS, table.middle)
    return STOLEN * min(FIREWORKS_HEARTS, table.hearts[table.players.index(victim)])


PLAYOUTS: dict[str, Playout] = {"street-art": street_art_playout}
