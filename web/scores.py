"""Each player's standing in words for the table page, read from the game's public view.

The public view already says everything a table page may show; this only picks, per game, the
figure players race on (a game's own board draws it too)."""

from __future__ import annotations

from typing import Any

from bot.i18n import _
from rules import Outcome


def _player(view: dict[str, Any], player: str) -> dict[str, Any]:
    return next((p for p in view.get("players", []) if p.get("id") == player), {})


def score_text(game: str, view: dict[str, Any], player: str, outcome: Outcome | None) -> str:
    """``player``'s score as a short phrase (the final score once the game is over)."""
    if outcome is not None and player in outcome.scores:
        return _("{n} points").format(n=outcome.scores[player])
    seat = _player(view, player)
    if game == "street-art":
        return _("{n} hearts").format(n=seat.get("hearts", 0))
    if game == "artsee":
        return _("{n} prestige").format(n=seat.get("prestige", 0))
    if game == "street-art-mural":
        score = seat.get("score", {})
        return _("{n} points").format(n=score.get("total", 0) if isinstance(score, dict) else 0)
    if game == "street-kings":
        trophies = seat.get("trophies", {})
        return _("{n} gold trophies").format(n=trophies.get("gold", 0))
    return ""
