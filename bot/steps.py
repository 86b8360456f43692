"""Whole steps: a move and the small decisions that always follow it, offered as one choice.

A phone player pays a tap for every decision. Where a game's turn goes on, after a move, to
decisions that the move does not change the meaning of (ArtSee's draw after placing a card;
Mural's disc, how far to turn it and the paint to collect after choosing a rotation), the
panel offers each whole chain as one choice ("Onto column 2 · +3 ★ · Draw from pile 1").
The engine is untouched: a composed choice is applied as its steps, one after the other,
through the service, each at the version the one before left.

A game opts in with ``THEN`` in its words: the types of the follow-up decisions to fold into
the move before them (after the moves of ``FOLD_FROM`` alone, when it names some). Its words
may also say a whole chain shortly (``chain_label``). Where the choices are too many for
buttons, a panel lists them in a select per group (the words' ``group_of``, "Big
rotation…"), or per type of their first move (that step's placeholder in the words'
``STEPS``) when the finer groups would not fit. The options and their layout are
worked out here once; ``cogs`` draws them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_, _
from bot.read_model import ReadModel
from bot.words import WORDS, label_for
from rules import IllegalAction

Action = dict[str, Any]
#: Buttons one panel holds (five rows of five); beyond, the panel lists its steps in selects.
MOST_CHOICES = 25
#: Options in one select.
SELECT_OPTIONS = 25
#: Rows a panel holds (Discord's five); a select takes a row, a row holds five buttons.
ROWS = 5
ROW_BUTTONS = 5
#: Selects one panel holds: a row at least is left to buttons (single moves, the web link).
SELECT_ROWS = ROWS - 1
#: The placeholder of a select of the moves offered alone, when they are too many for a row.
ALONE = N_("Or another move…")
#: Decisions one chain folds at most: a chain of more is a turn of its own kind, not a step.
MOST_DEPTH = 5


@dataclass(frozen=True)
class Composed:
    """One choice on a panel: its label, the moves it applies in order, and the group a panel
    lists it in (a select's step, "Choose a rotation…"; "" for a move offered alone)."""

    label: str
    steps: tuple[Action, ...]
    group: str = ""


def follow_ups(read: ReadModel, user: str, state: Any, action: Action) -> tuple[Any, list[Any]]:
    """The state after ``action`` and its events (a dry run: nothing is stored), or
    ``(None, [])`` when the rules refuse it."""
    try:
        after, events = read.engine.play(state, user, action)
    except IllegalAction:
        return None, []
    return after, list(events)


def chains(
    read: ReadModel, user: str, state: Any, action: Action, deepest: int, depth: int = 1
) -> list[tuple[tuple[Action, ...], list[Any]]]:
    """Every whole chain of ``deepest`` decisions at most that starts with ``action`` on
    ``state``, with all its events: the decisions after it are folded while the same player
    alone is to move and every option is of a ``THEN`` type (a "back" left out: a chain
    never undoes itself)."""
    then: frozenset[str] = getattr(WORDS[read.record.game], "THEN", frozenset())
    after, events = follow_ups(read, user, state, action)
    if after is None:
        return []
    engine = read.engine
    if depth >= deepest or engine.to_move(after) != [user]:
        return [((action,), events)]
    nexts = [a for a in engine.legal(after, user) if a["type"] != "back"]
    ending = closing(read, user, after, nexts)
    if ending is not None:
        return [((action, ending[0]), events + ending[1])]
    if not nexts or not all(a["type"] in then for a in nexts):
        return [((action,), events)]
    out = []
    for then_action in nexts:
        for steps, more in chains(read, user, after, then_action, deepest, depth + 1):
            out.append(((action, *steps), events + more))
    return out


@dataclass(frozen=True)
class Row:
    """A row of a panel: a select of ``choices`` (indices into the composed list) under
    ``placeholder``, or buttons when ``placeholder`` is empty."""

    placeholder: str
    choices: tuple[int, ...]


def layout(choices: list[Composed]) -> list[Row]:
    """How a panel shows ``choices``: every one a button when they fit as buttons; else a
    select per group (in pages of ``SELECT_OPTIONS``), the moves offered alone as buttons
    under them (in a select too when they are more than the rows left hold)."""
    if len(choices) <= MOST_CHOICES:
        return [Row("", tuple(range(len(choices))))]
    groups: dict[str, list[int]] = {}
    for index, choice in enumerate(choices):
        groups.setdefault(choice.group, []).append(index)
    alone = groups.pop("", [])
    selects = sum(-(-len(indices) // SELECT_OPTIONS) for indices in groups.values())
    if len(alone) > (ROWS - selects) * ROW_BUTTONS - 1:  # the web link takes a button's room
        groups[_(ALONE)] = alone
        alone = []
    rows = [
        Row(placeholder, tuple(indices[i : i + SELECT_OPTIONS]))
        for placeholder, indices in groups.items()
        for i in range(0, len(indices), SELECT_OPTIONS)
    ]
    return rows + ([Row("", tuple(alone))] if alone else [])


def closing(
    read: ReadModel, user: str, state: Any, nexts: list[Action]
) -> tuple[Action, list[Any]] | None:
    """The move that ends the turn, and its events, when a chain ends it: when nothing but
    that move and moves that can wait for the player's next turn (the words' ``CAN_WAIT``, a
    Mural mix, while their ``waits`` says they can) is left, and ending asks nothing more of
    the player (no discard)."""
    words = WORDS[read.record.game]
    end: str | None = getattr(words, "ENDS_TURN", None)
    may_wait: Callable[[dict[str, Any]], bool] = getattr(words, "waits", lambda view: True)
    waits: frozenset[str] = getattr(words, "CAN_WAIT", frozenset())
    if not may_wait(read.view(user)):
        waits = frozenset()
    ends = [a for a in nexts if a["type"] == end]
    if not ends or not all(a["type"] == end or a["type"] in waits for a in nexts):
        return None
    after, events = follow_ups(read, user, state, ends[0])
    if after is None or user in read.engine.to_move(after):
        return None
    return ends[0], events


def fits(choices: list[Composed]) -> bool:
    """Whether ``choices`` fit on one panel (``layout``)."""
    return sum(1 for row in layout(choices) if row.placeholder) <= SELECT_ROWS


def composed(read: ReadModel, user: str) -> list[Composed]:
    """The panel's choices as whole steps, folded as deep as still fits on one panel, or an
    empty list when none folds (the panel then offers ``legal()`` as it is)."""
    words = WORDS[read.record.game]
    if not getattr(words, "THEN", None) or user not in read.to_move:
        return []
    for deepest in range(MOST_DEPTH, 1, -1):
        for finer in (True, False):
            choices = _composed(read, user, deepest, finer)
            if choices is None:
                return []
            if fits(choices):
                return choices
    return []


def group_of(words: Any, action: Action, finer: bool) -> str:
    """The select a folded chain that starts with ``action`` is listed in: the game's finer
    group where it has one and ``finer`` asks for it ("Big rotation…"), else its step's
    placeholder ("Choose a rotation…")."""
    fine: Callable[[Action], str] | None = getattr(words, "group_of", None)
    if finer and fine is not None:
        return fine(action)
    step = getattr(words, "STEPS", {}).get(action["type"], "")
    return _(step) if step else ""


def _composed(read: ReadModel, user: str, deepest: int, finer: bool) -> list[Composed] | None:
    """The choices with chains of ``deepest`` decisions at most, in the game's finer groups
    if ``finer``; None when nothing folds."""
    game = read.record.game
    words = WORDS[game]
    view, names = read.view(user), read.names
    weigh = getattr(words, "consequence", None)
    say_chain: Callable[..., str] | None = getattr(words, "chain_label", None)
    state = read.load()
    choices: list[Composed] = []
    folded = False
    fold_from: frozenset[str] | None = getattr(words, "FOLD_FROM", None)
    for action in read.legal(user):
        label = label_for(game, action, names, view)
        deep = deepest if fold_from is None or action["type"] in fold_from else 1
        for steps, events in chains(read, user, state, action, deep) or [((action,), [])]:
            brings = weigh(events, user) if weigh and events else None
            if len(steps) == 1:
                text = f"{label} · {brings}" if brings else label
                choices.append(Composed(text, steps))
                continue
            folded = True
            if say_chain is not None:
                text = say_chain(steps, names)
            else:
                head = f"{label} · {brings}" if brings else label
                text = " · ".join([head, *(words.action_label(a, names) for a in steps[1:])])
            choices.append(Composed(text, steps, group_of(words, action, finer)))
    return choices if folded else None
