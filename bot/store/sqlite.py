"""The embedded store: one SQLite file (docs/architecture.md, "The store").

Concurrency model. Every connection is owned by a thread of its own (``bot.store.connection``)
and a unit of work (a write transaction, a read) is a plain function of the ``sqlite3``
connection run whole on that thread: one hop from the event loop and back, however many
statements it runs, and no lock held on the loop meanwhile. One writer connection runs the
write transactions one after another, so nothing can land between a move's ``UPDATE`` and its
``COMMIT``; those queued while it was busy share one ``COMMIT``, each in a savepoint of its own,
so a failed one (a lost compare-and-swap) is rolled back alone and reported to its caller alone.
Reads go to a small pool of reader connections (``bot.store.pool``): in WAL mode they read the
last committed snapshot while a write is in progress, so readers never wait for the writer. (An
in-memory database cannot be shared between connections, so there reads run on the writer's
thread, between its transactions.)

A store method writes with ``_transaction(work)`` and reads with ``_query(work)`` (or
``_fetchall`` for one query). ``_write()`` is the statement-by-statement way (each statement
awaited, aiosqlite style): it holds the writer's thread from ``BEGIN`` to the end, every
statement a hop, so only the rare repair written on the way through a read (``_note``) uses it.

Other processes (a second bot, the CLI) are kept honest by SQLite itself: write transactions
start with ``BEGIN IMMEDIATE`` (take the write lock up front, so a read-then-write never fails
half way with SQLITE_BUSY), ``busy_timeout`` waits for a held lock instead of failing at once,
and every version check is a compare-and-swap ``UPDATE ... WHERE id = ? AND version = ?`` whose
row count says whether this writer won.

Faults stay in their game. Every row is decoded on its own (``bot.store.rows``): a row that does
not decode is skipped and logged, a state snapshot that does not decode is rebuilt from the seed
and the log when a ``rebuild`` function is given, and a game that cannot be saved that way is
marked as needing attention (the ``attention`` column), listed by ``needing_attention`` and left
out of every other read. A file that is not a database, whose root pages do not read or that
may not be written is refused at ``open``, in time that does not grow with the file
(``bot.store.startup``, ``bot.store.integrity``); ``watch`` reads every other page in the
background after it, and ``check`` reads them all (``python -m bot check``). A damaged page
met after the start is the store's damage (``bot.store.damage``): no write is taken after it.

WAL mode lets readers proceed while a writer commits; ``synchronous = NORMAL`` is durable
against application crashes in WAL mode and only risks the last commits on power loss, which is
the usual trade for a chat bot.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from bot.store import outbox_sql
from bot.store.base import (
    ACTIVE,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    Attention,
    Clock,
    CopiedPost,
    DamagedDatabase,
    GameRecord,
    GameSummary,
    LoggedAction,
    OutboxRow,
    Owed,
    PageKey,
    RateGame,
    Rating,
    ReminderClaim,
    ResultRow,
    Seat,
    Shards,
    StoreError,
    StoreUnavailable,
    UndoneAction,
    UndoRequest,
    UnreadableLog,
    VersionConflict,
)
from bot.store.codec import REQUEST_COLUMNS, read_request, read_settings, request_values, upsert
from bot.store.connection import Closed, Connection, Held
from bot.store.damage import Damage
from bot.store.forget import TABLES, Forgotten, alias, changes, former_name, game_column
from bot.store.integrity import (
    Tree,
    damaged_roots,
    damaged_trees,
    lower_priority,
    quick_check,
    rebuild_index,
    trees,
)
from bot.store.migrations import migrate
from bot.store.outage import sqlite_outage
from bot.store.pool import ReaderPool
from bot.store.recovery import Rebuild
from bot.store.rows import COLUMNS as _GAME_COLUMNS
from bot.store.rows import PROGRESS, SUMMARY_COLUMNS, Fault, decode, decode_summary, encode, loads
from bot.store.rows import check_bump as _check_bump
from bot.store.rows import dumps as _dumps
from bot.store.rows import progress as _progress
from bot.store.seasons_sql import SqliteSeasons
from bot.store.startup import header_ok, read_only, write_test
from bot.store.titles_sql import SqliteTitles
from bot.store.tournaments_sql import SqliteTournaments
from bot.store.web_tables import SqliteWebTables

#: One placeholder per column of ``_GAME_COLUMNS``.
_MARKS = ", ".join("?" for _ in _GAME_COLUMNS.split(","))

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]

MEMORY = ":memory:"
#: Reader connections per store: reads are short, so a few serve many interactions at once.
READERS = 3
#: The words of SQLite errors that mean the file itself is damaged.
_DAMAGE = ("malformed", "not a database", "corrupt")
#: SQLite's primary result codes for a damaged file: CORRUPT, NOTADB.
_DAMAGE_CODES = frozenset({11, 26})
#: Seconds the background check waits before each table, so the reads and moves queued
#: meanwhile are served first (and a test harness sees a parked task, not a busy one).
CHECK_PAUSE = 1.0


#: What every write of a game's progress sets (lobby changes and moves alike), with ``_progress``.
_PROGRESS_COLUMNS = ", ".join(f"{column} = ?" for column in PROGRESS)
#: A game whose thread the bot keeps open (``count_threads``): its lobby, its run, and its end
#: until the thread is archived.
#: Spend a vacation day while fewer than the allowance are spent; returns the days spent.
_SPEND_DAY = (
    "INSERT INTO vacation_days (guild, player, year, spent) VALUES (?, ?, ?, 1) "
    "ON CONFLICT (guild, player, year) DO UPDATE SET spent = vacation_days.spent + 1 "
    "WHERE vacation_days.spent < ? RETURNING spent"
)
_PUT_DAYS = (
    "INSERT INTO vacation_days (guild, player, year, spent) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (guild, player, year) DO UPDATE SET spent = excluded.spent"
)
_HELD = "(status IN (?, ?) OR archive_at IS NOT NULL)"


def _on_shards(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """The ``AND ...`` that keeps the games of the guilds on ``shards`` (Discord's shard of a
    guild: ``(guild_id >> 22) % shard_count``), with its parameters; nothing for None."""
    if shards is None:
        return "", ()
    marks = ",".join("?" * len(shards.ids))
    return f"AND ((CAST(guild AS INTEGER) >> 22) % ?) IN ({marks})", (shards.count, *shards.ids)


#: The open statuses as SQL literals, as the partial index ``games_open_by_update`` names them.
_OPEN_LITERALS = "({})".format(", ".join(f"'{status}'" for status in OPEN_STATUSES))


def _in_place(guild: str, channel: str, statuses: Sequence[str]) -> tuple[str, list[Any]]:
    """The games of a channel or of a thread, with one of ``statuses``: each by its own index
    (``channel = ? OR thread = ?`` would leave SQLite only the guild column of either, a
    visit of every game the server ever had)."""
    marks = ",".join("?" * len(statuses))
    return (
        "rowid IN ("
        f"SELECT rowid FROM games WHERE guild = ? AND channel = ? AND status IN ({marks}) "
        "UNION ALL "
        f"SELECT rowid FROM games WHERE guild = ? AND thread = ? AND status IN ({marks}))",
        [guild, channel, *statuses, guild, channel, *statuses],
    )


def _probe(path: str) -> None:
    """Open and close ``path`` with sqlite3: raises for a directory or an unreadable file."""
    sqlite3.connect(path).close()


def _copy(source: str, destination: Path, busy_timeout_ms: int) -> int:
    """The backup itself, on a thread: copy ``source`` whole, quick-check the copy and count
    its games. A half-written copy is removed, so a file at ``destination`` is a good one."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(source, timeout=busy_timeout_ms / 1000)
    try:
        dst = sqlite3.connect(destination)
        try:
            src.backup(dst)
            checked = [str(row[0]) for row in dst.execute("PRAGMA quick_check")]
            if checked != ["ok"]:
                raise sqlite3.DatabaseError(f"the copy does not check out: {checked[:3]}")
            return int(dst.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        finally:
            dst.close()
    except BaseException:
        destination.unlink(missing_ok=True)
        raise
    finally:
        src.close()


def damage_error(error: BaseException) -> bool:
    """Whether a ``sqlite3`` error says the file itself is damaged."""
    if not isinstance(error, sqlite3.DatabaseError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _DAMAGE_CODES:
        return True
    return any(word in str(error).lower() for word in _DAMAGE)


def _damaged(path: str, detail: str) -> DamagedDatabase:
    return DamagedDatabase(
        f"the database file {path!r} is damaged ({' '.join(detail.split())[:200]}); stop the "
        "bot and restore "
        "a backup of it (README, Backups)"
    )


class SqliteStore(SqliteWebTables, SqliteTournaments, SqliteSeasons, SqliteTitles):
    """The ``Store`` on one SQLite database file (or ``:memory:`` for tests).

    ``path`` is a filesystem path, not a URL; ``bot.store.open_store`` parses URLs.
    ``rebuild`` turns a record and its log into the snapshot it should hold
    (``bot.store.recovery.replay_snapshot``); without it an unreadable snapshot marks its game
    as needing attention.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_ms: int = 5000,
        readers: int = READERS,
        rebuild: Rebuild | None = None,
    ) -> None:
        self.path = str(path)
        self.busy_timeout_ms = busy_timeout_ms
        self.readers = readers
        self.rebuild = rebuild
        #: The writer: one thread owning the write connection (``bot.store.connection``).
        self._conn: Connection | None = None
        self._pool: ReaderPool | None = None
        #: Damage found while the bot runs (``bot.store.damage``): no write is taken after it.
        self.damage = Damage(repr(self.path))
        #: The check that damage met at run time starts (``_recheck``).
        self._rechecking: asyncio.Task[None] | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect, set the pragmas, migrate the schema and prove the file is writable.

        Every failure becomes a StoreError naming the path: the usual causes (a parent that is
        a file, a read-only directory or file) surface only as "unable to open database file"
        from SQLite, which is useless in a log without the path.
        """
        if self._conn is not None:
            return
        conn: Connection | None = None
        try:
            if self.path != MEMORY:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                await asyncio.to_thread(_probe, self.path)
                if not await asyncio.to_thread(header_ok, self.path):
                    raise _damaged(self.path, "its header is not a SQLite database's")
            conn = Connection(self.path, name="sqlite-writer", busy_timeout_ms=self.busy_timeout_ms)
            await conn.open()
            # Statement by statement until the store is open: nothing else uses the writer yet.
            await conn.execute("PRAGMA foreign_keys = ON")
            if self.path != MEMORY:
                rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
                mode = str(next(iter(rows))[0]).lower()
                if mode != "wal":
                    raise StoreError(f"cannot enable WAL mode on {self.path!r} (got {mode!r})")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await migrate(conn)
            # migrate() writes nothing to an up-to-date file: write once (rolled back) to
            # find a read-only file now rather than at the first move.
            await conn.call(lambda c: write_test(c, self.path))
            # The root page of every table and index: one page each, whatever the history.
            roots = await conn.call(damaged_roots)
            if roots:
                raise _damaged(self.path, f"the first page of {', '.join(roots)} does not read")
            if self.path != MEMORY and self.readers > 0:
                pool = ReaderPool(self.path, self.readers, self.busy_timeout_ms)
                await pool.open()
                self._pool = pool
        except StoreError as exc:
            await self._discard(conn)
            if self.path in str(exc):
                raise
            raise StoreError(f"cannot use database {self.path!r}: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            await self._discard(conn)
            if "readonly" in str(exc).replace(" ", "").lower():  # a migration could not write
                raise read_only(self.path) from exc
            if damage_error(exc):
                raise _damaged(self.path, str(exc)) from exc
            raise StoreError(f"cannot open database {self.path!r}: {exc}") from exc
        except (OSError, sqlite3.Error) as exc:
            await self._discard(conn)
            raise StoreError(f"cannot open database {self.path!r}: {exc}") from exc
        except BaseException:
            await self._discard(conn)
            raise
        self._conn = conn

    async def check(self) -> None:
        """The full check of every page (``python -m bot check``; ``PRAGMA quick_check``,
        without the slow index cross-check): O(file size), so run by the backup timer and
        after a restore, never at start-up. A damaged file is a DamagedDatabase naming it."""
        with self._errors():
            rows = await self._connection().call(quick_check)
        if rows != ["ok"]:
            raise _damaged(self.path, "; ".join(rows[:3]))

    async def watch(self, pause: float = CHECK_PAUSE) -> None:
        """The whole file checked in the background after start-up (``bot.store.integrity``):
        a table and its indexes at a time, ``pause`` seconds apart, on a connection and thread
        of its own that may only read and that the kernel serves last, so reads and moves
        never queue behind it. A damaged index is rebuilt on the writer, with a log line (no
        data is lost); a damaged table makes the store damaged (``bot.store.damage``). A file
        that checks out (its damaged indexes rebuilt) heals a damage met at run time before
        the check began (one met since is the check it started to judge: ``_recheck``)."""
        if self.path == MEMORY:
            return
        before = self.damage.detail
        damaged = await self._check(pause)
        if damaged:
            self.damage.found("; ".join(damaged))
        elif before is not None and self.damage.detail == before:
            self.damage.heal()
        log.info("the background check of %r is done", self.path)

    def _recheck(self) -> None:
        """Damage met at run time may be an index's, which the check rebuilds: check the
        whole file now, once at a time."""
        if self.path == MEMORY or not (self._rechecking is None or self._rechecking.done()):
            return
        self._rechecking = asyncio.create_task(self._recheck_now(), name="sqlite-recheck")

    async def _recheck_now(self) -> None:
        try:
            await self.watch(pause=0)
        except Exception:  # a containment boundary: the damage stays as it was found
            log.exception("could not check %r again after it was found damaged", self.path)

    async def _check(self, pause: float) -> list[str]:
        """Check (and repair) every table; a line for each that is still damaged."""
        damaged = []
        checker = Connection(self.path, name="sqlite-check", busy_timeout_ms=self.busy_timeout_ms)
        with self._errors():
            await checker.open()
        try:
            with self._errors():
                await checker.call(lower_priority)
                tables = [tree for tree in await checker.call(trees) if tree.kind == "table"]
            for table in tables:
                await asyncio.sleep(pause)
                with self._errors():
                    found = await checker.call(functools.partial(quick_check, table=table.name))
                if found != ["ok"] and not await self._repair(checker, table):
                    damaged.append(f"the table {table.name}: {'; '.join(found[:3])}")
        finally:
            await checker.close()
        return damaged

    async def _repair(self, checker: Connection, table: Tree) -> bool:
        """Rebuild the damaged indexes of ``table``; whether it checks out after. Not if the
        table itself (or an index that cannot be made again) is damaged."""
        with self._errors():
            broken = await checker.call(lambda c: damaged_trees(c, table.name))
        if broken and all(tree.rebuildable for tree in broken):
            for index in broken:
                with self._errors():
                    how = await self._connection().call(
                        functools.partial(rebuild_index, index=index)
                    )
                log.warning(
                    "the index %s of %r was damaged and is rebuilt from its table (%s): no "
                    "data is lost",
                    index.name,
                    self.path,
                    how,
                )
            with self._errors():
                found = await checker.call(lambda c: quick_check(c, table.name))
            return found == ["ok"]
        return False

    @staticmethod
    async def _discard(conn: Connection | None) -> None:
        """Close a half-opened connection so its thread does not outlive the error."""
        if conn is None:
            return
        with suppress(sqlite3.Error):
            await conn.close()

    async def close(self) -> None:
        """Close the connections; safe to call twice. Reads in flight finish, and so does
        every write queued so far (none is dropped); later calls say the store is not open."""
        rechecking, self._rechecking = self._rechecking, None
        if rechecking is not None:
            rechecking.cancel()
            with suppress(asyncio.CancelledError):
                await rechecking
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()

    # -- plumbing ----------------------------------------------------------------------------

    def _connection(self) -> Connection:
        if self._conn is None:
            raise StoreError(f"store {self.path!r} is not open")
        return self._conn

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Callers must not see sqlite3: its errors become StoreErrors naming the database."""
        try:
            yield
        except sqlite3.Error as exc:
            if damage_error(exc):
                self._recheck()
                raise self.damage.found(str(exc)) from exc
            kind = StoreUnavailable if sqlite_outage(exc) else StoreError
            raise kind(f"database {self.path!r}: {exc}") from exc
        except Closed as exc:
            raise StoreError(f"store {self.path!r} is not open") from exc

    async def _query(self, work: Work[T]) -> T:
        """Run ``work`` (a plain function of a ``sqlite3`` connection) as one consistent read
        on a reader's thread, in one hop (readers never wait for the writer), translating
        SQLite errors (callers must not see sqlite3). In memory there is one connection, so
        the read runs on the writer's thread, between its transactions."""
        writer = self._connection()  # a closed store says so, whichever connection would serve
        with self._errors():
            if self._pool is not None:
                return await self._pool.read(work)
            return await writer.read(work)

    async def _fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one query, as a read of its own (``_query``)."""
        return await self._query(lambda conn: conn.execute(sql, params).fetchall())

    async def _transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` (a plain function of a ``sqlite3`` connection) as one write transaction
        on the writer's thread, in one hop: ``BEGIN IMMEDIATE``, ``work``, ``COMMIT``; any
        exception (VersionConflict included) rolls back what ``work`` did and is raised here,
        a SQLite one as a StoreError naming the database. A damaged store takes none."""
        self.damage.refuse_writes()
        with self._errors():
            return await self._connection().transaction(work)

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Held]:
        """One ``BEGIN IMMEDIATE`` transaction of separate awaited statements (aiosqlite
        style): commit on success, roll back on any exception, so a failed write leaves nothing
        behind. It holds the writer's thread from ``BEGIN`` to ``COMMIT``, every statement a
        hop: use ``_transaction`` for anything on a hot path. A damaged store takes none."""
        self.damage.refuse_writes()
        with self._errors():
            async with self._connection().hold() as conn:
                yield conn

    async def _execute(self, sql: str, params: Sequence[Any]) -> None:
        """One statement as a write transaction of its own (``_transaction``)."""

        def execute(conn: sqlite3.Connection) -> None:
            conn.execute(sql, params)

        await self._transaction(execute)

    @staticmethod
    def _insert_seats(conn: sqlite3.Connection, game_id: str, seats: list[Seat]) -> None:
        conn.executemany(
            "INSERT INTO seats (game_id, seat, user, ai, name, away) VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, i, s.user, int(s.ai), s.name, int(s.away)) for i, s in enumerate(seats)],
        )

    @staticmethod
    def _cas(
        conn: sqlite3.Connection, game_id: str, expected: int, sql: str, params: Sequence
    ) -> None:
        """Run a compare-and-swap ``UPDATE`` (whose last two parameters are id and expected
        version); raise VersionConflict if another writer got there first, StoreError if the
        game does not exist."""
        if conn.execute(sql, (*params, game_id, expected)).rowcount == 1:
            return
        rows = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchall()
        if not rows:
            raise StoreError(f"unknown game {game_id!r}")
        raise VersionConflict(
            f"game {game_id}: expected version {expected}, stored version is {rows[0][0]}"
        )

    @classmethod
    def _games_and_seats(
        cls, sql: str, params: Sequence[Any]
    ) -> Callable[[sqlite3.Connection], list[GameRecord | Fault]]:
        """A read of the ``games`` rows ``sql`` selects and the seats of every one of them,
        from one snapshot, decoded there in the connection's thread (``_decode``): the JSON of
        each state, a good share of a move's time, is not read on the event loop."""

        def fetch(conn: sqlite3.Connection) -> list[GameRecord | Fault]:
            rows = conn.execute(sql, params).fetchall()
            ids = list(dict.fromkeys(row[0] for row in rows))
            if not ids:
                return cls._decode(rows, [])
            seats = conn.execute(
                "SELECT game_id, user, ai, name, away FROM seats "
                f"WHERE game_id IN ({','.join('?' * len(ids))}) ORDER BY game_id, seat",
                ids,
            ).fetchall()
            return cls._decode(rows, seats)

        return fetch

    @staticmethod
    def _decode(rows: Iterable[sqlite3.Row], seat_rows: Iterable[Any]) -> list[GameRecord | Fault]:
        """Decode ``games`` rows one by one (a bad row is a Fault, its neighbours unharmed),
        each readable one with its seats."""
        decoded = [decode(row) for row in rows]
        by_id = {item.id: item for item in decoded if isinstance(item, GameRecord)}
        by_id.update(
            {item.id: item.record for item in decoded if isinstance(item, Fault) and item.record}
        )
        for game_id, user, ai, name, away in seat_rows:
            if game_id not in by_id:
                continue
            seat = Seat(user=str(user), ai=bool(ai), name=str(name), away=bool(away))
            by_id[game_id].seats.append(seat)
        return decoded

    async def _summaries(self, sql: str, params: Sequence[Any]) -> list[GameSummary]:
        """The summaries of the games ``sql`` selects (``SUMMARY_COLUMNS``) with their seats,
        decoded in the reader's thread; a row that does not read is left out and marks its
        game as needing attention, as a whole read would (it has no snapshot to rebuild)."""

        def fetch(conn: sqlite3.Connection) -> list[GameSummary | Fault]:
            rows = conn.execute(sql, params).fetchall()
            found = [decode_summary(row) for row in rows]
            by_id = {item.id: item for item in found if isinstance(item, GameSummary)}
            if by_id:
                seats = conn.execute(
                    "SELECT game_id, user, ai, name, away FROM seats "
                    f"WHERE game_id IN ({','.join('?' * len(by_id))}) ORDER BY game_id, seat",
                    list(by_id),
                ).fetchall()
                for game_id, user, ai, name, away in seats:
                    seat = Seat(user=str(user), ai=bool(ai), name=str(name), away=bool(away))
                    by_id[game_id].seats.append(seat)
            return found

        summaries = []
        for item in await self._query(fetch):
            if isinstance(item, Fault):
                await self._recover(item)  # no snapshot read: it marks the game
            else:
                summaries.append(item)
        return summaries

    async def _records(self, sql: str, params: Sequence[Any]) -> list[GameRecord]:
        """The records of the games ``sql`` selects (``_GAME_COLUMNS``), faults contained:
        a game whose snapshot is unreadable is rebuilt, any other bad row is marked as
        needing attention and left out."""
        decoded = await self._query(self._games_and_seats(sql, params))
        records = []
        for item in decoded:
            record = await self._recover(item) if isinstance(item, Fault) else item
            if record is not None:
                records.append(record)
        return records

    async def rebuild_snapshot(self, record: GameRecord, reason: str) -> GameRecord | None:
        return await self._recover(Fault(record.id, reason, replace(record)))

    async def _recover(self, fault: Fault) -> GameRecord | None:
        """Rebuild a fault's snapshot from its seed and log and store it (same version: the
        game did not move), or mark the game as needing attention and return ``None``."""
        reason = fault.reason
        if fault.record is not None and self.rebuild is not None:
            record = fault.record
            try:
                record.state = self.rebuild(record, await self.actions(record.id))
            except Exception as exc:  # a containment boundary: any failure marks one game
                reason = f"{reason}, and it cannot be rebuilt: {exc}"
            else:
                log.warning("game %s: %s; rebuilt it from the seed and the log", record.id, reason)
                state = None if record.state is None else _dumps(record.state)
                await self._note(
                    "UPDATE games SET state = ? WHERE id = ? AND version = ?",
                    (state, record.id, record.version),
                )
                return record
        log.error("game %s needs attention: %s", fault.id, reason)
        await self._note("UPDATE games SET attention = ? WHERE id = ?", (reason, fault.id))
        return None

    async def _note(self, sql: str, params: Sequence[Any]) -> None:
        """A repair written on the way through a read: if it cannot be written now (a busy or
        read-only file), the read still answers and the next read tries again."""
        try:
            async with self._write() as conn:
                await conn.execute(sql, params)
        except StoreError:
            log.exception("could not write a repair (%s)", sql.split(" WHERE")[0])

    # -- games -------------------------------------------------------------------------------

    async def create_game(self, record: GameRecord) -> None:
        """Insert a new game with its seats, version as given.

        Zero timestamps are filled with the current time, on ``record`` too, so the caller's
        copy matches what a later ``get_game`` returns.
        """
        now = time.time()
        created = record.created_at or now
        updated = record.updated_at or created

        def insert(conn: sqlite3.Connection) -> None:
            self._insert_game(conn, record, created, updated)

        try:
            await self._transaction(insert)
        except StoreError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise StoreError(f"game {record.id!r} already exists") from exc.__cause__
            raise
        record.created_at, record.updated_at = created, updated

    @classmethod
    def _insert_game(
        cls, conn: sqlite3.Connection, record: GameRecord, created: float, updated: float
    ) -> None:
        """The game's row and its seats (inside the caller's write transaction)."""
        conn.execute(
            f"INSERT INTO games ({_GAME_COLUMNS}) VALUES ({_MARKS})",
            encode(record, created, updated),
        )
        cls._insert_seats(conn, record.id, record.seats)

    async def get_game(self, game_id: str) -> GameRecord | None:
        records = await self._records(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ? AND attention IS NULL", (game_id,)
        )
        return records[0] if records else None

    async def games_in_channel(
        self, guild: str, channel: str, statuses: tuple[str, ...] = OPEN_STATUSES
    ) -> list[GameRecord]:
        """Games of one channel (or the one game of a thread) with one of ``statuses``,
        oldest first (rowid breaks ties of equal ``created_at``, i.e. insertion order)."""
        if not statuses:
            return []
        place, params = _in_place(guild, channel, statuses)
        return await self._records(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE {place} AND attention IS NULL "
            "ORDER BY created_at, rowid",
            params,
        )

    async def games_of_player(
        self, guild: str | None, user: str, *, limit: int, offset: int = 0
    ) -> list[GameSummary]:
        """A player's open games on a server (None: on every server): games in progress
        first, the longest unchanged first among them, then lobbies (through
        ``seats_by_user``)."""
        marks = ",".join("?" * len(OPEN_STATUSES))
        columns = ", ".join(f"g.{c.strip()}" for c in SUMMARY_COLUMNS.split(","))
        on_guild, guilds = ("AND g.guild = ? ", (guild,)) if guild is not None else ("", ())
        return await self._summaries(
            f"SELECT {columns} FROM seats s JOIN games g ON g.id = s.game_id "
            f"WHERE s.user = ? AND s.ai = 0 {on_guild}AND g.status IN ({marks}) "
            "AND g.attention IS NULL "
            "ORDER BY g.status != ?, g.updated_at, g.rowid LIMIT ? OFFSET ?",
            (user, *guilds, *OPEN_STATUSES, ACTIVE, limit, offset),
        )

    async def games_in_guild(
        self,
        guild: str,
        channel: str | None = None,
        *,
        limit: int,
        after: PageKey | None = None,
        before: PageKey | None = None,
    ) -> list[GameSummary]:
        """Open games of a server or of one of its channels (its threads' games with it), the
        latest moved first, a page by a key (``Store.games_in_guild``): a server's by
        ``games_open_by_update``, a channel's by its two indexes."""
        params: list[Any]
        if channel is None:  # the literals match the partial index's own condition
            where, params = f"guild = ? AND status IN {_OPEN_LITERALS}", [guild]
        else:
            where, params = _in_place(guild, channel, OPEN_STATUSES)
        order = "DESC"
        if after is not None:
            where, params = f"{where} AND (updated_at, id) < (?, ?)", [*params, *after]
        elif before is not None:
            where, params = f"{where} AND (updated_at, id) > (?, ?)", [*params, *before]
            order = "ASC"
        found = await self._summaries(
            f"SELECT {SUMMARY_COLUMNS} FROM games WHERE {where} AND attention IS NULL "
            f"ORDER BY updated_at {order}, id {order} LIMIT ?",
            (*params, limit),
        )
        return found if order == "DESC" else found[::-1]

    async def latest_messages(self, game_ids: list[str], kind: str) -> dict[str, tuple[str, str]]:
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        rows = await self._fetchall(
            f"SELECT game_id, channel, message FROM messages "
            f"WHERE kind = ? AND game_id IN ({marks})",
            (kind, *game_ids),
        )
        return {str(g): (str(c), str(m)) for g, c, m in rows}

    async def rated_places(
        self, guild: str, game: str, rated_as: str
    ) -> list[tuple[str, str | None]]:
        rows = await self._fetchall(
            "SELECT DISTINCT g.channel, g.thread FROM results r JOIN games g ON g.id = r.game_id "
            "WHERE r.guild = ? AND r.game = ? AND r.rated_as = ?",
            (guild, game, rated_as),
        )
        return [(str(channel), None if thread is None else str(thread)) for channel, thread in rows]

    async def count_games(
        self, guild: str, statuses: Sequence[str], *, player: str | None = None
    ) -> int:
        """A player's games by their seats (``seats_by_user``), a server's open games by
        ``games_open_by_status`` (whose condition the query repeats word for word): never
        every game the server ever had."""
        marks = ",".join("?" * len(statuses))
        if player is not None:
            rows = await self._fetchall(
                "SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id "
                f"WHERE s.user = ? AND s.ai = 0 AND g.guild = ? AND g.status IN ({marks})",
                (player, guild, *statuses),
            )
            return int(rows[0][0])
        opened = f"AND status IN {_OPEN_LITERALS} " if set(statuses) <= set(OPEN_STATUSES) else ""
        rows = await self._fetchall(
            f"SELECT COUNT(*) FROM games WHERE guild = ? {opened}AND status IN ({marks})",
            (guild, *statuses),
        )
        return int(rows[0][0])

    async def needing_attention(self, guild: str, channel: str) -> list[Attention]:
        """The games of one channel that could not be loaded, and why, oldest first: only
        plain text columns are read, so a damaged snapshot cannot hide its own game."""
        rows = await self._fetchall(
            "SELECT id, game, host, attention FROM games "
            "WHERE guild = ? AND channel = ? AND attention IS NOT NULL "
            "ORDER BY created_at, rowid",
            (guild, channel),
        )
        return [Attention(str(i), str(g), str(h), str(why)) for i, g, h, why in rows]

    async def save_lobby(self, record: GameRecord, expected_version: int) -> None:
        """Compare-and-swap the lobby facts (status, seats, options, seed, thread, state,
        version); the seats are rewritten wholesale, in ``record.seats`` order."""
        _check_bump(record, expected_version)
        now = time.time()
        values = (
            record.seed,
            _dumps(record.options),
            record.thread,
            *_progress(record, now),
        )

        def save(conn: sqlite3.Connection) -> None:
            self._cas(
                conn,
                record.id,
                expected_version,
                "UPDATE games SET seed = ?, options = ?, thread = ?, "
                f"{_PROGRESS_COLUMNS} WHERE id = ? AND version = ?",
                values,
            )
            conn.execute("DELETE FROM seats WHERE game_id = ?", (record.id,))
            self._insert_seats(conn, record.id, record.seats)
            outbox_sql.sqlite_owe(conn, record.id, owed)

        owed = list(record.owed)
        await self._transaction(save)
        record.updated_at, record.owed = now, []

    async def commit_move(
        self,
        record: GameRecord,
        expected_version: int,
        player: str,
        action: dict[str, Any],
    ) -> int:
        """One transaction: CAS the version, append the action, write state and status.

        The CAS ``UPDATE`` comes first so a loser stops before touching the log; the seq is read
        inside the same write-locked transaction, so two writers can never pick the same one.
        """
        _check_bump(record, expected_version)
        now = time.time()
        progress, logged = _progress(record, now), _dumps(action)

        def commit(conn: sqlite3.Connection) -> int:
            self._cas(
                conn,
                record.id,
                expected_version,
                f"UPDATE games SET {_PROGRESS_COLUMNS} WHERE id = ? AND version = ?",
                progress,
            )
            (seq,) = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?", (record.id,)
            ).fetchone()
            conn.execute(
                "INSERT INTO actions (game_id, seq, player, action, at) VALUES (?, ?, ?, ?, ?)",
                (record.id, seq, player, logged, now),
            )
            outbox_sql.sqlite_owe(conn, record.id, owed)
            return int(seq)

        owed = list(record.owed)
        seq = await self._transaction(commit)
        record.updated_at, record.owed = now, []
        return seq

    async def set_timers(
        self,
        game_id: str,
        version: int,
        remind_at: float | None,
        deadline: float | None,
        clocks: dict[str, list[float | None]] | None = None,
    ) -> bool:
        """Move a game's reminder and deadline without touching its version (a reminder sent
        must not make the buttons on its board out of date), only while it is at ``version``:
        a move in between restarted the clock and must not be overwritten."""
        values = (remind_at, deadline, _dumps(clocks or {}), game_id, version)

        def set_timers(conn: sqlite3.Connection) -> bool:
            sql = "UPDATE games SET remind_at = ?, deadline = ?, clocks = ? "
            return conn.execute(sql + "WHERE id = ? AND version = ?", values).rowcount == 1

        return await self._transaction(set_timers)

    async def due_clocks(
        self, now: float, shards: Shards | None = None, *, limit: int = 1000
    ) -> list[Clock]:
        """Rows decoded in the reader's thread, never on the event loop."""
        on, params = _on_shards(shards)
        sql = (
            f"SELECT {outbox_sql.CLOCK_COLUMNS} FROM games WHERE remind_at <= ? AND status = ? "
            f"AND attention IS NULL {on} ORDER BY remind_at LIMIT ?"
        )

        def fetch(conn: sqlite3.Connection) -> list[Clock]:
            rows = conn.execute(sql, (now, ACTIVE, *params, limit))
            return [outbox_sql.clock(r) for r in rows]

        return await self._query(fetch)

    async def claim_reminders(self, claims: Sequence[ReminderClaim]) -> list[bool]:
        return await self._transaction(lambda conn: outbox_sql.sqlite_claim_reminders(conn, claims))

    async def claim_outbox(
        self, holder: str, now: float, lease: float, limit: int, shards: Shards | None = None
    ) -> list[OutboxRow]:
        def claim(conn: sqlite3.Connection) -> list[OutboxRow]:
            return outbox_sql.sqlite_claim(conn, holder, now, lease, limit, _on_shards(shards))

        return await self._transaction(claim)

    async def outbox_sent(self, key: str, channel: str | None, message: str | None) -> None:
        await self._execute(outbox_sql.SQLITE_SENT, (time.time(), channel, message, key))

    async def outbox_sent_many(self, sent: Sequence[tuple[str, str | None, str | None]]) -> None:
        if not sent:
            return
        at = time.time()
        rows = [(at, channel, message, key) for key, channel, message in sent]
        await self._transaction(lambda conn: conn.executemany(outbox_sql.SQLITE_SENT, rows))

    async def prune_outbox(self, before: float, limit: int) -> int:
        def prune(conn: sqlite3.Connection) -> int:
            return conn.execute(outbox_sql.SQLITE_PRUNE, (before, limit)).rowcount

        return await self._transaction(prune)

    async def release_owed(self, key: str, holder: str, retry_at: float) -> None:
        await self._execute(outbox_sql.SQLITE_RELEASE, (retry_at, key, holder))

    async def unsent(self, game_id: str | None = None) -> list[OutboxRow]:
        where = " AND o.game_id = ?" if game_id is not None else ""
        params = (game_id,) if game_id is not None else ()
        rows = await self._fetchall(f"{outbox_sql.SQLITE_UNSENT}{where} ORDER BY o.seq", params)
        return [outbox_sql.row(r) for r in rows]

    async def announce_process(
        self, holder: str, shards: Shards | None, now: float, alive_since: float
    ) -> list[tuple[str, Shards | None]]:
        def announce(conn: sqlite3.Connection) -> list[Any]:
            conn.execute(
                outbox_sql.SQLITE_ANNOUNCE, (holder, outbox_sql.shards_text(shards), now, now)
            )
            return conn.execute(outbox_sql.SQLITE_LIVE, (holder, alive_since)).fetchall()

        rows = await self._transaction(announce)
        return [(str(h), outbox_sql.shards_of(s)) for h, s in rows]

    async def forget_process(self, holder: str) -> None:
        await self._execute("DELETE FROM processes WHERE holder = ?", (holder,))

    async def set_thread(self, game_id: str, thread: str | None) -> None:
        """Record a game's thread; the version stays (no button on its posts goes stale)."""
        await self._execute("UPDATE games SET thread = ? WHERE id = ?", (thread, game_id))

    async def set_archive(self, game_id: str, at: float | None) -> None:
        await self._execute("UPDATE games SET archive_at = ? WHERE id = ?", (at, game_id))

    async def threads_to_archive(
        self, now: float, shards: Shards | None = None
    ) -> list[GameRecord]:
        """Games whose thread is due to be archived, soonest first."""
        on, params = _on_shards(shards)
        return await self._records(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE archive_at <= ? AND attention IS NULL "
            f"{on} ORDER BY archive_at",
            (now, *params),
        )

    async def spend_vacation_day(
        self, player: str, year: int, allowance: int, record: GameRecord, owed: Owed
    ) -> int | None:
        def spend(conn: sqlite3.Connection) -> int | None:
            spent = conn.execute(_SPEND_DAY, (record.guild, player, year, allowance)).fetchall()
            if not spent:
                return None
            timers = (record.remind_at, record.deadline, _dumps(record.clocks))
            updated = conn.execute(
                "UPDATE games SET remind_at = ?, deadline = ?, clocks = ? "
                "WHERE id = ? AND version = ?",
                (*timers, record.id, record.version),
            )
            if updated.rowcount != 1:
                raise VersionConflict(f"game {record.id} moved")
            outbox_sql.sqlite_owe(conn, record.id, [owed])
            return allowance - int(spent[0][0])

        try:
            return await self._transaction(spend)
        except VersionConflict:
            return None

    async def vacation_days_spent(self, guild: str, player: str, year: int) -> int:
        rows = await self._fetchall(
            "SELECT spent FROM vacation_days WHERE guild = ? AND player = ? AND year = ?",
            (guild, player, year),
        )
        return int(rows[0][0]) if rows else 0

    async def count_threads(self, guild: str) -> int:
        rows = await self._fetchall(
            f"SELECT COUNT(*) FROM games WHERE guild = ? AND thread IS NOT NULL AND {_HELD}",
            (guild, LOBBY, ACTIVE),
        )
        return int(rows[0][0])

    async def finished_threads(self, guild: str, limit: int) -> list[GameRecord]:
        """Finished games of ``guild`` whose thread is still to archive, the oldest first."""
        return await self._records(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild = ? AND thread IS NOT NULL "
            "AND archive_at IS NOT NULL AND attention IS NULL ORDER BY archive_at LIMIT ?",
            (guild, limit),
        )

    async def expired_lobbies(self, now: float, shards: Shards | None = None) -> list[GameRecord]:
        """Lobbies past their deadline, soonest first (the deadline index serves it)."""
        on, params = _on_shards(shards)
        return await self._records(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE deadline <= ? AND status = ? "
            f"AND attention IS NULL {on} ORDER BY deadline",
            (now, LOBBY, *params),
        )

    async def due_games(self, now: float, shards: Shards | None = None) -> list[GameRecord]:
        """Active games whose reminder or deadline has come, soonest first."""
        on, params = _on_shards(shards)
        return await self._records(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = ? "
            f"AND (remind_at <= ? OR deadline <= ?) AND attention IS NULL {on} "
            "ORDER BY MIN(COALESCE(remind_at, deadline), COALESCE(deadline, remind_at))",
            (ACTIVE, now, now, *params),
        )

    async def actions(self, game_id: str) -> list[LoggedAction]:
        rows = await self._fetchall(
            "SELECT seq, player, action, at FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        logged = []
        for seq, player, action, at in rows:
            try:
                logged.append(LoggedAction(seq=seq, player=player, action=loads(action), at=at))
            except (TypeError, ValueError) as exc:
                raise UnreadableLog(
                    f"game {game_id}: action {seq} of its log is unreadable"
                ) from exc
        return logged

    async def backup(self, target: str | Path) -> int:
        """Copy the database into the new file ``target`` with SQLite's online backup API
        (one step, from one read snapshot), so moves go on meanwhile, in this process or
        another; returns the number of games in the checked copy."""
        self._connection()
        if self.path == MEMORY:
            raise StoreError("an in-memory database has no file to back up")
        destination = Path(target)
        if destination.exists():
            raise StoreError(f"{str(destination)!r} exists already; back up to a new file")
        try:
            return await asyncio.to_thread(_copy, self.path, destination, self.busy_timeout_ms)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot back up to {str(destination)!r}: {exc}") from exc

    # -- servers -----------------------------------------------------------------------------

    async def player_prefs(self, players: Sequence[str]) -> dict[str, dict[str, Any]]:
        if not players:
            return {}
        marks = ",".join("?" * len(players))
        rows = await self._fetchall(
            f"SELECT player, prefs FROM player_prefs WHERE player IN ({marks})", tuple(players)
        )
        found = {str(p): read_settings(p, text, "using the defaults") for p, text in rows}
        return {player: prefs for player, prefs in found.items() if prefs is not None}

    async def save_player_prefs(self, player: str, prefs: dict[str, Any]) -> None:
        await self._execute(
            "INSERT INTO player_prefs (player, prefs, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (player) DO UPDATE SET prefs = excluded.prefs, "
            "updated_at = excluded.updated_at",
            (player, _dumps(prefs), time.time()),
        )

    async def digests_due(self, now: float, limit: int) -> dict[str, dict[str, Any]]:
        due = "CAST(json_extract(prefs, '$.digest_at') AS REAL)"
        rows = await self._fetchall(
            f"SELECT player, prefs FROM player_prefs WHERE {due} <= ? ORDER BY {due} LIMIT ?",
            (now, limit),
        )
        found = {str(p): read_settings(p, text, "no digest") for p, text in rows}
        return {player: prefs for player, prefs in found.items() if prefs is not None}

    async def claim_digest(
        self, player: str, due: float, prefs: dict[str, Any], game_id: str | None, owed: Owed | None
    ) -> bool:
        def claim(conn: sqlite3.Connection) -> bool:
            won = conn.execute(
                "UPDATE player_prefs SET prefs = ?, updated_at = ? WHERE player = ? "
                "AND CAST(json_extract(prefs, '$.digest_at') AS REAL) = ?",
                (_dumps(prefs), time.time(), player, due),
            ).rowcount
            if won and game_id is not None and owed is not None:
                outbox_sql.sqlite_owe(conn, game_id, [owed])
            return bool(won)

        return await self._transaction(claim)

    async def guild_settings(self, guild: str) -> dict[str, Any]:
        """A server's settings; unreadable JSON reads as none chosen (logged), so a damaged row
        costs that server its choices, never its games."""
        rows = await self._fetchall("SELECT settings FROM guild_settings WHERE guild = ?", (guild,))
        if not rows:
            return {}
        return read_settings(guild, rows[0][0], "using the defaults") or {}

    async def save_guild_settings(self, guild: str, settings: dict[str, Any]) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild, settings, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild) DO UPDATE SET settings = excluded.settings, "
            "updated_at = excluded.updated_at",
            (guild, _dumps(settings), time.time()),
        )

    # -- messages ----------------------------------------------------------------------------

    async def save_message(self, game_id: str, kind: str, channel: str, message: str) -> None:
        """Remember the latest message of ``kind``, replacing the previous one."""
        try:
            await self._execute(
                "INSERT INTO messages (game_id, kind, channel, message, at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET "
                "channel = excluded.channel, message = excluded.message, at = excluded.at",
                (game_id, kind, channel, message, time.time()),
            )
        except StoreError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise StoreError(f"unknown game {game_id!r}") from exc.__cause__
            raise

    async def get_message(self, game_id: str, kind: str) -> tuple[str, str] | None:
        rows = await self._fetchall(
            "SELECT channel, message FROM messages WHERE game_id = ? AND kind = ?",
            (game_id, kind),
        )
        return (rows[0][0], rows[0][1]) if rows else None

    # -- memory of the table: results and ratings --------------------------------------------

    async def record_results(self, game_id: str, rate: RateGame) -> bool:
        """Write a finished game's result rows and its players' new ratings in one write
        transaction, so two games ending at once for one player both count: the ratings
        ``rate`` starts from are read under the same write lock that stores its answer.

        ``rate`` is given the ratings, in the game's server and game, of its seats' players
        and of every AI identity there (at most one per level): the AI seats' ids are not
        the ids they are rated under, and the store does not map one to the other.

        ``rate`` runs on the writer's thread, inside the transaction (it is pure Python, and
        must not touch the event loop): if it raises, this transaction alone is rolled back
        (its savepoint; the others of its group commit) and its exception is raised here."""

        def record(conn: sqlite3.Connection) -> bool:
            done = conn.execute(
                "SELECT 1 FROM results WHERE game_id = ? LIMIT 1", (game_id,)
            ).fetchall()
            if done:
                return False
            found = conn.execute(
                "SELECT guild, game FROM games WHERE id = ?", (game_id,)
            ).fetchall()
            if not found:
                raise StoreError(f"unknown game {game_id!r}")
            guild, game = str(found[0][0]), str(found[0][1])
            rows = conn.execute(  # by the key of each, never the server's whole game
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild = ? AND game = ? "
                "AND player IN (SELECT user FROM seats WHERE game_id = ?) UNION "
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild = ? AND game = ? AND ai = 1",
                (guild, game, game_id, guild, game),
            ).fetchall()
            current = {rating.player: rating for rating in map(_rating, rows)}
            results, ratings = rate(current)
            conn.executemany(
                f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES ({_RESULT_MARKS})",
                [_result_values(row, seat) for seat, row in enumerate(results)],
            )
            now = time.time()
            conn.executemany(
                "INSERT INTO ratings (guild, game, player, mu, sigma, games, ai, name, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild, game, player) DO UPDATE SET mu = excluded.mu, "
                "sigma = excluded.sigma, games = excluded.games, ai = excluded.ai, "
                "name = excluded.name, updated_at = excluded.updated_at",
                [
                    (r.guild, r.game, r.player, r.mu, r.sigma, r.games, int(r.ai), r.name, now)
                    for r in ratings
                ],
            )
            return True

        return await self._transaction(record)

    async def results_of_game(self, game_id: str) -> list[ResultRow]:
        return await self._results(
            f"SELECT {_RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY rank, seat",
            (game_id,),
        )

    async def take_hint(self, game_id: str, player: str, at: float) -> None:
        await self._execute(
            "INSERT INTO hints_taken (game_id, player, at) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id, player) DO NOTHING",
            (game_id, player, at),
        )

    async def hinted(self, game_id: str) -> set[str]:
        rows = await self._fetchall("SELECT player FROM hints_taken WHERE game_id = ?", (game_id,))
        return {str(row[0]) for row in rows}

    async def hints_taken(self, game_id: str) -> list[tuple[str, float]]:
        rows = await self._fetchall(
            "SELECT player, at FROM hints_taken WHERE game_id = ? ORDER BY at, player", (game_id,)
        )
        return [(str(player), float(at)) for player, at in rows]

    async def player_results(
        self, guild: str, player: str, game: str | None = None
    ) -> list[ResultRow]:
        """A player's result rows on one server, oldest first (``results_by_player``)."""
        where, params = "guild = ? AND player = ?", [guild, player]
        if game is not None:
            where, params = f"{where} AND game = ?", [*params, game]
        return await self._results(
            f"SELECT {_RESULT_COLUMNS} FROM results WHERE {where} ORDER BY finished_at, game_id",
            params,
        )

    async def season_results(
        self, guild: str, game: str, since: float, until: float
    ) -> list[ResultRow]:
        """The result rows of a server's games of one kind begun at or after ``since`` and
        finished before ``until`` (a season's), in the order finished, seats in seat order."""
        return await self._results(
            f"SELECT {_RESULT_COLUMNS} FROM results WHERE guild = ? AND game = ? "
            "AND finished_at >= ? AND finished_at < ? "
            "AND EXISTS (SELECT 1 FROM games g "
            "WHERE g.id = results.game_id AND g.created_at >= ?) "
            "ORDER BY finished_at, game_id, seat",
            (guild, game, since, until, since),
        )

    async def ratings(self, guild: str, game: str, players: list[str]) -> dict[str, Rating]:
        if not players:
            return {}
        marks = ",".join("?" * len(players))
        rows = await self._fetchall(
            f"SELECT {_RATING_COLUMNS} FROM ratings "
            f"WHERE guild = ? AND game = ? AND player IN ({marks})",
            (guild, game, *players),
        )
        return {rating.player: rating for rating in map(_rating, rows)}

    async def leaderboard(
        self, guild: str, game: str, *, limit: int, offset: int = 0
    ) -> list[Rating]:
        """Highest ordinal (``mu - 3 sigma``) first, ties by more games then id, so pages
        never overlap (``ratings_by_ordinal``)."""
        rows = await self._fetchall(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild = ? AND game = ? "
            "ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ? OFFSET ?",
            (guild, game, limit, offset),
        )
        return [_rating(row) for row in rows]

    async def finished_without_results(self, limit: int = 100) -> list[GameRecord]:
        """Finished games with no result row, the longest finished first: only those marked
        as such (``results_pending``, kept by triggers), never the whole history."""
        return await self._records(
            f"SELECT {_GAME_COLUMNS} FROM games "
            "WHERE id IN (SELECT game_id FROM results_pending) AND status = ? "
            "AND attention IS NULL ORDER BY updated_at, id LIMIT ?",
            (FINISHED, limit),
        )

    async def _results(self, sql: str, params: Sequence[Any]) -> list[ResultRow]:
        return [_result_row(row) for row in await self._fetchall(sql, params)]

    # -- copying a whole store (``python -m bot migrate``) ------------------------------------

    async def games_by_status(self) -> dict[str, int]:
        rows = await self._fetchall("SELECT status, COUNT(*) FROM games GROUP BY status")
        return {str(status): int(count) for status, count in rows}

    async def outbox_pending(self) -> int:
        rows = await self._fetchall("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
        return int(rows[0][0])

    async def all_game_ids(self) -> list[str]:
        rows = await self._fetchall("SELECT id FROM games ORDER BY created_at, rowid")
        return [str(row[0]) for row in rows]

    async def messages_of(self, game_id: str) -> dict[str, tuple[str, str]]:
        rows = await self._fetchall(
            "SELECT kind, channel, message FROM messages WHERE game_id = ? ORDER BY kind",
            (game_id,),
        )
        return {str(kind): (str(channel), str(message)) for kind, channel, message in rows}

    async def all_guild_settings(self) -> dict[str, dict[str, Any]]:
        """Every server's settings; an unreadable row is logged and left out, like a server
        that never chose any (``guild_settings`` reads it so too)."""
        rows = await self._fetchall("SELECT guild, settings FROM guild_settings ORDER BY guild")
        found = {str(guild): read_settings(guild, text, "left out") for guild, text in rows}
        return {guild: settings for guild, settings in found.items() if settings is not None}

    async def all_vacation_days(self) -> list[tuple[str, str, int, int]]:
        rows = await self._fetchall(
            "SELECT guild, player, year, spent FROM vacation_days ORDER BY guild, player, year", ()
        )
        return [(str(g), str(p), int(y), int(n)) for g, p, y, n in rows]

    async def import_vacation_days(self, rows: Sequence[tuple[str, str, int, int]]) -> None:
        def write(conn: sqlite3.Connection) -> None:
            conn.executemany(_PUT_DAYS, rows)

        await self._transaction(write)

    async def import_game(
        self, record: GameRecord, actions: Sequence[LoggedAction], *, replace: bool = False
    ) -> None:
        """The game's row, seats and log as given, in one write transaction (a replaced
        game's other rows go with it: every table refers to ``games`` ON DELETE CASCADE)."""
        logged = [(record.id, a.seq, a.player, _dumps(a.action), a.at) for a in actions]

        def copy(conn: sqlite3.Connection) -> None:
            if replace:
                conn.execute("DELETE FROM games WHERE id = ?", (record.id,))
            self._insert_game(conn, record, record.created_at, record.updated_at)
            conn.executemany(
                "INSERT INTO actions (game_id, seq, player, action, at) VALUES (?, ?, ?, ?, ?)",
                logged,
            )

        try:
            await self._transaction(copy)
        except StoreError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise StoreError(f"game {record.id!r} already exists") from exc.__cause__
            raise

    async def import_undone(self, rows: Sequence[UndoneAction]) -> None:
        values = [
            (r.game_id, r.seq, r.player, _dumps(r.action), r.at, r.undone_at, r.requested_by)
            for r in rows
        ]

        def copy(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "INSERT INTO undone_actions (game_id, seq, player, action, at, undone_at, "
                "requested_by) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                values,
            )

        await self._transaction(copy)

    async def owed_posts(self, game_id: str) -> list[CopiedPost]:
        rows = await self._fetchall(outbox_sql.SQLITE_OWED_POSTS, (game_id,))
        return [outbox_sql.copied(r) for r in rows]

    async def posts(self, keys: Sequence[str]) -> list[CopiedPost]:
        if not keys:
            return []
        rows = await self._fetchall(outbox_sql.sqlite_posts(len(keys)), tuple(keys))
        return [outbox_sql.copied(r) for r in rows]

    async def import_posts(self, posts: Sequence[CopiedPost]) -> None:
        values = [outbox_sql.import_values(p) for p in posts]

        def copy(conn: sqlite3.Connection) -> None:
            conn.executemany(outbox_sql.SQLITE_IMPORT_POSTS, values)

        await self._transaction(copy)

    # -- undo (issue 15) ---------------------------------------------------------------------

    async def undo(
        self,
        record: GameRecord,
        expected_version: int,
        keep: int,
        requested_by: str,
        at: float,
    ) -> list[UndoneAction]:
        """One transaction: CAS the version first (a loser touches nothing), copy the log's
        tail past ``keep`` to the audit, delete it (the trigger lets a row go only once its
        copy is in ``undone_actions``), and write the replayed state with ``record``."""
        _check_bump(record, expected_version)
        now = time.time()
        progress = _progress(record, now)

        def undo(conn: sqlite3.Connection) -> list[Any]:
            self._cas(
                conn,
                record.id,
                expected_version,
                f"UPDATE games SET {_PROGRESS_COLUMNS} WHERE id = ? AND version = ?",
                progress,
            )
            tail = conn.execute(
                "SELECT seq, player, action, at FROM actions WHERE game_id = ? AND seq > ? "
                "ORDER BY seq",
                (record.id, keep),
            ).fetchall()
            conn.execute(
                "INSERT INTO undone_actions "
                "(game_id, seq, player, action, at, undone_at, requested_by) "
                "SELECT game_id, seq, player, action, at, ?, ? FROM actions "
                "WHERE game_id = ? AND seq > ?",
                (at, requested_by, record.id, keep),
            )
            conn.execute("DELETE FROM actions WHERE game_id = ? AND seq > ?", (record.id, keep))
            return tail

        tail = await self._transaction(undo)
        record.updated_at = now
        return [
            UndoneAction(record.id, seq, player, loads(action), stamp, at, requested_by)
            for seq, player, action, stamp in tail
        ]

    async def undone_actions(self, game_id: str) -> list[UndoneAction]:
        rows = await self._fetchall(
            "SELECT seq, player, action, at, undone_at, requested_by FROM undone_actions "
            "WHERE game_id = ? ORDER BY undone_at, seq",
            (game_id,),
        )
        return [
            UndoneAction(game_id, seq, player, loads(action), at, undone_at, by)
            for seq, player, action, at, undone_at, by in rows
        ]

    async def save_undo_request(self, request: UndoRequest) -> None:
        await self._execute(
            upsert("undo_requests", REQUEST_COLUMNS, ["?"] * len(REQUEST_COLUMNS)),
            request_values(request),
        )

    async def undo_request(self, game_id: str) -> UndoRequest | None:
        """The pending proposal (a damaged one counts as none: ``read_request``), so a
        damaged row costs a proposal, never the game."""
        rows = await self._fetchall(
            f"SELECT {', '.join(REQUEST_COLUMNS)} FROM undo_requests WHERE game_id = ?",
            (game_id,),
        )
        return read_request(tuple(rows[0])) if rows else None

    async def drop_undo_request(self, game_id: str) -> None:
        await self._execute("DELETE FROM undo_requests WHERE game_id = ?", (game_id,))

    async def forget_player(self, user: str) -> Forgotten:
        """``bot.store.forget``, in one transaction; with ``secure_delete`` the old values
        are overwritten in the file, and a checkpoint takes them out of the WAL."""

        def work(conn: sqlite3.Connection) -> Forgotten:
            conn.execute("PRAGMA secure_delete = ON")
            seats = conn.execute(
                "SELECT game_id, seat, ai FROM seats WHERE user = ?", (user,)
            ).fetchall()
            for game_id, seat, ai in seats:
                new = alias(seat)
                conn.execute(
                    "UPDATE seats SET user = ?, name = ? WHERE game_id = ? AND seat = ?",
                    (new, former_name(seat, bool(ai)), game_id, seat),
                )
                for table in TABLES:
                    columns = ", ".join((*table.keys, *table.ids, *table.texts))
                    rows = conn.execute(
                        f"SELECT {columns} FROM {table.name} WHERE {game_column(table)} = ?",
                        (game_id,),
                    ).fetchall()
                    for row in rows:
                        change = changes(table, row, user, new)
                        sets = [f"{column} = ?" for column in change]
                        if table.name == "games":  # a writer holding the old snapshot loses
                            sets.append("version = version + 1")
                        if not sets:
                            continue
                        where = " AND ".join(f"{key} = ?" for key in table.keys)
                        conn.execute(
                            f"UPDATE {table.name} SET {', '.join(sets)} WHERE {where}",
                            (*change.values(), *row[: len(table.keys)]),
                        )
            results = conn.execute(
                "DELETE FROM results WHERE player = ? OR rated_as = ?", (user, user)
            ).rowcount
            ratings = conn.execute("DELETE FROM ratings WHERE player = ?", (user,)).rowcount
            conn.execute("DELETE FROM player_prefs WHERE player = ?", (user,))
            conn.execute("DELETE FROM vacation_days WHERE player = ?", (user,))
            conn.execute("DELETE FROM hints_taken WHERE player = ?", (user,))
            return Forgotten([(g, alias(seat)) for g, seat, _ai in seats], results, ratings)

        forgotten = await self._transaction(work)
        with self._errors():
            await self._connection().call(
                lambda conn: conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
            )
        return forgotten


_RATING_COLUMNS = "guild, game, player, mu, sigma, games, ai, name"
#: ``seat`` first: it is stored for ordering, not read back (ResultRow has no seat).
_RESULT_COLUMNS = (
    "seat, game_id, game, guild, player, rated_as, ai, name, rank, score, winner, players, "
    "options, finished_at, mu_before, sigma_before, mu_after, sigma_after, hinted"
)
_RESULT_MARKS = ", ".join("?" for _ in _RESULT_COLUMNS.split(","))


def _rating(row: Sequence[Any]) -> Rating:
    guild, game, player, mu, sigma, games, ai, name = row
    return Rating(
        str(guild), str(game), str(player), float(mu), float(sigma), int(games), bool(ai), str(name)
    )


def _result_values(row: ResultRow, seat: int) -> tuple[Any, ...]:
    return (
        seat,
        row.game_id,
        row.game,
        row.guild,
        row.player,
        row.rated_as,
        int(row.ai),
        row.name,
        row.rank,
        row.score,
        int(row.winner),
        row.players,
        _dumps(row.options),
        row.finished_at,
        row.mu_before,
        row.sigma_before,
        row.mu_after,
        row.sigma_after,
        int(row.hinted),
    )


def _result_row(row: Sequence[Any]) -> ResultRow:
    """A ``results`` row (``_RESULT_COLUMNS``) as a ResultRow; options that do not read back
    read as none (the rest of the row still counts for stats)."""
    try:
        options = loads(row[12])
    except (TypeError, ValueError):
        options = None
    return ResultRow(
        game_id=str(row[1]),
        game=str(row[2]),
        guild=str(row[3]),
        player=str(row[4]),
        rated_as=str(row[5]),
        ai=bool(row[6]),
        name=str(row[7]),
        rank=int(row[8]),
        score=int(row[9]),
        winner=bool(row[10]),
        players=int(row[11]),
        options=options if isinstance(options, dict) else {},
        finished_at=float(row[13]),
        mu_before=float(row[14]),
        sigma_before=float(row[15]),
        mu_after=float(row[16]),
        sigma_after=float(row[17]),
        hinted=bool(row[18]),
    )
