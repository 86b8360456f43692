"""The title buttons of a finished game's result post (issue 38): "Best move", "Good sport".

Only their look and custom id live here, so ``cogs.threads``, which builds the result post,
needs nothing of ``cogs.titles``; a click is taken there, by the persistent items it
registers (their templates match these ids), so the buttons work after a restart.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ai import is_ai_id
from bot.i18n import _
from bot.read_model import ReadModel
from bot.titles.achievements import GIVEN, NAMES


def title_button(game: str, title: str) -> discord.ui.Button[Any]:
    """The button that offers ``title`` on ``game``'s result post (``ti:<game>:<title>``)."""
    return discord.ui.Button(
        label="🏅 " + _(NAMES[title]),
        style=discord.ButtonStyle.secondary,
        custom_id=f"ti:{game}:{title}",
    )


def give_row(read: ReadModel) -> discord.ui.ActionRow | None:
    """A finished game's title buttons, when it had two people or more to give them."""
    humans = [seat for seat in read.record.seats if not is_ai_id(seat.user)]
    if len(humans) < 2:
        return None
    row: discord.ui.ActionRow = discord.ui.ActionRow()
    for title in GIVEN:
        row.add_item(title_button(read.record.id, title))
    return row
