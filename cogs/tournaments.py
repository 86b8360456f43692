"""`/game tournament ...`: tournaments that run themselves (issue 38).

A tournament opens with a sign-up post (Join and Leave buttons); the scheduler's tick starts
it, creates each round's games in threads of their own, decides on the clock the games a
round's deadline finds unfinished, and posts the standings after each round and the winner
at the end. No admin action is needed from sign-up to result.

A server that takes part (`/game config open_tournaments:`) may open a tournament to other
servers that do (`open:`); their players find it with `/game tournament list`. Its games are
still played in threads of the host's channel, so that channel must be one everyone on the
host server can view, and a player from elsewhere must be a member there who can view it.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.guild_settings import CLOCKS
from bot.i18n import N_, _
from bot.store.base import Shards
from bot.tournaments import model
from bot.tournaments.model import Tournament
from bot.tournaments.service import NO_LONGER_OPEN, Advance, Tournaments, current_standings
from bot.tournaments.standings import Line, written
from cogs import delivery, flows, messages
from cogs.language import in_public, in_server
from cogs.messages import Post
from cogs.pressed import Pressed
from cogs.typed import GameKind, TournamentRef
from cogs.visibility import Place, public_channel, sees
from rules import GAMES

log = logging.getLogger(__name__)

TOURNAMENT_ID = r"(?P<id>[a-z0-9]{4,12})"
TEMPLATE = rf"t:{TOURNAMENT_ID}:(?P<verb>join|leave)"
FORMAT_CHOICES = [app_commands.Choice(name=f, value=f) for f in model.FORMATS]
CLOCK_CHOICES = [app_commands.Choice(name=c, value=c) for c in CLOCKS if c != "off"]
#: Names are clipped to this in the standings' table, so a line fits a phone.
NAME_WIDTH = 12
#: Sign-ups `/game tournament list` shows, each with its Join button (two rows of five).
LISTED = 10
#: Rounds a deadline may decide at once, before the tournament is read again.
DECIDE_PASSES = 3
#: The standings' column heads (Buchholz and Sonneborn–Berger are abbreviated as named).
PLAYER, PTS = N_("Player"), N_("Pts")
FORMAT_NAMES = {
    model.ROUND_ROBIN: N_("round-robin"),
    model.SWISS: N_("Swiss"),
    model.CUP: N_("cup (starts when full)"),
}


def runner_of(client: discord.Client) -> TournamentRunner | None:
    """The bot's tournament runner (None: a bot without it). Looked up by name, as
    ``delivery.worker``: an extension is a module of its own."""
    cog = client.get_cog("Tournaments") if isinstance(client, commands.Bot) else None
    return cog if hasattr(cog, "tick") else None  # type: ignore[return-value]


def runner(client: discord.Client) -> Tournaments:
    return client.tournaments  # type: ignore[attr-defined, no-any-return]


def table_text(t: Tournament, lines: list[Line]) -> str:
    """The standings as a fixed-width block narrow enough for a phone (under 32 characters
    a line): place, name (× withdrawn), points, Buchholz, Sonneborn–Berger."""
    names = t.names
    withdrawn = {e.user for e in t.entries if e.withdrawn}
    player, pts = _(PLAYER)[:NAME_WIDTH], _(PTS)[:4]
    rows = [f"{'#':>2} {player:<{NAME_WIDTH}} {pts:>4} {'Buch':>4} {'SB':>4}"]
    for place, line in enumerate(lines, 1):
        name = names.get(line.player, line.player)[: NAME_WIDTH - 1]
        if line.player in withdrawn:
            name += "×"
        rows.append(
            f"{place:>2} {name:<{NAME_WIDTH}} {written(line.points):>4} "
            f"{written(line.buchholz):>4} {written(line.sonneborn_berger):>4}"
        )
    text = "\n".join(rows)
    return f"```\n{text[: messages.EMBED_DESCRIPTION_LIMIT - 200]}\n```"


def summary(t: Tournament) -> str:
    """The tournament's terms in one line."""
    return _("{game} · {format} · {rounds} rounds · clock {clock} · {seats} a table").format(
        game=GAMES[t.game].title,
        format=_(FORMAT_NAMES[t.format]),
        rounds=t.rounds,
        clock=t.clock,
        seats=t.seats,
    )


