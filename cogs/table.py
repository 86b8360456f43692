"""`/game ...`: the shared lobby and table for every game."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from zoneinfo import available_timezones

import discord
from discord import app_commands
from discord.ext import commands

from bot import alerts as bot_alerts
from bot import visibility
from bot.ai import LEVELS
from bot.errors import ServiceError
from bot.guild_settings import (
    CLOCKS,
    LOBBY_HOURS_RANGE,
    PLAYER_GAMES_RANGE,
    SEASON_GAMES_RANGE,
    SEASON_WEEKS_RANGE,
    SERVER_GAMES_RANGE,
    VACATION_DAYS_RANGE,
    GuildSettings,
)
from bot.i18n import LANGUAGE_NAMES, _
from bot.options import parse_options
from bot.service import GameService
from bot.store.base import ACTIVE, GameRecord, GameSummary
from cogs import cooldowns, flows, forget, inbox, memory, messages, seasons, teaching
from cogs import replay as viewers
from cogs.messages import Post
from cogs.typed import GameKind, GameRef, OptionsText, QuietText, SeasonRef, ZoneText
from cogs.undo import propose as propose_undo

CLOCK_CHOICES = [app_commands.Choice(name=clock, value=clock) for clock in CLOCKS]
AI_LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in LEVELS]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=name, value=lang) for lang, name in LANGUAGE_NAMES.items()
]


def game_line(record: GameRecord | GameSummary, title: str) -> str:
    """One game in a list: its id, title (or why it is unavailable), status and players."""
    players = ", ".join(s.name or s.user for s in record.seats)
    return f"`{record.id}` · {title} · {messages.status_word(record.status)} · {players}"


async def channel_game_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The open games of this channel, so nobody has to type an id."""
    service = flows.service_of(interaction)
    guild, channel = flows.where(interaction)[:2]
    return await game_choices(service, await service.channel_games(guild, channel), current)


async def game_choices(
    service: GameService, records: Sequence[GameRecord | GameSummary], current: str
) -> list[app_commands.Choice[str]]:
    """The ``records`` the asker may see whose line holds ``current``, as choices."""
    choices = []
    for record in await visibility.visible(list(records)):
        label = game_line(record, service.title(record))
        if current.lower() in label.lower():
            choices.append(app_commands.Choice(name=messages.clip(label, 100), value=record.id))
    return choices[:25]


ALERT_CHOICES = [
    app_commands.Choice(name="thread ping", value=bot_alerts.THREAD),
    app_commands.Choice(name="DM each turn", value=bot_alerts.DM),
    app_commands.Choice(name="daily DM", value=bot_alerts.DIGEST),
    app_commands.Choice(name="off", value=bot_alerts.OFF),
]
#: What `/game replay view:` shows: the board viewer, the told story, the JSON log (with a GIF).
REPLAY_CHOICES = [
    app_commands.Choice(name="boards", value=viewers.BOARDS),
    app_commands.Choice(name="story", value=viewers.STORY),
    app_commands.Choice(name="log", value=viewers.LOG),
    app_commands.Choice(name="gif", value=viewers.GIF),
]
#: The /game commands a player may use anywhere, a DM with the bot included.
ANYWHERE = frozenset({"mine", "notify"})


@functools.cache
def zone_names() -> list[str]:
    """Every time zone name, read once (the system's zone data does not change meanwhile)."""
    return sorted(available_timezones())


async def zone_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Time zone names holding what was typed (``Lisbon`` finds ``Europe/Lisbon``)."""
    typed = current.strip().lower().replace(" ", "_")
    found = [z for z in zone_names() if typed in z.lower()]
    return [app_commands.Choice(name=z, value=z) for z in found[:25]]


async def my_game_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The asker's own open games on every server (a DM has no channel to list)."""
    service = flows.service_of(interaction)
    mine = await service.games_of_player(None, str(interaction.user.id), limit=50)
    return await game_choices(service, mine, current)


