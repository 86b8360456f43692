"""The wired Discord bot: settings, store, service, extensions and persistent components.

As in discord.py's ``advanced_startup.py``, the bot class is handed what it loads (its
extensions and its dynamic items) instead of knowing the cogs, and ``create_bot`` is the one
place that wires them. ``python -m bot run|sync`` dispatches here (``main``) by module name,
so the application layer (bot/) never imports Discord.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import itertools
import logging
import sys
import time
from collections.abc import Sequence
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from bot import outbox, watchdog
from bot.ai import decide
from bot.config import MAX_LOGIN_RETRY, Settings
from bot.i18n import _, language_of, set_language
from bot.metrics import MetricsServer
from bot.pictures import Pictures
from bot.pool import WorkerPool
from bot.service import GameService
from bot.store import Store, open_store
from cogs import (
    EXTENSIONS,
    flows,
    forget,
    inbox,
    items,
    launch,
    observe,
    stall,
    titles,
    tournaments,
    visibility,
    web_table,
)
from cogs import replay as viewers
from cogs.retry import transient
from cogs.shutdown import Drain
from cogs.translator import CatalogTranslator

log = logging.getLogger(__name__)

#: The guilds intent alone: interactions arrive whatever the intents, and the bot reads no
#: message, member or presence (so no privileged intent either).
INTENTS = discord.Intents(guilds=True)


class GameTree(app_commands.CommandTree):
    """The one handler of slash command errors: what a command raises arrives here as
    ``CommandInvokeError.original`` and becomes the same ephemeral sentence a component's
    guard gives; a failed check or a bad value becomes a sentence too."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Every slash command and autocomplete answers in its player's language: set here,
        first, for the interaction's own task (public posts switch to the server's). Its
        reads of games are the member's: ``cogs.visibility`` decides what they may see."""
        set_language(language_of(interaction.locale))
        visibility.bind(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CommandInvokeError):
            await flows.report(interaction, error.original)
            return
        if isinstance(error, app_commands.NoPrivateMessage):
            message = _("Games are played in server channels — try this command in a server.")
        elif isinstance(error, app_commands.MissingPermissions):
            message = _("You need the Manage Server permission for this command.")
        elif isinstance(error, app_commands.CheckFailure):
            message = str(error) or _("You cannot use this command here.")
        elif isinstance(error, app_commands.TransformerError):
            message = _("“{value}” is not a valid value here — pick one from the list.").format(
                value=error.value
            )
        else:
            await flows.report(interaction, error)
            return
        try:
            await flows.reply_error(interaction, message)
        except discord.HTTPException:
            log.warning("could not report an error to interaction %s", interaction.id)


