"""The delivery worker (issue 22): every post a change owes the table reaches it, through
crashes, restarts and Discord's bad moments.

The service writes each owed post to the outbox in the change's own transaction
(``bot.outbox``). The front door that made the change (a command, a button, the scheduler)
posts it at once as before and marks it sent (``sent``); if it cannot (the process died, the
post raised, the token expired), the row stays unsent and this worker sends it with the bot's
token: at start-up, right after a front door gives a row back (``give_back``), and at every
scheduler tick. Rows are claimed with a lease in the store, the oldest unsent row of a game
only, so a game's posts go out in order and two processes on one database never both send one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot import alerts as bot_alerts
from bot import outbox
from bot.changes import Change
from bot.i18n import _
from bot.read_model import ReadModel
from bot.service import GameService, MoveResult, Step
from bot.store.base import ACTIVE, Clock, GameRecord, OutboxRow, Shards
from cogs import activity, alerts, latest, memory, messages, threads
from cogs.language import in_server
from cogs.messages import Post
from cogs.retry import transient

log = logging.getLogger(__name__)

#: Rows claimed at once (games sent to concurrently).
BATCH = 20
#: Seconds between rounds when nothing wakes the worker (the scheduler's tick wakes it too).
ROUND_SECONDS = 60.0


def served_shards(bot: commands.Bot) -> Shards | None:
    """The shards this process connects (an ``AutoShardedBot`` given its ids); None: not
    sharded, so every game is this process's (its scheduler and worker serve those)."""
    if isinstance(bot, commands.AutoShardedBot) and bot.shard_count and bot.shard_ids:
        return Shards(bot.shard_count, tuple(sorted(bot.shard_ids)))
    return None


def worker(client: discord.Client) -> Delivery | None:
    """The bot's delivery worker (None: a bot without it). Looked up by name, not by class:
    discord.py loads an extension as a module of its own, so its class is not this one."""
    cog = client.get_cog("Delivery") if isinstance(client, commands.Bot) else None
    return cog if hasattr(cog, "drain") else None  # type: ignore[return-value]


def place(message: discord.Message | None) -> tuple[str | None, str | None]:
    """(channel id, message id) of a post, as the outbox keeps them."""
    return (str(message.channel.id), str(message.id)) if message is not None else (None, None)


async def sent(client: discord.Client, owed: list[str], message: discord.Message | None) -> None:
    """A front door posted what a change owed (its outbox rows' keys): they are sent, and
    the players' own alerts that waited for them (``outbox.ALERT``) go out now."""
    service: GameService = client.service  # type: ignore[attr-defined]
    where = place(message)
    await service.store.outbox_sent_many([(key, *where) for key in owed])
    cog = worker(client)
    if owed and cog is not None:
        cog.wake()


async def finish(client: discord.Client, result: MoveResult) -> None:
    """The game's end after its last board (``threads.finish``: its lobby edit, the result
    post); what Discord does not take stays owed, for the worker."""
    final = [result.final] if result.final is not None else []
    try:
        await threads.finish(client, result.read)
    except BaseException:
        await give_back(client, final)
        raise
    await sent(client, final, None)


async def release(client: discord.Client, owed: list[str]) -> None:
    """Hand what a change owes (its outbox rows' keys) to the worker's next round, without
    waking it (a scheduler tick drains it next). Never raises (it runs while another error
    is on its way up)."""
    service: GameService = client.service  # type: ignore[attr-defined]
    try:
        for key in owed:
            await service.store.release_owed(key, service.holder, time.time())
    except Exception:
        log.exception("could not hand posts %s to the delivery worker", owed)


async def give_back(client: discord.Client, owed: list[str]) -> None:
    """A front door could not post what a change owed (its outbox rows' keys): the worker
    sends it now. Never raises (it runs while another error is on its way up)."""
    await release(client, owed)
    cog = worker(client)
    if cog is not None:
        cog.wake()


