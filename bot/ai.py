"""AI players that use only the game protocol, so one agent plays every game."""

from __future__ import annotations

import random
from typing import Any

from rules import Game


class RandomAgent:
    """Picks uniformly among the legal actions: fills seats, replaces leavers, plays the demo.

    Seeded by ``seed`` and the game's own move counter so a demo replays identically.
    """

    def __init__(self, seed: str = "") -> None:
        self.seed = seed
        self._calls = 0

    def choose(self, game: Game, state: Any, player: str) -> dict[str, Any]:
        actions = game.legal(state, player)
        if not actions:
            raise ValueError(f"{player} has no legal action in {game.id}")
        self._calls += 1
        return random.Random(f"{self.seed}:{player}:{self._calls}").choice(actions)
