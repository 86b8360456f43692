"""Checks every game's property tests make at each step of a random game (DESIGN.md, "The
game protocol" and "Small decisions"), written once."""

from __future__ import annotations

import json
from typing import Any

from rules import Game


def assert_turn_structure(game: Game, state: Any, players: list[str]) -> dict[str, list[dict]]:
    """Nobody is to move exactly when the game is over; exactly those to move have moves; each
    decision fits a Discord select menu, as distinct JSON-able actions. Returns each player's
    legal moves for a game's own further checks."""
    movers = game.to_move(state)
    assert (movers == []) == (game.outcome(state) is not None)
    legal = {}
    for player in players:
        actions = game.legal(state, player)
        assert bool(actions) == (player in movers)
        assert len(actions) <= 25, "every decision fits a Discord select menu"
        assert all(json.loads(json.dumps(action)) == action for action in actions)
        assert len({json.dumps(a, sort_keys=True) for a in actions}) == len(actions)
        legal[player] = actions
    return legal