class TabletopBot(commands.Bot):
    """A ``commands.Bot`` whose ``setup_hook`` opens the store, then loads the extensions and
    registers the dynamic items it was given.

    It needs the guilds intent alone (servers, channels, threads and roles: what permission
    checks read) and keeps no message cache: the bot answers interactions and reads no message.
    ``serve=False`` (``sync``) builds the command tree only: no store, no worker pool.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        initial_extensions: Sequence[str],
        dynamic_items: Sequence[type[discord.ui.DynamicItem[Any]]],
        serve: bool = True,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            tree_cls=GameTree,
            **options,
        )
        self.settings = settings
        self.initial_extensions = tuple(initial_extensions)
        self.dynamic_items = tuple(dynamic_items)
        self.store: Store | None = None
        self.service: GameService | None = None
        self.pool: WorkerPool | None = None
        self.ai_pool: WorkerPool | None = None
        self.serve = serve
        self.metrics: MetricsServer | None = None
        self.observer: observe.Observer | None = None
        self.watchdog: asyncio.Task[None] | None = None
        #: The interactions in flight, and the stop that lets them finish (SIGTERM, SIGINT).
        self.drain = Drain(self, self.close)

    async def setup_hook(self) -> None:
        if not self.serve:  # sync: the command tree is all it needs
            await self.tree.set_translator(CatalogTranslator())
            for extension in self.initial_extensions:
                await self.load_extension(extension)
            return
        if self.store is None:  # not opened already by ``python -m bot run``'s check
            self.store = open_store(
                self.settings.database_url, pool_size=self.settings.database_pool_size
            )
            await self.store.open()
        # Pictures and AI decisions are made in worker processes, never on the event loop,
        # each in a pool of its own: a long think holds no worker a board waits for.
        self.pool = WorkerPool.from_settings(self.settings)
        self.pool.start()
        self.ai_pool = WorkerPool.for_ai(self.settings)
        self.ai_pool.start()
        self.service = GameService(
            self.store,
            remind_after=Settings.hours(self.settings.remind_hours),
            timeout_after=Settings.hours(self.settings.turn_timeout_hours),
            pictures=Pictures.from_settings(self.settings, self.pool),
            decide=functools.partial(self.ai_pool.run, decide),
            think=self.ai_pool.run,
            ai_budget=self.settings.ai_budget_seconds,
        )
        await web_table.open_door(self, self.service, self.settings)  # the web table (issue 26)
        # Every command's names and descriptions in each language we speak, when synced.
        await self.tree.set_translator(CatalogTranslator())
        for extension in self.initial_extensions:
            await self.load_extension(extension)
        # Registered once: every button on any old message keeps working after a restart.
        self.add_dynamic_items(*self.dynamic_items)
        self.observer = observe.install(self, self.store, self.pool)
        await self.open_health()

    async def open_health(self) -> None:
        """The private port of /healthz, /readyz and /metrics (``METRICS_PORT``), once:
        ``serve`` opens it before the first try to reach Discord, so /healthz answers from
        the first second and /readyz says "not ready" until the gateway is up."""
        if self.metrics is None and self.settings.metrics_port:
            self.metrics = MetricsServer(self.settings.metrics_host, self.settings.metrics_port)
            await self.metrics.start()

    async def on_ready(self) -> None:
        """Connected: tell systemd (Type=notify), and ping its watchdog from now on."""
        if watchdog.notify("READY=1") and self.watchdog is None:
            self.watchdog = asyncio.create_task(watchdog.keep_alive(), name="systemd-watchdog")

    async def close(self) -> None:
        watchdog.notify("STOPPING=1")
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None
        if self.metrics is not None:
            await self.metrics.close()
            self.metrics = None
        await super().close()
        await web_table.close_door()
        for pool in (self.pool, self.ai_pool):
            if pool is not None:
                await pool.close()
        self.pool = self.ai_pool = None
        if self.store is not None:
            await self.store.close()
            self.store = None


def settle_heap() -> None:
    """Once start-up has loaded everything (engines, fonts, discord.py, catalogs), move those
    objects out of the garbage collector's sight: a full collection then scans only what was
    made since, instead of holding the event loop ~50 ms (issue 28: a tick never blocks)."""
    gc.collect()
    gc.freeze()


class ShardedTabletopBot(TabletopBot, commands.AutoShardedBot):
    """The same bot over several shards of one connection (``SHARD_COUNT``/``SHARD_IDS``):
    discord.py's ``AutoShardedBot`` runs the shards this process was given, while other
    processes run the rest over the same store."""


def build(settings: Settings, *, serve: bool = True) -> TabletopBot:
    """The bot with every game's extension and our persistent components; sharded when the
    settings name shards. ``serve=False``: the command tree only (``sync``)."""
    flows.VERBS.update(stall.VERBS)
    wiring: dict[str, Any] = {
        "serve": serve,
        "initial_extensions": EXTENSIONS,
        "dynamic_items": (
            *items.bind(flows.on_click),
            *inbox.DYNAMIC_ITEMS,
            *forget.DYNAMIC_ITEMS,
            *launch.items(settings),  # issue 40: Play
            *viewers.DYNAMIC_ITEMS,
            *titles.DYNAMIC_ITEMS,
            *tournaments.DYNAMIC_ITEMS,
        ),
    }
    shards = settings.shards()
    if shards is None:
        return TabletopBot(settings, **wiring)
    return ShardedTabletopBot(
        settings, shard_count=shards.count, shard_ids=list(shards.ids), **wiring
    )


def create_bot(**overrides: Any) -> TabletopBot:
    """The fully wired bot, not connected: settings from the environment and ``.env``, with
    keyword overrides (e.g. ``database_url=...``). Its ``setup_hook`` does the rest."""
    return build(Settings.load(**{k: str(v) for k, v in overrides.items()}))


async def sync(settings: Settings, guild_id: str) -> None:
    """Register the slash commands, globally or on one server (instantly): the command tree
    is built without the store or the worker pool (``guild_id`` was checked by the caller)."""
    async with build(settings, serve=False) as bot:
        await bot.login(settings.discord_token)
        guild = discord.Object(int(guild_id)) if guild_id else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        commands_synced = await bot.tree.sync(guild=guild)
        where = f"guild {guild_id}" if guild_id else "all servers (may take up to an hour to show)"
        names = ", ".join(c.name for c in commands_synced)
        print(f"Synced {len(commands_synced)} commands to {where}: {names}")


async def serve(settings: Settings, store: Store | None = None) -> None:
    """Log in (patiently), connect, and serve until a stop: SIGTERM or SIGINT drains the
    interactions in flight and closes everything (``cogs.shutdown``), and this returns.
    ``store`` is the one the start-up checks opened, kept so the database is opened once."""
    bot = build(settings)
    bot.store = store
    async with bot:
        bot.drain.install()
        await bot.open_health()
        # Runs setup_hook: everything is loaded.
        await login(bot, settings.discord_token, settings.login_retry_seconds)
        if not bot.is_closed():  # else a stop came while it was still starting
            settle_heap()
            await connect(bot, settings.login_retry_seconds)
        if bot.drain.stopped is not None:  # the stop closes the pools and the store: let it
            await bot.drain.stopped  # finish (returning now would cancel it halfway)
        await bot.close()  # what start-up opened after a stop had closed the bot, if any


async def login(bot: discord.Client, token: str, first_wait: float = 2.0) -> None:
    """Log in; a network that is not there yet (or Discord's bad moment) is tried again with
    backoff from ``first_wait`` seconds (``LOGIN_RETRY_SECONDS``), one line per failed try,
    each try on a fresh HTTP session, until a stop closes the bot (then this returns). A
    rejected token is raised (``discord.LoginFailure``)."""
    for attempt in itertools.count(1):
        if bot.is_closed():
            return
        try:
            await bot.login(token)
            return
        except Exception as error:
            if bot.is_closed():  # a stop closed the session under this try: not a failure
                return
            if not retryable(error):
                raise
            reason = str(error) or type(error).__name__
        await fresh_session(bot.http)
        await again_later(
            bot, attempt, first_wait, f"cannot reach Discord (try {attempt}: {reason})"
        )


async def connect(bot: discord.Client, first_wait: float = 2.0) -> None:
    """Connect to the gateway and serve until the bot closes. Once connected, discord.py
    reconnects by itself; before that, a gateway that cannot be reached is tried again here
    (one line per failed try): discord.py 2.7 gives up on a first handshake that fails, with
    an ``AttributeError`` on the connection it never had (Rapptz/discord.py#10520). Its own
    log line before that names the reason."""
    for attempt in itertools.count(1):
        try:
            await bot.connect()
            return
        except AttributeError:
            never_connected = bot.ws is None and not isinstance(bot, discord.AutoShardedClient)
            if not never_connected:
                raise
        if bot.is_closed():
            return
        await again_later(
            bot, attempt, first_wait, f"cannot reach Discord's gateway (try {attempt})"
        )


async def again_later(bot: discord.Client, attempt: int, first_wait: float, failed: str) -> None:
    """After failed try ``attempt``: its one line, and the wait before the next (from
    ``first_wait`` seconds, doubled at each try up to a minute), which a stop ends."""
    wait = outbox.backoff(attempt, first_wait, cap=MAX_LOGIN_RETRY)
    log.warning("%s; again in %.1f s", failed, wait)
    until = time.monotonic() + wait
    while time.monotonic() < until and not bot.is_closed():
        await asyncio.sleep(min(0.5, until - time.monotonic()))


def retryable(error: Exception) -> bool:
    """Whether a failed login may succeed if tried again: the network, or Discord's 5xx or
    429 (a rejected token is ``LoginFailure``, an ``HTTPException`` with a 401)."""
    if isinstance(error, discord.HTTPException):
        return transient(error)
    return isinstance(error, TimeoutError | aiohttp.ClientError | OSError)


async def fresh_session(http: discord.http.HTTPClient) -> None:
    """Close the failed try's HTTP session, and let the next try open a new one on a new
    connector. discord.py 2.7's ``static_login`` makes a session per login on the client's
    connector, and makes that connector only when it has none; closing the session closes
    the connector it owns, and a session on a closed connector fails every request with
    "Session is closed". So a closed connector is forgotten here, and the next
    ``static_login`` makes both anew."""
    await http.close()
    http.clear()
    connector = http.connector
    if connector is not MISSING and connector is not None and connector.closed:
        http.connector = MISSING


#: The one sentence for a token Discord refuses (the process then exits 2: no restart loop).
REJECTED = (
    "Discord rejected the token in DISCORD_TOKEN: copy it again from the Developer Portal "
    "(Bot -> Reset Token) into .env, then start the bot again."
)


def main(command: str, settings: Settings, guild_id: str = "", store: Store | None = None) -> None:
    """``python -m bot run|sync`` after its checks: connect, or register the commands.
    ``store`` is the one the checks opened, kept so the database is opened once."""
    if command == "run":
        # bot.logs configured the one handler: discord.py is given none of its own (each line
        # is written once).
        try:
            asyncio.run(serve(settings, store))
        except discord.LoginFailure:
            print(REJECTED, file=sys.stderr)
            raise SystemExit(2) from None
    elif command == "sync":
        asyncio.run(sync(settings, guild_id))
    else:
        raise ValueError(f"unknown Discord command {command!r}")
