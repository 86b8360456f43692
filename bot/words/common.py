"""Helpers every game's wording shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def name_of(names: dict[str, str], player: str | None) -> str:
    """A player's display name in bold, for Discord markdown and the demo log alike."""
    if player is None:
        return "nobody"
    return f"**{names.get(player, player)}**"


def hearts(n: int) -> str:
    return f"{n} ♥"


def join_names(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def game_over(event: dict[str, Any], names: dict[str, str], score: Callable[[int], str]) -> str:
    """The closing line of a ``game_over`` event: the winners (a tie shares the win) and the
    winning score, told in the game's unit by ``score`` (hearts, prestige, points)."""
    winners = join_names([name_of(names, p) for p in event["winners"]])
    best = max(event["scores"].values(), default=0)
    verb = "wins" if len(event["winners"]) == 1 else "share the win"
    return f"🏁 Game over! {winners} {verb} with {score(best)}."
