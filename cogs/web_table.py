"""The web table seen from Discord: it is started with the bot, its pages are linked from
the posts, and each game's public flag is recorded from what Discord says of its channel.

Only a game in a channel that everyone on its server can view (the ``@everyone`` role may view
it) has a public page; this layer alone can tell, so it records the fact (``web_tables``) when
it first hears of a change to the game. The links themselves need no store round trip: a
game's public id is an HMAC of its id (``web.links``), so a post made right after a move links
the page at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import replace
from typing import Any

import discord
from discord.ext import commands

from bot.changes import Change, PostgresBridge
from bot.config import Settings
from bot.i18n import _
from bot.service import GameService
from bot.store.base import GameRecord, StoreError
from bot.store.web_tables import WebTable
from bot.visibility import Placed
from cogs.visibility import everyone_views
from web.links import Links, public_id
from web.server import Running, bridge_for, links_for, start

log = logging.getLogger(__name__)


#: Seconds a server's web-table switch is trusted before it is read again (the web server
#: itself reads it at every request; this only decides whether posts carry the link).
SETTINGS_SECONDS = 60.0


class WebDoor:
    """The bot's web table: the links it hands out, the public flags it records, and the
    server when this process serves the pages itself."""

    def __init__(self, client: discord.Client, service: GameService, links: Links) -> None:
        self.client = client
        self.service = service
        self.links = links
        #: What was last recorded of each game heard of: (server, "channel[,thread]",
        #: public).
        self.recorded: dict[str, tuple[str, str, bool]] = {}
        #: Servers known to keep the web table off (``/game config web:false``), and when
        #: each server's switch was last read.
        self.off: set[str] = set()
        self._read_at: dict[str, float] = {}
        self.running: Running | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        #: (server, channel or None) whose flags are to be worked out again shortly.
        self._following: set[tuple[str, str | None]] = set()

    def public(self, record: Placed) -> bool:
        """Whether everyone on the server can view the game: its channel, and its thread if
        it is played in one (a private thread is never public)."""
        where = [record.channel, *([record.thread] if record.thread else [])]
        return all(self.public_at(record.guild, channel) for channel in where)

    def public_at(self, guild_id: str, channel_id: str) -> bool:
        """Whether everyone on the server can view the channel or thread, from Discord's
        cache (one the bot cannot see, or on a server it is not in, is not public)."""
        try:
            guild = self.client.get_guild(int(guild_id))
            channel = guild.get_channel_or_thread(int(channel_id)) if guild else None
        except ValueError:
            return False
        if guild is not None and channel is None and channel_id in OPENED:
            return True  # a public thread this process just opened, not yet in the cache
        return guild is not None and everyone_views(guild, channel)

    def shown(self, record: GameRecord) -> bool:
        return record.guild not in self.off and self.public(record)

    def heard(self, change: Change) -> None:
        """A committed change: record the game's row if it is new here, or if its channel's
        visibility changed since (a channel made private hides its games' pages)."""
        known = self.recorded.get(change.game_id)
        if known is not None:
            guild, channel, public = known
            fresh = time.monotonic() - self._read_at.get(guild, 0.0) < SETTINGS_SECONDS
            if fresh and all(self.public_at(guild, c) for c in channel.split(",")) == public:
                return
        task = asyncio.get_running_loop().create_task(self.record(change.game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def record(self, game_id: str) -> None:
        record = await self.service.store.get_game(game_id)
        if record is None:
            return
        if (await self.service.guild_settings(record.guild)).web:
            self.off.discard(record.guild)
        else:
            self.off.add(record.guild)
        self._read_at[record.guild] = time.monotonic()
        public = self.public(record)
        where = ",".join([record.channel, *([record.thread] if record.thread else [])])
        if self.recorded.get(game_id) != (record.guild, where, public):
            row = WebTable(record.id, public_id(self.links.secret, record.id), public)
            await self.service.store.save_web_table(row)
            self.recorded[game_id] = (record.guild, where, public)

    def follow(self, guild_id: int, channel_id: int | None = None) -> None:
        """Discord says a channel or thread (``channel_id``), or the whole server's
        permissions (None), changed: the public flag of every game played there is worked
        out again shortly (``FOLLOW_SECONDS``, so a burst of events costs one pass)."""
        key = (str(guild_id), str(channel_id) if channel_id is not None else None)
        if key in self._following:
            return
        self._following.add(key)
        task = asyncio.get_running_loop().create_task(self._follow_after(key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _follow_after(self, key: tuple[str, str | None]) -> None:
        await asyncio.sleep(FOLLOW_SECONDS)
        self._following.discard(key)
        guild, channel = key
        try:
            await self.refollow(guild, channel)
        except StoreError as error:  # the store out of reach: the next change records it
            log.warning("could not follow the visibility of server %s: %s", guild, error)

    async def refollow(self, guild: str, channel: str | None) -> None:
        """Record each game's public flag again where it changed; a table no longer public
        has its open pages told, so their streams look and end."""
        for placed in await self.service.store.web_tables_in(guild, channel):
            public = self.public(placed)
            where = ",".join([placed.channel, *([placed.thread] if placed.thread else [])])
            self.recorded[placed.table.game_id] = (guild, where, public)
            if public == placed.table.public:
                continue
            await self.service.store.save_web_table(replace(placed.table, public=public))
            log.info("game %s: public %s now", placed.table.game_id, public)
            if not public:
                record = await self.service.store.get_game(placed.table.game_id)
                if record is not None:
                    self.service.changes.publish(record.id, record.version)


class Visibility(commands.Cog):
    """Discord's word that who may view a channel changed: the channel, its thread, the
    server's @everyone role, or the bot leaving the server (all from the guilds intent, no
    privileged one: a public table depends on @everyone's permissions alone)."""

    def __init__(self, door: WebDoor) -> None:
        self.door = door

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, _before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        # A category's permissions pass to the channels synced with it: all are looked at.
        where = None if isinstance(after, discord.CategoryChannel) else after.id
        self.door.follow(after.guild.id, where)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.door.follow(channel.guild.id, channel.id)

    @commands.Cog.listener()
    async def on_thread_update(self, _before: discord.Thread, after: discord.Thread) -> None:
        self.door.follow(after.guild.id, after.id)

    @commands.Cog.listener()
    async def on_thread_delete(self, thread: discord.Thread) -> None:
        self.door.follow(thread.guild.id, thread.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, _before: discord.Role, after: discord.Role) -> None:
        if after.is_default():
            self.door.follow(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.door.follow(guild.id)


#: Seconds between Discord's word of a change and the public flags worked out again.
FOLLOW_SECONDS = 0.5


#: The threads this process opened for its games (always public threads, inside a channel
#: whose own visibility is checked beside them): Discord tells the cache of a new thread only
#: by a later gateway event, which the game's first board must not wait for.
OPENED: set[str] = set()


def opened(thread: discord.Thread) -> None:
    """A game's public thread was just opened by this process."""
    OPENED.add(str(thread.id))


#: The bot's web table (one bot per process), for the posts' link buttons; None: no links.
DOOR: WebDoor | None = None
#: This process's PostgreSQL bridge, so a web table in another process hears its changes.
BRIDGE: PostgresBridge | None = None


async def open_door(client: discord.Client, service: GameService, settings: Settings) -> None:
    """The web table with the bot: on PostgreSQL the bridge that tells other processes of
    this one's changes (a ``python -m bot web`` among them); the links in posts whenever a
    web table is reachable (WEB_PORT here, or WEB_BASE_URL naming one elsewhere); and the
    server itself when WEB_PORT is not 0."""
    global DOOR, BRIDGE
    BRIDGE = await bridge_for(settings, service)
    if not settings.web_port and not settings.web_base_url:
        return
    door = WebDoor(client, service, await links_for(settings, service.store))
    if settings.web_port:
        try:
            door.running = await start(service, settings, door.links)
        except OSError as error:  # the port is taken: the games go on in Discord
            log.error(
                "the web table is off: cannot listen on %s:%d (%s); set WEB_PORT to a free "
                "port, or 0",
                settings.web_host,
                settings.web_port,
                error,
            )
            if not settings.web_base_url:
                return
    service.changes.subscribe(door.heard)
    if isinstance(client, commands.Bot):
        await client.add_cog(Visibility(door))
    DOOR = door


async def close_door() -> None:
    global DOOR, BRIDGE
    door, DOOR = DOOR, None
    bridge, BRIDGE = BRIDGE, None
    if door is not None and door.running is not None:
        await door.running.stop()
    if bridge is not None:
        await bridge.close()


def table_button(record: GameRecord) -> discord.ui.Button[Any] | None:
    """ "Web table": a link button to the game's public page, where it has one."""
    if DOOR is None or not DOOR.shown(record):
        return None
    return discord.ui.Button(
        style=discord.ButtonStyle.link, label=_("Web table"), url=DOOR.links.table(record.id)
    )


def add_hand_link(view: discord.ui.View | None, record: GameRecord, user: str) -> Any:
    """The hand panel's view with "Open on the web" (a link signed for ``user`` and this game
    that lapses), where the web table is on and the panel has room left for a button."""
    if DOOR is None or record.guild in DOOR.off:
        return view
    view = view or discord.ui.View(timeout=None)
    url = DOOR.links.hand(record.id, user, time.time())
    link: discord.ui.Button[Any] = discord.ui.Button(
        style=discord.ButtonStyle.link, label=_("Open on the web"), url=url
    )
    with contextlib.suppress(ValueError):  # every row already full: the choices come first
        view.add_item(link)
    return view
