"""A tournament as the store keeps it: its settings, its players and its rounds, one JSON
document under a version (compare-and-swap, as a game's row)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: Formats.
ROUND_ROBIN = "round-robin"
SWISS = "swiss"
CUP = "cup"
FORMATS = (ROUND_ROBIN, SWISS, CUP)

#: Statuses.
SIGNUP = "signup"
RUNNING = "running"
FINISHED = "finished"
CANCELLED = "cancelled"
OPEN = (SIGNUP, RUNNING)

#: Owed posts (``Tournament.owed``): what the Discord layer posts and then clears.
STANDINGS = "standings"
FINAL = "final"
CANCELLED_POST = "cancelled"
WITHDRAWN = "withdrawn"
#: The fields the store keeps in columns of their own, out of the document.
COLUMNS = ("id", "guild", "channel", "status", "version", "due_at", "created_at", "cross_server")


@dataclass
class Entry:
    """A signed-up player: ``timeouts``, the games they timed out of; ``withdrawn`` once
    those reached the tournament's limit (or they left)."""

    user: str
    name: str
    timeouts: int = 0
    withdrawn: bool = False


@dataclass
class Table:
    """One game of a round: its id (made from the tournament's, so it is created once),
    its seats, and, once over, each seat's place and who timed out in it."""

    game_id: str
    seats: list[str]
    places: dict[str, int] | None = None
    timed_out: list[str] = field(default_factory=list)


@dataclass
class Round:
    number: int
    deadline: float
    tables: list[Table] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)
    closed: bool = False


@dataclass
class Tournament:
    """``rounds``: how many (a round-robin has as many as its players need); ``seats``:
    players a table; ``round_hours``: time a round has before its games are decided on the
    clock; ``withdraw_after``: games timed out of before a player is withdrawn (0: never)."""

    id: str
    guild: str
    channel: str
    host: str
    game: str
    format: str
    rounds: int
    clock: str
    cap: int
    seats: int
    starts_at: float
    round_hours: float
    withdraw_after: int = 2
    #: Open to players of other servers that opted in (``open_tournaments``); its games are
    #: still played in threads of this server's channel.
    cross_server: bool = False
    status: str = SIGNUP
    entries: list[Entry] = field(default_factory=list)
    played: list[Round] = field(default_factory=list)
    #: Posts owed to the channel, each ``{"kind": ..., "round": n}``, cleared once posted.
    owed: list[dict[str, Any]] = field(default_factory=list)
    #: The sign-up post (channel id, message id), edited as players join.
    signup_message: list[str] | None = None
    version: int = 1
    due_at: float | None = None
    created_at: float = 0.0

    def entry(self, user: str) -> Entry | None:
        return next((e for e in self.entries if e.user == user), None)

    @property
    def active(self) -> list[str]:
        """The players still in, in sign-up order."""
        return [e.user for e in self.entries if not e.withdrawn]

    @property
    def names(self) -> dict[str, str]:
        return {e.user: e.name for e in self.entries}

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    def dump(self) -> dict[str, Any]:
        data = asdict(self)
        for key in COLUMNS:
            data.pop(key)  # columns of their own
        return data

    @classmethod
    def load(
        cls,
        data: dict[str, Any],
        *,
        id: str,
        guild: str,
        channel: str,
        status: str,
        version: int,
        due_at: float | None,
        created_at: float,
        cross_server: bool = False,
    ) -> Tournament:
        fields = dict(data)
        fields["entries"] = [Entry(**e) for e in data.get("entries", [])]
        fields["played"] = [
            Round(**{**r, "tables": [Table(**t) for t in r.get("tables", [])]})
            for r in data.get("played", [])
        ]
        return cls(
            id=id,
            guild=guild,
            channel=channel,
            status=status,
            version=version,
            due_at=due_at,
            created_at=created_at,
            cross_server=cross_server,
            **fields,
        )
