"""Caps that keep a flood harmless: lobbies per channel and per player, games per player and
running games per server (the last two set by a server's admins in `/game config`).

Each refusal is a ``ServiceError`` whose sentence says what to do instead. The counts come from
the store (``Store.count_games``, one indexed count each), so every process of a sharded bot
sees the same ones; two requests racing past a cap at the same moment may overshoot it by one,
which a cap meant against floods can afford.
"""

from __future__ import annotations

from bot.errors import ServiceError
from bot.guild_settings import GuildSettings
from bot.i18n import _n
from bot.store.base import ACTIVE, LOBBY, OPEN_STATUSES, GameRecord, Store

#: Lobbies waiting for players in one channel (its threads' with it).
LOBBIES_PER_CHANNEL = 10
#: Lobbies a player may sit in on a server and still open another.
LOBBIES_PER_HOST = 3


async def check_new_lobby(
    store: Store, guild: str, channel_games: list[GameRecord], host: str
) -> None:
    """Refuse a new lobby beside ``channel_games`` (the open games of its channel) when the
    channel, or its ``host``, has as many lobbies as allowed."""
    waiting = sum(1 for record in channel_games if record.status == LOBBY)
    if waiting >= LOBBIES_PER_CHANNEL:
        raise ServiceError(
            _n(
                "This channel has {n} game waiting for players already, the most it may "
                "hold — join it (`/game list`), or open yours in another channel.",
                "This channel has {n} games waiting for players already, the most it may "
                "hold — join one of them (`/game list`), or open yours in another channel.",
                waiting,
            ).format(n=waiting)
        )
    hosted = await store.count_games(guild, (LOBBY,), player=host)
    if hosted >= LOBBIES_PER_HOST:
        raise ServiceError(
            _n(
                "You sit in {n} game waiting for players already — start it or leave it "
                "before you open another.",
                "You sit in {n} games waiting for players already — start one or leave one "
                "before you open another.",
                hosted,
            ).format(n=hosted)
        )


async def check_seat(store: Store, settings: GuildSettings, guild: str, user: str) -> None:
    """Refuse a seat (a new game, a join) to a player who sits in as many open games on the
    server as its admins allow."""
    sitting = await store.count_games(guild, OPEN_STATUSES, player=user)
    cap = settings.player_games
    if sitting >= cap:
        raise ServiceError(
            _n(
                "You play {n} game on this server already, the most its admins allow — "
                "finish it first (`/game mine`); an admin can raise `player_games` in "
                "`/game config`.",
                "You play {n} games on this server already, the most its admins allow — "
                "finish one first (`/game mine` lists them); an admin can raise "
                "`player_games` in `/game config`.",
                cap,
            ).format(n=cap)
        )


async def check_start(store: Store, settings: GuildSettings, guild: str) -> None:
    """Refuse a start on a server that runs as many games as its admins allow."""
    running = await store.count_games(guild, (ACTIVE,))
    cap = settings.server_games
    if running >= cap:
        raise ServiceError(
            _n(
                "This server runs {n} game already, the most its admins allow — the lobby "
                "waits until one ends; an admin can raise `server_games` in `/game config`.",
                "This server runs {n} games already, the most its admins allow — the lobby "
                "waits until one ends; an admin can raise `server_games` in `/game config`.",
                cap,
            ).format(n=cap)
        )
