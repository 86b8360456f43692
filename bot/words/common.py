"""Helpers every game's wording shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import _, _n


def name_of(names: dict[str, str], player: str | None) -> str:
    """A player's display name in bold, for Discord markdown and the demo log alike."""
    if player is None:
        return _("nobody")
    return f"**{names.get(player, player)}**"


def capitalized(text: str) -> str:
    """``text`` with its first letter upper case (a label that starts with a word)."""
    return text[:1].upper() + text[1:]


def hearts(n: int) -> str:
    return f"{n} ♥"


def join_names(parts: list[str]) -> str:
    """ "A, B and C", with the language's own "and"."""
    if len(parts) <= 1:
        return "".join(parts)
    return _("{most} and {last}").format(most=", ".join(parts[:-1]), last=parts[-1])


def game_over(event: dict[str, Any], names: dict[str, str], score: Callable[[int], str]) -> str:
    """The closing line of a ``game_over`` event: the winners (a tie shares the win) and the
    winning score, told in the game's unit by ``score`` (hearts, prestige, points)."""
    winners = join_names([name_of(names, p) for p in event["winners"]])
    best = max(event["scores"].values(), default=0)
    line = _n(
        "🏁 Game over! {winners} wins with {score}.",
        "🏁 Game over! {winners} share the win with {score}.",
        len(event["winners"]),
    )
    return line.format(winners=winners, score=score(best))
