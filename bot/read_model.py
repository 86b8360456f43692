"""One game as one interaction reads it: the record, the state loaded once, the names, and
each viewer's view and legal actions computed at most once.

The service hands the cogs one ``ReadModel`` (``GameService.read``, ``MoveResult.read``) instead
of being asked six times for pieces of the same game, each loading the state again. A read
model belongs to one interaction: it never changes the game and is not kept afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from bot.errors import ServiceError
from bot.i18n import _, _n, current, say
from bot.pictures import Pictures
from bot.store.base import ACTIVE, FINISHED, LOBBY, GameRecord
from bot.teaching import TAUGHT, TEACHING, Lesson, due, walk
from bot.teaching.courses import COURSES
from rules import Game, IllegalAction, Outcome

Action = dict[str, Any]


def not_active_message(record: GameRecord) -> str:
    """Why a game that is not running takes no move, and what to do instead."""
    if record.status == LOBBY:
        text = _("Game `{id}` has not started yet — the host can `/game start`.")
    elif record.status == FINISHED:
        text = _("Game `{id}` is over — `/game new` starts another.")
    else:
        text = _("Game `{id}` was abandoned — `/game new` starts another.")
    return text.format(id=record.id)


def turn_steps(journal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The journal's steps of the turn in progress, without the standing orders counted there
    (they keep the turn's version, ``turn_version``, and are never told)."""
    return [entry for entry in journal if not entry.get("standing")]


def turn_version(record: GameRecord) -> int:
    """The version a panel's and a board's buttons carry: the record's version less the
    standing orders given during the turn in progress. A standing order (a policy set out of
    turn) leaves it alone, so the mover's open panel stays valid; any other change raises it."""
    return record.version - (len(record.journal) - len(turn_steps(record.journal)))


class ReadModel:
    """A game's record with everything the cogs show of it, each piece computed once."""

    def __init__(
        self, record: GameRecord, engine: Game, pictures: Pictures, state: Any = None
    ) -> None:
        """``state``: the record's snapshot already loaded (the state a move just played,
        which rules never change), so ``state`` is not loaded again from it."""
        self.record = record
        self.engine = engine
        self.pictures = pictures
        if state is not None:
            self.__dict__["state"] = state  # the cached_property's own slot
        self._views: dict[str | None, dict[str, Any]] = {}
        self._legal: dict[str, list[Action]] = {}

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def version(self) -> int:
        """What buttons and panels carry in their custom ids: the turn's version."""
        return turn_version(self.record)

    @property
    def mid_turn(self) -> bool:
        """Whether the player to move is in the middle of a turn of several decisions."""
        return bool(turn_steps(self.record.journal))

    @cached_property
    def names(self) -> dict[str, str]:
        """Player id -> display name (AI seats have names of their own)."""
        return {seat.user: seat.name or seat.user for seat in self.record.seats}

    def load(self) -> Any:
        """A state of its own, loaded from the snapshot: for a dry run that may change it."""
        if self.record.state is None:
            raise ServiceError(not_active_message(self.record))
        return self.engine.load(self.record.state)

    @cached_property
    def state(self) -> Any:
        """The state, loaded once; read it, never change it (``load`` gives a copy to play on)."""
        return self.load()

    def view(self, player: str | None) -> dict[str, Any]:
        """The engine's view for ``player`` (``None``: the public one), as the engine returned
        it: presentation such as names travels separately."""
        if player not in self._views:
            self._views[player] = self.engine.view(self.state, player)
        return self._views[player]

    def lessons(self, player: str, built: Sequence[Action] = ()) -> list[Lesson]:
        """At a teaching table, the lessons ``player``'s decision now teaches (``bot.teaching``:
        worked out here once, shown by the hand panel and the web hand page), or the decision
        after the moves ``built`` on the web page but not sent yet; [] elsewhere."""
        if not self.record.prefs.get(TEACHING) or self.record.status != ACTIVE:
            return []
        course, taught = COURSES[self.record.game], self.record.prefs.get(TAUGHT, [])
        if not built:
            return due(course, self.view(player), self.legal(player), taught)
        state, taught = walk(course, self.engine, self.state, player, built, taught)
        view, legal = self.engine.view(state, player), self.engine.legal(state, player)
        return due(course, view, legal, taught)

    def legal(self, player: str) -> list[Action]:
        if self.record.status != ACTIVE:
            return []
        if player not in self._legal:
            self._legal[player] = self.engine.legal(self.state, player)
        return self._legal[player]

    @cached_property
    def to_move(self) -> list[str]:
        if self.record.status != ACTIVE:
            return []
        return self.engine.to_move(self.state)

    @cached_property
    def outcome(self) -> Outcome | None:
        if self.record.state is None:
            return None
        return self.engine.outcome(self.state)

    @cached_property
    def waiting_humans(self) -> list[str]:
        seats = {seat.user: seat for seat in self.record.seats}
        return [p for p in self.to_move if p in seats and not seats[p].played_by_ai]

    def turn_message(self) -> str:
        """Whose turn it is, in a sentence (or why nobody's)."""
        waiting = [self.names.get(p, p) for p in self.to_move]
        if not waiting:
            return not_active_message(self.record)
        together = _(" and ").join(waiting)
        return _n("It is {names}'s turn.", "It is {names}'s turns.", len(waiting)).format(
            names=together
        )

    def refusal(self, user: str, action: Action) -> str | None:
        """Why the rules would refuse ``action`` by ``user`` now, or ``None`` if they would
        accept it: a dry run on a state of its own, nothing is stored."""
        try:
            self.engine.play(self.load(), user, action)
        except IllegalAction as error:
            return say(error.reason)
        return None

    def events_of(self, user: str, action: Action) -> list[dict[str, Any]] | None:
        """The events ``action`` by ``user`` would cause now (a dry run on a state of its
        own; nothing is stored), or None if the rules would refuse it: what an option would
        bring, said on the option itself."""
        try:
            return list(self.engine.play(self.load(), user, action)[1])
        except IllegalAction:
            return None

    async def board_pictures(
        self, events: list[dict[str, Any]], last: list[str]
    ) -> tuple[bytes, list[tuple[str, bytes]]]:
        """The public board at this version (``last``: its last turn told), and the pictures
        beside it: what does not fit on the board, then what the turn that ``events`` tell adds
        (a race replayed; nothing for a Board click). Each drawn once, then cached, with its
        words in the language of the post it is drawn for."""
        at = (self.record.id, self.record.version, self.record.game, self.view(None), self.names)
        lang = current()
        board = await self.pictures.board(*at, last, lang=lang)
        second = await self.pictures.second_pictures(*at, lang=lang)
        return board, [*second, *await self.pictures.turn_extras(*at, events, lang=lang)]

    async def hand_picture(self, viewer: str) -> bytes | None:
        """``viewer``'s own hand drawn from their view, or None where the game draws none."""
        record = self.record
        return await self.pictures.hand(
            record.id,
            record.version,
            record.game,
            viewer,
            self.view(viewer),
            self.names,
            lang=current(),
        )
