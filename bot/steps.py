"""Whole steps: a move and the small decision that always follows it, offered as one choice.

A phone player pays a tap for every decision. Where a game's turn goes on, after a move, to a
decision of a few options that the move does not change the meaning of (ArtSee's draw after
placing a card), the panel offers each pair as one choice ("Onto column 2 · +3 ★ · Draw from
pile 1"). The engine is untouched: a composed choice is applied as its steps, one after the
other, through the service, each at the version the one before left.

A game opts in with ``THEN`` in its words: the types of the follow-up decisions to fold into
the move before them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.read_model import ReadModel
from bot.words import WORDS, label_for
from rules import IllegalAction

Action = dict[str, Any]
#: A follow-up is folded only when it has this many options at most (a pair per option).
MOST_FOLLOW_UPS = 3
#: Buttons one panel holds (five rows of five); beyond, the panel offers single steps.
MOST_CHOICES = 25


@dataclass(frozen=True)
class Composed:
    """One choice on a panel: its label and the moves it applies, in order."""

    label: str
    steps: tuple[Action, ...]


def follow_ups(read: ReadModel, user: str, action: Action) -> tuple[list[Action], list[Any]]:
    """The decisions ``user`` faces right after ``action`` when they are ones to fold (the
    same player alone to move, few options, all of a ``THEN`` type), and the events of the
    move; no follow-ups otherwise. A dry run: nothing is stored."""
    then: frozenset[str] = getattr(WORDS[read.record.game], "THEN", frozenset())
    engine = read.engine
    try:
        state, events = engine.play(read.load(), user, action)
    except IllegalAction:
        return [], []
    if engine.to_move(state) != [user]:
        return [], list(events)
    nexts = engine.legal(state, user)
    if len(nexts) > MOST_FOLLOW_UPS or not all(a["type"] in then for a in nexts):
        return [], list(events)
    return nexts, list(events)


def composed(read: ReadModel, user: str) -> list[Composed]:
    """The panel's choices as whole steps, or an empty list when none folds (the panel then
    offers ``legal()`` as it is) or when they would not fit on one panel."""
    game = read.record.game
    words = WORDS[game]
    if not getattr(words, "THEN", None) or user not in read.to_move:
        return []
    view, names = read.view(user), read.names
    weigh = getattr(words, "consequence", None)
    choices: list[Composed] = []
    folded = False
    for action in read.legal(user):
        label = label_for(game, action, names, view)
        nexts, events = follow_ups(read, user, action)
        brings = weigh(events, user) if weigh and events else None
        label = f"{label} · {brings}" if brings else label
        if not nexts:
            choices.append(Composed(label, (action,)))
            continue
        folded = True
        for then in nexts:
            choices.append(Composed(f"{label} · {words.action_label(then, names)}", (action, then)))
    if not folded or len(choices) > MOST_CHOICES:
        return []
    return choices