def signup_post(t: Tournament) -> Post:
    """The sign-up post, edited as players join: terms, start, players, and the buttons."""
    names = ", ".join(e.name for e in t.entries)
    if t.status == model.SIGNUP:
        when = (
            _("Starts <t:{at}:R>, or as soon as {cap} have joined.")
            if t.format == model.CUP
            else _("Starts <t:{at}:R>.")
        ).format(at=int(t.starts_at), cap=t.cap)
    elif t.status == model.CANCELLED:
        when = _("Cancelled: too few players signed up.")
    else:
        when = _("Sign-up is closed: `/game tournament standings` follows it.")
    if t.cross_server:
        when += "\n" + _("Open to players of other servers that take part.")
    embed = discord.Embed(
        title=_("🏆 Tournament `{id}`").format(id=t.id),
        description=messages.clip(
            f"{summary(t)}\n{when}\n\n"
            + _("Players ({n}/{cap}): {names}").format(n=len(t.entries), cap=t.cap, names=names),
            messages.EMBED_DESCRIPTION_LIMIT,
        ),
    )
    view = None
    if t.status == model.SIGNUP:
        view = discord.ui.View(timeout=None)
        view.add_item(TournamentButton.make(t.id, "join", _("Join"), discord.ButtonStyle.success))
        view.add_item(
            TournamentButton.make(t.id, "leave", _("Leave"), discord.ButtonStyle.secondary)
        )
    return Post(embed=embed, view=view)


def standings_post(t: Tournament, number: int | None = None) -> Post:
    """The standings after round ``number`` (the last closed by default); at the end, the
    winner named above them."""
    lines = current_standings(t)
    closed = [r.number for r in t.played if r.closed]
    number = number or (closed[-1] if closed else 0)
    if t.status == model.FINISHED and lines:
        head = _("🏆 **{name}** wins tournament `{id}`!").format(
            name=t.names.get(lines[0].player, lines[0].player), id=t.id
        )
    elif number:
        head = _("Standings after round {n} of {rounds}").format(n=number, rounds=t.rounds)
    else:
        head = _("No round has ended yet.")
    byes = [p for r in t.played if r.number == number for p in r.byes]
    notes = []
    if byes:
        notes.append(_("Bye: {names}").format(names=", ".join(t.names.get(p, p) for p in byes)))
    if any(e.withdrawn for e in t.entries):
        notes.append(_("× withdrawn"))
    notes.append(_("Ties parted by Buchholz (Buch), then Sonneborn–Berger (SB)."))
    embed = discord.Embed(
        title=_("🏆 Tournament `{id}`").format(id=t.id),
        description=messages.clip(
            "\n".join([head, summary(t), table_text(t, lines), *notes]),
            messages.EMBED_DESCRIPTION_LIMIT,
        ),
    )
    view = None
    if t.status == model.RUNNING:  # a player may withdraw from the rounds to come
        view = discord.ui.View(timeout=None)
        view.add_item(
            TournamentButton.make(t.id, "leave", _("Withdraw"), discord.ButtonStyle.secondary)
        )
    return Post(embed=embed, view=view)


class TournamentButton(Pressed[discord.ui.Button], template=TEMPLATE):
    """Join and Leave on a sign-up post; the tournament's id is in the custom id."""

    @classmethod
    def make(
        cls, tournament: str, verb: str, label: str, style: discord.ButtonStyle
    ) -> TournamentButton:
        button: discord.ui.Button = discord.ui.Button(
            label=label, style=style, custom_id=f"t:{tournament}:{verb}"
        )
        return cls(button, id=tournament, verb=verb)

    async def pressed(self, interaction: discord.Interaction) -> None:
        await sign(interaction, self.ids["id"], self.ids["verb"] == "join")


