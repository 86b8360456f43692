"""What a change to a game returns: the steps it applied (``Step``) and the game after it
(``MoveResult``). Their own module, so that bot/undo.py and the cogs can name them without
importing the service that makes them (bot/service.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from bot.pictures import Pictures
from bot.read_model import ReadModel
from bot.store.base import FINISHED, GameRecord, ResultRow
from rules import Game


@dataclass(frozen=True)
class Step:
    """One applied action and what it caused."""

    player: str
    action: dict[str, Any]
    events: list[dict[str, Any]]
    #: A standing order given out of turn (a policy): it leaves the turn in progress untouched.
    standing: bool = False
    #: Whether this step ended a turn: the game's turn number (``Game.turn``) moved on.
    ends_turn: bool = False


@dataclass
class MoveResult:
    """The game after a change: every step applied (the player's, then AI seats'), and the
    steps of finished turns that a public post should now tell (``told``, empty while the
    acting player is still in the middle of their turn). ``timed_out``: the players whose
    AI decided because their time ran out."""

    record: GameRecord
    engine: Game
    pictures: Pictures
    steps: list[Step] = field(default_factory=list)
    told: list[Step] = field(default_factory=list)
    timed_out: list[str] = field(default_factory=list)
    #: The game's result rows with each seat's rating change, once a step finished it.
    results: list[ResultRow] = field(default_factory=list)
    #: The state the last step played, which ``record.state`` is the snapshot of (None before
    #: a step): the cogs read it rather than load the snapshot once more.
    played: Any = None
    #: The keys of the outbox rows this change wrote (``bot.outbox``): the front door that
    #: posts the change marks them sent, or gives them back to the delivery worker.
    owed: list[str] = field(default_factory=list)
    #: The key of the outbox row of the game's end (its lobby edit and result post), once a
    #: step ended it: posted after the last board.
    final: str | None = None

    @cached_property
    def read(self) -> ReadModel:
        """The game as the change left it, for the cogs to show (read once the change is over)."""
        return ReadModel(self.record, self.engine, self.pictures, self.played)

    @property
    def finished(self) -> bool:
        return self.record.status == FINISHED

    @property
    def turn_over(self) -> bool:
        """A public post is due: some turn ended (or the game did)."""
        return bool(self.told) or self.finished
