"""Helpers every game's wording shares."""

from __future__ import annotations


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
