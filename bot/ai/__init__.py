"""AI players that see only what their seat sees.

An AI decision is ``decide(game_id, level, view, legal, seed, budget_s)``: the seat's view and
legal moves in, one action out, never the game's state. ``Agent`` is the seat driver for code
that holds a state (the demo, the benches, tests): it hands the decision only the view and the
legal moves of the seat, as the service does.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.ai.levels import DEFAULT_BUDGET, decide
from bot.ai.seats import AI_PREFIX, EASY, HARD, LEVELS, NORMAL, STAND_IN, ai_id, is_ai_id, level_of
from rules import Game

__all__ = [
    "AI_PREFIX",
    "DEFAULT_BUDGET",
    "EASY",
    "HARD",
    "LEVELS",
    "NORMAL",
    "STAND_IN",
    "Agent",
    "RandomAgent",
    "ai_id",
    "decide",
    "decide_in_thread",
    "is_ai_id",
    "level_of",
]


async def decide_in_thread(
    game_id: str,
    level: str,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    seed: str,
    budget_s: float = DEFAULT_BUDGET,
    memory: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``decide`` off the event loop, in a thread: the service's default; a process pool can
    take its place (same arguments, all plain JSON)."""
    return await asyncio.to_thread(decide, game_id, level, view, legal, seed, budget_s, memory)


class Agent:
    """Plays one level for any seat of any game, seeded by ``seed`` and its own call counter
    so a demo replays identically."""

    def __init__(self, seed: str = "", level: str = EASY, budget_s: float = DEFAULT_BUDGET) -> None:
        self.seed = seed
        self.level = level
        self.budget_s = budget_s
        self._calls = 0

    def choose(self, game: Game, state: Any, player: str) -> dict[str, Any]:
        legal = game.legal(state, player)
        if not legal:
            raise ValueError(f"{player} has no legal action in {game.id}")
        self._calls += 1
        seed = f"{self.seed}:{player}:{self._calls}"
        return decide(game.id, self.level, game.view(state, player), legal, seed, self.budget_s)


class RandomAgent(Agent):
    """The ``easy`` agent: a random legal move that does something, passing only when nothing
    else is legal (fills seats in the demo and the benches)."""

    def __init__(self, seed: str = "") -> None:
        super().__init__(seed, EASY)