async def sign(interaction: discord.Interaction, tournament: str, joining: bool) -> None:
    """Join or leave a sign-up, or withdraw from a running tournament (a button or a
    command): the sign-up post says who is in."""
    guild, _channel, user = flows.where(interaction)
    await flows.acknowledge(interaction, private=True)
    tournaments = runner(interaction.client)
    if joining:
        t = await reach(interaction, tournament)
        if t.guild != guild:
            await may_play_there(interaction, t)
        t = await tournaments.join(t.id, guild, user, flows.display_name(interaction))
        said = _("You are in tournament `{id}`.").format(id=t.id)
    else:
        t = await tournaments.leave(tournament, guild, user)
        said = (
            _("You left tournament `{id}`.")
            if t.status == model.SIGNUP
            else _("You withdrew from tournament `{id}`: your games in progress go on.")
        ).format(id=t.id)
    await flows.send(interaction, Post(content=said), ephemeral=True)
    cog = runner_of(interaction.client)
    if cog is None:
        return
    await cog.edit_signup(t)
    if t.format == model.CUP and t.status == model.SIGNUP and len(t.entries) >= t.cap:
        await cog.run(t.id)  # a full cup starts now


async def reach(interaction: discord.Interaction, tournament: str) -> Tournament:
    """The tournament as the caller reaches it (``Tournaments.find``); another server's only
    while its channel is one everyone there can view (a player in it reaches it still): an
    open tournament never shows the players of a private channel."""
    guild, _channel, user = flows.where(interaction)
    t = await runner(interaction.client).find(tournament, guild, user)
    elsewhere = t.guild != guild and t.entry(user) is None
    if elsewhere and not public_channel(interaction.client, t.guild, t.channel):
        raise ServiceError(_(NO_LONGER_OPEN).format(id=t.id))
    return t


async def may_play_there(interaction: discord.Interaction, t: Tournament) -> None:
    """A player from another server signs up only if they can play where the games are: as
    a member of the host server who may view the tournament's channel (asked of Discord:
    the bot keeps no member list)."""
    user = str(interaction.user.id)
    if not await sees(interaction.client, user, Place(t.guild, t.channel), {}):
        host = interaction.client.get_guild(int(t.guild))
        raise ServiceError(
            _(
                "Join the server **{server}** first: the games of tournament `{id}` are "
                "played in its threads."
            ).format(server=host.name if host else t.guild, id=t.id)
        )


async def listed(interaction: discord.Interaction) -> list[Tournament]:
    """The sign-ups the caller may join (``Tournaments.joinable``), another server's only
    where everyone there may view its channel, at most ``LISTED``."""
    guild = flows.where(interaction)[0]
    found = await runner(interaction.client).joinable(guild)
    client = interaction.client
    shown = [t for t in found if t.guild == guild or public_channel(client, t.guild, t.channel)]
    return shown[:LISTED]


def list_post(interaction: discord.Interaction, found: list[Tournament], taking_part: bool) -> Post:
    """`/game tournament list`: each sign-up in a line (another server's named), a Join
    button for each."""
    guild = flows.where(interaction)[0]
    lines = []
    for t in found:
        line = _("`{id}` · {game} · {format} · {n}/{cap} players · starts <t:{at}:R>").format(
            id=t.id,
            game=GAMES[t.game].title,
            format=_(FORMAT_NAMES[t.format]),
            n=len(t.entries),
            cap=t.cap,
            at=int(t.starts_at),
        )
        host = interaction.client.get_guild(int(t.guild))
        if t.guild != guild and host is not None:
            line += " · " + _("on **{server}**").format(server=host.name)
        lines.append(line)
    if not lines:
        lines.append(_("No sign-up is open — open one with `/game tournament new`."))
    if not taking_part:
        lines.append(
            _(
                "Tournaments of other servers are listed here once an admin turns on "
                "`/game config open_tournaments:`."
            )
        )
    view = None
    if found:
        view = discord.ui.View(timeout=None)
        for t in found:
            label = _("Join {id}").format(id=t.id)
            view.add_item(TournamentButton.make(t.id, "join", label, discord.ButtonStyle.success))
    embed = discord.Embed(
        title=_("🏆 Tournaments to join"),
        description=messages.clip("\n".join(lines), messages.EMBED_DESCRIPTION_LIMIT),
    )
    return Post(embed=embed, view=view)


async def tournament_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """This server's tournaments, open ones first (what its host may start)."""
    guild = flows.where(interaction)[0]
    found = await runner(interaction.client).store.tournaments_in_guild(guild, 50)
    return tournament_choices(found, current)


async def reachable_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """This server's tournaments, then the sign-ups of other servers the caller may join."""
    guild = flows.where(interaction)[0]
    found = await runner(interaction.client).store.tournaments_in_guild(guild, 50)
    found += [t for t in await listed(interaction) if t.guild != guild]
    return tournament_choices(found, current)


