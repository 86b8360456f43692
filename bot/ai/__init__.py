"""AI players that use only the game protocol, so one agent plays every game."""

from __future__ import annotations

import random
from typing import Any

from rules import Game


class RandomAgent:
    """Picks uniformly among the legal actions that do something, passing (a game's
    ``passive_actions``) only when nothing else is legal: fills seats, replaces leavers, decides
    for a player who timed out, plays the demo. A seat that passed at random would sit out
    most of a game whose turns offer a pass at every step (Street Art: Mural).

    Seeded by ``seed`` and its own call counter so a demo replays identically.
    """

    def __init__(self, seed: str = "") -> None:
        self.seed = seed
        self._calls = 0

    def choose(self, game: Game, state: Any, player: str) -> dict[str, Any]:
        actions = game.legal(state, player)
        if not actions:
            raise ValueError(f"{player} has no legal action in {game.id}")
        passive = getattr(game, "passive_actions", frozenset())
        active = [action for action in actions if action.get("type") not in passive]
        self._calls += 1
        return random.Random(f"{self.seed}:{player}:{self._calls}").choice(active or actions)
