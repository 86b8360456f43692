"""The hand panel's help (issue 39): a **Hint** button where hints are allowed, and a "Why
not…?" button where the rules refuse some place or piece of the step, which opens a private
select of them (``bot.hints``). Only builders: ``cogs.hints`` answers their clicks."""

from __future__ import annotations

import contextlib

import discord

from bot import hints
from bot.i18n import N_, _
from bot.read_model import ReadModel
from cogs.items import WHY_NOT, WHY_PICK, GameButton, PickSelect

#: The Hint button's verb; its second step's ("Show the move").
HINT, HINT_MOVE = "hint", "hintmove"
#: Characters of a select option's label.
OPTION_LABEL = 100
WHY_NOT_LABEL = N_("Why not…?")


def with_help(view: discord.ui.View | None, read: ReadModel, user: str) -> discord.ui.View | None:
    """The panel's view with its Hint button (where hints are allowed) and its "Why not…?"
    button (where the rules refuse some place of this step), where the player owes a move and
    the panel has room left: the choices come first."""
    if user not in read.to_move or not read.legal(user):
        return view
    view = view or discord.ui.View(timeout=None)
    record, style = read.record, discord.ButtonStyle.secondary
    offered = []
    if hints.allowed(record):
        offered.append(
            GameButton.make(record.id, read.version, HINT, hints.button_label(record), style)
        )
    if hints.why_not(read, user):
        offered.append(GameButton.make(record.id, read.version, WHY_NOT, _(WHY_NOT_LABEL), style))
    for item in offered:
        with contextlib.suppress(ValueError):  # every row already full
            view.add_item(item)
    return view


def why_not_select(read: ReadModel, refused: list[hints.WhyNot]) -> discord.ui.View:
    """The private list of the places and pieces refused now, to ask about one."""
    labels = [entry.name[:OPTION_LABEL] for entry in refused]
    view = discord.ui.View(timeout=None)
    placeholder = _(WHY_NOT_LABEL)
    view.add_item(PickSelect.make(read.record.id, read.version, labels, 0, placeholder, WHY_PICK))
    return view
