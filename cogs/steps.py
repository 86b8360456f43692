"""A whole step chosen on a hand panel (``bot.steps``): its moves applied one after the other.

The click (a button's, or a select's pick among whole steps) carries the version its panel
was drawn at and the index of the step among the panel's choices; the choices are worked out
again at that version, so an index from an older panel is refused rather than applied to a
different list. Every move but the last goes through the service at the version the one
before left; the last goes through the shared flow, which posts the board when the turn is
over or shows the next choice. A move offered alone is taken as a panel's own choice is, so
a move the game asks about first (a Mural pass) is asked about.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from bot import steps
from bot.errors import ServiceError, StaleRequest
from bot.i18n import _
from cogs import flows
from cogs.items import STEP_PICK, STEPS, Click


async def on_click(interaction: discord.Interaction, click: Click) -> None:
    """Apply the whole step a panel's button names (inside ``flows.on_click``'s guard)."""
    await apply(interaction, click, click.arg)


async def on_pick(interaction: discord.Interaction, click: Click) -> None:
    """Apply the whole step picked in a panel's select of them (``steps.layout``)."""
    await apply(interaction, click, flows.picked_index(click))


async def apply(interaction: discord.Interaction, click: Click, index: int | None) -> None:
    """Apply the ``index``-th whole step of the panel ``click`` came from."""
    service = flows.service_of(interaction)
    guild, channel, user = flows.where(interaction)
    read = service.read(await service.get(click.game, guild))
    if read.version != click.version:
        raise StaleRequest(read.record)
    choices = steps.composed(read, user)
    if index is None or not 0 <= index < len(choices):
        legal = read.legal(user)
        raise ServiceError(read.turn_message() if not legal else _(flows.UNAVAILABLE))
    if len(choices[index].steps) == 1:  # a move alone: as a panel's own choice, which asks
        # first where the game asks (a Mural pass)
        alone = read.legal(user).index(choices[index].steps[0])
        await flows.play_index(interaction, click.game, alone, read.version)
        return
    *first, last = choices[index].steps
    await flows.acknowledge(interaction)
    for step in first:
        result = await service.move(
            guild, channel, user, step, ref=read.record.id, expected_version=read.version
        )
        read = result.read
    await flows.play(interaction, read, last, expected_version=read.version, from_panel=True)


async def setup(bot: commands.Bot) -> None:
    """Take the whole steps' clicks and picks (the shared dispatch hands over unknown verbs)."""
    flows.VERBS[STEPS] = on_click
    flows.VERBS[STEP_PICK] = on_pick
