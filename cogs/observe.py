"""What the Discord layer tells bot/metrics.py and the log, without touching a cog.

``install(bot)`` (from ``setup_hook``, after login made the HTTP session) wraps three seams:

- the gateway's INTERACTION_CREATE parser: each interaction is handled in a context of its
  own with its interaction and shard ids bound for the log (bot/logs.py; every task discord.py
  starts for it inherits them), and its arrival is timed;
- the HTTP session every REST call and interaction answer goes through: the first answer to an
  interaction is its time to first response and its outcome, and Discord's 429 and 5xx are
  counted by route (the path with its ids and tokens as ``{id}`` and ``{token}``);
- the store's writes and the worker pool's jobs, timed and counted; the store's games by
  status and unsent outbox rows, read at each scrape.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import re
import time
from collections.abc import Callable, Generator
from typing import Any

import discord

from bot import metrics
from bot.logs import bind

#: Interaction types as Discord numbers them.
KINDS = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}
#: Discord's deadline for the first answer: after it the interaction counts as unanswered.
ANSWER_WITHIN = 3.0
CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback")
_ID = re.compile(r"/\d{5,}")
_TOKEN = re.compile(r"(/webhooks/\{id\}|/interactions/\{id\})/[^/?]+")
#: The store's writes on a move's path (the ones a player waits for).
TIMED_WRITES = ("create_game", "save_lobby", "commit_move", "set_timers")


def route_of(url: str) -> str:
    """A request's route: its path after the API version, ids and tokens replaced."""
    path = re.sub(r"^https?://[^/]+", "", str(url)).split("?", 1)[0]
    path = re.sub(r"^/api/v\d+", "", path)
    return _TOKEN.sub(r"\1/{token}", _ID.sub("/{id}", path))


def shard_of(guild_id: str | None, shard_count: int | None) -> int | None:
    """Discord's formula: which shard a server's events arrive on."""
    if not guild_id or not shard_count:
        return None
    return (int(guild_id) >> 22) % shard_count


class Observer:
    """The interactions awaiting their first answer, and the wrapped seams."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.waiting: dict[str, tuple[str, float]] = {}

    # -- interactions -----------------------------------------------------------------------

    def wrap_parser(self, parse: Callable[[dict[str, Any]], None]) -> Callable[..., None]:
        @functools.wraps(parse)
        def parse_in_its_own_context(data: dict[str, Any]) -> None:
            contextvars.copy_context().run(self._arrived, parse, data)

        return parse_in_its_own_context

    def _arrived(self, parse: Callable[[dict[str, Any]], None], data: dict[str, Any]) -> None:
        interaction = str(data.get("id", ""))
        bind(interaction=interaction, shard=shard_of(data.get("guild_id"), self.bot.shard_count))
        kind = KINDS.get(int(data.get("type", 0)), "other")
        self.waiting[interaction] = (kind, time.monotonic())
        asyncio.get_running_loop().call_later(ANSWER_WITHIN, self._expired, interaction)
        parse(data)

    def _expired(self, interaction: str) -> None:
        waited = self.waiting.pop(interaction, None)
        if waited is not None:
            metrics.INTERACTIONS.labels(kind=waited[0], outcome="unanswered").inc()

    def answered(self, interaction: str, status: int) -> None:
        if status == 429 or status >= 500:  # discord.py tries again: the retry is the answer
            return
        waited = self.waiting.pop(interaction, None)
        if waited is None:  # a later answer (a follow-up) or one already counted
            return
        kind, arrived = waited
        metrics.FIRST_RESPONSE.observe(time.monotonic() - arrived)
        outcome = "answered" if status < 400 else "refused"
        metrics.INTERACTIONS.labels(kind=kind, outcome=outcome).inc()

    # -- HTTP ----------------------------------------------------------------------------------

    def wrap_session(self, session: Any) -> None:
        request = session.request
        observer = self

        class Observed:
            """What ``session.request`` returns, watched: entered (``async with``, as
            discord.py's REST calls use it) or awaited (as aiohttp's own ``ws_connect`` does
            for the gateway), as aiohttp's request context is."""

            def __init__(self, method: str, url: Any, kwargs: dict[str, Any]) -> None:
                self.url = str(url)
                self.context = request(method, url, **kwargs)

            async def __aenter__(self) -> Any:
                response = await self.context.__aenter__()
                observer.responded(self.url, response.status)
                return response

            async def __aexit__(self, *exc: Any) -> Any:
                return await self.context.__aexit__(*exc)

            def __await__(self) -> Generator[Any, None, Any]:
                return self._awaited().__await__()

            async def _awaited(self) -> Any:
                response = await self.context
                observer.responded(self.url, response.status)
                return response

        def observed(method: str, url: Any, **kwargs: Any) -> Observed:
            return Observed(method, url, kwargs)

        session.request = observed

    def responded(self, url: str, status: int) -> None:
        callback = CALLBACK.search(url)
        if callback:
            self.answered(callback.group(1), status)
        if status == 429 or status >= 500:
            metrics.DISCORD_ERRORS.labels(route=route_of(url), status=str(status)).inc()

    # -- store and pool ------------------------------------------------------------------------

    @staticmethod
    def time_writes(store: Any) -> None:
        for name in TIMED_WRITES:
            write = getattr(store, name, None)
            if write is not None:
                setattr(store, name, _timed(write))

    @staticmethod
    def count_jobs(pool: Any) -> None:
        run = pool.run
        busy = [0]

        async def counted(fn: Callable[..., Any], *args: Any) -> Any:
            busy[0] += 1
            try:
                return await run(fn, *args)
            finally:
                busy[0] -= 1

        pool.run = counted
        metrics.register_pool_queue(lambda: busy[0])


def _timed(write: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(write)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.monotonic()
        try:
            return await write(*args, **kwargs)
        finally:
            metrics.STORE_WRITE.observe(time.monotonic() - started)

    return timed


def install(bot: discord.Client, store: Any = None, pool: Any = None) -> Observer:
    """Wrap the seams of a logged-in ``bot`` (see the module's docstring)."""
    observer = Observer(bot)
    parsers = bot._connection.parsers
    parsers["INTERACTION_CREATE"] = observer.wrap_parser(parsers["INTERACTION_CREATE"])
    session = getattr(bot.http, "_HTTPClient__session", None)
    if session is not None:
        observer.wrap_session(session)
    if store is not None:
        observer.time_writes(store)
        metrics.set_readiness(
            gateway=lambda: _true(bot.is_ready() and not bot.is_closed()),
            store=functools.partial(_answers, store),
        )
        metrics.register_games_by_status(store.games_by_status)
        metrics.register_outbox_pending(store.outbox_pending)
    if pool is not None:
        observer.count_jobs(pool)
    return observer


async def _true(value: bool) -> bool:
    return value


async def _answers(store: Any) -> bool:
    """The store answers a read (a server's settings: one small indexed row), and is not
    known to be damaged (``bot.store.damage``: it takes no writes)."""
    await store.guild_settings("0")
    return store.damage.detail is None
