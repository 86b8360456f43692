"""Teaching tables on Discord (`/game learn`): opening one, and the end screen's way to a real
game. Its lessons are on the hand panel (``cogs.messages``) and its mistake notes follow the
move that earned them (``cogs.flows.play``); both are worked out in ``bot``."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.i18n import _
from cogs import flows, messages, threads
from cogs.items import REAL_GAME, Click
from cogs.language import in_public
from cogs.threads import LOBBY_MESSAGE


async def learn(interaction: discord.Interaction, game: str) -> None:
    """Open a teaching table of ``game`` for the caller: its lobby is posted here and it
    starts at once, in a thread of its own."""
    service = flows.service_of(interaction)
    guild, channel, user = flows.where(interaction)
    await flows.acknowledge(interaction)
    record = await service.learn(game, guild, channel, user, flows.display_name(interaction))
    async with in_public(interaction):
        note = _("{name} is learning {game} against the AI.").format(
            name=flows.display_name(interaction), game=service.title(record)
        )
        await flows.post_lobby(interaction, record, messages.lobby_post(service.read(record), note))
    await flows.started_by_itself(interaction, record, clicked_lobby=False)


async def real_game(interaction: discord.Interaction, click: Click) -> None:
    """The end screen of a teaching table: a lobby of the same game in its channel (as
    `/game new` opens one), for the others to join."""
    service = flows.service_of(interaction)
    guild, _channel, user = flows.where(interaction)
    await flows.acknowledge(interaction)
    taught = await service.get(click.game, guild)
    name = flows.display_name(interaction)
    record = await service.new_game(taught.game, guild, taught.channel, user, name)
    async with in_public(interaction):
        lobby = messages.lobby_post(service.read(record))
        message = await threads.post(interaction.client, record, lobby)
    await service.remember_message(record, LOBBY_MESSAGE, str(message.channel.id), str(message.id))
    where = threads.message_url(guild, str(message.channel.id), str(message.id))
    text = _("Your game `{id}` waits for players: [its lobby]({url}).").format(
        id=record.id, url=where
    )
    await flows.send(interaction, messages.Post(content=text), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Take the end screen's clicks (the shared dispatch hands over unknown verbs)."""
    flows.VERBS[REAL_GAME] = real_game
