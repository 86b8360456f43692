"""Reminders and timeouts: the clock of asynchronous play, kept in the store so it survives
restarts. A reminder pings whoever owes a decision; at the deadline their AI decides."""

from __future__ import annotations

import asyncio
import logging
import time

import discord
from discord.ext import commands, tasks

from bot.i18n import _
from bot.service import GameService
from bot.store.base import GameRecord, Shards
from cogs import latest, memory, messages, threads
from cogs.language import in_server
from cogs.messages import Post

log = logging.getLogger(__name__)

TICK_SECONDS = 60


def served_shards(bot: commands.Bot) -> Shards | None:
    """The shards this process connects (an ``AutoShardedBot`` given its ids); None: not
    sharded, so every game is this process's."""
    if isinstance(bot, commands.AutoShardedBot) and bot.shard_count and bot.shard_ids:
        return Shards(bot.shard_count, tuple(sorted(bot.shard_ids)))
    return None


class Scheduler(commands.Cog):
    """Checks the store every minute for games whose reminder or deadline has come.

    Faults stay in their game: an error in one game is logged and that game's clock stopped
    (its next move restarts it), and the other games are still served. Should the loop itself
    die (the store unreachable, say), it is started again ``restart_seconds`` later, so
    reminders and timeouts never stop for the whole server until a restart.

    A sharded process ticks only the games of the guilds on its own ``shards``: several
    processes share one store, and each table is reminded by exactly one of them.
    """

    restart_seconds: float = TICK_SECONDS

    def __init__(self, bot: commands.Bot, shards: Shards | None = None) -> None:
        self.bot = bot
        self.shards = shards if shards is not None else served_shards(bot)

    @property
    def service(self) -> GameService:
        return self.bot.service  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        self.every_minute.start()

    async def cog_unload(self) -> None:
        self.every_minute.cancel()

    @tasks.loop(seconds=TICK_SECONDS)
    async def every_minute(self) -> None:
        await self.tick(time.time())

    @every_minute.before_loop
    async def wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()
        # Finished games a stop left without their results (it logs and never raises).
        await self.service.results.sweep()

    @every_minute.error
    async def restart_later(self, error: BaseException) -> None:
        """The loop died: log why, and start it again once its task has ended."""
        log.error("the scheduler loop stopped; restarting it", exc_info=error)
        task = self.every_minute.get_task()
        loop = asyncio.get_running_loop()
        if task is not None:
            task.add_done_callback(
                lambda _: loop.call_later(self.restart_seconds, self._start_again)
            )

    def _start_again(self) -> None:
        if not self.every_minute.is_running():
            self.every_minute.start()

    async def tick(self, now: float) -> None:
        """Send what is due at ``now``; one game's failure never stops the others."""
        for record in await self.service.threads_to_archive(now, self.shards):
            try:
                await threads.archive(self.bot, record)
            except discord.HTTPException:  # gone or out of reach: nothing more to do for it
                log.exception("game %s: could not archive its thread", record.id)
            await self.service.archived(record)
        for record in await self.service.expired_lobbies(now, self.shards):
            try:
                await self.close_lobby(record, now)
            except Exception:  # a containment boundary: whatever broke, it broke one lobby
                log.exception("game %s: could not close its lobby", record.id)
        for record in await self.service.due(now, self.shards):
            try:
                # Each seat has its own clock: one may be late while another is reminded.
                if record.deadline is not None and record.deadline <= now:
                    await self.time_out(record, now)
                if record.remind_at is not None and record.remind_at <= now:
                    await self.remind(record, now)
            except Exception:  # a containment boundary: whatever broke, it broke one game
                log.exception("game %s: could not post its reminder or timeout", record.id)
                await self._stop_clock(record)

    async def _stop_clock(self, record: GameRecord) -> None:
        """Stop a failing game's clock so it is not retried every minute (a move restarts it)."""
        try:
            await self.service.store.set_timers(record.id, record.version, None, None)
        except Exception:
            log.exception("game %s: could not stop its clock either", record.id)

    async def close_lobby(self, record: GameRecord, now: float) -> None:
        """A lobby nobody started in its hours closes, and its message says so."""
        closed = await self.service.expire_lobby(record.id, now)
        if closed is None:
            return
        hours = closed.prefs.get("lobby_hours")
        async with in_server(self.bot, closed.guild):
            note = (
                _(
                    "This lobby closed: nobody started it within {hours} hours. Open another "
                    "with `/game new`."
                ).format(hours=hours)
                if hours
                else _("This lobby closed: nobody started it. Open another with `/game new`.")
            )
            await threads.edit_lobby(self.bot, self.service.read(closed), note)

    async def remind(self, record: GameRecord, now: float) -> None:
        users = await self.service.remind(record, now)
        mentions = " ".join(m for m in (messages.mention(u) for u in users) if m)
        if not mentions:
            return
        title = self.service.engine(record).title
        async with in_server(self.bot, record.guild):
            text = _(
                "{mentions} ⏰ {title} `{id}` is waiting for you: press **My hand** on the "
                "latest board, or `/game hand`."
            ).format(mentions=mentions, title=title, id=record.id)
            await threads.post(self.bot, record, Post(content=text, pings=users))

    async def time_out(self, record: GameRecord, now: float) -> None:
        result = await self.service.time_out(record.id, now)
        if not result.timed_out:
            return
        names = result.read.names
        who = ", ".join(names.get(p, p) for p in result.timed_out)
        async with in_server(self.bot, result.record.guild):
            headline = _("⏰ Time ran out for {names}: the AI decided for them this time.").format(
                names=who
            )
            ratings = memory.rating_line(result.results, result.read.names)
            post = await messages.board_post(result.read, result.told, headline, ratings=ratings)
            await latest.retire_latest(self.bot, result.record)
            sent = await threads.post(self.bot, result.record, post)
        await latest.remember_latest(self.bot, result.record, sent)
        if result.finished:
            await threads.finish(self.bot, result.read)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Scheduler(bot))
