"""What the Play button does (``cogs.activity``): launch the Activity, else the web link.

Where the Activity is configured (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET) and the press
comes from the game's own channel or thread, the answer is interaction callback type 12
(``InteractionResponse.launch_activity``): Discord opens the Activity there, and the game is
noted so the Activity lists it first (``bot.launches``). Otherwise, or when Discord refuses
the launch (Activities not enabled on this platform, no Send Messages, a user install, an old
client), the answer is private: the player's own signed web link, or the public table's for
someone without a seat. Either way the interaction is answered at once, within Discord's 3 s.
"""

from __future__ import annotations

import logging
import time

import discord

from bot import metrics
from bot.config import Settings
from bot.i18n import _
from bot.launches import LAUNCHES
from bot.store.base import GameRecord
from cogs import activity, flows, web_table
from cogs.messages import Post

log = logging.getLogger(__name__)


async def press(interaction: discord.Interaction, game_id: str) -> None:
    await flows.guard(interaction, play(interaction, game_id))


async def play(interaction: discord.Interaction, game_id: str) -> None:
    """The Activity where the game is played, if it can be launched; the web link if not."""
    service = flows.service_of(interaction)
    record = await service.get(game_id)
    user, channel = str(interaction.user.id), str(interaction.channel_id)
    configured = getattr(interaction.client, "settings", None)
    if configured is None or not configured.activity:
        outcome = "unconfigured"
    elif channel not in (record.channel, record.thread):
        outcome = "elsewhere"
    else:
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as error:
            log.info("game %s: Discord refused to launch the Activity (%s)", record.id, error)
            outcome = "failed"
        else:
            LAUNCHES.remember(user, channel, record.id)
            metrics.ACTIVITY_LAUNCHES.labels(outcome="launched").inc()
            return
    metrics.ACTIVITY_LAUNCHES.labels(outcome=outcome).inc()
    await flows.send(interaction, Post(content=link_text(record, user)), ephemeral=True)


def link_text(record: GameRecord, user: str) -> str:
    """The private answer: the player's own board on the web, the public table for anyone
    else, or why there is neither."""
    door = web_table.DOOR
    if door is None or record.guild in door.off:
        return _("The web table is off here: press **My hand** to play in Discord.")
    seat = record.seat_of(user)
    if seat is not None and not seat.ai:
        url = door.links.hand(record.id, user, time.time())
        return _("Your board, only for you: {link}").format(link=url)
    if door.shown(record):
        return _("You have no seat at this game; its table: {link}").format(
            link=door.links.table(record.id)
        )
    return _("You have no seat at this game.")


def items(settings: Settings) -> tuple[type[discord.ui.DynamicItem[discord.ui.Button]], ...]:
    """The Play button, bound to what a press does, for ``setup_hook`` to register."""
    return (activity.bind(press, settings.activity),)
