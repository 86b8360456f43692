"""Checks every game's property tests make at each step of a random game (DESIGN.md, "The
game protocol" and "Small decisions"), written once."""

from __future__ import annotations

import json
from collections.abc import Callable
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


def assert_hidden_decides_nothing(
    game: Game, state: Any, players: list[str], redeal: Callable[[Any, str | None], Any]
) -> None:
    """Issue 9's no-leak property: ``redeal(state, viewer)`` deals anew everything ``viewer``
    (``None``: the public) cannot see. Who is to move, the public view (and in it the phase)
    stay the same for the public's re-deal; each player's view and legal moves stay the same
    for that player's. A difference is a secret that the table shows."""
    movers = game.to_move(state)
    public = redeal(state, None)
    assert game.to_move(public) == movers, "whose turn it is depends on a secret"
    assert game.view(public, None) == game.view(state, None), "the public view shows a secret"
    for player in players:
        mine = redeal(state, player)
        assert game.to_move(mine) == movers, f"whose turn it is depends on a secret of {player}"
        assert game.view(mine, player) == game.view(state, player), f"{player} sees a secret"
        assert game.legal(mine, player) == game.legal(state, player), (
            f"{player}'s moves depend on what {player} cannot see"
        )
