"""The embedded store: one SQLite file through aiosqlite (DESIGN.md, "The store").

Concurrency model. aiosqlite runs one worker thread per connection and queues every call onto
it, so one connection is one serial line to the database. Two coroutines could still interleave
*statements* on it: a read landing between the ``UPDATE`` and the ``COMMIT`` of a move would see
a snapshot that may yet be rolled back. Every operation therefore holds ``self._lock`` for its
whole duration, which makes each operation atomic as seen by the rest of this process.

Other processes (a second bot, the CLI) are kept honest by SQLite itself: write transactions
start with ``BEGIN IMMEDIATE`` (take the write lock up front, so a read-then-write never fails
half way with SQLITE_BUSY), ``busy_timeout`` waits for a held lock instead of failing at once,
and every version check is a compare-and-swap ``UPDATE ... WHERE id = ? AND version = ?`` whose
row count says whether this writer won.

WAL mode lets readers proceed while a writer commits; ``synchronous = NORMAL`` is durable
against application crashes in WAL mode and only risks the last commits on power loss, which is
the usual trade for a chat bot.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import (
    ACTIVE,
    OPEN_STATUSES,
    GameRecord,
    LoggedAction,
    Seat,
    StoreError,
    VersionConflict,
)
from bot.store.migrations import migrate

MEMORY = ":memory:"

_GAME_COLUMNS = (
    "id, game, guild, channel, thread, host, status, seed, options, state, version, "
    "created_at, updated_at, journal, remind_at, deadline"
)


def _dumps(value: Any) -> str:
    """Compact JSON: snapshots are rewritten on every move, so bytes matter."""
    return json.dumps(value, separators=(",", ":"))


#: What every write of a game's progress sets (lobby changes and moves alike), with ``_progress``.
_PROGRESS_COLUMNS = (
    "status = ?, state = ?, journal = ?, remind_at = ?, deadline = ?, version = ?, updated_at = ?"
)


def _progress(record: GameRecord, now: float) -> tuple[Any, ...]:
    """The values for ``_PROGRESS_COLUMNS``, in order."""
    state = None if record.state is None else _dumps(record.state)
    return (
        record.status,
        state,
        _dumps(record.journal),
        record.remind_at,
        record.deadline,
        record.version,
        now,
    )


def _check_bump(record: GameRecord, expected_version: int) -> None:
    """Refuse a write that does not raise the version.

    If a writer stored ``version == expected_version``, a second writer holding the same old
    version would also pass the compare-and-swap and the move would be applied twice.
    """
    if record.version <= expected_version:
        raise StoreError(
            f"game {record.id}: new version {record.version} must be greater than the "
            f"expected version {expected_version}"
        )


def _probe(path: str) -> None:
    """Open and close ``path`` with sqlite3: raises for a directory or an unreadable file."""
    sqlite3.connect(path).close()


class SqliteStore:
    """The ``Store`` on one SQLite database file (or ``:memory:`` for tests).

    ``path`` is a filesystem path, not a URL; ``bot.store.open_store`` parses URLs.
    """

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 5000) -> None:
        self.path = str(path)
        self.busy_timeout_ms = busy_timeout_ms
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # -- lifecycle ---------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect, set the pragmas, migrate the schema and prove the file is writable.

        Every failure becomes a StoreError naming the path: the usual causes (a parent that is
        a file, a read-only directory or file) surface only as "unable to open database file"
        from SQLite, which is useless in a log without the path.
        """
        if self._conn is not None:
            return
        conn: aiosqlite.Connection | None = None
        try:
            if self.path != MEMORY:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                # Probe with the standard library first: a failed aiosqlite.connect leaves its
                # worker thread to report back to an event loop that may be gone by then.
                await asyncio.to_thread(_probe, self.path)
            conn = await aiosqlite.connect(self.path, isolation_level=None)
            await conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms):d}")
            await conn.execute("PRAGMA foreign_keys = ON")
            if self.path != MEMORY:
                rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
                mode = str(next(iter(rows))[0]).lower()
                if mode != "wal":
                    raise StoreError(f"cannot enable WAL mode on {self.path!r} (got {mode!r})")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await migrate(conn)
            # migrate() writes nothing to an up-to-date file, so take the write lock once to
            # find a read-only file now rather than at the first move.
            await conn.execute("BEGIN IMMEDIATE")
            await conn.execute("COMMIT")
        except StoreError as exc:
            await self._discard(conn)
            if self.path in str(exc):
                raise
            raise StoreError(f"cannot use database {self.path!r}: {exc}") from exc
        except (OSError, sqlite3.Error) as exc:
            await self._discard(conn)
            raise StoreError(f"cannot open database {self.path!r}: {exc}") from exc
        except BaseException:
            await self._discard(conn)
            raise
        self._conn = conn

    @staticmethod
    async def _discard(conn: aiosqlite.Connection | None) -> None:
        """Close a half-opened connection so its worker thread does not outlive the error."""
        if conn is None:
            return
        with suppress(sqlite3.Error):
            await conn.close()

    async def close(self) -> None:
        """Close the connection; safe to call twice. Waits for a running operation to end."""
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()

    # -- plumbing ----------------------------------------------------------------------------

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreError(f"store {self.path!r} is not open")
        return self._conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the lock for a read, translating SQLite errors (callers must not see sqlite3)."""
        async with self._lock:
            conn = self._connection()
            try:
                yield conn
            except sqlite3.Error as exc:
                raise StoreError(f"database {self.path!r}: {exc}") from exc

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction under the lock: commit on success, roll back on
        any exception (VersionConflict included), so a failed write leaves nothing behind."""
        async with self._lock:
            conn = self._connection()
            try:
                await conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    await conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        await conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StoreError(f"database {self.path!r}: {exc}") from exc

    @staticmethod
    async def _insert_seats(conn: aiosqlite.Connection, game_id: str, seats: list[Seat]) -> None:
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, user, ai, name) VALUES (?, ?, ?, ?, ?)",
            [(game_id, i, s.user, int(s.ai), s.name) for i, s in enumerate(seats)],
        )

    async def _cas(
        self, conn: aiosqlite.Connection, game_id: str, expected: int, sql: str, params: Sequence
    ) -> None:
        """Run a compare-and-swap ``UPDATE`` (whose last two parameters are id and expected
        version); raise VersionConflict if another writer got there first, StoreError if the
        game does not exist."""
        async with conn.execute(sql, (*params, game_id, expected)) as cursor:
            won = cursor.rowcount == 1
        if won:
            return
        rows = list(
            await conn.execute_fetchall("SELECT version FROM games WHERE id = ?", (game_id,))
        )
        if not rows:
            raise StoreError(f"unknown game {game_id!r}")
        raise VersionConflict(
            f"game {game_id}: expected version {expected}, stored version is {rows[0][0]}"
        )

    @staticmethod
    async def _records(conn: aiosqlite.Connection, rows: Iterable[sqlite3.Row]) -> list[GameRecord]:
        """Build records from ``games`` rows, fetching all their seats in one query."""
        records = [
            GameRecord(
                id=r[0],
                game=r[1],
                guild=r[2],
                channel=r[3],
                thread=r[4],
                host=r[5],
                status=r[6],
                seed=r[7],
                options=json.loads(r[8]),
                state=None if r[9] is None else json.loads(r[9]),
                version=r[10],
                created_at=r[11],
                updated_at=r[12],
                journal=json.loads(r[13]),
                remind_at=r[14],
                deadline=r[15],
            )
            for r in rows
        ]
        if not records:
            return records
        by_id = {record.id: record for record in records}
        marks = ",".join("?" * len(by_id))
        seat_rows = await conn.execute_fetchall(
            f"SELECT game_id, user, ai, name FROM seats WHERE game_id IN ({marks}) "
            "ORDER BY game_id, seat",
            tuple(by_id),
        )
        for game_id, user, ai, name in seat_rows:
            by_id[game_id].seats.append(Seat(user=user, ai=bool(ai), name=name))
        return records

    # -- games -------------------------------------------------------------------------------

    async def create_game(self, record: GameRecord) -> None:
        """Insert a new game with its seats, version as given.

        Zero timestamps are filled with the current time, on ``record`` too, so the caller's
        copy matches what a later ``get_game`` returns.
        """
        now = time.time()
        created = record.created_at or now
        updated = record.updated_at or created
        try:
            async with self._write() as conn:
                await conn.execute(
                    f"INSERT INTO games ({_GAME_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.id,
                        record.game,
                        record.guild,
                        record.channel,
                        record.thread,
                        record.host,
                        record.status,
                        record.seed,
                        _dumps(record.options),
                        None if record.state is None else _dumps(record.state),
                        record.version,
                        created,
                        updated,
                        _dumps(record.journal),
                        record.remind_at,
                        record.deadline,
                    ),
                )
                await self._insert_seats(conn, record.id, record.seats)
        except StoreError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise StoreError(f"game {record.id!r} already exists") from exc.__cause__
            raise
        record.created_at, record.updated_at = created, updated

    async def get_game(self, game_id: str) -> GameRecord | None:
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
            )
            records = await self._records(conn, rows)
        return records[0] if records else None

    async def games_in_channel(
        self, guild: str, channel: str, statuses: tuple[str, ...] = OPEN_STATUSES
    ) -> list[GameRecord]:
        """Games of one channel with one of ``statuses``, oldest first (rowid breaks ties of
        equal ``created_at``, i.e. insertion order)."""
        if not statuses:
            return []
        marks = ",".join("?" * len(statuses))
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games "
                f"WHERE guild = ? AND channel = ? AND status IN ({marks}) "
                "ORDER BY created_at, rowid",
                (guild, channel, *statuses),
            )
            return await self._records(conn, rows)

    async def save_lobby(self, record: GameRecord, expected_version: int) -> None:
        """Compare-and-swap the lobby facts (status, seats, options, seed, thread, state,
        version); the seats are rewritten wholesale, in ``record.seats`` order."""
        _check_bump(record, expected_version)
        now = time.time()
        async with self._write() as conn:
            await self._cas(
                conn,
                record.id,
                expected_version,
                f"UPDATE games SET seed = ?, options = ?, thread = ?, {_PROGRESS_COLUMNS} "
                "WHERE id = ? AND version = ?",
                (record.seed, _dumps(record.options), record.thread, *_progress(record, now)),
            )
            await conn.execute("DELETE FROM seats WHERE game_id = ?", (record.id,))
            await self._insert_seats(conn, record.id, record.seats)
        record.updated_at = now

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
        async with self._write() as conn:
            await self._cas(
                conn,
                record.id,
                expected_version,
                f"UPDATE games SET {_PROGRESS_COLUMNS} WHERE id = ? AND version = ?",
                _progress(record, now),
            )
            rows = await conn.execute_fetchall(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?", (record.id,)
            )
            seq = int(next(iter(rows))[0])
            await conn.execute(
                "INSERT INTO actions (game_id, seq, player, action, at) VALUES (?, ?, ?, ?, ?)",
                (record.id, seq, player, _dumps(action), now),
            )
        record.updated_at = now
        return seq

    async def set_timers(
        self, game_id: str, version: int, remind_at: float | None, deadline: float | None
    ) -> bool:
        """Move a game's reminder and deadline without touching its version (a reminder sent
        must not make the buttons on its board out of date), only while it is at ``version``:
        a move in between restarted the clock and must not be overwritten."""
        async with (
            self._write() as conn,
            conn.execute(
                "UPDATE games SET remind_at = ?, deadline = ? WHERE id = ? AND version = ?",
                (remind_at, deadline, game_id, version),
            ) as cursor,
        ):
            return cursor.rowcount == 1

    async def due_games(self, now: float) -> list[GameRecord]:
        """Active games whose reminder or deadline has come, soonest first."""
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status = ? "
                "AND (remind_at <= ? OR deadline <= ?) "
                "ORDER BY MIN(COALESCE(remind_at, deadline), COALESCE(deadline, remind_at))",
                (ACTIVE, now, now),
            )
            return await self._records(conn, rows)

    async def actions(self, game_id: str) -> list[LoggedAction]:
        async with self._read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT seq, player, action, at FROM actions WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        return [
            LoggedAction(seq=seq, player=player, action=json.loads(action), at=at)
            for seq, player, action, at in rows
        ]

    # -- messages ----------------------------------------------------------------------------

    async def save_message(self, game_id: str, kind: str, channel: str, message: str) -> None:
        """Remember the latest message of ``kind``, replacing the previous one."""
        try:
            async with self._write() as conn:
                await conn.execute(
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
        async with self._read() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT channel, message FROM messages WHERE game_id = ? AND kind = ?",
                    (game_id, kind),
                )
            )
        return (rows[0][0], rows[0][1]) if rows else None
