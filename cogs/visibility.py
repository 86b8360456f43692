"""Whether a member may see a game, by Discord's own permissions: the one decision.

A game is seen by whoever can view the place it is played in: its thread if it has one, else
its channel. Viewing is Discord's View Channel for that member there (a thread takes its
parent's permissions); a private thread is seen only by its members (and, as in Discord's own
client, by those who may manage threads there). The interaction's own channel needs no look-up:
its payload carries the member's permissions there.

``bind`` makes this the gate of ``bot.visibility`` for the interaction being handled, so every
read by id in the service, every list and every click asks it. It fails closed: a place the
bot cannot find (deleted, or hidden from the bot) is seen by nobody.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot import visibility
from bot.visibility import Placed

log = logging.getLogger(__name__)

#: ``interaction.extras`` key: the places already decided for this interaction's member.
DECIDED = "tabletop.visible"
#: ``interaction.extras`` key: the member on each other server, as found for this interaction.
MEMBERS = "tabletop.members"


@dataclass(frozen=True)
class Place:
    """A channel (or thread) of a server, asked about as a game's place would be: a
    tournament's channel, where its games' threads are opened."""

    guild: str
    channel: str
    thread: str | None = None


def everyone_views(guild: discord.Guild, channel: object) -> bool:
    """Whether everyone on ``guild`` (its ``@everyone`` role) may view ``channel``: a
    private thread never."""
    if isinstance(channel, discord.Thread) and channel.is_private():
        return False
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return False
    return channel.permissions_for(guild.default_role).view_channel


def public_channel(client: discord.Client, guild_id: str, channel_id: str) -> bool:
    """``everyone_views``, from Discord's cache: a channel the bot cannot find, or on a
    server it is not on (or another process's shard holds), is not public."""
    guild = client.get_guild(int(guild_id)) if guild_id.isdigit() else None
    channel = (
        guild.get_channel_or_thread(int(channel_id)) if guild and channel_id.isdigit() else None
    )
    return guild is not None and everyone_views(guild, channel)


def place_of(record: Placed) -> str:
    """The channel a game is played in: its thread, else its channel."""
    return record.thread or record.channel


async def may_see(interaction: discord.Interaction, record: Placed) -> bool:
    """Whether the member behind ``interaction`` may see ``record`` (the one decision). A game
    on another server (`/game mine` lists every server's, in a DM too) is decided for the
    same person as a member of that server, which the bot must share with them."""
    here = interaction.guild_id is not None and str(interaction.guild_id) == record.guild
    place = place_of(record)
    if here and place == str(interaction.channel_id):  # Discord sent the permissions here
        return interaction.permissions.view_channel
    decided: dict[str, bool] = interaction.extras.setdefault(DECIDED, {})
    if place not in decided:
        if here:
            member, guild = interaction.user, interaction.guild
            found = (member, guild) if isinstance(member, discord.Member) and guild else None
        else:
            members = interaction.extras.setdefault(MEMBERS, {})
            found = await member_of(interaction.client, interaction.user.id, record.guild, members)
        decided[place] = found is not None and await _may_view(*found, place)
    return decided[place]


async def sees(client: discord.Client, user: str, record: Placed, members: dict[str, Any]) -> bool:
    """The same decision for a person no interaction brought (a daily digest): as a member
    of the game's server, asked of Discord once per server (``members`` keeps them)."""
    found = await member_of(client, int(user), record.guild, members) if user.isdigit() else None
    return found is not None and await _may_view(*found, place_of(record))


async def member_of(
    client: discord.Client, user: int, guild_id: str, members: dict[str, Any]
) -> tuple[discord.Member, discord.Guild] | None:
    """Person ``user`` as a member of server ``guild_id``, and that server (None: the bot is
    not there, or they are not: they see none of its games). Asked of Discord once per server
    (``members`` keeps the answers): the bot keeps no member list."""
    guild = client.get_guild(int(guild_id)) if guild_id.isdigit() else None
    if guild is None:
        return None
    if guild_id not in members:
        cached = guild.get_member(user)
        if cached is None:
            try:
                cached = await guild.fetch_member(user)
            except discord.HTTPException:  # not a member there (404), or out of reach
                cached = None
        members[guild_id] = cached
    found = members[guild_id]
    return (found, guild) if found is not None else None


def everyones(guild: discord.Guild | None) -> visibility.Gate:
    """The gate of what everyone on ``guild`` may see (nothing, on a server the bot is not
    on): what a post for the whole server, or a reply anyone in a channel reads, may tell."""
    decided: dict[str, bool] = {}

    async def gate(record: Placed) -> bool:
        return guild is not None and await everyone_sees(guild, record, decided)

    return gate


async def everyone_sees(guild: discord.Guild, record: Placed, decided: dict[str, bool]) -> bool:
    """Whether everyone on the server may view ``record``: what a post to the whole server (a
    season's results) may tell of. Its channel decides, by the @everyone role's View Channel
    there (a private thread never): a game's own thread is a public thread the bot opened in
    that channel (``cogs.threads``). ``decided`` keeps the answer per channel, so a season of
    many games asks Discord once per archived thread at most."""
    if record.channel not in decided:
        channel = await _place(guild, record.channel)
        decided[record.channel] = (
            channel is not None
            and not (isinstance(channel, discord.Thread) and channel.is_private())
            and channel.permissions_for(guild.default_role).view_channel
        )
    return decided[record.channel]


async def _place(
    guild: discord.Guild, place: str
) -> discord.abc.GuildChannel | discord.Thread | None:
    """The channel or thread ``place`` of ``guild`` (None: not there, or hidden from the bot)."""
    if not place.isdigit():
        return None
    channel = guild.get_channel_or_thread(int(place))
    if channel is not None:
        return channel
    try:  # an archived thread is not cached: ask Discord once
        fetched = await guild.fetch_channel(int(place))
    except discord.HTTPException:
        return None
    return fetched if isinstance(fetched, discord.abc.GuildChannel | discord.Thread) else None


async def _may_view(member: discord.Member, guild: discord.Guild, place: str) -> bool:
    channel = await _place(guild, place)
    if channel is None:
        return False
    permissions = channel.permissions_for(member)
    if not permissions.view_channel:
        return False
    if not isinstance(channel, discord.Thread) or not channel.is_private():
        return True
    if permissions.manage_threads:
        return True
    try:
        await channel.fetch_member(member.id)
    except discord.NotFound:
        return False
    except discord.HTTPException:
        log.warning("could not ask whether %s is in private thread %s", member.id, place)
        return False
    return True


def bind(interaction: discord.Interaction) -> None:
    """Decide for this interaction's member for the rest of its handler."""

    async def gate(record: Placed) -> bool:
        return await may_see(interaction, record)

    visibility.watch_as(gate)
