"""Pools of worker processes for the CPU-bound work of the bot: one for pictures, one for AI
decisions, so an AI seat thinking its whole budget never holds a worker that a board waits for.

Drawing a board is mostly Python-level code that holds the GIL, so a thread cannot draw while
the event loop runs and one process draws on one core only. Worker processes draw on every
core and leave the loop's GIL alone. A job is a top-level function (pickled by its import
path, e.g. ``bot.pictures.draw_board`` or the AI's ``decide``) with plain JSON-able arguments,
and its answer is bytes (a PNG) or JSON (an action): nothing else crosses the process line.

Workers are started from a ``forkserver`` (``spawn`` where there is none), never by ``fork``:
forking a process that runs threads (aiosqlite's, the executor's own) can copy a held lock
into the child. A worker that dies (killed, out of memory, a crash in C) breaks a
``ProcessPoolExecutor`` for good; the pool then builds a new one and retries the job once.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import images
from rules import GAMES

log = logging.getLogger(__name__)

T = TypeVar("T")

#: What the fork server imports once for every worker of either pool: whichever pool starts it
#: first, the other's workers find their modules there too.
PRELOAD = ["bot.pictures", "bot.ai", "rules"]


def warm() -> None:
    """Worker initializer: import the renderers and draw each game's opening board once, so
    fonts, static layers and the other cached pieces are built before the first real job
    rather than on a player's time."""
    for game_id in images.RENDERERS:
        game = GAMES[game_id]
        seats = max(game.min_players, min(4, game.max_players))  # a table every game allows
        players = [f"p{i}" for i in range(seats)]
        view = game.view(game.start(players, "warm", dict(game.default_options)), None)
        images.render(game_id, view, names={p: p.upper() for p in players})


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class WorkerPool:
    """``await pool.run(fn, *args)``: ``fn(*args)`` in a worker process.

    Started once (``start``, or lazily by the first ``run``), closed once (``close``). Starting
    happens in a thread: launching processes waits for the fork server to import the renderers,
    and the event loop must not wait with it. With ``inline=True`` no process is started: jobs
    run in a thread of this process (as the bot drew before the pool), their arguments and
    answers round-tripped through pickle exactly as a worker would see them, so a unit test
    proves the job would cross the process line, gets the same bytes, and sees what it patched
    in this process.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        inline: bool = False,
        initializer: Callable[[], None] | None = warm,
    ) -> None:
        self.workers = workers if workers and workers > 0 else default_workers()
        self.inline = inline
        self.initializer = initializer
        #: How many times a broken executor was replaced (a worker died).
        self.rebuilds = 0
        #: The executor being started or running (None inline, where nothing is started).
        self._opening: asyncio.Future[ProcessPoolExecutor | None] | None = None
        self._warming: list[Future[int]] = []
        self._closed = False

    @classmethod
    def from_settings(cls, settings: Any) -> WorkerPool:
        """The pool ``RENDER_WORKERS`` asks for (``bot.config.Settings.render_workers``): that
        many processes, one per core for 0, none (inline, unwarmed: tests) for -1."""
        if settings.render_workers < 0:
            return cls(inline=True, initializer=None)
        return cls(settings.render_workers)

    @classmethod
    def for_ai(cls, settings: Any) -> WorkerPool:
        """The pool of AI decisions ``AI_WORKERS`` asks for (``Settings.ai_workers``): that many
        processes of their own, one per core for 0, none (a thread of this process) for -1.
        Its workers draw nothing, so they are not warmed with the renderers."""
        if settings.ai_workers < 0:
            return cls(inline=True, initializer=None)
        return cls(settings.ai_workers, initializer=None)

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        """Begin starting every worker, each warming up, and return at once: the first picture
        a player asks for should not be the one that pays for starting a process. Idempotent;
        needs the running event loop."""
        if self._closed:
            raise RuntimeError("the worker pool is closed")
        if self._opening is None:
            opener = self._warm_here if self.inline else self._new_executor
            self._opening = asyncio.get_running_loop().run_in_executor(None, opener)

    def _warm_here(self) -> None:
        if self.initializer is not None:
            self.initializer()

    def _new_executor(self) -> ProcessPoolExecutor:
        context = _context()
        if context.get_start_method() == "forkserver":
            # The server imports these once; every worker forked from it has them already.
            # (Its default would be __main__: the whole bot, or the test runner.)
            context.set_forkserver_preload(PRELOAD)  # type: ignore[attr-defined]
        executor = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=self.initializer
        )
        # The executor starts a process per submitted job while none is idle: one trivial
        # job per worker starts them all, each running the initializer first.
        self._warming = [executor.submit(os.getpid) for _ in range(self.workers)]
        return executor

    async def close(self) -> None:
        """Cancel queued jobs, wait for running ones and stop every worker. Idempotent."""
        self._closed = True
        opening, self._opening = self._opening, None
        if opening is None:
            return
        executor = await opening
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    async def ready(self) -> None:
        """Wait until every worker has started and warmed up (the bench's cold start)."""
        await self._current()
        if self._warming:
            await asyncio.gather(*(asyncio.wrap_future(f) for f in self._warming))

    # -- jobs ---------------------------------------------------------------------------------

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker. If a worker died, the executor is rebuilt and the job
        tried once more; a second failure (a job that kills every worker it meets) raises
        ``BrokenProcessPool`` and the next job gets a fresh executor again."""
        executor = await self._current()
        if executor is None:
            return await asyncio.to_thread(_as_if_in_a_worker, fn, args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            log.warning("a worker process died running %s; restarting the pool", _name(fn))
            self._replace(executor)
            retry = await self._current()
            try:
                return await loop.run_in_executor(retry, fn, *args)
            except BrokenProcessPool:
                self._replace(retry)
                raise

    async def _current(self) -> ProcessPoolExecutor | None:
        self.start()
        assert self._opening is not None
        return await asyncio.shield(self._opening)

    def _replace(self, broken: ProcessPoolExecutor | None) -> None:
        """Swap out ``broken`` unless a concurrent job already did: every job that was waiting
        on the dead executor fails at once, and they must share one replacement."""
        current = self._opening
        if broken is None or current is None or not current.done():
            return
        if current.exception() is not None or current.result() is not broken:
            return
        self.rebuilds += 1
        broken.shutdown(wait=False, cancel_futures=True)
        self._opening = None


def _as_if_in_a_worker(fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    """``fn(*args)`` with the job and its answer pickled and unpickled on the way, as a
    worker process would receive and return them."""
    fn, args = pickle.loads(pickle.dumps((fn, args)))
    return pickle.loads(pickle.dumps(fn(*args)))


def _name(fn: Callable[..., Any]) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', fn)}"
