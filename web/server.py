"""Running the web table: inside the bot (``cogs.web_table`` starts it beside Discord) or as a
process of its own (``python -m bot web``), reading the same store.

A process of its own hears the bots' changes through PostgreSQL ``LISTEN/NOTIFY``
(``bot.changes.PostgresBridge``); on SQLite the web table runs inside the bot, where the service
tells it in process.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import signal
from dataclasses import dataclass

from aiohttp import web

from bot.changes import PostgresBridge
from bot.config import WEB_SECRET_BYTES, Settings
from bot.pictures import Pictures
from bot.pool import WorkerPool
from bot.service import GameService
from bot.store import is_postgres, open_store
from bot.store.base import Store
from web.access_log import AccessLog
from web.addresses import Proxies
from web.app import KEEPALIVE, create_app
from web.discord_api import DiscordApi
from web.limits import HEADER_SECONDS, Caps, ConnectionGuard
from web.links import Links
from web.security import Policy, origin_of

log = logging.getLogger(__name__)

#: The name the web table's secret is kept under when WEB_SECRET is not set.
SECRET_NAME = "web"


def base_url(settings: Settings) -> str:
    """The address players open: WEB_BASE_URL, else the address the server binds."""
    return (settings.web_base_url or f"http://{settings.web_host}:{settings.web_port}").rstrip("/")


async def links_for(settings: Settings, store: Store) -> Links:
    """The addresses handed out, signed with WEB_SECRET, else with a secret made once and
    kept in the store (so links survive a restart, and every process over the store agrees)."""
    secret = settings.web_secret or await store.kept_secret(
        SECRET_NAME, secrets.token_urlsafe(WEB_SECRET_BYTES)
    )
    return Links(base_url(settings), secret.strip().encode())


@dataclass
class Running:
    """A started web table: its runner, the guard counting its connections (and in a process
    of its own, its bridge)."""

    runner: web.AppRunner
    guard: ConnectionGuard
    bridge: PostgresBridge | None = None

    async def stop(self) -> None:
        await self.runner.cleanup()
        if self.bridge is not None:
            await self.bridge.close()


async def bridge_for(settings: Settings, service: GameService) -> PostgresBridge | None:
    """On PostgreSQL, the bridge that carries this process's changes to the others' and back."""
    if not is_postgres(settings.database_url):
        return None
    bridge = PostgresBridge(settings.database_url, service.changes)
    await bridge.open()
    return bridge


def discord_api(settings: Settings) -> DiscordApi | None:
    """Discord's API for the Activity, when it is configured (DISCORD_CLIENT_ID and _SECRET)."""
    if not settings.activity:
        return None
    return DiscordApi(
        settings.discord_api_base,
        settings.discord_client_id,
        settings.discord_client_secret,
        settings.discord_token,
    )


#: How often a stream of a web process alone on SQLite (which hears no other process) looks.
ALONE_POLL = 1.0


async def start(
    service: GameService, settings: Settings, links: Links, *, alone: bool = False
) -> Running:
    """Serve the web table on WEB_HOST:WEB_PORT (localhost unless configured); ``alone``: a
    process of its own, so on SQLite its streams look at the store every second."""
    poll = ALONE_POLL if alone and not is_postgres(settings.database_url) else KEEPALIVE
    proxies = Proxies(settings.trusted_proxies())
    caps = Caps.for_process(settings.web_max_connections, settings.web_streams_per_address)
    policy = Policy(origin=origin_of(settings.web_base_url))
    app = create_app(
        service,
        links.secret,
        poll=poll,
        proxies=proxies,
        caps=caps,
        policy=policy,
        discord=discord_api(settings),
    )
    runner = web.AppRunner(
        app,
        shutdown_timeout=2.0,
        keepalive_timeout=HEADER_SECONDS,  # also the deadline for a request's headers
        access_log_class=AccessLog,
        access_log=logging.getLogger("web.access"),
        access_log_format=settings.web_access_log,
    )
    await runner.setup()
    guard = ConnectionGuard(caps, proxies.trusted)
    assert runner.server is not None
    guard.install(runner.server)
    await web.TCPSite(runner, settings.web_host, settings.web_port, backlog=caps.backlog).start()
    log.info(
        "web table on http://%s:%d (%s): %d connections, %d live-page streams at most",
        settings.web_host,
        settings.web_port,
        links.base_url,
        caps.connections,
        caps.streams,
    )
    return Running(runner, guard)


async def until_stopped() -> None:
    """Return at the first SIGINT or SIGTERM (Ctrl+C, a container stopping)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def serve(settings: Settings) -> None:
    """``python -m bot web``: the store, a service, the bridge and the server, until a signal."""
    store = open_store(settings.database_url, pool_size=settings.database_pool_size)
    await store.open()
    pool = WorkerPool.from_settings(settings)
    pool.start()
    running: Running | None = None
    try:
        service = GameService(store, pictures=Pictures.from_settings(settings, pool))
        running = await start(service, settings, await links_for(settings, store), alone=True)
        running.bridge = await bridge_for(settings, service)
        await until_stopped()
    finally:
        if running is not None:
            await running.stop()
        await pool.close()
        await store.close()


def main(settings: Settings) -> None:
    """``python -m bot web``; a port that cannot be had is one line saying which."""
    try:
        asyncio.run(serve(settings))
    except OSError as error:
        where = f"{settings.web_host}:{settings.web_port}"
        raise SystemExit(
            f"Cannot start: the web table cannot listen on {where} ({error.strerror or error}); "
            "set WEB_PORT to a free port."
        ) from error