def settings_lines(settings: GuildSettings) -> str:
    """A server's settings, one a line, as `/game config` shows them."""
    clock = settings.clock or _("the bot's default")
    language = (
        LANGUAGE_NAMES[settings.language]
        if settings.language
        else _("the server's own (Discord's server settings)")
    )
    return (
        _(
            "- threads: **{threads}**\n- lobby_hours: **{hours}**\n- clock: **{clock}**\n"
            "- language: **{language}**"
        ).format(
            threads=_("on") if settings.threads else _("off"),
            hours=settings.lobby_hours,
            clock=clock,
            language=language,
        )
        + "\n"
        + _("- player_games: **{player}**\n- server_games: **{server}**").format(
            player=settings.player_games, server=settings.server_games
        )
        + "\n"
        + _("- web table: **{web}**").format(web=_("on") if settings.web else _("off"))
        + "\n"
        + _("- vacation_days: **{days}**").format(days=settings.vacation_days)
        + "\n"
        + _("- hints in unrated games: **{hints}**").format(
            hints=_("on") if settings.hints else _("off")
        )
        + "\n"
        + _(
            "- season_weeks: **{weeks}**\n- season_games: **{games}**\n"
            "- season_channel: {channel}\n- season_roles: **{roles}**"
        ).format(
            weeks=settings.season_weeks,
            games=settings.season_games,
            channel=f"<#{settings.season_channel}>"
            if settings.season_channel
            else _("where the last game was played"),
            roles=_("on") if settings.season_roles else _("off"),
        )
        + "\n"
        + _("- open_tournaments (with other servers): **{open}**").format(
            open=_("on") if settings.open_tournaments else _("off")
        )
    )


GAME_REF = "Which game"


def can_manage_roles(interaction: discord.Interaction) -> bool:
    """Whether the bot has Manage Roles on the server (the channel's permissions would say
    Manage Permissions of that channel instead, under the same bit)."""
    guild = interaction.guild
    if guild is None:
        return interaction.app_permissions.manage_roles
    return guild.me.guild_permissions.manage_roles


