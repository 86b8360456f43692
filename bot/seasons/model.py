"""A season as the store keeps it: its window, and once closed its frozen table, one JSON
document under a version (compare-and-swap, as a tournament's)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: Statuses.
OPEN = "open"
CLOSED = "closed"


@dataclass(frozen=True)
class SeasonLine:
    """One player's season: their season-only rating (mu, sigma), the games that counted
    and the ones they won."""

    player: str
    name: str
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The conservative rating the table ranks by (``mu - 3 sigma``)."""
        return self.mu - 3 * self.sigma


@dataclass
class Season:
    """Season ``number`` of one game on one server: games begun at or after ``starts_at``
    and finished before ``ends_at`` count. ``lines``: the table frozen at the cut (the
    ranked players first, ``minimum`` games each); ``due_at``: when it next wants the
    scheduler (its end; once closed, its results post until sent). The frozen table is made
    from the games everyone on the server may see (it is posted), ``games`` counts all."""

    guild: str
    game: str
    number: int
    starts_at: float
    ends_at: float
    status: str = OPEN
    version: int = 1
    due_at: float | None = None
    minimum: int = 0
    games: int = 0
    lines: list[SeasonLine] = field(default_factory=list)
    #: The channel the results went to (or go to) and what the roles step said.
    channel: str | None = None
    roles: str | None = None
    #: Who holds the season roles the bot gave, after this season's cut (player: role id):
    #: the next cut takes them back from those who lose their place (the bot keeps no
    #: member list to find them by).
    crowned: dict[str, str] = field(default_factory=dict)

    def dump(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("guild", "game", "number", "starts_at", "ends_at", "status", "version"):
            data.pop(key)  # columns of their own
        data.pop("due_at")
        return data

    @classmethod
    def load(cls, data: dict[str, Any], **columns: Any) -> Season:
        fields = dict(data)
        fields["lines"] = [SeasonLine(**line) for line in data.get("lines", [])]
        return cls(**columns, **fields)

    @property
    def ranked(self) -> list[SeasonLine]:
        """The frozen table's players with enough games, best first."""
        return ranked(self.lines, self.minimum)


def ranked(lines: list[SeasonLine], minimum: int) -> list[SeasonLine]:
    """The lines of players with at least ``minimum`` counted games (the table's ranks)."""
    return [line for line in lines if line.games >= minimum]
