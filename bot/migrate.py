"""Copy everything from one store to another (``python -m bot migrate --from URL --to URL``),
for the move from one SQLite file to PostgreSQL (docs/deploy.md) or between any two backends.

Written against the ``Store`` protocol alone, so it works for any pair of backends. Every game
of every status is copied as it is (its version, times, seats and log with each action's seq
and time), then each of its other tables (``GAME_TABLES``: messages, the web table's row,
results, the undo audit, the posts it still owes: its unsent outbox rows, which the target's
delivery worker then sends, who timed out and who took a hint), then every server's settings
and the rest (vacation days, tournaments, seasons, titles, the secrets kept). Then it checks:
each table's rows read back from the target as they are in the source (the counts), and each
game's log replays to its stored snapshot.

Safe to run again: a game already in the target as it is in the source is left as it is (its
tables are written again, and each write keeps what is there), a game the source has moved on
since the last run is copied again whole, and a game that is further on in the target (the
bot already plays there) is never overwritten, only reported. A post copied as owed that the
source has sent since is marked sent in the target by the next run. So the usual move is: a
first run while the bot still plays, then stop the bot, run again (quick: little has changed),
and start the bot on the new store, whose delivery worker sends what the source still owed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bot.store import open_store, sqlite_path
from bot.store.base import (
    CopiedPost,
    GameRecord,
    LoggedAction,
    Rating,
    ResultRow,
    Store,
    StoreError,
)
from bot.store.recovery import RecoveryError, replay_snapshot


@dataclass(frozen=True)
class GameTable:
    """One of a game's tables besides its row and log: how to read its rows from a store, and
    how to write the source's rows into the target (keeping whatever the target has)."""

    name: str
    read: Callable[[Store, GameRecord], Awaitable[list[Any]]]
    write: Callable[[Store, Store, GameRecord, list[Any]], Awaitable[None]]
    #: How the check reads back from the target the rows written (None: ``read``), for a
    #: table whose rows change in the target once there (an owed post sent).
    read_back: Callable[[Store, GameRecord, list[Any]], Awaitable[list[Any]]] | None = None


async def read_messages(store: Store, record: GameRecord) -> list[Any]:
    return sorted((kind, *where) for kind, where in (await store.messages_of(record.id)).items())


async def write_messages(source: Store, target: Store, record: GameRecord, rows: list[Any]) -> None:
    for kind, channel, message in rows:
        await target.save_message(record.id, kind, channel, message)


async def read_results(store: Store, record: GameRecord) -> list[Any]:
    return list(await store.results_of_game(record.id))


async def write_results(source: Store, target: Store, record: GameRecord, rows: list[Any]) -> None:
    """The game's result rows, and the source's ratings of every identity they rate: each
    game's copy writes the same final ratings, so the order games are copied in is no matter
    (and a game whose results the target has already is left alone by ``record_results``)."""
    if not rows:
        return
    results: list[ResultRow] = rows
    rated = sorted({row.rated_as for row in results})
    ratings = list((await source.ratings(record.guild, record.game, rated)).values())

    def as_in_source(_current: dict[str, Rating]) -> tuple[list[ResultRow], list[Rating]]:
        return results, ratings

    await target.record_results(record.id, as_in_source)


async def read_undone(store: Store, record: GameRecord) -> list[Any]:
    return list(await store.undone_actions(record.id))


async def write_undone(source: Store, target: Store, record: GameRecord, rows: list[Any]) -> None:
    if rows:
        await target.import_undone(rows)


async def read_web_table(store: Store, record: GameRecord) -> list[Any]:
    row = await store.web_table_of(record.id)
    return [row] if row is not None else []


async def write_web_table(
    source: Store, target: Store, record: GameRecord, rows: list[Any]
) -> None:
    for row in rows:  # its public id and flag: the page's address stays the same
        await target.save_web_table(row)


async def read_owed(store: Store, record: GameRecord) -> list[Any]:
    return list(await store.owed_posts(record.id))


