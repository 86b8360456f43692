"""A stop that loses nothing (issue 22): on SIGTERM (systemd's stop and restart) or SIGINT the
bot stops taking new work, answers each new interaction "restarting" in its player's language,
lets the interactions in flight finish (up to ``DRAIN_SECONDS``), then closes: the gateway,
the worker pool, and the store (whose writer commits every write queued so far). The process
then exits 0, so systemd does not count a failure.

Interactions are tracked where discord.py parses them (``INTERACTION_CREATE``): the tasks that
parse starts (the command tree's, a view's) are the interaction's work.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import Callable, Coroutine
from contextlib import suppress
from typing import Any

import discord

from bot.i18n import N_, _, language_of, use

log = logging.getLogger(__name__)

#: Seconds the interactions in flight get to finish once a stop is asked (systemd's
#: ``TimeoutStopSec`` leaves more than this, for the closing after).
DRAIN_SECONDS = 20.0
RESTARTING = N_("The bot is restarting, try again in a minute.")


class Drain:
    """The interactions in flight of one bot, and its stop."""

    def __init__(self, client: discord.Client, close: Callable[[], Coroutine[Any, Any, None]]):
        self.client = client
        self._close = close
        self.stopping = False
        #: The tasks of the interactions in flight, with the id of their interaction.
        self.inflight: dict[asyncio.Task[Any], str] = {}
        self.stopped: asyncio.Task[None] | None = None
        #: What the last stop did, for its log line and the tests: interactions finished,
        #: cut short, refused, and seconds taken.
        self.figures: dict[str, float] = {}
        self._refused = 0
        state: Any = client._connection
        self._parse = state.parsers["INTERACTION_CREATE"]
        state.parsers["INTERACTION_CREATE"] = self._interaction

    def _interaction(self, data: dict[str, Any]) -> None:
        if self.stopping:
            self._refused += 1
            refusal = asyncio.get_running_loop().create_task(self._refuse(data))
            self._track(refusal, {"id": f"refusal {data.get('id')}"})
            return
        before = asyncio.all_tasks()
        self._parse(data)
        for task in asyncio.all_tasks() - before:  # the work this interaction started
            self._track(task, data)

    def _track(self, task: asyncio.Task[Any], data: dict[str, Any]) -> None:
        self.inflight[task] = str(data.get("id"))
        task.add_done_callback(lambda done: self.inflight.pop(done, None))

    async def _refuse(self, data: dict[str, Any]) -> None:
        state: Any = self.client._connection
        interaction: discord.Interaction = discord.Interaction(data=data, state=state)  # type: ignore[arg-type]
        with use(language_of(interaction.locale)):
            text = _(RESTARTING)
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("interaction %s: could not say that the bot is restarting", data.get("id"))

    def install(self) -> None:
        """Stop gracefully on SIGTERM and SIGINT (where the loop can handle signals)."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.stop, sig.name)

    def stop(self, why: str = "asked") -> None:
        """Begin the stop (once)."""
        if self.stopping:
            return
        self.stopping = True
        log.info("stopping (%s): finishing %d interactions in flight", why, len(self.inflight))
        self.stopped = asyncio.get_running_loop().create_task(self._stop())

    async def _stop(self) -> None:
        started = time.monotonic()
        pending = {t: i for t, i in self.inflight.items() if not t.done()}
        late: set[asyncio.Task[Any]] = set()
        if pending:
            _done, late = await asyncio.wait(pending, timeout=DRAIN_SECONDS)
            for task in late:
                task.cancel()
        cut = {pending[t] for t in late}
        finished = len({i for i in pending.values() if not i.startswith("refusal")} - cut)
        await self._close()
        self.figures = {
            "finished": finished,
            "cut_short": len(cut),
            "refused": self._refused,
            "seconds": time.monotonic() - started,
        }
        log.info(
            "stopped in %.1f s: %d interactions finished, %d cut short, %d told to retry",
            self.figures["seconds"],
            finished,
            len(cut),
            self._refused,
        )
