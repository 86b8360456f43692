"""Who is the Street King: "The player with the most Gold trophies", ties as §3.29."""

from __future__ import annotations

from typing import Any

from rules.protocol import Outcome
from rules.street_kings.data import TROPHIES


def rank_key(seat: dict[str, Any]) -> tuple[int, ...]:
    """§3.29: most gold, then most silver, then bronze, then fourth, then credits."""
    return (*(seat["trophies"][t] for t in TROPHIES), seat["credits"])


def outcome_of(state: dict[str, Any]) -> Outcome:
    """Scores are gold trophies; every player with the best tie-break key wins (a shared title
    when still tied)."""
    players, seats = state["players"], state["seats"]
    best = max(rank_key(seat) for seat in seats)
    return Outcome(
        scores={p: seat["trophies"]["gold"] for p, seat in zip(players, seats, strict=True)},
        winners=[p for p, seat in zip(players, seats, strict=True) if rank_key(seat) == best],
        details={
            "ended_by": state["ended_by"],
            "trophies": {p: dict(seat["trophies"]) for p, seat in zip(players, seats, strict=True)},
            "credits": {p: seat["credits"] for p, seat in zip(players, seats, strict=True)},
        },
    )