def tournament_choices(found: list[Tournament], current: str) -> list[app_commands.Choice[str]]:
    """The tournaments whose line holds ``current``, as choices."""
    choices = []
    for t in found:
        label = f"{t.id} · {GAMES[t.game].title} · {t.format} · {t.status}"
        if current.lower() in label.lower():
            choices.append(app_commands.Choice(name=label[:100], value=t.id))
    return choices[:25]


class TournamentCommands(app_commands.Group):
    """`/game tournament`: new, join, start, standings (the sign-up post's Leave button)."""

    def __init__(self) -> None:
        super().__init__(name="tournament", description="Tournaments")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if (
            interaction.guild_id is None
            or interaction.client.get_guild(interaction.guild_id) is None
        ):
            raise app_commands.NoPrivateMessage()
        return True

    @app_commands.command(name="new")
    @app_commands.describe(
        game="Which game",
        format="A cup starts when full",
        rounds="Swiss and cup rounds",
        clock="Time per decision",
        cap="Most players",
        start_hours="Hours to the start",
        round_days="Days a round lasts",
        seats="Players a table",
        withdraw_after="Timeouts before a withdrawal (0: never)",
        open="Open to other servers",
    )
    @app_commands.choices(format=FORMAT_CHOICES, clock=CLOCK_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: GameKind,
        format: str,
        rounds: app_commands.Range[int, 1, 12] = 3,
        clock: str = "24h",
        cap: app_commands.Range[int, 2, 64] = 16,
        start_hours: app_commands.Range[int, 1, 336] = 24,
        round_days: app_commands.Range[int, 1, 30] = 7,
        seats: app_commands.Range[int, 2, 5] | None = None,
        withdraw_after: app_commands.Range[int, 0, 10] = 2,
        open: bool = False,
    ) -> None:
        """Open a tournament's sign-up here; it runs itself."""
        guild, channel, user = flows.where(interaction)
        if open and not public_channel(interaction.client, guild, channel):
            raise ServiceError(
                _(
                    "A tournament open to other servers is held in a channel everyone here "
                    "can view: its players and games are shown there. Open it in such a "
                    "channel, or without `open:`."
                )
            )
        await flows.acknowledge(interaction)
        t = await runner(interaction.client).create(
            guild,
            channel,
            user,
            flows.display_name(interaction),
            game=game,
            format=format,
            rounds=rounds,
            clock=clock,
            cap=cap,
            start_hours=start_hours,
            round_hours=round_days * 24,
            withdraw_after=withdraw_after,
            seats=seats,
            cross_server=open,
        )
        async with in_public(interaction):
            message = await flows.send(interaction, signup_post(t))
        if message is None:  # the first answer: its message is the original response
            message = await interaction.original_response()
        await runner(interaction.client).remember_signup(
            t.id, str(message.channel.id), str(message.id)
        )

    @app_commands.command(name="join")
    @app_commands.describe(tournament="Its id")
    @app_commands.autocomplete(tournament=reachable_autocomplete)
    async def join(self, interaction: discord.Interaction, tournament: TournamentRef) -> None:
        """Sign up for a tournament."""
        await sign(interaction, tournament, True)

    @app_commands.command(name="list")
    async def list_signups(self, interaction: discord.Interaction) -> None:
        """Tournaments to join"""
        await flows.acknowledge(interaction, private=True)
        found = await listed(interaction)
        taking_part = await runner(interaction.client).takes_part(flows.where(interaction)[0])
        await flows.send(interaction, list_post(interaction, found, taking_part), ephemeral=True)

    @app_commands.command(name="start")
    @app_commands.describe(tournament="Its id")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def start(self, interaction: discord.Interaction, tournament: TournamentRef) -> None:
        """Start now (host)."""
        guild, _channel, user = flows.where(interaction)
        await flows.acknowledge(interaction, private=True)
        t = await runner(interaction.client).start_now(tournament, guild, user)
        await flows.send(
            interaction,
            Post(content=_("Tournament `{id}` starts.").format(id=t.id)),
            ephemeral=True,
        )
        cog = runner_of(interaction.client)
        if cog is not None:
            await cog.run(t.id)

    @app_commands.command(name="standings")
    @app_commands.describe(tournament="Its id")
    @app_commands.autocomplete(tournament=reachable_autocomplete)
    async def standings(self, interaction: discord.Interaction, tournament: TournamentRef) -> None:
        """Standings (only you see them)."""
        t = await reach(interaction, tournament)
        await flows.send(interaction, standings_post(t), ephemeral=True)


