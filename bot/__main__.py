"""`python -m bot run|demo|sync`: the bot's command line."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import sys
from pathlib import Path

from bot.config import Settings
from bot.demo import run_demo
from bot.errors import ServiceError
from bot.options import parse_options
from bot.pool import WorkerPool
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


#: The Discord layer's entry point (``main(command, settings, guild_id)``), named, not imported:
#: it is loaded only when ``run`` or ``sync`` asks for it, so bot/ never imports Discord or cogs.
DISCORD_ENTRY = "cogs.app"


def discord_command(command: str, settings: Settings, guild_id: str = "") -> None:
    """``run`` or ``sync``: check the token and the store, then hand over to the Discord layer."""
    preflight(settings)
    importlib.import_module(DISCORD_ENTRY).main(command, settings, guild_id)


def demo(settings: Settings, game: str, players: int, seed: str, options: str = "") -> None:
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
        discord_command("run", settings)
    elif args.command == "sync":
        guild = args.guild if args.guild is not None else settings.dev_guild_id
        discord_command("sync", settings, guild)
    else:
        logging.getLogger("bot.service").setLevel(logging.WARNING)
        demo(settings, args.game, args.players, args.seed, args.options)


if __name__ == "__main__":
    main()
