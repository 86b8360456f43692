"""Checks every game's property tests make at each step of a random game (docs/architecture.md, "A
game is a function of its log" and "Small decisions"), written once."""

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


def assert_hidden_stays_hidden(game: Game, state: Any, redealt: Any, viewer: str | None) -> None:
    """``redealt`` is ``state`` with everything ``viewer`` cannot see dealt again (``None``: the
    public): whose move it is, the viewer's view (the phase in it) and their legal moves are
    the same, so none of them gives a hidden card away."""
    assert game.to_move(redealt) == game.to_move(state), "to_move tells what is hidden"
    assert game.view(redealt, viewer) == game.view(state, viewer)
    if viewer is not None:
        assert game.legal(redealt, viewer) == game.legal(state, viewer), "legal tells it"


def assert_same_course(
    game: Game,
    worlds: tuple[Any, Any],
    player: str,
    actions: tuple[dict, dict],
    viewers: list[str | None],
    news: bool,
    keys: tuple[str, ...] = ("phase",),
) -> None:
    """The same move (``actions``: as played, and as named in the other world) in a state and
    in one whose hidden part was dealt again for ``viewers`` (``None``: the public): afterwards
    whose move it is and the phase (the view's ``keys``) agree, mid-turn too (a Brass Band that
    asks again only when another is held would not). Unless the move shows them something
    hidden until now (``news``: a card drawn, a new top card), so do their whole views and
    legal moves."""
    after, _ = game.play(worlds[0], player, actions[0])
    there, _ = game.play(worlds[1], player, actions[1])
    assert game.to_move(there) == game.to_move(after), "to_move depends on what is hidden"
    for viewer in viewers:
        seen, seen_there = game.view(after, viewer), game.view(there, viewer)
        for key in keys:
            assert seen_there[key] == seen[key], f"the {key} depends on what is hidden"
        if not news:
            assert seen_there == seen
            if viewer is not None:
                assert game.legal(there, viewer) == game.legal(after, viewer)
