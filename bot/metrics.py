"""Health and metrics on an opt-in private port (``METRICS_PORT``; 0: off).

- ``/healthz``: the event loop answers (this very handler runs on it);
- ``/readyz``: connected to Discord and the store answers (the checks the front door registers
  with ``set_readiness``);
- ``/metrics``: Prometheus' text format, made by prometheus_client from this module's own
  registry (so several bots in one test process never collide with the library's default one).

What is measured is fed from where it happens: the Discord layer counts interactions and
Discord's answers (cogs/observe.py), the loop's lag is sampled here, and what lives elsewhere
is read at scrape time through a registered callback, so the module knows no store, pool or
outbox: ``register_outbox_pending(fn)`` (the outbox's pending rows), ``register_games_by_status
(fn)`` (games per status), ``register_pool_queue(fn)`` (jobs waiting for a worker). A callback
may be sync or async; one that fails leaves its gauge as it was and is logged, never raised.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from bot.version import __version__

log = logging.getLogger(__name__)

REGISTRY = CollectorRegistry()

BUILD = Gauge(
    "tabletop_build_info", "The running version (value 1).", ["version"], registry=REGISTRY
)
BUILD.labels(version=__version__).set(1)
INTERACTIONS = Counter(
    "tabletop_interactions",
    "Interactions received, by kind (command, component, modal, autocomplete) and outcome "
    "(answered, refused: Discord refused the answer, unanswered: none within 3 s).",
    ["kind", "outcome"],
    registry=REGISTRY,
)
FIRST_RESPONSE = Histogram(
    "tabletop_interaction_first_response_seconds",
    "From an interaction's arrival to the bot's first answer to it (Discord allows 3 s).",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0),
    registry=REGISTRY,
)
LOOP_LAG = Gauge(
    "tabletop_event_loop_lag_seconds",
    "How late the event loop ran a callback due now (sampled every second).",
    registry=REGISTRY,
)
STORE_WRITE = Histogram(
    "tabletop_store_write_seconds",
    "A store write, from the call (waiting for the writer or a connection included) to commit.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
POOL_QUEUE = Gauge(
    "tabletop_pool_queue",
    "Picture and AI jobs handed to the worker pool, not yet done.",
    registry=REGISTRY,
)
GAMES = Gauge("tabletop_games", "Games in the store, by status.", ["status"], registry=REGISTRY)
OUTBOX_PENDING = Gauge(
    "tabletop_outbox_pending", "Posts owed to Discord, not yet delivered.", registry=REGISTRY
)
STORE_DAMAGED = Counter(
    "tabletop_store_damaged",
    "Times the store found its database damaged (counted once per process: from then on it "
    "takes no writes; restore a backup, README, Backups).",
    registry=REGISTRY,
)
DISCORD_ERRORS = Counter(
    "tabletop_discord_errors",
    "Discord's 429 (rate limited) and 5xx answers, by route and status.",
    ["route", "status"],
    registry=REGISTRY,
)
ACTIVITY_LAUNCHES = Counter(
    "tabletop_activity_launches",
    "Play button presses, by outcome: launched (the Activity opened in Discord), or the "
    "player's web link instead because the Activity is not configured (unconfigured), the "
    "launch failed (failed), or the press came from elsewhere than the game's channel "
    "(elsewhere).",
    ["outcome"],
    registry=REGISTRY,
)
ACTIVITY_TOKENS = Counter(
    "tabletop_activity_token_exchanges",
    "The Activity's sign-ins, by outcome: ok, bad_code (Discord refused the code or its "
    "token), no_instance (no such running instance), not_in_instance (the user is not in it), "
    "discord_error (Discord could not be reached or answered 5xx), bad_request.",
    ["outcome"],
    registry=REGISTRY,
)

Source = Callable[[], Any]
_sources: dict[str, Source] = {}
_readiness: dict[str, Callable[[], Awaitable[bool]]] = {}


def register_outbox_pending(fn: Source) -> None:
    """``fn()`` (or ``await fn()``) is the number of posts the outbox still owes."""
    _sources["outbox"] = fn


def register_games_by_status(fn: Source) -> None:
    """``fn()`` (or ``await fn()``) is ``{status: number of games}``."""
    _sources["games"] = fn


def register_pool_queue(fn: Source) -> None:
    """``fn()`` (or ``await fn()``) is the number of jobs the worker pool has not finished."""
    _sources["pool"] = fn


def set_readiness(**checks: Callable[[], Awaitable[bool]]) -> None:
    """``/readyz`` answers 200 when every check is true (e.g. ``gateway=..., store=...``)."""
    _readiness.clear()
    _readiness.update(checks)


async def _value(fn: Source) -> Any:
    value = fn()
    return await value if inspect.isawaitable(value) else value


async def collect() -> None:
    """Read every registered source into its gauge (at each scrape)."""
    readers: dict[str, Callable[[Any], None]] = {
        "outbox": lambda n: OUTBOX_PENDING.set(n),
        "pool": lambda n: POOL_QUEUE.set(n),
        "games": _set_games,
    }
    for name, fn in list(_sources.items()):
        try:
            readers[name](await _value(fn))
        except Exception:
            log.warning("metrics: the %s source failed", name, exc_info=True)


def _set_games(counts: Mapping[str, int]) -> None:
    GAMES.clear()
    for status, count in counts.items():
        GAMES.labels(status=status).set(count)


async def watch_loop_lag(interval: float = 1.0) -> None:
    """Sleep ``interval`` again and again; how much later than asked each wake-up came is
    the loop's lag (a blocking call on the loop shows here)."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time() + interval
        await asyncio.sleep(interval)
        LOOP_LAG.set(max(0.0, loop.time() - asked))


async def healthz(_: web.Request) -> web.Response:
    return web.Response(text="ok\n")


async def readyz(_: web.Request) -> web.Response:
    failed = []
    for name, check in list(_readiness.items()):
        try:
            ok = await asyncio.wait_for(check(), timeout=5)
        except Exception:
            ok = False
        if not ok:
            failed.append(name)
    if failed or not _readiness:
        return web.Response(status=503, text=f"not ready: {', '.join(failed) or 'starting'}\n")
    return web.Response(text="ready\n")


async def metrics(_: web.Request) -> web.Response:
    await collect()
    body = generate_latest(REGISTRY)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


class MetricsServer:
    """The private HTTP server of the three endpoints, and the loop-lag sampler."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._runner: web.AppRunner | None = None
        self._lag: asyncio.Task[None] | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", healthz)
        app.router.add_get("/readyz", readyz)
        app.router.add_get("/metrics", metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self._lag = asyncio.create_task(watch_loop_lag(), name="metrics-loop-lag")
        log.info("health and metrics on http://%s:%s/", self.host, self.port)

    async def close(self) -> None:
        if self._lag is not None:
            self._lag.cancel()
            self._lag = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
