"""The roles of a season's top places (issue 38): given at the cut when a server turned them on
(`/game config season_roles:`), and taken back at the next cut from whoever lost their place.

Discord lets a bot give only the roles below its own highest role, and only with Manage Roles.
Either refusal is said in one line of the results post, where the server's admins read it
(`/game config` warns already when the setting is turned on without the permission), and the
cut goes on. The bot keeps no member list (it asks for the guilds intent only), so who holds a
role is what it gave, kept with the season (``Season.crowned``).
"""

from __future__ import annotations

import logging

import discord

from bot.i18n import _
from bot.seasons.model import Season
from rules import GAMES

log = logging.getLogger(__name__)

#: The places that get a role: the first the champion's, the others the podium's.
ROLE_PLACES = 3
#: The audit log's word for each change.
REASON = "season results"


def role_names(game: str) -> list[str]:
    """The champion's and the podium's role names, in the server's language."""
    title = GAMES[game].title if game in GAMES else game
    return [_("{title} champion").format(title=title), _("{title} podium").format(title=title)]


async def crown(
    guild: discord.Guild | None, season: Season, held: dict[str, str]
) -> tuple[str, dict[str, str]]:
    """Give ``season``'s top places their roles on ``guild`` and take them from those who
    held them (``held``: player to role id) and lost their place: what happened, in a line,
    and who holds the roles now."""
    if guild is None or not guild.me.guild_permissions.manage_roles:
        return _("No roles were given: the bot needs the Manage Roles permission."), held
    held = dict(held)
    try:
        roles = [await role_named(guild, name) for name in role_names(season.game)]
        above = [role for role in roles if role >= guild.me.top_role]
        if above:
            return _(
                "No roles were given: the role “{role}” is above the bot's own role. An admin "
                "can drag the bot's role above it (Server Settings → Roles)."
            ).format(role=above[0].name), held
        wanted = {
            line.player: str(roles[0 if place == 1 else 1].id)
            for place, line in enumerate(season.ranked[:ROLE_PLACES], 1)
        }
        for player, role in list(held.items()):
            if wanted.get(player) != role:
                await change(guild, player, role, give=False)
                del held[player]
        for player, role in wanted.items():
            if held.get(player) != role and await change(guild, player, role, give=True):
                held[player] = role
    except discord.Forbidden:  # the cache said yes, Discord no: a change made meanwhile
        log.warning("season %d of %s: Discord refused a role", season.number, season.game)
        return _(
            "Some roles could not be given: the bot needs Manage Roles, and its own role "
            "above the season's roles."
        ), held
    given = [f"<@{player}>" for player in wanted if player in held]
    return _("Roles given: {who}.").format(who=", ".join(given) or "—"), held


async def role_named(guild: discord.Guild, name: str) -> discord.Role:
    """The server's role called ``name``, made if there is none (at the bottom of the list,
    so below the bot's own)."""
    return discord.utils.get(guild.roles, name=name) or await guild.create_role(
        name=name, reason=REASON
    )


async def change(guild: discord.Guild, player: str, role: str, *, give: bool) -> bool:
    """Give or take one role of one player; False when they left the server or the role is
    gone (nothing to change)."""
    try:
        member = guild.get_member(int(player)) or await guild.fetch_member(int(player))
        if give:
            await member.add_roles(discord.Object(int(role)), reason=REASON)
        else:
            await member.remove_roles(discord.Object(int(role)), reason=REASON)
    except discord.NotFound:
        return False
    return True
