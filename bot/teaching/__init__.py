"""Teaching tables (`/game learn`): each game's lessons, taught when they first matter.

A lesson is one or two sentences keyed by a trigger read from the learner's decision: their
view and their legal moves, nothing else. The order is the game's: the goal, what a turn is,
then each special case as it first comes up. A lesson is shown on the panel where the decision
is made, and counted as taught when the learner makes that decision (the service keeps the
taught lessons with the table, ``TAUGHT``), so it is said once. Each game's course (its
lessons, its seed and its AI seats) is data in ``bot.teaching.<game>``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import _
from rules import Game

Action = dict[str, Any]
#: The table preference that marks a teaching table (others read it: hints are allowed there).
TEACHING = "teaching"
#: The table preference that holds the keys of the lessons taught so far.
TAUGHT = "taught"
#: Lessons shown on one panel at most: a decision is not a page of rules.
AT_ONCE = 2


@dataclass(frozen=True)
class Moment:
    """One decision of the learner: their view and their legal moves."""

    view: dict[str, Any]
    legal: Sequence[Action]

    def offers(self, kind: str, **fields: Any) -> bool:
        """Whether a legal move is of ``kind`` with these ``fields``."""
        return any(
            move.get("type") == kind and all(move.get(k) == v for k, v in fields.items())
            for move in self.legal
        )

    def me(self) -> dict[str, Any]:
        """The learner's own entry in the view's players."""
        return next(p for p in self.view.get("players", []) if p.get("id") == self.view["viewer"])


def always(_moment: Moment) -> bool:
    """The goal and the turn: taught at the first decisions."""
    return True


def offered(kind: str, **fields: Any) -> Callable[[Moment], bool]:
    """A trigger: a legal move of ``kind`` (with these fields) is on offer."""
    return lambda moment: moment.offers(kind, **fields)


@dataclass(frozen=True)
class Lesson:
    """One rule to teach: ``key`` (stable, stored), ``text`` (an ``N_`` message id), and when
    it first matters."""

    key: str
    text: str
    when: Callable[[Moment], bool]


@dataclass(frozen=True)
class Course:
    """A game's teaching table: its lessons in order, its seed (dealt so every lesson comes up
    within the first ``within`` decisions of a learner who plays as the AI seats do), its AI
    seats and their level."""

    game: str
    seed: str
    within: int
    ai_seats: int
    level: str
    lessons: tuple[Lesson, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(lesson.key for lesson in self.lessons)


def due(
    course: Course, view: dict[str, Any], legal: Sequence[Action], taught: Iterable[str]
) -> list[Lesson]:
    """The lessons this decision teaches: the first ``AT_ONCE`` not taught yet, in the
    course's order, whose trigger holds now. A decision of one move teaches nothing: it may
    be taken for the player (``bot.presentation``'s forced moves), where no panel shows it."""
    if len(legal) < 2:
        return []
    moment, done = Moment(view, legal), set(taught)
    found = [lesson for lesson in course.lessons if lesson.key not in done and lesson.when(moment)]
    return found[:AT_ONCE]


def walk(
    course: Course, game: Game, state: Any, player: str, built: Sequence[Action], taught: list[str]
) -> tuple[Any, list[str]]:
    """The state after ``player``'s ``built`` moves (a turn built on the web page before it is
    sent), and the lessons taught by then, as the service will count them move by move."""
    taught = list(taught)
    for action in built:
        taught += [
            lesson.key
            for lesson in due(course, game.view(state, player), game.legal(state, player), taught)
        ]
        state = game.play(state, player, action)[0]
    return state, taught


def sentences(lessons: Sequence[Lesson]) -> list[str]:
    """The lessons in the current language (the web page marks them by their style)."""
    return [_(lesson.text) for lesson in lessons]


def lines(lessons: Sequence[Lesson]) -> list[str]:
    """The lessons as a Discord panel shows them, each marked as a lesson."""
    return [f"📘 {sentence}" for sentence in sentences(lessons)]
