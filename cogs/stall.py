"""A stalled table (issue 27, item 6): after three reminders in a row with no move, the host
gets one message with the choices: hand the seat to its AI, give the clock a day more, or
abandon the game. The message is an outbox post (``bot.outbox.STALL``, written with the
reminder's claim; made by ``cogs.messages.stall_post``); its buttons are persistent game
buttons (``cogs.items``) whose argument is the stalled seat, and each takes the service's own
path (kick, a longer clock, abandon).
"""

from __future__ import annotations

import discord

from bot.errors import ServiceError
from bot.i18n import _
from cogs import flows
from cogs.items import Click
from cogs.language import in_public
from cogs.messages import STALL_ABANDON as ABANDON
from cogs.messages import STALL_EXTEND as EXTEND
from cogs.messages import STALL_KICK as KICK
from cogs.messages import Post


async def on_click(interaction: discord.Interaction, click: Click) -> None:
    """One of the host's choices (inside ``flows.on_click``'s guard; the service refuses
    anyone but the host or a server manager): done, the message keeps its words and loses
    its buttons, and the table is told."""
    service = flows.service_of(interaction)
    guild, channel, user = flows.where(interaction)
    is_admin = bool(interaction.permissions.manage_guild)
    record = await service.get(click.game, guild)
    seats = record.seats
    if click.arg is None or not 0 <= click.arg < len(seats):
        raise ServiceError(_(flows.UNAVAILABLE))
    target = seats[click.arg].user
    name = service.read(record).names.get(target, target)
    await flows.acknowledge(interaction)
    if click.verb == KICK:
        result = await service.kick(guild, channel, user, target, is_admin, click.game)
        await flows.update(interaction, view=None)
        async with in_public(interaction):
            headline = _("{name}'s seat was handed to an AI.").format(name=name)
            await flows.publish(interaction, result, headline)
    elif click.verb == EXTEND:
        _record, until = await service.extend_clock(guild, click.game, user, target, is_admin)
        await flows.update(interaction, view=None)
        async with in_public(interaction):
            text = _("⏳ {name}'s clock runs a day longer: until <t:{until}:f>.").format(
                name=name, until=int(until)
            )
            await flows.post_to_game(interaction, record, Post(content=text))
    else:
        await flows.abandon(interaction, click.game)
        await flows.update(interaction, view=None)


#: The handlers of the host's choices, by verb (``cogs.app`` adds them to ``flows.VERBS``).
VERBS = dict.fromkeys((KICK, EXTEND, ABANDON), on_click)
