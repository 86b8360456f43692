"""Which level an AI seat plays at, kept in its player id so the store needs no new column.

An AI seat's id is ``ai:<level>:<n>`` (``ai:hard:2``); the ids of older games, ``ai:<n>``, read as
``easy``, the level every AI seat played at before levels existed. A human's seat handed to the
AI (the player left) and the stand-in for a player whose time ran out play at ``normal``.
"""

from __future__ import annotations

AI_PREFIX = "ai:"
EASY, NORMAL, HARD = "easy", "normal", "hard"
LEVELS = (EASY, NORMAL, HARD)
#: The level of a stand-in: a player who left, or whose clock ran out, keeps a fair position.
STAND_IN = NORMAL


def is_ai_id(player: str) -> bool:
    return player.startswith(AI_PREFIX)


def ai_id(level: str, number: int) -> str:
    """The player id of the ``number``-th AI seat of a table, playing at ``level``."""
    if level not in LEVELS:
        raise ValueError(f"no AI level {level!r} (levels: {', '.join(LEVELS)})")
    return f"{AI_PREFIX}{level}:{number}"


def level_of(player: str) -> str:
    """The level an AI seat plays at; a seat that is not an AI id is a stand-in."""
    if not is_ai_id(player):
        return STAND_IN
    parts = player[len(AI_PREFIX) :].split(":")
    return parts[0] if len(parts) == 2 and parts[0] in LEVELS else EASY