#: The groups ``setup`` adds under `/game` (the catalogs read their strings from here).
SUBGROUPS = (TournamentCommands,)
#: The persistent buttons, registered with the bot's others (``cogs.app``), so a click on
#: one is known as ours (``flows.is_ours``) and never also answered as a stray.
DYNAMIC_ITEMS = (TournamentButton,)


class TournamentRunner(commands.Cog, name="Tournaments"):
    """Runs the tournaments at each scheduler tick and posts what they owe."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def tournaments(self) -> Tournaments:
        return runner(self.bot)

    async def tick(self, now: float, shards: Shards | None) -> None:
        """Advance every tournament whose time has come; one failure stays in its own."""
        for tournament_id in await self.tournaments.due(now):
            try:
                t = await self.tournaments.get(tournament_id)
                if shards is None or shards.owns(t.guild):
                    await self.run(tournament_id, now)
            except Exception:  # a containment boundary: the other tournaments go on
                log.exception("tournament %s: could not advance", tournament_id)

    async def run(self, tournament_id: str, now: float | None = None) -> None:
        """Advance a tournament, hand its new games' first posts to the delivery worker
        (woken now, unless a tick runs it next: ``now`` given), decide the games its deadline
        found unfinished, then post what it owes."""
        for _pass in range(DECIDE_PASSES):
            step: Advance = await self.tournaments.advance(tournament_id, now)
            keys = [key for result in step.started for key in result.owed]
            if now is None:
                await delivery.give_back(self.bot, keys)
            else:
                await delivery.release(self.bot, keys)
            for game_id in step.decide:
                await self.decide(game_id, step.tournament)
            if not step.decide:
                break
        t = await self.tournaments.get(tournament_id)
        for owed in list(t.owed):
            await self.post(t, owed)
            t = await self.tournaments.posted(t.id, owed)
        if t.status != model.SIGNUP:
            await self.edit_signup(t)

    async def decide(self, game_id: str, t: Tournament) -> None:
        result = await self.bot.service.decide_on_time(game_id)  # type: ignore[attr-defined]
        scheduler = self.bot.get_cog("Scheduler")
        round_number = t.current.number if t.current is not None else 0
        await scheduler.post_decided(  # type: ignore[union-attr]
            result,
            N_("⏰ Round {n} of tournament `{id}` is over: the clock decided this game."),
            n=round_number,
            id=t.id,
        )

    async def post(self, t: Tournament, owed: dict[str, Any]) -> None:
        """An owed post, in the tournament's channel, in the server's language."""
        channel = self.bot.get_partial_messageable(int(t.channel), guild_id=int(t.guild))
        async with in_server(self.bot, t.guild):
            if owed["kind"] == model.CANCELLED_POST:
                post = Post(
                    content=_("Tournament `{id}` is cancelled: too few players signed up.").format(
                        id=t.id
                    )
                )
            else:
                post = standings_post(t, owed.get("round"))
            await channel.send(**post.kwargs())

    async def edit_signup(self, t: Tournament) -> None:
        """The sign-up post as the tournament is now (gone: nothing to edit)."""
        if t.signup_message is None:
            return
        channel_id, message_id = t.signup_message
        channel = self.bot.get_partial_messageable(int(channel_id), guild_id=int(t.guild))
        async with in_server(self.bot, t.guild):
            post = signup_post(t)
            try:
                await channel.get_partial_message(int(message_id)).edit(
                    embed=post.embed, view=post.view, allowed_mentions=messages.NO_PINGS
                )
            except discord.NotFound:
                log.info("tournament %s: its sign-up post is gone", t.id)


async def setup(bot: commands.Bot) -> None:
    service = getattr(bot, "service", None)
    if service is not None:  # not when only the command tree is built (``sync``)
        bot.tournaments = Tournaments(service)  # type: ignore[attr-defined]
    game = bot.tree.get_command("game")
    assert isinstance(game, app_commands.Group), "cogs.table loads first: /game is its group"
    for group in SUBGROUPS:
        game.add_command(group())
    await bot.add_cog(TournamentRunner(bot))