async def write_owed(source: Store, target: Store, record: GameRecord, rows: list[Any]) -> None:
    """The posts the game still owes in the source, for the target's delivery worker (each
    kept as it is if the target has its key already: sent there meanwhile, it is not owed
    again). Then the other way round: a post an earlier run copied that the source has sent
    since (the bot still played there) is marked sent in the target, or the table would get
    it twice. A post the target owes that the source never had is the target's own: kept."""
    posts: list[CopiedPost] = rows
    await target.import_posts(posts)
    owed_here = {post.key for post in posts}
    stale = [post.key for post in await target.owed_posts(record.id) if post.key not in owed_here]
    sent = [post for post in await source.posts(stale) if post.sent_at is not None]
    if sent:
        await target.outbox_sent_many([(post.key, post.channel, post.message) for post in sent])


async def read_back_owed(target: Store, record: GameRecord, rows: list[Any]) -> list[Any]:
    """The target's rows of the posts copied, sent there since or not, in the source's order."""
    keys = [post.key for post in rows]
    found = {post.key: post for post in await target.posts(keys)}
    return [found[key] for key in keys if key in found]


async def read_timeouts(store: Store, record: GameRecord) -> list[Any]:
    return await store.game_timeouts(record.id)


async def write_timeouts(source: Store, target: Store, record: GameRecord, rows: list[Any]) -> None:
    await target.note_timeouts(record.id, rows)


async def read_hints(store: Store, record: GameRecord) -> list[Any]:
    return await store.hints_taken(record.id)


async def write_hints(source: Store, target: Store, record: GameRecord, rows: list[Any]) -> None:
    """Who took a hint (issue 39): a running game's player who did gains nothing from it
    when it ends, on the target as on the source."""
    for player, at in rows:
        await target.take_hint(record.id, player, at)


GAME_TABLES = (
    GameTable("messages", read_messages, write_messages),
    GameTable("web table", read_web_table, write_web_table),
    GameTable("results", read_results, write_results),
    GameTable("undo audit", read_undone, write_undone),
    GameTable("owed posts", read_owed, write_owed, read_back_owed),
    GameTable("timeouts", read_timeouts, write_timeouts),
    GameTable("hints taken", read_hints, write_hints),
)


@dataclass
class Report:
    """What a run did and found, for the command line (``lines``) and the tests."""

    copied: list[str] = field(default_factory=list)
    #: Copied again whole: the source had moved on since the last run.
    recopied: list[str] = field(default_factory=list)
    #: Already in the target as they are in the source.
    present: list[str] = field(default_factory=list)
    #: Game id -> why it was not copied (unreadable in the source, further on in the target).
    left: dict[str, str] = field(default_factory=dict)
    #: Table -> rows in the source, rows read back from the target (of the games copied).
    counts: dict[str, list[int]] = field(default_factory=dict)
    replayed: int = 0
    problems: list[str] = field(default_factory=list)

    def count(self, table: str, source: int, target: int) -> None:
        seen = self.counts.setdefault(table, [0, 0])
        seen[0] += source
        seen[1] += target
        if source != target:
            self.problems.append(f"{table}: {source} rows in the source, {target} in the target")

    @property
    def ok(self) -> bool:
        return not self.problems and not self.left

    def lines(self) -> list[str]:
        counts = ", ".join(f"{name} {s} -> {t}" for name, (s, t) in self.counts.items())
        out = [
            f"Copied {len(self.copied)} games, copied again {len(self.recopied)} the source "
            f"had moved on, found {len(self.present)} already there unchanged.",
            f"Counts, source -> target: {counts or 'nothing to copy'}.",
            f"Replayed {self.replayed} games' logs to their stored snapshots.",
        ]
        out += [f"Not copied: game {game_id}: {why}." for game_id, why in self.left.items()]
        out += [f"Problem: {problem}." for problem in self.problems]
        return out