class Table(commands.Cog):
    """The lobby and the shared table commands."""

    game = app_commands.Group(
        name="game",
        description="Start, join and follow tabletop games",
        # `/game mine` and `/game notify` work in a DM with the bot too, so the app may be
        # installed to a user as well as to a server (Discord sets contexts per top command).
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Every /game command but the player's own (``ANYWHERE``) is played on a server the
        bot is on: elsewhere (a DM, a server that installed no bot) it says so."""
        command = interaction.command
        if command is not None and command.name in ANYWHERE:
            return True
        if interaction.guild_id is None or self.bot.get_guild(interaction.guild_id) is None:
            raise app_commands.NoPrivateMessage()
        return True

    @commands.Cog.listener("on_interaction")
    async def on_stray_component(self, interaction: discord.Interaction) -> None:
        """Clicks no item of ours takes are answered here (``flows.answer_stray``)."""
        await flows.answer_stray(interaction)

    @game.command(name="new")
    @app_commands.describe(
        game="Which game to play",
        options="Game options, e.g. two_players=true",
        thread="Play in a thread of its own",
        clock="Time per decision before the AI decides",
        autostart="Start by itself as soon as every seat is taken",
        ai_level="Level of the seats Add AI fills (default: normal)",
    )
    @app_commands.choices(clock=CLOCK_CHOICES, ai_level=AI_LEVEL_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: GameKind,
        options: OptionsText | None = None,
        thread: bool | None = None,
        clock: str | None = None,
        autostart: bool | None = None,
        ai_level: str | None = None,
    ) -> None:
        """Open a new game in this channel; others join with the button or /game join."""
        chosen = {"thread": thread, "clock": clock, "autostart": autostart, "ai_level": ai_level}
        prefs = {key: value for key, value in chosen.items() if value is not None}
        await flows.new_game(interaction, game, parse_options(options), prefs)

    @game.command(name="learn")
    @app_commands.describe(game="Which game")
    async def learn(self, interaction: discord.Interaction, game: GameKind) -> None:
        """Learn a game against the AI"""
        await teaching.learn(interaction, game)

    @game.command(name="config")
    @app_commands.describe(
        threads="Whether new games get a thread of their own",
        lobby_hours="Hours a lobby waits for its start before it closes",
        clock="Time per decision in new games",
        language="Language of public posts and boards",
        player_games="Most open games per player",
        server_games="Most running games here",
        web="Public games get a web page",
        vacation_days="Vacation days per player a year",
        hints="Hints in unrated games",
        season_weeks="Weeks a season lasts",
        season_games="Games that rank a player",
        season_channel="Results channel",
        season_roles="Roles for the top 3",
        open_tournaments="Cross-server tournaments",
    )
    @app_commands.choices(clock=CLOCK_CHOICES, language=LANGUAGE_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def config(
        self,
        interaction: discord.Interaction,
        threads: bool | None = None,
        lobby_hours: app_commands.Range[int, LOBBY_HOURS_RANGE[0], LOBBY_HOURS_RANGE[1]]
        | None = None,
        clock: str | None = None,
        language: str | None = None,
        player_games: app_commands.Range[int, PLAYER_GAMES_RANGE[0], PLAYER_GAMES_RANGE[1]]
        | None = None,
        server_games: app_commands.Range[int, SERVER_GAMES_RANGE[0], SERVER_GAMES_RANGE[1]]
        | None = None,
        web: bool | None = None,
        vacation_days: app_commands.Range[int, VACATION_DAYS_RANGE[0], VACATION_DAYS_RANGE[1]]
        | None = None,
        hints: bool | None = None,
        season_weeks: app_commands.Range[int, SEASON_WEEKS_RANGE[0], SEASON_WEEKS_RANGE[1]]
        | None = None,
        season_games: app_commands.Range[int, SEASON_GAMES_RANGE[0], SEASON_GAMES_RANGE[1]]
        | None = None,
        season_channel: discord.TextChannel | None = None,
        season_roles: bool | None = None,
        open_tournaments: bool | None = None,
    ) -> None:
        """This server's settings for new games (Manage Server); empty: show them."""
        service = flows.service_of(interaction)
        guild = flows.where(interaction)[0]
        chosen = {
            "threads": threads,
            "lobby_hours": lobby_hours,
            "clock": clock,
            "language": language,
            "player_games": player_games,
            "server_games": server_games,
            "web": web,
            "vacation_days": vacation_days,
            "hints": hints,
            "season_weeks": season_weeks,
            "season_games": season_games,
            "season_channel": None if season_channel is None else str(season_channel.id),
            "season_roles": season_roles,
            "open_tournaments": open_tournaments,
        }
        changes = {key: value for key, value in chosen.items() if value is not None}
        await flows.acknowledge(interaction, private=True)
        settings = (
            await service.configure(guild, **changes)
            if changes
            else await service.guild_settings(guild)
        )
        head = _("Settings changed.") if changes else _("This server's settings:")
        keep = _("Games already open keep their own (their language follows these at once).")
        text = f"{head}\n{settings_lines(settings)}\n{keep}"
        if settings.season_roles and not can_manage_roles(interaction):
            text += "\n" + _(
                "⚠️ Roles for the top 3 are on, but the bot lacks the Manage Roles permission: "
                "grant it (and keep the bot's role above the season roles), or no role will "
                "be given."
            )
        await flows.send(interaction, Post(content=text), ephemeral=True)

    @game.command(name="join")
    @app_commands.describe(game=GAME_REF)
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def join(self, interaction: discord.Interaction, game: GameRef | None = None) -> None:
        """Take a seat in the game waiting for players here."""

        await flows.join(interaction, game)

    @game.command(name="leave")
    @app_commands.describe(game=GAME_REF)
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def leave(self, interaction: discord.Interaction, game: GameRef | None = None) -> None:
        """Leave your game here (once it has started, an AI plays your seat)."""
        await flows.leave(interaction, game)

    @game.command(name="start")
    @app_commands.describe(game=GAME_REF)
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def start(self, interaction: discord.Interaction, game: GameRef | None = None) -> None:
        """Start your game (host only)."""
        await flows.start(interaction, game)

    @game.command(name="board")
    @app_commands.describe(game=GAME_REF)
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def board(self, interaction: discord.Interaction, game: GameRef | None = None) -> None:
        """The current board (only you see it)."""
        cooldowns.check(interaction, cooldowns.BOARD)
        await flows.show_board(interaction, await flows.watched(interaction, game))

    @game.command(name="hand")
    @app_commands.describe(game=GAME_REF)
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def hand(self, interaction: discord.Interaction, game: GameRef | None = None) -> None:
        """Your private hand, with your moves (only you see it)."""

        service = flows.service_of(interaction)
        guild, channel, user = flows.where(interaction)
        await flows.show_hand(interaction, await service.resolve(guild, channel, user, game))

    @game.command(name="status")
    @app_commands.describe(game=GAME_REF)
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def status(self, interaction: discord.Interaction, game: GameRef | None = None) -> None:
        """Who is playing, whose turn it is, and the game's options."""
        service = flows.service_of(interaction)
        read = service.read(await flows.watched(interaction, game))
        embed = messages.lobby_embed(read)
        if read.record.status == ACTIVE:
            embed.add_field(name=_("Turn"), value=read.turn_message(), inline=False)
            quiet = await service.quiet_seats(read.record)
            if quiet:
                lines = [
                    _("🌙 {name}: quiet hours until {when} (the clock runs)").format(
                        name=read.names.get(user, user), when=f"<t:{int(until)}:t>"
                    )
                    for user, until in quiet.items()
                ]
                embed.add_field(name=_("Quiet"), value="\n".join(lines)[:1024], inline=False)
        outcome = messages.outcome_line(read)
        if outcome:
            embed.add_field(name=_("Result"), value=outcome[:1024], inline=False)
        counted = messages.turn_counter(read)
        if counted:
            embed.set_footer(text=counted)
        await flows.send(interaction, Post(embed=embed), ephemeral=True)

    @game.command(name="list")
    @app_commands.describe(scope="This channel (default) or the whole server")
    @app_commands.choices(
        scope=[
            app_commands.Choice(name="this channel", value=inbox.HERE),
            app_commands.Choice(name="server", value=inbox.SERVER),
        ]
    )
    async def list_games(self, interaction: discord.Interaction, scope: str = inbox.HERE) -> None:
        """Open games here or on the server (only you see it)."""
        await inbox.show(interaction, scope)

    @game.command(name="mine")
    async def mine(self, interaction: discord.Interaction) -> None:
        """Your games everywhere, your moves first"""
        await inbox.show(interaction, inbox.MINE)

    @game.command(name="notify")
    @app_commands.describe(
        alerts="How turns reach you",
        game="Only this game's (id)",
        zone="Time zone, e.g. Europe/Lisbon",
        quiet="Quiet hours, e.g. 22-7, or off",
    )
    @app_commands.choices(alerts=ALERT_CHOICES)
    @app_commands.autocomplete(zone=zone_autocomplete, game=my_game_autocomplete)
    async def notify(
        self,
        interaction: discord.Interaction,
        alerts: str | None = None,
        game: GameRef | None = None,
        zone: ZoneText | None = None,
        quiet: QuietText | None = None,
    ) -> None:
        """Turn alerts, time zone, quiet hours"""
        service = flows.service_of(interaction)
        user = str(interaction.user.id)
        if alerts is None and zone is None and quiet is None:
            prefs = await service.alert_prefs(user)
        else:
            prefs = await service.set_alerts(
                user, alerts_mode=alerts, game_id=game, zone=zone, quiet=quiet
            )
        await flows.send(interaction, Post(content=bot_alerts.describe(prefs)), ephemeral=True)

    @game.command(name="rules")
    @app_commands.describe(
        which="Which game's rules (default: the game played here)",
        options="Changes, e.g. two_players=true (host, before the start)",
        game=GAME_REF,
    )
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def rules(
        self,
        interaction: discord.Interaction,
        which: GameKind | None = None,
        options: OptionsText | None = None,
        game: GameRef | None = None,
    ) -> None:
        """How to play, and the table's options (the host changes them before the start)."""
        if options:
            await flows.change_options(interaction, options, game)
            return
        await flows.show_rules(interaction, which, game)

    @game.command(name="replay")
    @app_commands.describe(game=GAME_REF, view="Boards (default), story, log, or log with a GIF")
    @app_commands.choices(view=REPLAY_CHOICES)
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def replay(
        self,
        interaction: discord.Interaction,
        game: GameRef | None = None,
        view: str = viewers.BOARDS,
    ) -> None:
        """A game turn by turn, its story or its log (only you see it)."""
        if view == viewers.STORY:
            await viewers.history(interaction, game)
        elif view == viewers.BOARDS:
            await viewers.open_viewer(interaction, game)
        else:
            await viewers.export(interaction, game, gif=view == viewers.GIF)

    @game.command(name="away")
    @app_commands.describe(
        game=GAME_REF,
        until="Back on (YYYY-MM-DD): vacation days",
        back="Take your seat back from its AI",
    )
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def away(
        self,
        interaction: discord.Interaction,
        game: GameRef | None = None,
        until: app_commands.Range[str, 10, 10] | None = None,
        back: bool = False,
    ) -> None:
        """Your AI plays your seat until you are back (`back:True`): a holiday, a busy week."""
        if back and until is not None:
            raise ServiceError(_("`back:` takes your seat back now: leave `until:` out."))
        await flows.away(interaction, not back, game, until)

    @game.command(name="kick")
    @app_commands.describe(player="Whose seat to take", game=GAME_REF)
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def kick(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        game: GameRef | None = None,
    ) -> None:
        """Hand a player's seat to an AI (host, or anyone with Manage Server)."""
        await flows.kick(interaction, player, game)

    @game.command(name="undo")
    @app_commands.describe(game=GAME_REF)
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def undo(self, interaction: discord.Interaction, game: GameRef | None = None) -> None:
        """Propose taking back your last move; the others accept with buttons."""
        await propose_undo(interaction, game)

    @game.command(name="abandon")
    @app_commands.describe(game=GAME_REF)
    @app_commands.autocomplete(game=channel_game_autocomplete)
    async def abandon(self, interaction: discord.Interaction, game: GameRef | None = None) -> None:
        """End a game without a result (host, or anyone with Manage Server)."""
        await flows.abandon(interaction, game)

    @game.command(name="forget-me")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        """Erase your data (asks first)."""
        await forget.ask(interaction)

    @game.command(name="stats")
    @app_commands.describe(
        user="Whose record (default: yours)", game="Only this game (default: every game)"
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        user: discord.Member | None = None,
        game: GameKind | None = None,
    ) -> None:
        """Your games, wins, average place, best score and rating here (only you)."""
        await memory.show_stats(interaction, user, game)

    @game.command(name="season")
    @app_commands.describe(game=GAME_REF, season="Default: the current one", page="Which page")
    @app_commands.autocomplete(season=seasons.season_autocomplete)
    async def season(
        self,
        interaction: discord.Interaction,
        game: GameKind,
        season: SeasonRef | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        """The season table here; past seasons, all time too."""
        await seasons.show(interaction, game, season, page)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Table(bot))