class Delivery(commands.Cog):
    """Sends the outbox's unsent rows until Discord accepts them."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.shards = served_shards(bot)
        self._task: asyncio.Task[None] | None = None
        #: Rounds started by ``wake``, kept until done (the loop holds tasks only weakly).
        self._woken: set[asyncio.Task[None]] = set()
        self._unsubscribe: Callable[[], None] | None = None

    @property
    def service(self) -> GameService:
        return self.bot.service  # type: ignore[attr-defined]

    @property
    def holder(self) -> str:
        """The worker's own name in a lease (apart from its process's front door)."""
        return f"{self.service.holder}:worker"

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._rounds(), name="delivery")
        self._unsubscribe = self.service.changes.subscribe(self._heard)

    def _heard(self, change: Change) -> None:
        """A change handed over by a front door that posts nothing (the web table)."""
        if change.owed:
            self.wake()

    async def cog_unload(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for task in [self._task, *self._woken]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def wake(self) -> None:
        """A round now (a row given back), beside the periodic ones."""
        task = asyncio.create_task(self._round(), name="delivery-woken")
        self._woken.add(task)
        task.add_done_callback(self._woken.discard)

    async def _rounds(self) -> None:
        """A round at start-up (what a stop left unsent), then every ``ROUND_SECONDS``; each
        periodic round also deletes the rows sent long ago (``tidy``)."""
        await self.bot.wait_until_ready()
        while True:
            await self._round()
            await self.tidy(time.time())
            await asyncio.sleep(ROUND_SECONDS)

    async def tidy(self, now: float) -> int:
        """Delete the rows sent more than ``outbox.SENT_KEPT`` ago, a page at a time
        (``outbox.prune``); how many went. Never raises: the next round tries again."""
        try:
            gone = await outbox.prune(self.service.store, now)
        except Exception:  # the store unreachable, say: one line, and the next round
            log.warning("delivery: could not prune the sent posts", exc_info=True)
            return 0
        if gone:
            log.info(
                "delivery: deleted %d posts sent over %.0f days ago", gone, outbox.SENT_KEPT / 86400
            )
        return gone

    async def _round(self) -> None:
        try:
            await self.drain(time.time())
        except Exception:  # the store unreachable, say: one line, and the next round
            log.warning("delivery: could not read the outbox", exc_info=True)

    async def drain(self, now: float) -> int:
        """Send every row claimable at ``now``, round after round while rounds send something
        (a game's next row becomes claimable once its previous one is sent); the number
        sent."""
        total = 0
        while True:
            rows = await self.service.store.claim_outbox(
                self.holder, now, outbox.WORKER_LEASE, BATCH, self.shards
            )
            if not rows:
                return total
            done = sum(await asyncio.gather(*(self._send(row, now) for row in rows)))
            total += done
            if not done:
                return total

    async def _send(self, row: OutboxRow, now: float) -> bool:
        """Send one claimed row; on failure give it back for a later round, with one line."""
        try:
            message = await self.deliver(row)
        except Exception as error:
            retry_at = now + outbox.backoff(row.attempts, ROUND_SECONDS / 4)
            if transient(error):
                log.warning(
                    "game %s: Discord refused its %s post (%s); tried %d times, again in %.0f s",
                    row.game_id,
                    row.kind,
                    error,
                    row.attempts,
                    retry_at - now,
                )
            else:
                log.exception("game %s: could not send its %s post", row.game_id, row.kind)
            await self.service.store.release_owed(row.key, self.holder, retry_at)
            return False
        await self.service.store.outbox_sent(row.key, *place(message))
        log.info("game %s: delivered its %s post (try %d)", row.game_id, row.kind, row.attempts)
        return True

    async def deliver(self, row: OutboxRow) -> discord.Message | None:
        """Make the owed post from the game as it is now and send it with the bot's token."""
        record = await self.service.store.get_game(row.game_id)
        if record is None:  # deleted meanwhile: there is no table left to tell
            return None
        read = self.service.read(record)
        async with in_server(self.bot, record.guild):
            if row.kind == outbox.ALERT:
                return await alerts.deliver(self.bot, read, row.payload)
            if row.kind == outbox.REMINDER:
                return await self._remind(read, row.payload)
            if row.kind == outbox.STALL:
                if record.status != ACTIVE:  # over meanwhile: no choice left to offer
                    return None
                post = messages.stall_post(read, row.payload["user"])
                return await threads.post(self.bot, record, post)
            if row.kind == outbox.VACATION:
                text = messages.vacation_day(read, row.payload["user"], row.payload["until"])
                return await threads.post(self.bot, record, Post(content=text))
            if row.kind == outbox.FINAL:
                await threads.finish(self.bot, read)
                return None
            if row.kind == outbox.START:
                read = await self._open(read)
                await threads.edit_lobby(self.bot, read)
                return await self._board(read, [], threads.begins(read))
            steps = [Step(e["player"], e["action"], e["events"]) for e in row.payload["steps"]]
            return await self._board(read, steps, None, over=row.payload.get("over"))

    async def _open(self, read: ReadModel) -> ReadModel:
        """The game's thread, if it is to have one and has none yet (a start whose
        interaction failed); the game as it is then."""
        record = read.record
        if record.thread is not None or not threads.wants_thread(record):
            return read
        channel = self.bot.get_channel(int(record.channel))
        me = getattr(getattr(channel, "guild", None), "me", None)
        if isinstance(channel, discord.abc.GuildChannel) and me is not None:
            permissions = channel.permissions_for(me)
        else:
            permissions = discord.Permissions.none()
        await threads.create_thread(self.service, read, channel, permissions)
        return self.service.read(record)

    async def _board(
        self, read: ReadModel, steps: list[Step], headline: str | None, over: Any = False
    ) -> discord.Message:
        results = await self.service.results.of_game(read.record.id) if over else []
        ratings = memory.rating_line(results, read.names)
        post = await messages.board_post(read, steps, headline, ratings=ratings)
        await latest.retire_latest(self.bot, read.record)
        message = await threads.post(self.bot, read.record, post)  # retried there
        await latest.remember_latest(self.bot, read.record, message)
        return message

    async def _remind(self, read: ReadModel, payload: dict[str, Any]) -> discord.Message | None:
        return await remind(self.bot, read.record, read.title, payload["users"])


async def remind(
    client: discord.Client, where: GameRecord | Clock, title: str, users: list[str]
) -> discord.Message | None:
    """Ping ``users`` that game ``where`` (its record, or only its clock) waits for them,
    where it is played (None: nobody to ping: AI seats are never mentioned); those who chose
    a DM for each turn get theirs (``cogs.alerts``)."""
    service: GameService = client.service  # type: ignore[attr-defined]
    prefs = await service.store.player_prefs(users)
    by_dm = [u for u in users if bot_alerts.mode_of(prefs.get(u, {}), where.id) == bot_alerts.DM]
    if by_dm:
        users = [u for u in users if u not in by_dm]
        record = await service.store.get_game(where.id)
        read = service.read(record) if record is not None else None
        for user in by_dm:
            if read is not None:
                await alerts.send(client, read, user, reminder=True)
    mentions = " ".join(m for m in (messages.mention(u) for u in users) if m)
    if not mentions:
        return None
    text = _(
        "{mentions} ⏰ {title} `{id}` is waiting for you: press **My hand** on the "
        "latest board, or `/game hand`."
    ).format(mentions=mentions, title=title, id=where.id)
    view = activity.add_play(None, where)  # issue 40
    return await threads.post(client, where, Post(content=text, pings=users, view=view))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Delivery(bot))