#: Reads of a game that a move may interrupt before it is read as of one version.
READ_ATTEMPTS = 5


async def read_game(store: Store, game_id: str) -> tuple[GameRecord, list[LoggedAction]] | None:
    """A game and its log as of one version (None: it cannot be read). The bot may be playing
    on the source meanwhile, so a move landing between the two reads reads them again."""
    for _ in range(READ_ATTEMPTS):
        record = await store.get_game(game_id)
        if record is None:
            return None
        actions = await store.actions(game_id)
        again = await store.get_game(game_id)
        if again is not None and again.version == record.version:
            return again, actions
    raise StoreError(f"it kept moving while it was read; run migrate again (game {game_id})")


async def copy_game(
    source: Store,
    target: Store,
    game_id: str,
    report: Report,
    tables: tuple[GameTable, ...] = GAME_TABLES,
) -> None:
    """Copy one game (row, seats, log, then each of ``tables``) unless the target has it as
    it is or further on, and check what the target then holds."""
    read = await read_game(source, game_id)
    if read is None:
        report.left[game_id] = "it cannot be read in the source (it needs attention there)"
        return
    record, actions = read
    there = await target.get_game(game_id)
    if there is None:
        await target.import_game(record, actions)
        report.copied.append(game_id)
    elif asdict(there) == asdict(record):
        report.present.append(game_id)
    elif there.version <= record.version:
        # Moved on since the last run, or at the same version with a clock, thread or archive
        # time changed since (those change no version): copied again whole.
        await target.import_game(record, actions, replace=True)
        report.recopied.append(game_id)
    else:
        report.left[game_id] = (
            f"the target has it at version {there.version}, further on than the source's "
            f"{record.version} (a bot already plays there); left as it is"
        )
        return
    rows = {table.name: await table.read(source, record) for table in tables}
    for table in tables:
        await table.write(source, target, record, rows[table.name])
    await check_game(target, record, actions, rows, report, tables)


async def check_game(
    target: Store,
    record: GameRecord,
    actions: list[LoggedAction],
    rows: dict[str, list[Any]],
    report: Report,
    tables: tuple[GameTable, ...] = GAME_TABLES,
) -> None:
    """The target's copy reads back as what was copied (the game, its log and ``rows`` of
    each table), and its log replays to its stored snapshot."""
    copy = await target.get_game(record.id)
    if copy is None or asdict(copy) != asdict(record):
        report.problems.append(f"game {record.id} does not read back from the target as it is")
        return
    report.count("games", 1, 1)
    copied = await target.actions(record.id)
    report.count("actions", len(actions), len(copied) if copied == actions else 0)
    for table in tables:
        wrote = rows[table.name]
        if table.read_back is not None:
            back = await table.read_back(target, record, wrote)
        else:
            back = await table.read(target, record)
        report.count(table.name, len(wrote), len(back) if back == wrote else 0)
    if copy.state is None:  # a lobby (open, or closed unstarted): nothing was dealt
        return
    try:
        replayed = replay_snapshot(copy, copied)
    except RecoveryError as error:
        report.problems.append(f"game {record.id}: {error}")
        return
    if replayed != copy.state:
        report.problems.append(f"game {record.id}: its log does not replay to its snapshot")
        return
    report.replayed += 1


async def copy_guild_settings(source: Store, target: Store, report: Report) -> None:
    """Every server's settings (the source's replace the target's: the source is the truth)."""
    settings = await source.all_guild_settings()
    for guild, chosen in settings.items():
        await target.save_guild_settings(guild, chosen)
    copied = await target.all_guild_settings()
    back = sum(1 for guild, chosen in settings.items() if copied.get(guild) == chosen)
    report.count("guild settings", len(settings), back)


async def copy_vacation_days(source: Store, target: Store, report: Report) -> None:
    """The vacation days each player has spent on each server in each year (issue 27)."""
    rows = await source.all_vacation_days()
    await target.import_vacation_days(rows)
    copied = set(await target.all_vacation_days())
    report.count("vacation days", len(rows), sum(1 for row in rows if row in copied))


