"""Which language a message is written in: one language per message.

An ephemeral answer is for one player, so it follows their client (``interaction.locale``,
set for the whole interaction by the tree and the component guard). A public post (a board,
a lobby, a reminder, a result) is for the whole table, so it follows the server: its
`/game config language:`, else the server's own preferred locale (Discord's Community
setting). Board pictures follow the post they are drawn for.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

from bot.i18n import language_of, use

#: ``interaction.extras`` key: the server's language, read once per interaction.
SERVER_LANGUAGE = "tabletop.server_language"


def player_language(interaction: discord.Interaction) -> str:
    """The language of the player's own client."""
    return language_of(interaction.locale)


async def server_language(client: discord.Client, guild: str) -> str:
    """The language of the public posts of ``guild`` (a guild id as the service speaks it)."""
    settings = await client.service.guild_settings(guild)  # type: ignore[attr-defined]
    if settings.language:
        return str(settings.language)
    found = client.get_guild(int(guild)) if guild.isdigit() else None
    return language_of(found.preferred_locale if found is not None else None)


async def language_for_public(interaction: discord.Interaction) -> str:
    """The server's language, for the public posts an interaction makes (read once)."""
    if SERVER_LANGUAGE not in interaction.extras:
        guild = str(interaction.guild_id or "dm")
        interaction.extras[SERVER_LANGUAGE] = await server_language(interaction.client, guild)
    return str(interaction.extras[SERVER_LANGUAGE])


@asynccontextmanager
async def in_public(interaction: discord.Interaction) -> AsyncIterator[str]:
    """Write the sentences of this block in the server's language (a public post)."""
    with use(await language_for_public(interaction)) as lang:
        yield lang


@asynccontextmanager
async def in_server(client: discord.Client, guild: str) -> AsyncIterator[str]:
    """The same for a post no interaction asked for (a reminder, a timeout, a result)."""
    with use(await server_language(client, guild)) as lang:
        yield lang
