"""Reminders and timeouts: the clock of asynchronous play, kept in the store so it survives
restarts. A reminder pings whoever owes a decision; at the deadline their AI decides."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import discord
from discord.ext import commands, tasks

from bot.i18n import N_, _
from bot.moves import MoveResult
from bot.service import GameService
from bot.store.base import (
    Clock,
    DamagedDatabase,
    GameRecord,
    Shards,
    StoreError,
    StoreUnavailable,
)
from cogs import delivery, latest, memory, messages, seasons, threads, tournaments
from cogs.delivery import served_shards
from cogs.language import in_server

log = logging.getLogger(__name__)

TICK_SECONDS = 60
#: Reminders posted at once by a tick.
CONCURRENT_POSTS = 10
#: Due reminders read and claimed at once.
PAGE = 200
#: A process not seen on the database for this long (three ticks) is gone.
ALIVE_SECONDS = 3 * TICK_SECONDS


def overlap(mine: Shards | None, theirs: Shards | None) -> bool:
    """Whether two processes may serve one guild: one serves every shard, their shard counts
    differ (the ranges cannot be compared), or their shard ids share one."""
    if mine is None or theirs is None or mine.count != theirs.count:
        return True
    return bool(set(mine.ids) & set(theirs.ids))


def describe(shards: Shards | None) -> str:
    return "all" if shards is None else f"{list(shards.ids)} of {shards.count}"


class Scheduler(commands.Cog):
    """Checks the store every minute for games whose reminder or deadline has come.

    Faults stay in their game: an error in one game is logged and that game's clock stopped
    (its next move restarts it), and the other games are still served. Each of a tick's
    queries is contained too (``_contained``): one that fails (the store unreachable, a
    damaged page) is logged and the tick goes on with the next, and so does the loop. Should
    the loop itself die all the same, it is started again ``restart_seconds`` later, its
    task's exception retrieved, so reminders and timeouts never stop until a restart.

    At load it also starts the store's background check of the whole database (``Store.
    watch``), which runs once, at low priority.

    A sharded process ticks only the games of the guilds on its own ``shards``: several
    processes share one store, and each table is reminded by exactly one of them.
    """

    restart_seconds: float = TICK_SECONDS

    def __init__(self, bot: commands.Bot, shards: Shards | None = None) -> None:
        self.bot = bot
        self.shards = shards if shards is not None else served_shards(bot)
        #: The other processes already warned about (one warning each, not one a tick).
        self._warned: set[str] = set()
        #: The store's background check (``cog_load``), kept so that it can be stopped.
        self._watch: asyncio.Task[None] | None = None

    @property
    def service(self) -> GameService:
        return self.bot.service  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        self._watch = asyncio.create_task(
            self._contained("the database's background check", self.service.store.watch),
            name="store-watch",
        )
        self.every_minute.start()

    async def cog_unload(self) -> None:
        self.every_minute.cancel()
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        try:
            await self.service.store.forget_process(self.service.holder)
        except Exception:  # the store closed first: the row ages out by itself
            log.info("could not remove this process from the database's list", exc_info=True)

    @tasks.loop(seconds=TICK_SECONDS)
    async def every_minute(self) -> None:
        await self.tick(time.time())

    @every_minute.before_loop
    async def wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()
        # At start-up: another process on our shards? (discord.py runs this outside the
        # loop's error handler: whatever fails here must not end the loop before it starts.)
        await self._contained("announcing this process", self.announce, time.time())
        # Finished games a stop left without their results (it logs and never raises).
        await self.service.results.sweep()

    @every_minute.error
    async def restart_later(self, error: BaseException) -> None:
        """The loop died: log why, and start it again once its task has ended."""
        log.error("the scheduler loop stopped; restarting it", exc_info=error)
        task = self.every_minute.get_task()
        loop = asyncio.get_running_loop()
        if task is not None:
            task.add_done_callback(lambda ended: self._restart(loop, ended))

    def _restart(self, loop: asyncio.AbstractEventLoop, ended: asyncio.Task[None]) -> None:
        """The dead loop's task is done: take its exception (logged above, so asyncio has no
        "Task exception was never retrieved" to say), and start again later."""
        if not ended.cancelled():
            ended.exception()
        loop.call_later(self.restart_seconds, self._start_again)

    def _start_again(self) -> None:
        if not self.every_minute.is_running():
            self.every_minute.start()

    async def announce(self, now: float) -> None:
        """Tell the database this process is alive and which shards it serves, and warn once
        of each other live process whose shards overlap ours (a ``SHARD_IDS`` mistake: every
        reminder is still claimed once, but each table is served twice)."""
        store, holder = self.service.store, self.service.holder
        for other, shards in await store.announce_process(
            holder, self.shards, now, now - ALIVE_SECONDS
        ):
            if other in self._warned or not overlap(self.shards, shards):
                continue
            self._warned.add(other)
            log.warning(
                "another bot process on this database, %s, serves shards %s and this one %s: "
                "they overlap; give each process its own SHARD_IDS",
                other,
                describe(shards),
                describe(self.shards),
            )

    async def tick(self, now: float) -> None:
        """Send what is due at ``now``; one game's failure never stops the others, and one
        failing query never stops the rest of the tick."""
        await self._contained("announcing this process", self.announce, now)
        await self._contained("archiving threads", self.archive_threads, now)
        await self._contained("closing lobbies", self.close_lobbies, now)
        await self._contained("the reminders", self.remind_due, now)
        # The daily digests: owed in the outbox, sent by the worker below.
        await self._contained("the daily digests", self.service.claim_digests, now)
        await self._contained("the timeouts", self.time_outs, now)
        runner = tournaments.runner_of(self.bot)
        if runner is not None:  # after the games: a round may be over
            await self._contained("the tournaments", lambda at: runner.tick(at, self.shards), now)
        season_runner = seasons.runner_of(self.bot)
        if season_runner is not None:  # after the games: the cut
            await self._contained(
                "the seasons", lambda at: season_runner.tick(at, self.shards), now
            )
        worker = delivery.worker(self.bot)
        if worker is not None:  # what a front door could not post, at every tick
            await self._contained("the owed posts", worker.drain, now)

    @staticmethod
    async def _contained(what: str, step: Callable[..., Awaitable[object]], *args: float) -> None:
        """Run one step of a tick; its failure is logged (a store's, which says what is
        wrong, in one line; a damaged store's, told once where it was found, only at debug
        level) and the next step runs."""
        try:
            await step(*args)
        except DamagedDatabase as error:
            log.debug("scheduler: %s waits for the damaged store: %s", what, error)
        except StoreUnavailable as error:  # an outage: told once by the store, retried next tick
            log.warning("scheduler: %s waits for the store: %s", what, error)
        except StoreError as error:
            log.error("scheduler: %s failed: %s", what, error)
        except Exception:  # a containment boundary: whatever broke, the next step runs
            log.exception("scheduler: %s failed", what)

    async def archive_threads(self, now: float) -> None:
        """Archive the threads of the games that ended an hour ago."""
        for record in await self.service.threads_to_archive(now, self.shards):
            try:
                await threads.archive(self.bot, record)
            except discord.HTTPException:  # gone or out of reach: nothing more to do for it
                log.exception("game %s: could not archive its thread", record.id)
            await self.service.archived(record)

    async def close_lobbies(self, now: float) -> None:
        """Close every lobby nobody started in its hours."""
        for record in await self.service.expired_lobbies(now, self.shards):
            try:
                await self.close_lobby(record, now)
            except Exception:  # a containment boundary: whatever broke, it broke one lobby
                log.exception("game %s: could not close its lobby", record.id)

    async def time_outs(self, now: float) -> None:
        """The reminders and timeouts of the games due at ``now``, one game at a time."""
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
        """Claim the due reminders in the store (of two schedulers, one wins), then post
        them; a post Discord does not take stays owed, for the delivery worker."""
        users, key = await self.service.claim_reminders(record, now)
        if key is not None:
            sent = await self.post_reminder(record, users, key)
            await delivery.sent(self.bot, [key], sent)

    async def post_reminder(
        self, where: GameRecord | Clock, users: list[str], key: str
    ) -> discord.Message | None:
        """Post a claimed reminder (its outbox row ``key``, for the caller to mark sent); one
        Discord does not take stays owed, for the delivery worker."""
        title = self.service.title(where)  # type: ignore[arg-type]
        try:
            async with in_server(self.bot, where.guild):
                return await delivery.remind(self.bot, where, title, users)
        except BaseException:
            await delivery.give_back(self.bot, [key])
            raise

    async def remind_due(self, now: float) -> None:
        """Every reminder due at ``now``, in O(due): the games' clocks only (no state),
        decoded off the event loop, claimed in one transaction, then posted at most
        ``CONCURRENT_POSTS`` at a time (discord.py keeps within each route's rate limit)."""
        while True:  # a page at a time: each read and claim stays short
            clocks = await self.service.store.due_clocks(now, self.shards, limit=PAGE)
            found = await self.service.claim_due_reminders(clocks, now)

            sent: list[tuple[str, str | None, str | None]] = []
            shared = iter(found)  # a few posters take turns, never a task per game
            await asyncio.gather(*(self._poster(shared, sent) for _ in range(CONCURRENT_POSTS)))
            await self.service.store.outbox_sent_many(sent)  # one write for the page
            if len(clocks) < PAGE or not found:  # the last page, or nothing left to claim
                return

    async def _poster(
        self,
        claimed: Iterator[tuple[Clock, list[str], str]],
        sent: list[tuple[str, str | None, str | None]],
    ) -> None:
        """Post claimed reminders until none is left; what was posted goes into ``sent``."""
        for clock, users, key in claimed:
            try:
                message = await self.post_reminder(clock, users, key)
            except Exception:  # a containment boundary: it stays owed in the outbox
                log.warning("game %s: its reminder waits for delivery", clock.id)
                continue
            sent.append((key, *delivery.place(message)))

    async def time_out(self, record: GameRecord, now: float) -> None:
        result = await self.service.time_out(record.id, now)
        if not result.timed_out:
            return
        names = result.read.names
        who = ", ".join(names.get(p, p) for p in result.timed_out)
        await self.post_decided(
            result,
            N_("⏰ Time ran out for {names}: the AI decided for them this time."),
            names=who,
        )

    async def post_decided(self, result: MoveResult, headline: str, **fields: Any) -> None:
        """Post the board of decisions the clock made (``headline``, translated in the
        server's language and filled with ``fields``), and the game's end if it ended."""
        try:
            async with in_server(self.bot, result.record.guild):
                headline = _(headline).format(**fields)
                ratings = memory.rating_line(result.results, result.read.names)
                post = await messages.board_post(
                    result.read, result.told, headline, ratings=ratings
                )
                await latest.retire_latest(self.bot, result.record)
                sent = await threads.post(self.bot, result.record, post)
        except BaseException:  # the timeout is saved: its notice stays owed, for the worker
            await delivery.give_back(self.bot, result.owed)
            raise
        await delivery.sent(self.bot, result.owed, sent)
        await latest.remember_latest(self.bot, result.record, sent)
        if result.finished:
            await delivery.finish(self.bot, result)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Scheduler(bot))
