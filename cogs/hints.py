"""Hints and "why not?" on Discord (issue 39): the answers to the hand panel's **Hint** button,
its "Show the move" second step, and its "Why not…?" button and select (``cogs.hint_items``
builds them; ``bot.hints`` works them out).

A hint is private: the first click answers in a message of its own with step 1 (what to look
at) and a "Show the move" button; that button turns the same message into both steps. Each
click carries its panel's version: a click on an older one is refused with the current board.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from bot import hints
from bot.errors import ServiceError, StaleRequest
from bot.i18n import N_, _
from bot.read_model import ReadModel
from cogs import flows
from cogs.hint_items import HINT, HINT_MOVE, why_not_select
from cogs.items import WHY_NOT, WHY_PICK, Click, GameButton
from cogs.messages import Post

NOTHING_REFUSED = N_("Every place of this step is open to you now.")


async def current(interaction: discord.Interaction, click: Click) -> ReadModel:
    """The clicked game at the click's version (StaleRequest when it moved on since)."""
    service = flows.service_of(interaction)
    read = service.read(await service.get(click.game, flows.where(interaction)[0]))
    if read.version != click.version:
        raise StaleRequest(read.record)
    return read


async def on_hint(interaction: discord.Interaction, click: Click) -> None:
    """Step 1, privately, with the button to step 2 (inside ``flows.on_click``'s guard)."""
    read = await current(interaction, click)
    user = flows.where(interaction)[2]
    await flows.acknowledge(interaction, private=True)  # a hint may think up to 2 s
    service = flows.service_of(interaction)
    shown = await service.hints.hint(service, read.record, user)
    lines = [shown.look, *([_(hints.COSTS)] if shown.costs else [])]
    view = discord.ui.View(timeout=None)
    style = discord.ButtonStyle.primary
    view.add_item(
        GameButton.make(read.record.id, read.version, HINT_MOVE, _("Show the move"), style)
    )
    await flows.send(interaction, Post(content="\n".join(lines), view=view), ephemeral=True)


async def on_hint_move(interaction: discord.Interaction, click: Click) -> None:
    """Step 2: the hint's message shows both steps."""
    read = await current(interaction, click)
    user = flows.where(interaction)[2]
    await flows.acknowledge(interaction)
    service = flows.service_of(interaction)
    shown = await service.hints.hint(service, read.record, user)
    await flows.update(interaction, content=f"{shown.look}\n{shown.move}", view=None)


async def on_why_not(interaction: discord.Interaction, click: Click) -> None:
    """The "Why not…?" button: a private select of the places and pieces refused now; a pick
    there: the engine's sentence for it."""
    read = await current(interaction, click)
    user = flows.where(interaction)[2]
    refused = hints.why_not(read, user)
    if not click.values:
        if not refused:
            raise ServiceError(_(NOTHING_REFUSED) if user in read.to_move else read.turn_message())
        post = Post(content=_("Which one?"), view=why_not_select(read, refused))
        await flows.send(interaction, post, ephemeral=True)
        return
    index = flows.picked_index(click)
    if not 0 <= index < len(refused):
        raise ServiceError(_(flows.UNAVAILABLE))
    entry = refused[index]
    text = _("**{name}**: {why}").format(name=entry.name, why=entry.why)
    await flows.send(interaction, Post(content=text), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Take the hint and "why not?" clicks (the shared dispatch hands over unknown verbs)."""
    flows.VERBS[HINT] = on_hint
    flows.VERBS[HINT_MOVE] = on_hint_move
    flows.VERBS[WHY_NOT] = flows.VERBS[WHY_PICK] = on_why_not
