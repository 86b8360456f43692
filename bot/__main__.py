"""`python -m bot run|sync|web|play|upgrade|demo|backup|check|migrate|replay|forget`: the bot's
command line (`--version`).

Every mistake a newcomer can make here (no token, a bad path, a damaged file, a setting or a
flag out of range) ends in one line saying what is allowed, never a traceback."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import signal
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import bot.migrate
from bot.config import Settings, is_snowflake
from bot.demo import SEAT_NAMES, run_demo
from bot.errors import ServiceError
from bot.forgetting import forget_user
from bot.logs import configure_logging
from bot.options import parse_options
from bot.pool import WorkerPool
from bot.replay import ReplayFileError, render_file
from bot.store import (
    DamagedDatabase,
    ReadOnlyDatabase,
    Store,
    StoreError,
    is_postgres,
    open_store,
    sqlite_path,
)
from bot.version import __version__
from locales import LANGS
from rules import GAMES
from rules.protocol import player_range

NO_TOKEN = """\
No DISCORD_TOKEN is set, so the bot cannot connect to Discord.
  1. Copy .env.example to .env
  2. Put your bot token after DISCORD_TOKEN=
     (Developer Portal -> your application -> Bot -> Reset Token)
  3. make run
To try the games without Discord, run: make demo"""


async def check_store(settings: Settings) -> Store | None:
    """Open the store so an unusable database fails now, naming the path, in time that does
    not grow with the history (``bot.store.startup``; the full check is ``python -m bot
    check``). A SQLite store stays open for the bot: its threads answer whichever event loop
    asks, so the file is opened once. A PostgreSQL pool belongs to this loop: it is closed,
    and the bot connects again (11 ms)."""
    store = open_store(settings.database_url)
    await store.open()
    if is_postgres(settings.database_url):
        await store.close()
        return None
    return store


def preflight(settings: Settings, *, store: bool = True) -> Store | None:
    """The token, then (``store``: for ``run``; ``sync`` needs none) the database; the store
    the bot may keep (``check_store``)."""
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        raise SystemExit(2)
    if not store:
        return None
    try:
        return asyncio.run(check_store(settings))
    except (DamagedDatabase, ReadOnlyDatabase) as error:
        print(f"Cannot start: {error}.", file=sys.stderr)
        raise SystemExit(1) from error
    except StoreError as error:
        # A PostgreSQL error already says which server and what to check in DATABASE_URL.
        hint = (
            ""
            if is_postgres(settings.database_url)
            else " Set DATABASE_URL in .env to a writable path."
        )
        print(f"Cannot start: {error}.{hint}", file=sys.stderr)
        raise SystemExit(1) from error


#: The Discord layer's entry point (``main(command, settings, guild_id)``), named, not imported:
#: it is loaded only when ``run`` or ``sync`` asks for it, so bot/ never imports Discord or cogs.
DISCORD_ENTRY = "cogs.app"
#: The web table's entry point (``main(settings)``), named for the same reason: bot/ knows
#: neither front door.
WEB_ENTRY = "web.server"
#: The local table against AI seats (``main(settings, game, players, options)``), likewise.
PLAY_ENTRY = "web.play"


def stop_at_once_while_starting() -> None:
    """Until the bot's graceful stop takes SIGTERM and SIGINT over (``cogs.shutdown``, once
    its event loop runs), either one ends start-up at once with exit status 0: nothing is
    served yet, so nothing is lost, and systemd counts no failure (issue 34)."""

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, stop)


def discord_command(command: str, settings: Settings, guild_id: str = "") -> None:
    """``run`` or ``sync``: check the token and (``run``) the store, then hand over to the
    Discord layer (with the store the checks opened, which it keeps)."""
    store = preflight(settings, store=command == "run")
    logging.getLogger("bot").info("tabletop-bot %s: %s", __version__, command)
    importlib.import_module(DISCORD_ENTRY).main(command, settings, guild_id, store)


def upgrade(settings: Settings) -> None:
    """``upgrade``: create the database's tables, or bring them to this version's schema, and
    exit; the one-shot step before a new version starts (compose.yaml's ``migrate`` service,
    docs/deploy.md's upgrade steps). ``run`` does the same at start-up, so it is never needed
    with one process; with several it upgrades once, before any of them starts."""
    try:
        asyncio.run(check_store(settings))
    except StoreError as error:
        raise SystemExit(f"Cannot upgrade: {error}.") from error
    print(f"The database (DATABASE_URL) has the schema of tabletop-bot {__version__}.")


#: The name of a backup written into a folder (``backup --keep``): sorts oldest first.
BACKUP_NAME = "games-{:%Y%m%dT%H%M%SZ}.db"


def backup_target(path: str, keep: int | None) -> str:
    """``path`` as given, or (a folder) a new file in it named by the time; ``--keep`` needs
    the folder."""
    folder = Path(path)
    if folder.is_dir():
        return str(folder / BACKUP_NAME.format(datetime.now(UTC)))
    if keep is not None:
        raise StoreError(f"--keep needs PATH to be a folder, and {path!r} is not one")
    return path


def rotate(folder: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest backups ``backup`` wrote into ``folder``; the
    deleted files."""
    written = sorted(folder.glob("games-*Z.db"))
    old = written[: max(0, len(written) - keep)]
    for path in old:
        path.unlink()
    return old


async def backup(settings: Settings, target: str, keep: int | None = None) -> None:
    """Copy the database the bot uses (it may be running) to ``target`` (a new file, or a new
    file in the folder ``target``, of which ``keep`` are kept)."""
    target = backup_target(target, keep)
    if not is_postgres(settings.database_url):
        source = sqlite_path(settings.database_url)
        if not Path(source).is_file():  # opening it would create an empty one to copy
            raise StoreError(f"there is no database at {source!r} (DATABASE_URL) to back up")
    store = open_store(settings.database_url)
    await store.open()
    try:
        games = await store.backup(target)
    finally:
        await store.close()
    print(f"Backed up {games} games to {target}. To restore: README.md, Backups.")
    if keep is not None:
        for path in rotate(Path(target).parent, keep):
            print(f"Removed the older backup {path}.")


async def check(settings: Settings) -> None:
    """``check``: read every page of the database (SQLite's ``quick_check``), which start-up
    no longer does; for the backup timer and after a restore."""
    if not is_postgres(settings.database_url):
        source = sqlite_path(settings.database_url)
        if not Path(source).is_file():  # opening it would create an empty one to check
            raise StoreError(f"there is no database at {source!r} (DATABASE_URL) to check")
    store = open_store(settings.database_url)
    start = time.perf_counter()
    await store.open()
    try:
        await store.check()
    finally:
        await store.close()
    print(f"The database checks out ({time.perf_counter() - start:.1f} s).")


def demo(
    settings: Settings, game: str, players: int, seed: str, options: str = "", lang: str = "en"
) -> None:
    engine = GAMES[game]
    lang = lang.strip().replace("-", "_")  # as gettext (pt_BR) or Discord (pt-BR) names it
    if lang not in LANGS:
        raise SystemExit(f"--lang must be one of {', '.join(LANGS)} (got {lang[:20]!r}).")
    try:
        chosen = parse_options(options)
    except ServiceError as error:
        raise SystemExit(error.message) from error
    fewest, most = player_range(engine, chosen)
    most = min(most, len(SEAT_NAMES))
    if not fewest <= players <= most:
        raise SystemExit(
            f"--players must be from {fewest} to {most} for {engine.title} with these options "
            f"(got {players})."
        )
    try:
        result = asyncio.run(
            run_demo(
                game,
                settings.demo_database,
                Path(settings.demo_dir),
                players,
                seed,
                chosen,
                WorkerPool.from_settings(settings),
                lang,
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


def migrate(source: str, target: str) -> None:
    """``migrate``: copy the whole store, print what was done and checked; exit 1 if a game
    was left behind or a check failed."""
    try:
        report = asyncio.run(bot.migrate.run(source, target))
    except StoreError as error:
        raise SystemExit(f"Cannot migrate: {error}.") from error
    print("\n".join(report.lines()))
    if not report.ok:
        raise SystemExit(1)


def play(
    settings: Settings, game: str, players: int, options: str = "", learn: bool = False
) -> None:
    """``play``: a local table of ``game`` on the web page, the newcomer against AI seats
    (``learn``: a teaching table, its seats and deal the game's course's)."""
    try:
        chosen = parse_options(options)
    except ServiceError as error:
        raise SystemExit(error.message) from error
    fewest, most = player_range(GAMES[game], chosen)
    if not fewest <= players <= most:
        raise SystemExit(
            f"--players must be from {fewest} to {most} for {GAMES[game].title} with these "
            f"options (got {players})."
        )
    if not settings.web_port:
        raise SystemExit("Cannot start: WEB_PORT is 0 (the web table is off).")
    importlib.import_module(PLAY_ENTRY).main(settings, game, players, chosen, learn)


def whole_number(text: str) -> int:
    """An argparse type whose refusal is one line saying what is allowed."""
    if not text.strip().isascii() or not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"a whole number is needed (got {text[:20]!r})")
    return int(text)


def at_least_one(text: str) -> int:
    """A whole number from 1 (a backup count)."""
    number = whole_number(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"at least 1 is needed (got {number})")
    return number


def parser() -> argparse.ArgumentParser:
    main_parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    main_parser.add_argument("--version", action="version", version=f"tabletop-bot {__version__}")
    sub = main_parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("run", help="connect to Discord and serve the games (needs DISCORD_TOKEN)")
    sub.add_parser(
        "web", help="serve the web table alone, beside bots on the same PostgreSQL database"
    )
    sync_parser = sub.add_parser("sync", help="register the slash commands with Discord")
    sync_parser.add_argument(
        "--guild", default=None, help="a server id: sync there only, instantly (default: all)"
    )
    demo_parser = sub.add_parser("demo", help="play a whole AI game offline, writing board PNGs")
    demo_parser.add_argument(
        "--game", default="street-art", choices=sorted(GAMES), help="which game (street-art)"
    )
    demo_parser.add_argument(
        "--players",
        type=whole_number,
        default=4,
        help="how many AI seats, within the game's player count (4)",
    )
    demo_parser.add_argument(
        "--seed", default="demo", help="any text: the same seed plays the same game (demo)"
    )
    demo_parser.add_argument(
        "--options", default="", help="game options, e.g. 'shorter_game=true, no_noz=true'"
    )
    demo_parser.add_argument(
        "--lang",
        default="en",
        help=f"the language of the boards and the log: {', '.join(LANGS)} (en)",
    )
    play_parser = sub.add_parser(
        "play", help="play against AI seats on a local web page (no Discord needed)"
    )
    play_parser.add_argument(
        "--game", default="street-art", choices=sorted(GAMES), help="which game (street-art)"
    )
    play_parser.add_argument(
        "--players", type=whole_number, default=3, help="seats, yours included (3)"
    )
    play_parser.add_argument(
        "--options", default="", help="game options, e.g. 'shorter_game=true, no_noz=true'"
    )
    play_parser.add_argument(
        "--learn",
        action="store_true",
        help="a teaching table: each rule told as it first matters (its own seats and deal)",
    )
    backup_parser = sub.add_parser(
        "backup", help="copy the database to a new file, safely while the bot runs"
    )
    backup_parser.add_argument(
        "path",
        metavar="PATH",
        help="the new file to write the copy to, or a folder to write a file named by the time",
    )
    backup_parser.add_argument(
        "--keep",
        type=at_least_one,
        default=None,
        metavar="N",
        help="with a folder: then delete all but its N newest backups",
    )
    sub.add_parser(
        "check",
        help="read every page of the database for damage (after a restore, with backups)",
    )
    sub.add_parser(
        "upgrade",
        help="create the database's tables or bring them up to date, then exit (before a new "
        "version starts)",
    )
    migrate_parser = sub.add_parser(
        "migrate",
        help="copy every game, log, result and setting to another database (safe to re-run)",
    )
    migrate_parser.add_argument(
        "--from",
        dest="source",
        metavar="URL",
        default=None,
        help="the database to copy from (default: DATABASE_URL)",
    )
    migrate_parser.add_argument(
        "--to",
        dest="target",
        metavar="URL",
        required=True,
        help="the database to copy to, e.g. postgresql://user@host/db (created if new)",
    )
    replay_parser = sub.add_parser(
        "replay", help="draw every turn's board of a /game replay view:log file into a folder"
    )
    replay_parser.add_argument(
        "file", metavar="FILE", help="the JSON file /game replay view:log attached"
    )
    replay_parser.add_argument(
        "--out", default=None, help="the folder for the boards (default: FILE without .json)"
    )
    forget_parser = sub.add_parser(
        "forget", help="forget a player: their games keep a former player, their results go"
    )
    forget_parser.add_argument("user", metavar="USER_ID", help="the player's Discord user id")
    return main_parser


def replay_command(settings: Settings, file: str, out: str | None) -> None:
    """Draw an export's boards offline; a file that cannot be replayed is one line saying
    why (a running game's export has no seed, so its states cannot be rebuilt)."""
    path = Path(file)
    folder = Path(out) if out else path.with_suffix("")
    if folder == path:  # a FILE without .json: the boards go beside it, not over it
        folder = path.with_name(f"{path.name}-boards")
    try:
        boards = asyncio.run(render_file(path, folder, WorkerPool.from_settings(settings)))
    except ReplayFileError as error:
        raise SystemExit(f"Cannot replay: {error}") from error
    print(f"{len(boards)} boards in {folder}/, each turn told in {folder / 'turns.txt'}")


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    try:
        settings = Settings.load()
    except ValueError as error:  # a setting that cannot work, named, with what is allowed
        raise SystemExit(f"Cannot start: {error} (in .env or the environment).") from error
    configure_logging(settings.log_level, settings.log_format)
    if args.command == "run":
        stop_at_once_while_starting()
        discord_command("run", settings)
    elif args.command == "sync":
        guild = (args.guild if args.guild is not None else settings.dev_guild_id).strip()
        if guild and not is_snowflake(guild):
            raise SystemExit(
                f"--guild must be a server id, digits only (got {guild[:30]!r}): in Discord, "
                "right-click the server and choose Copy Server ID."
            )
        discord_command("sync", settings, guild)
    elif args.command == "upgrade":
        upgrade(settings)
    elif args.command == "web":
        if not settings.web_port:
            raise SystemExit("Cannot start: WEB_PORT is 0 (the web table is off).")
        try:
            importlib.import_module(WEB_ENTRY).main(settings)
        except StoreError as error:
            raise SystemExit(f"Cannot start: {error}.") from error
    elif args.command == "play":
        logging.getLogger("bot.service").setLevel(logging.WARNING)
        play(settings, args.game, args.players, args.options, args.learn)
    elif args.command == "migrate":
        migrate(args.source or settings.database_url, args.target)
    elif args.command == "backup":
        try:
            asyncio.run(backup(settings, args.path, args.keep))
        except StoreError as error:
            raise SystemExit(f"Cannot back up: {error}.") from error
    elif args.command == "check":
        try:
            asyncio.run(check(settings))
        except StoreError as error:
            raise SystemExit(f"Check failed: {error}.") from error
    elif args.command == "replay":
        replay_command(settings, args.file, args.out)
    elif args.command == "forget":
        try:
            print(asyncio.run(forget_user(settings, args.user)))
        except (StoreError, ValueError) as error:
            raise SystemExit(f"Cannot forget: {error}.") from error
    else:
        logging.getLogger("bot.service").setLevel(logging.WARNING)
        demo(settings, args.game, args.players, args.seed, args.options, args.lang)


if __name__ == "__main__":
    main()
