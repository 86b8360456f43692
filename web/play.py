"""``python -m bot play`` (``make play``): a local table against AI seats, without Discord.

It serves the web table on WEB_HOST:WEB_PORT (http://127.0.0.1:8080 unless set) over a SQLite
file of its own beside the demo's (``out/demo/play.db``), seats the newcomer and AI players at
a new game (``--learn``: a teaching table, whose lessons come on the hand page), and prints
the link to the newcomer's hand page, where the game is played on the board. Nothing is
posted anywhere: the posts a Discord table would get stay in the outbox.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path

from bot.config import Settings
from bot.pictures import Pictures
from bot.pool import WorkerPool
from bot.service import GameService
from bot.store import open_store
from bot.store.base import GameRecord
from bot.teaching.tables import open_table
from web.links import Links
from web.server import start, until_stopped

#: The newcomer's seat and name, and where the local table is kept.
YOU, YOUR_NAME = "1", "Player"
GUILD, CHANNEL = "local", "play"


def database_of(settings: Settings) -> str:
    """The local table's own SQLite file, beside the demo's (never the bot's database)."""
    return f"sqlite:///{Path(settings.demo_dir) / 'play.db'}"


async def seat(
    service: GameService, game: str, players: int, options: dict[str, str], learn: bool = False
) -> GameRecord:
    """A new game of ``game``: the newcomer and ``players - 1`` AI seats, started; with
    ``learn``, a teaching table instead (``bot.teaching.tables.open_table``: the course's
    seats and deal, its lessons on the hand page)."""
    for stale in await service.store.games_in_channel(GUILD, CHANNEL):  # an earlier table
        await service.abandon(GUILD, CHANNEL, stale.host, True, stale.id)
    if learn:
        return await open_table(service, game, GUILD, CHANNEL, YOU, YOUR_NAME)
    record = await service.new_game(game, GUILD, CHANNEL, YOU, YOUR_NAME, options)
    for _seat in range(players - 1):
        await service.add_ai(GUILD, CHANNEL, YOU, record.id)
    return (await service.start(GUILD, CHANNEL, YOU, record.id)).record


async def serve(
    settings: Settings, game: str, players: int, options: dict[str, str], learn: bool = False
) -> None:
    Path(settings.demo_dir).mkdir(parents=True, exist_ok=True)
    store = open_store(database_of(settings))
    await store.open()
    pool = WorkerPool.from_settings(settings)
    pool.start()
    running = None
    try:
        service = GameService(store, pictures=Pictures.from_settings(settings, pool))
        record = await seat(service, game, players, options, learn)
        base = f"http://{settings.web_host}:{settings.web_port}"
        links = Links(base, secrets.token_bytes(32))
        running = await start(service, settings, links)
        print(f"{record.game}: your table is ready. Open this link in a browser:")
        print(f"  {links.hand(record.id, YOU, time.time())}")
        print("Press Ctrl+C to stop.", flush=True)
        await until_stopped()
    finally:
        if running is not None:
            await running.stop()
        await pool.close()
        await store.close()


def main(
    settings: Settings, game: str, players: int, options: dict[str, str], learn: bool = False
) -> None:
    """``python -m bot play``; a port that cannot be had is one line saying which."""
    try:
        asyncio.run(serve(settings, game, players, options, learn))
    except OSError as error:
        where = f"{settings.web_host}:{settings.web_port}"
        raise SystemExit(
            f"Cannot start: the local table cannot listen on {where} "
            f"({error.strerror or error}); set WEB_PORT to a free port."
        ) from error
