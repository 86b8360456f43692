"""`/game season`: a server's season table per game, past seasons and all time (issue 38), and
the scheduler's step that closes a season, posts its results and, when a server turned them on,
gives the top places their Discord roles.

The season's logic is ``bot.seasons``; this module only reads it and writes posts. The results
post and the roles are for the whole server, so the table they show is made from the games
everyone there may see (``cogs.visibility.everyone_sees``): a game in a private channel or
thread names nobody in them. The top places' roles are ``cogs.season_roles``'.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.i18n import _, _n
from bot.results import display_rating
from bot.seasons.model import CLOSED, Season, SeasonLine, ranked
from bot.seasons.service import Seasons
from bot.store.base import Shards
from bot.visibility import Hidden, hidden_by
from cogs import flows, memory, messages, season_roles, visibility
from cogs.language import in_server
from cogs.messages import Post
from cogs.typed import game_id_of
from rules import GAMES

log = logging.getLogger(__name__)

#: `/game season season:` for the all-time ratings.
ALL_TIME = "all"
#: Places a results post lists.
POSTED = 10


def runner_of(client: discord.Client) -> SeasonRunner | None:
    """The bot's season runner (None: a bot without it), looked up by name as
    ``tournaments.runner_of``: an extension is a module of its own."""
    cog = client.get_cog("Seasons") if isinstance(client, commands.Bot) else None
    return cog if hasattr(cog, "tick") else None  # type: ignore[return-value]


def seasons_of(client: discord.Client) -> Seasons:
    return client.seasons  # type: ignore[attr-defined, no-any-return]


async def season_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The seasons of the game chosen, the current one first, and all time."""
    game = game_id_of(str(getattr(interaction.namespace, "game", "") or ""))
    choices = []
    if game is not None:
        guild = flows.where(interaction)[0]
        for season in await seasons_of(interaction.client).past(guild, game):
            label = (_("Season {n}") if season.status == CLOSED else _("Season {n} (now)")).format(
                n=season.number
            )
            choices.append(app_commands.Choice(name=label, value=str(season.number)))
    choices.append(app_commands.Choice(name=_("All time"), value=ALL_TIME))
    return [c for c in choices if current.lower() in c.name.lower()][:25]


def place_line(place: int, line: SeasonLine) -> str:
    return _n(
        "**{place}.** <@{player}> · **{rating}** · {games} game, {wins} won",
        "**{place}.** <@{player}> · **{rating}** · {games} games, {wins} won",
        line.games,
    ).format(
        place=place,
        player=line.player,
        rating=memory.number(display_rating(line.mu, line.sigma)),
        games=line.games,
        wins=line.wins,
    )


def season_post(
    title: str,
    season: Season,
    lines: list[SeasonLine],
    page: int,
    minimum: int,
    private: bool = False,
) -> Post:
    """One page of a season's table: its window, the ranked players, how many are not yet
    (``minimum``: the games that rank a player, frozen at the cut, the server's setting
    before it; ``private``: it counts games not everyone may see, and says so)."""
    shown = ranked(lines, minimum)
    first = (page - 1) * memory.LEADERBOARD_PAGE
    when = (
        _("<t:{start}:d> – <t:{end}:d>")
        if season.status == CLOSED
        else _("Since <t:{start}:d>, ends <t:{end}:R>")
    ).format(start=int(season.starts_at), end=int(season.ends_at))
    rows = [
        place_line(place, line)
        for place, line in enumerate(shown[first : first + memory.LEADERBOARD_PAGE], first + 1)
    ]
    waiting = len(lines) - len(shown)
    body = "\n".join(rows) if rows else _("Nobody is ranked yet.")
    notes = [_("Ranked with {n} games or more.").format(n=minimum)]
    if waiting:
        notes.append(_("Not ranked yet: {n}.").format(n=waiting))
    if private:
        notes.append(memory.only_you())
    embed = discord.Embed(
        title=messages.clip(_("{title}: season {n}").format(title=title, n=season.number), 256),
        description=messages.clip(
            f"{when}\n\n{body}\n\n{' · '.join(notes)}", messages.EMBED_DESCRIPTION_LIMIT
        ),
    )
    embed.set_footer(text=_("Page {page}").format(page=page))
    return Post(embed=embed)


