"""The permissions the bot asks for when it is invited: exactly what it uses, nothing extra.

View Channels, Send Messages, Embed Links, Attach Files and Read Message History for the
posts in a channel; Create Public Threads and Send Messages in Threads for a game's own thread
(cogs/threads.py: without them every game falls back to the channel); archiving that thread
an hour after the game needs nothing more, as its creator may (no Manage Threads). The
README's invite URL carries ``PERMISSIONS.value``; tests/discord_layer/test_invite.py keeps the
two equal."""

from __future__ import annotations

import discord

PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)


def invite_url(application_id: int) -> str:
    """The URL that adds the bot to a server with its commands and ``PERMISSIONS``."""
    return discord.utils.oauth_url(
        application_id,
        permissions=PERMISSIONS,
        scopes=("bot", "applications.commands"),
    )
