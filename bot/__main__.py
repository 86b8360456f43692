"""`python -m bot run|demo|sync`: the bot's command line."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

import discord

from bot.config import Settings
from bot.errors import ServiceError
from bot.store import StoreError, open_store

NO_TOKEN = """\
No DISCORD_TOKEN is set, so the bot cannot connect to Discord.
  1. Copy .env.example to .env
  2. Put your bot token after DISCORD_TOKEN=
     (Developer Portal -> your application -> Bot -> Reset Token)
  3. make run
To try the games without Discord, run: make demo"""


async def check_store(settings: Settings) -> None:
    """Open and close the store so an unusable database path fails now, naming the path."""
    store = open_store(settings.database_url)
    await store.open()
    await store.close()


def preflight(settings: Settings) -> None:
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        raise SystemExit(2)
    try:
        asyncio.run(check_store(settings))
    except StoreError as error:
        print(
            f"Cannot start: {error}. Set DATABASE_URL in .env to a writable path.", file=sys.stderr
        )
        raise SystemExit(1) from error


def run(settings: Settings) -> None:
    from bot.app import TabletopBot

    preflight(settings)
    TabletopBot(settings).run(
        settings.discord_token, log_level=logging.getLevelName(settings.log_level)
    )


async def sync(settings: Settings, guild_id: str) -> None:
    from bot.app import TabletopBot

    bot = TabletopBot(settings)
    async with bot:
        await bot.login(settings.discord_token)
        guild = discord.Object(int(guild_id)) if guild_id else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        commands = await bot.tree.sync(guild=guild)
        where = f"guild {guild_id}" if guild_id else "all servers (may take up to an hour to show)"
        print(f"Synced {len(commands)} commands to {where}: {', '.join(c.name for c in commands)}")


def demo(settings: Settings, game: str, players: int, seed: str, options: str = "") -> None:
    from bot.demo import run_demo
    from bot.options import parse_options
    from bot.pool import WorkerPool

    try:
        result = asyncio.run(
            run_demo(
                game,
                settings.database_url,
                Path(settings.demo_dir),
                players,
                seed,
                parse_options(options),
                WorkerPool.from_settings(settings),
            )
        )
    except ServiceError as error:  # an unknown option or a bad seat count, in the game's words
        raise SystemExit(error.message) from error
    print(
        f"Demo game {result.game_id}: {len(result.boards)} boards in {Path(settings.demo_dir)}/, "
        f"log in {result.log_path}"
    )
    for name, score in sorted(result.scores.items(), key=lambda item: -item[1]):
        print(f"  {name:<6} {score}")
    print(f"Winner(s): {', '.join(result.winners)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="connect to Discord (needs DISCORD_TOKEN)")
    sync_parser = sub.add_parser("sync", help="register the slash commands with Discord")
    sync_parser.add_argument("--guild", default=None, help="a server id for an instant sync")
    demo_parser = sub.add_parser("demo", help="play a whole AI game offline, writing board PNGs")
    demo_parser.add_argument("--game", default="street-art")
    demo_parser.add_argument("--players", type=int, default=4)
    demo_parser.add_argument("--seed", default="demo")
    demo_parser.add_argument(
        "--options", default="", help="game options, e.g. 'shorter_game=true, no_noz=true'"
    )
    args = parser.parse_args(argv)
    settings = Settings.load()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if args.command == "run":
        run(settings)
    elif args.command == "sync":
        preflight(settings)
        asyncio.run(sync(settings, args.guild if args.guild is not None else settings.dev_guild_id))
    else:
        logging.getLogger("bot.service").setLevel(logging.WARNING)
        demo(settings, args.game, args.players, args.seed, args.options)


if __name__ == "__main__":
    main()