async def show(interaction: discord.Interaction, game: str, which: str | None, page: int) -> None:
    """`/game season`: the current season by default, a past one, or all time."""
    if which == ALL_TIME:
        await memory.show_leaderboard(interaction, game, page)
        return
    service = flows.service_of(interaction)
    guild = flows.where(interaction)[0]
    seasons = seasons_of(interaction.client)
    if which is None:
        season = await seasons.current(guild, game)
    else:
        found = await seasons.get(guild, game, int(which)) if which.isdigit() else None
        if found is None:
            raise ServiceError(
                _("There is no season `{n}` of {title} here: pick one from the list.").format(
                    n=which[:10], title=GAMES[game].title
                )
            )
        season = found
    minimum = (
        season.minimum
        if season.status == CLOSED
        else (await service.guild_settings(guild)).season_games
    )
    # Answered in the channel, a table tells everyone there what it counts: one that counts
    # a game not everyone on the server may see (a private channel's) goes to the asker alone.
    ids = await seasons.game_ids(season)
    everyone = hidden_by(visibility.everyones(interaction.guild), service.store.get_game)
    private = bool(await everyone(ids) - await service.results.hidden(ids))
    lines = await seasons.lines(season, service.results.hidden)
    post = season_post(GAMES[game].title, season, lines, page, minimum, private)
    await interaction.response.send_message(**post.kwargs(), ephemeral=private)


def results_post(season: Season, roles: str | None) -> Post:
    """The season's results, posted once at its end: the winner, the top places."""
    title = GAMES[season.game].title if season.game in GAMES else season.game
    top = season.ranked[:POSTED]
    if top:
        head = _("🏆 <@{player}> wins season {n} of {title}!").format(
            player=top[0].player, n=season.number, title=title
        )
    else:
        head = _("Season {n} of {title} is over: nobody played {minimum} games.").format(
            n=season.number, title=title, minimum=season.minimum
        )
    body = "\n".join(place_line(place, line) for place, line in enumerate(top, 1))
    tail = _("Season {n} has begun: `/game season` shows it.").format(n=season.number + 1)
    text = "\n\n".join(part for part in (head, body, roles, tail) if part)
    embed = discord.Embed(
        title=messages.clip(_("{title}: season {n}").format(title=title, n=season.number), 256),
        description=messages.clip(text, messages.EMBED_DESCRIPTION_LIMIT),
    )
    return Post(embed=embed)


class SeasonRunner(commands.Cog, name="Seasons"):
    """Closes the seasons whose end has come and posts what they owe, at each tick."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def seasons(self) -> Seasons:
        return seasons_of(self.bot)

    async def tick(self, now: float, shards: Shards | None) -> None:
        """Each due season is closed (at its end) and its results posted; one failure stays
        in its own season, which the next tick finds due again."""
        for season in await self.seasons.due(now):
            if shards is not None and not shards.owns(season.guild):
                continue
            guild = self.bot.get_guild(int(season.guild))
            if guild is not None and guild.unavailable:
                continue  # an outage: who may see its channels is known once it is back
            try:
                closed = await self.seasons.close(season, now, self.not_everyones(season.guild))
                if closed.due_at is not None:
                    await self.post(closed)
            except Exception:  # a containment boundary: the other seasons go on
                log.exception(
                    "season %d of %s on %s failed", season.number, season.game, season.guild
                )

    def not_everyones(self, guild_id: str) -> Hidden:
        """Of some games on a server, those not everyone there may see: a results post and
        roles are for the whole server and tell nothing of them."""
        gate = visibility.everyones(self.bot.get_guild(int(guild_id)))
        return hidden_by(gate, self.seasons.store.get_game)

    async def post(self, season: Season) -> None:
        """The results, in the server's language, in its chosen channel."""
        assert season.channel is not None  # a season owes a post only with a channel
        async with in_server(self.bot, season.guild):
            roles, crowned = await self.give_roles(season)
            post = results_post(season, roles)
            channel = self.bot.get_partial_messageable(
                int(season.channel), guild_id=int(season.guild)
            )
            try:
                await channel.send(**post.kwargs())
            except (discord.NotFound, discord.Forbidden):  # the channel is gone or closed to us
                log.warning(
                    "season %d of %s: cannot post in %s", season.number, season.game, season.channel
                )
        await self.seasons.posted(season, roles, crowned)

    async def give_roles(self, season: Season) -> tuple[str | None, dict[str, str]]:
        """The top places' roles, when the server turned them on: what happened, in a line
        (None: roles are off), and who holds them now (last season's holders, if off)."""
        before = await self.seasons.get(season.guild, season.game, season.number - 1)
        held = before.crowned if before is not None else {}
        settings = await self.bot.service.guild_settings(season.guild)  # type: ignore[attr-defined]
        if not settings.season_roles:
            return None, held
        return await season_roles.crown(self.bot.get_guild(int(season.guild)), season, held)


async def setup(bot: commands.Bot) -> None:
    service = getattr(bot, "service", None)
    if service is not None:  # not when only the command tree is built (``sync``)
        bot.seasons = Seasons(service)  # type: ignore[attr-defined]
    await bot.add_cog(SeasonRunner(bot))