async def copy_tournaments(source: Store, target: Store, report: Report) -> None:
    """Every tournament (issue 38): written where the target has none, or an older version."""
    tournaments = await source.all_tournaments()
    for t in tournaments:
        there = await target.get_tournament(t.id)
        if there is None:
            await target.create_tournament(t)
        elif there.version < t.version:
            await target.save_tournament(t, there.version)
    copied = {t.id: t for t in await target.all_tournaments()}
    same = sum(1 for t in tournaments if copied.get(t.id) == t)
    report.count("tournaments", len(tournaments), same)


async def copy_seasons(source: Store, target: Store, report: Report) -> None:
    """Every season (issue 38): written where the target has none, or an older version."""
    seasons = await source.all_seasons()
    for s in seasons:
        if not await target.create_season(s):
            there = await target.get_season(s.guild, s.game, s.number)
            if there is not None and there.version < s.version:
                await target.save_season(s, there.version)
    copied = set(map(repr, await target.all_seasons()))
    report.count("seasons", len(seasons), sum(1 for s in seasons if repr(s) in copied))


async def copy_titles(source: Store, target: Store, report: Report) -> None:
    """Every title kept (issue 38); one kept already is left as it is."""
    titles = await source.all_titles()
    for kept in titles:
        await target.keep_title(kept)
    copied = set(await target.all_titles())
    report.count("titles", len(titles), sum(1 for kept in titles if kept in copied))


async def copy_kept_secrets(source: Store, target: Store, report: Report) -> None:
    """The secrets kept (issue 35: the web table's key when none is configured): the
    source's replace the target's, so the page addresses and hand links already posted in
    Discord, signed with it, still open after the move."""
    kept = await source.all_kept_secrets()
    await target.copy_kept_secrets(kept)
    copied = await target.all_kept_secrets()
    report.count("kept secrets", len(kept), sum(1 for k, v in kept.items() if copied.get(k) == v))


async def migrate(
    source: Store, target: Store, tables: tuple[GameTable, ...] | None = None
) -> Report:
    """Copy every game, every server's settings, the vacation days spent, the tournaments,
    seasons, titles and kept secrets from ``source``
    to ``target`` (both open), checking each; a game that fails to copy is reported, and the
    others go on.
    ``tables``: the games' tables to copy (all of ``GAME_TABLES``, read when called)."""
    tables = GAME_TABLES if tables is None else tables
    report = Report()
    for game_id in await source.all_game_ids():
        try:
            await copy_game(source, target, game_id, report, tables)
        except StoreError as error:
            report.left[game_id] = str(error)
    await copy_guild_settings(source, target, report)
    await copy_vacation_days(source, target, report)
    await copy_tournaments(source, target, report)
    await copy_seasons(source, target, report)
    await copy_titles(source, target, report)
    await copy_kept_secrets(source, target, report)
    return report


def _sqlite_file(url: str) -> str | None:
    """The full path of the SQLite file a URL names (None: another backend's URL)."""
    try:
        path = sqlite_path(url)
    except StoreError:
        return None
    return str(Path(path).resolve())


async def run(source_url: str, target_url: str) -> Report:
    """Open both stores (the target's schema is created if it is new), migrate, close."""
    source_file, target_file = _sqlite_file(source_url), _sqlite_file(target_url)
    if (source_file or source_url.strip()) == (target_file or target_url.strip()):
        raise StoreError("--from and --to name the same database; name a new one with --to")
    if source_file is not None and not Path(source_file).is_file():
        raise StoreError(f"there is no database at {source_file!r} (--from) to copy")
    source, target = open_store(source_url), open_store(target_url)
    await source.open()
    try:
        await target.open()
        try:
            return await migrate(source, target)
        finally:
            await target.close()
    finally:
        await source.close()
