"""The shared store: PostgreSQL through an asyncpg pool, for several bot processes at once.

Concurrency model. There is no lock in this process: every write is one transaction on a
pooled connection, and PostgreSQL's row locks decide between writers, wherever they run. A
compare-and-swap is ``UPDATE games ... WHERE id = $ AND version = $`` at the start of its
transaction: a second writer on the same game waits for the first's row lock, re-checks the
version against the committed row (READ COMMITTED does that) and updates nothing, so exactly one
wins and the loser has written nothing. A move is that UPDATE and the append to the log in one
statement (``commit_move`` says why its seq is right). Reads are single statements (a game and
its seats in one query), hence one consistent snapshot each, and never wait for a writer.

Faults stay in their game, as in SQLite: rows go through the same codec (``bot.store.rows``); a
snapshot that does not decode is rebuilt from the seed and the log when ``rebuild`` is given,
any other bad row marks its game as needing attention (the ``attention`` column) and is left
out of every other read.

``backup`` is refused with what to run instead: PostgreSQL has its own consistent online dump
(``pg_dump``), which copies what this bot cannot (roles, other schemas) and restores with the
server's own tools.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import fields, replace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import asyncpg

from bot.store import outbox_sql
from bot.store.base import (
    ACTIVE,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    Attention,
    Clock,
    CopiedPost,
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
from bot.store.damage import Damage
from bot.store.forget import TABLES, Forgotten, alias, changes, former_name, game_column
from bot.store.outage import postgres_outage
from bot.store.postgres_migrations import migrate
from bot.store.recovery import Rebuild
from bot.store.rows import (
    COLUMNS,
    PROGRESS,
    SUMMARY_COLUMNS,
    Fault,
    check_bump,
    decode,
    decode_summary,
    dumps,
    encode,
    loads,
    progress,
)
from bot.store.seasons_sql import PostgresSeasons
from bot.store.titles_sql import PostgresTitles
from bot.store.tournaments_sql import PostgresTournaments
from bot.store.web_tables import PostgresWebTables

log = logging.getLogger(__name__)

#: Connections per process when the settings do not say (DATABASE_POOL_SIZE).
POOL_SIZE = 10
#: What a lost connection, a refused one or a server error raises; each becomes a StoreError.
_FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)
#: SQLSTATEs of damaged storage (PostgreSQL's "database disk image is malformed"):
#: data_corrupted, index_corrupted.
_DAMAGE_STATES = frozenset({"XX001", "XX002"})
#: SQLSTATE of a write refused by a read-only transaction: how a damaged store refuses one.
_READ_ONLY_STATE = "25006"
#: A game's columns and then its seats, in seat order, as one array: one statement reads both.
_SELECT = (
    f"SELECT {COLUMNS}, ARRAY(SELECT ROW(s.player, s.ai, s.name, s.away) FROM seats s "
    "WHERE s.game_id = games.id ORDER BY s.seat) FROM games"
)
#: ``_SELECT``'s listing: a game's summary (``SUMMARY_COLUMNS``) and its seats, no state.
_SUMMARY = (
    f"SELECT {SUMMARY_COLUMNS}, ARRAY(SELECT ROW(s.player, s.ai, s.name, s.away) FROM seats s "
    "WHERE s.game_id = games.id ORDER BY s.seat) FROM games"
)
#: Discord's shard of a guild, ``(guild_id >> 22) % count``, in exact arithmetic (a snowflake
#: may outgrow bigint's sign bit one day); a guild id that is not a number is on no shard.
_SHARD = (
    "CASE WHEN guild ~ '^[0-9]+$' THEN mod(div(guild::numeric, 4194304), ${count})::int "
    "= ANY(${ids}::int[]) ELSE false END"
)
#: The tables' columns are the dataclasses' fields, in order (``_values``).
_RESULT_COLUMNS = ", ".join(f.name for f in fields(ResultRow))
_RATING_COLUMNS = ", ".join(f.name for f in fields(Rating))


def _marks(count: int) -> str:
    """``$1, $2, ...``: one placeholder for each of ``count`` values."""
    return ", ".join(f"${i}" for i in range(1, count + 1))


def _assignments(columns: Sequence[str]) -> str:
    """``a = $1, b = $2, ...``: an UPDATE's SET list, its values numbered from $1."""
    return ", ".join(f"{column} = ${i}" for i, column in enumerate(columns, 1))


_PROGRESS_SET = _assignments(PROGRESS)
#: A result row: its position in ``RateGame``'s list, then ``_RESULT_COLUMNS``.
_INSERT_RESULT = (
    f"INSERT INTO results (position, {_RESULT_COLUMNS}) "
    f"VALUES ({_marks(len(fields(ResultRow)) + 1)})"
)
_UPSERT_RATING = (
    f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES ({_marks(len(fields(Rating)))}) "
    "ON CONFLICT (guild, game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "games = excluded.games, ai = excluded.ai, name = excluded.name"
)

_UPSERT_REQUEST = upsert("undo_requests", REQUEST_COLUMNS, _marks(len(REQUEST_COLUMNS)).split(", "))


def where(url: str) -> str:
    """The server and database a URL names, without its password, for messages."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    host = parts.hostname or next(iter(query.get("host", [])), "") or "localhost"
    try:
        port = parts.port or 5432
    except ValueError:
        port = 5432
    database = parts.path.lstrip("/") or parts.username or "postgres"
    return f"{host}:{port}/{database}"


def _shards(shards: Shards | None, params: list[Any]) -> str:
    """The shard condition (`` AND ...``) for ``shards``, its values appended to ``params``."""
    if shards is None:
        return ""
    params += [shards.count, list(shards.ids)]
    return " AND " + _SHARD.format(count=len(params) - 1, ids=len(params))


def _values(item: ResultRow | Rating) -> tuple[Any, ...]:
    """A result row's or a rating's fields in order, as the database takes them (a result's
    options as JSON text)."""
    values = [getattr(item, f.name) for f in fields(item)]
    return tuple(dumps(v) if isinstance(v, dict) else v for v in values)


def _count(status: str) -> int:
    """The rows a statement touched, from its status ("DELETE 3")."""
    return int(status.rsplit(" ", 1)[-1])


def _result(row: asyncpg.Record) -> ResultRow:
    values = dict(row)
    values["options"] = loads(values["options"])
    return ResultRow(**values)


def _undone(game_id: str, row: asyncpg.Record, undone_at: float, by: str) -> UndoneAction:
    return UndoneAction(
        game_id=game_id,
        seq=row["seq"],
        player=row["player"],
        action=loads(row["action"]),
        at=row["at"],
        undone_at=undone_at,
        requested_by=by,
    )


class PostgresStore(PostgresWebTables, PostgresTournaments, PostgresSeasons, PostgresTitles):
    """The ``Store`` on one PostgreSQL database (the schema ``search_path`` names).

    ``url`` is a ``postgresql://`` URL as asyncpg reads it; extra query parameters are server
    settings (``?search_path=tenant`` picks a schema). ``pool_size`` caps this process's
    connections. ``rebuild`` is as for ``SqliteStore``.
    """

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = POOL_SIZE,
        rebuild: Rebuild | None = None,
        connect_timeout: float = 10.0,
    ) -> None:
        self.url = url
        self.pool_size = pool_size
        self.rebuild = rebuild
        self.connect_timeout = connect_timeout
        self.where = where(url)
        self._pool: asyncpg.Pool | None = None
        #: Damage found while the bot runs (``bot.store.damage``): no write is taken after it.
        self.damage = Damage(self.where)

    # -- lifecycle ---------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect the pool and migrate the schema; a server that cannot be reached (or that
        refuses these credentials) is a StoreError naming the host and DATABASE_URL."""
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                timeout=self.connect_timeout,
            )
        except (*_FAILURES, ValueError) as exc:
            raise StoreError(
                f"cannot connect to the PostgreSQL server at {self.where} that DATABASE_URL "
                f"names ({type(exc).__name__}: {exc}); check that it is running and that "
                "the host, port, user, password and database in DATABASE_URL are right"
            ) from exc
        try:
            async with pool.acquire() as conn:
                if await conn.fetchval("SELECT current_schema()") is None:
                    raise StoreError("its search_path names no schema that exists")
                await migrate(conn)
        except (*_FAILURES, StoreError) as exc:
            await pool.close()
            raise StoreError(f"cannot use the PostgreSQL database {self.where}: {exc}") from exc
        self._pool = pool

    async def check(self) -> None:
        """``python -m bot check``: PostgreSQL guards its own pages (WAL, checksums), so this
        proves the server answers and every table of the schema can be read."""
        async with self._connected().acquire() as conn:
            try:
                tables = await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                )
                for row in tables:
                    await conn.fetchval(f'SELECT 1 FROM "{row[0]}" LIMIT 1')
            except _FAILURES as exc:
                raise StoreError(f"the PostgreSQL database {self.where}: {exc}") from exc

    async def watch(self) -> None:
        """Nothing to walk: PostgreSQL checks its own pages as it reads them (with data
        checksums on, the default of ``initdb -k`` and of most hosted servers), and a damaged
        one is an error (``data_corrupted``) that every read and write here turns into the
        store's damage (``_failed``)."""

    async def close(self) -> None:
        """Close the pool once running operations end; safe to call twice."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    # -- plumbing ----------------------------------------------------------------------------

    def _connected(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError(f"store {self.where} is not open")
        return self._pool

    @asynccontextmanager
    async def _one(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection in autocommit: each statement on it is a transaction of its own
        (a read sees one snapshot; a one-statement write needs no BEGIN and COMMIT)."""
        pool = self._connected()
        try:
            async with pool.acquire() as conn:
                if self.damage.detail is not None:  # reads still answer; writes fail
                    await conn.execute("SET default_transaction_read_only = on")
                yield conn
        except _FAILURES as exc:
            raise self._failed(exc) from exc

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction: committed on success, rolled back on any exception (VersionConflict
        included), so a failed write leaves nothing behind."""
        self.damage.refuse_writes()
        pool = self._connected()
        try:
            async with pool.acquire() as conn, conn.transaction():
                yield conn
        except _FAILURES as exc:
            raise self._failed(exc) from exc

    def _failed(self, exc: BaseException) -> StoreError:
        """What callers see of an asyncpg error: the store's damage (its pages, or a write
        refused since), an outage, or a StoreError naming the database."""
        state = getattr(exc, "sqlstate", None)
        damaged = self.damage.detail is not None and state == _READ_ONLY_STATE
        if state in _DAMAGE_STATES or damaged:
            return self.damage.found(f"{type(exc).__name__}: {exc}")
        kind = StoreUnavailable if postgres_outage(exc) else StoreError
        return kind(f"database {self.where}: {exc}")

    @staticmethod
    async def _insert_seats(conn: asyncpg.Connection, game_id: str, seats: list[Seat]) -> None:
        await conn.executemany(
            "INSERT INTO seats (game_id, seat, player, ai, name, away) "
            "VALUES ($1, $2, $3, $4, $5, $6)",
            [(game_id, i, s.user, s.ai, s.name, s.away) for i, s in enumerate(seats)],
        )

    @staticmethod
    async def _cas(
        conn: asyncpg.Connection, game_id: str, expected: int, sets: str, params: Sequence[Any]
    ) -> None:
        """``UPDATE games SET <sets>`` (numbered from $1) if the game is still at ``expected``;
        VersionConflict if another writer got there first, StoreError for an unknown game."""
        n = len(params)
        status = await conn.execute(
            f"UPDATE games SET {sets} WHERE id = ${n + 1} AND version = ${n + 2}",
            *params,
            game_id,
            expected,
        )
        if status != "UPDATE 1":
            raise await PostgresStore._lost(conn, game_id, expected)

    @staticmethod
    async def _lost(conn: asyncpg.Connection, game_id: str, expected: int) -> StoreError:
        """Why a compare-and-swap updated nothing: VersionConflict if another writer got there
        first, StoreError for an unknown game."""
        stored = await conn.fetchval("SELECT version FROM games WHERE id = $1", game_id)
        if stored is None:
            return StoreError(f"unknown game {game_id!r}")
        return VersionConflict(
            f"game {game_id}: expected version {expected}, stored version is {stored}"
        )

    async def _records(self, condition: str, params: Sequence[Any]) -> list[GameRecord]:
        """The readable games of ``_SELECT WHERE <condition>`` (which orders and pages them):
        a snapshot that does not decode is rebuilt, any other bad row marks its game."""
        async with self._one() as conn:
            rows = await conn.fetch(f"{_SELECT} WHERE attention IS NULL AND {condition}", *params)
        records = []
        for row in rows:
            item = decode(tuple(row))
            base = item.record if isinstance(item, Fault) else item
            if base is not None:
                base.seats = [
                    Seat(user=u, ai=ai, name=name, away=away) for u, ai, name, away in row[-1]
                ]
            record = await self._recover(item) if isinstance(item, Fault) else item
            if record is not None:
                records.append(record)
        return records

    async def _summaries(self, condition: str, params: Sequence[Any]) -> list[GameSummary]:
        """The summaries of ``_SUMMARY WHERE <condition>`` (which orders and pages them); a
        row that does not read is left out and marks its game as needing attention, as a whole
        read would (it has no snapshot to rebuild)."""
        async with self._one() as conn:
            rows = await conn.fetch(f"{_SUMMARY} WHERE attention IS NULL AND {condition}", *params)
        summaries = []
        for row in rows:
            item = decode_summary(tuple(row))
            if isinstance(item, Fault):
                await self._recover(item)  # no snapshot read: it marks the game
                continue
            item.seats = [
                Seat(user=u, ai=ai, name=name, away=away) for u, ai, name, away in row[-1]
            ]
            summaries.append(item)
        return summaries

    async def rebuild_snapshot(self, record: GameRecord, reason: str) -> GameRecord | None:
        return await self._recover(Fault(record.id, reason, replace(record)))

    async def _recover(self, fault: Fault) -> GameRecord | None:
        """Rebuild a fault's snapshot from its seed and log and store it (same version: the
        game did not move), or mark the game as needing attention and return ``None``."""
        reason = fault.reason
        record = fault.record
        if record is not None and self.rebuild is not None:
            try:
                record.state = self.rebuild(record, await self.actions(record.id))
            except Exception as exc:  # a containment boundary: any failure marks one game
                reason = f"{reason}, and it cannot be rebuilt: {exc}"
            else:
                log.warning("game %s: %s; rebuilt it from the seed and the log", record.id, reason)
                state = None if record.state is None else dumps(record.state)
                await self._repair(
                    "UPDATE games SET state = $1 WHERE id = $2 AND version = $3",
                    state,
                    record.id,
                    record.version,
                )
                return record
        log.error("game %s needs attention: %s", fault.id, reason)
        await self._repair("UPDATE games SET attention = $1 WHERE id = $2", reason, fault.id)
        return None

    async def _repair(self, sql: str, *params: Any) -> None:
        """A repair written on the way through a read: if it cannot be written now, the read
        still answers and the next read tries again."""
        try:
            async with self._write() as conn:
                await conn.execute(sql, *params)
        except StoreError:
            log.exception("could not write a repair (%s)", sql.split(" WHERE")[0])

    # -- games -------------------------------------------------------------------------------

    async def create_game(self, record: GameRecord) -> None:
        """Insert a new game with its seats, version as given; zero timestamps are filled
        with the current time, on ``record`` too."""
        now = time.time()
        created = record.created_at or now
        updated = record.updated_at or created
        try:
            async with self._write() as conn:
                await self._insert_game(conn, record, created, updated)
        except StoreError as exc:
            if isinstance(exc.__cause__, asyncpg.UniqueViolationError):
                raise StoreError(f"game {record.id!r} already exists") from exc.__cause__
            raise
        record.created_at, record.updated_at = created, updated

    @classmethod
    async def _insert_game(
        cls, conn: asyncpg.Connection, record: GameRecord, created: float, updated: float
    ) -> None:
        """The game's row and its seats (inside the caller's transaction)."""
        values = encode(record, created, updated)
        await conn.execute(f"INSERT INTO games ({COLUMNS}) VALUES ({_marks(len(values))})", *values)
        await cls._insert_seats(conn, record.id, record.seats)

    async def get_game(self, game_id: str) -> GameRecord | None:
        records = await self._records("id = $1", (game_id,))
        return records[0] if records else None

    async def games_in_channel(
        self, guild: str, channel: str, statuses: tuple[str, ...] = OPEN_STATUSES
    ) -> list[GameRecord]:
        """Games of one channel (or the one game of a thread), oldest first."""
        if not statuses:
            return []
        return await self._records(
            "guild = $1 AND (channel = $2 OR thread = $2) AND status = ANY($3::text[]) "
            "ORDER BY created_at, ord",
            (guild, channel, list(statuses)),
        )

    async def games_of_player(
        self, guild: str | None, user: str, *, limit: int, offset: int = 0
    ) -> list[GameSummary]:
        """A player's open games on a server (None: on every server): games in progress
        first, the longest unchanged first among them, then lobbies."""
        return await self._summaries(
            "id IN (SELECT game_id FROM seats WHERE player = $1 AND NOT ai) "
            "AND ($2::text IS NULL OR guild = $2) AND status = ANY($3::text[]) "
            "ORDER BY status <> $4, updated_at, ord LIMIT $5 OFFSET $6",
            (user, guild, list(OPEN_STATUSES), ACTIVE, limit, offset),
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
        latest moved first, a page by a key (``Store.games_in_guild``); the literal statuses
        match the partial index ``games_open_by_update``."""
        opened = ", ".join(f"'{status}'" for status in OPEN_STATUSES)
        where = f"guild = $1 AND status IN ({opened})"
        params: list[Any] = [guild]
        if channel is not None:
            params.append(channel)
            where += f" AND (channel = ${len(params)} OR thread = ${len(params)})"
        order = "DESC"
        key = after if after is not None else before
        if key is not None:
            order = "DESC" if after is not None else "ASC"
            params.extend(key)
            side = "<" if order == "DESC" else ">"
            where += f" AND (updated_at, id) {side} (${len(params) - 1}, ${len(params)})"
        params.append(limit)
        found = await self._summaries(
            f"{where} ORDER BY updated_at {order}, id {order} LIMIT ${len(params)}", params
        )
        return found if order == "DESC" else found[::-1]

    async def latest_messages(self, game_ids: list[str], kind: str) -> dict[str, tuple[str, str]]:
        if not game_ids:
            return {}
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT game_id, channel, message FROM messages "
                "WHERE kind = $1 AND game_id = ANY($2::text[])",
                kind,
                game_ids,
            )
        return {g: (c, m) for g, c, m in rows}

    async def rated_places(
        self, guild: str, game: str, rated_as: str
    ) -> list[tuple[str, str | None]]:
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT DISTINCT g.channel, g.thread FROM results r "
                "JOIN games g ON g.id = r.game_id "
                "WHERE r.guild = $1 AND r.game = $2 AND r.rated_as = $3",
                guild,
                game,
                rated_as,
            )
        return [(row[0], row[1]) for row in rows]

    async def count_games(
        self, guild: str, statuses: Sequence[str], *, player: str | None = None
    ) -> int:
        """A player's games by their seats, a server's open games by ``games_open_by_status``
        (whose condition the query repeats word for word): never every game it ever had."""
        if player is not None:
            sql = (
                "SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.player = $3 AND NOT s.ai AND g.guild = $1 AND g.status = ANY($2::text[])"
            )
            params: list[Any] = [guild, list(statuses), player]
        else:
            opened = ", ".join(f"'{status}'" for status in OPEN_STATUSES)
            within = f"AND status IN ({opened}) " if set(statuses) <= set(OPEN_STATUSES) else ""
            sql = (
                f"SELECT COUNT(*) FROM games WHERE guild = $1 {within}AND status = ANY($2::text[])"
            )
            params = [guild, list(statuses)]
        async with self._one() as conn:
            return int(await conn.fetchval(sql, *params))

    async def needing_attention(self, guild: str, channel: str) -> list[Attention]:
        """The games of one channel that could not be loaded, and why, oldest first."""
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT id, game, host, attention FROM games "
                "WHERE guild = $1 AND channel = $2 AND attention IS NOT NULL "
                "ORDER BY created_at, ord",
                guild,
                channel,
            )
        return [Attention(i, g, h, why) for i, g, h, why in rows]

    async def save_lobby(self, record: GameRecord, expected_version: int) -> None:
        """Compare-and-swap the lobby facts; the seats are rewritten in ``record.seats`` order."""
        check_bump(record, expected_version)
        now = time.time()
        facts = (record.seed, dumps(record.options), record.thread)
        async with self._write() as conn:
            await self._cas(
                conn,
                record.id,
                expected_version,
                _assignments(("seed", "options", "thread", *PROGRESS)),
                (*facts, *progress(record, now)),
            )
            await conn.execute("DELETE FROM seats WHERE game_id = $1", record.id)
            await self._insert_seats(conn, record.id, record.seats)
            await outbox_sql.pg_owe(conn, record.id, record.owed)
        record.updated_at, record.owed = now, []

    async def commit_move(
        self,
        record: GameRecord,
        expected_version: int,
        player: str,
        action: dict[str, Any],
    ) -> int:
        """One statement, so one transaction and one round trip: the CAS ``UPDATE`` and, only if
        it won, the append at the next seq and the posts the move owes (``record.owed``).

        The seq is read in the statement's snapshot, which holds every action of the version the
        caller read: versions only rise, and every write that adds to the log raises it, so if
        the version still matches no action has been added since. (The log's primary key would
        refuse a duplicate seq all the same.)
        """
        check_bump(record, expected_version)
        now = time.time()
        values = progress(record, now)
        game, expected, who, what, at = (f"${i}" for i in range(len(values) + 1, len(values) + 6))
        # The posts a move owes are written by the same statement, only if its CAS won.
        owed = (
            ", " + outbox_sql.pg_owed_cte(len(values) + 6, game, at, "moved") if record.owed else ""
        )
        async with self._one() as conn:
            seq: int | None = await conn.fetchval(
                f"WITH moved AS (UPDATE games SET {_PROGRESS_SET} "
                f"WHERE id = {game} AND version = {expected} RETURNING id), "
                "logged AS (INSERT INTO actions (game_id, seq, player, action, at) "
                "SELECT id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions "
                f"WHERE game_id = {game}), {who}, {what}, {at} FROM moved RETURNING seq)"
                f"{owed} SELECT seq FROM logged",
                *values,
                record.id,
                expected_version,
                player,
                dumps(action),
                now,
                *(outbox_sql.owed_arrays(record.owed) if record.owed else ()),
            )
            if seq is None:
                raise await self._lost(conn, record.id, expected_version)
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
        """Move a game's reminder and deadline without touching its version, only while it is
        at ``version`` (a move in between restarted the clock)."""
        async with self._one() as conn:
            status = await conn.execute(
                "UPDATE games SET remind_at = $1, deadline = $2, clocks = $3 "
                "WHERE id = $4 AND version = $5",
                remind_at,
                deadline,
                dumps(clocks or {}),
                game_id,
                version,
            )
        return bool(status == "UPDATE 1")

    async def due_clocks(
        self, now: float, shards: Shards | None = None, *, limit: int = 1000
    ) -> list[Clock]:
        params: list[Any] = [now, ACTIVE]
        on = _shards(shards, params)
        params.append(limit)
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT {outbox_sql.CLOCK_COLUMNS} FROM games WHERE remind_at <= $1 "
                f"AND status = $2 AND attention IS NULL{on} ORDER BY remind_at "
                f"LIMIT ${len(params)}",
                *params,
            )
        return [outbox_sql.clock(r) for r in rows]

    async def claim_reminders(self, claims: Sequence[ReminderClaim]) -> list[bool]:
        async with self._write() as conn:
            return await outbox_sql.pg_claim_reminders(conn, claims)

    async def claim_outbox(
        self, holder: str, now: float, lease: float, limit: int, shards: Shards | None = None
    ) -> list[OutboxRow]:
        params: list[Any] = [holder, now + lease, now, limit]
        sql = outbox_sql.pg_claim_sql(_shards(shards, params))
        async with self._one() as conn:
            rows = await conn.fetch(sql, *params)
        return sorted((outbox_sql.row(r) for r in rows), key=lambda r: r.seq)

    async def outbox_sent(self, key: str, channel: str | None, message: str | None) -> None:
        async with self._one() as conn:
            await conn.execute(outbox_sql.PG_SENT, time.time(), channel, message, key)

    async def outbox_sent_many(self, sent: Sequence[tuple[str, str | None, str | None]]) -> None:
        if not sent:
            return
        at = time.time()
        async with self._write() as conn:
            await conn.executemany(
                outbox_sql.PG_SENT, [(at, channel, message, key) for key, channel, message in sent]
            )

    async def prune_outbox(self, before: float, limit: int) -> int:
        async with self._one() as conn:
            status = await conn.execute(outbox_sql.PG_PRUNE, before, limit)
        return int(status.split()[-1])  # "DELETE <count>"

    async def release_owed(self, key: str, holder: str, retry_at: float) -> None:
        async with self._one() as conn:
            await conn.execute(outbox_sql.PG_RELEASE, retry_at, key, holder)

    async def unsent(self, game_id: str | None = None) -> list[OutboxRow]:
        where = " AND o.game_id = $1" if game_id is not None else ""
        params = (game_id,) if game_id is not None else ()
        async with self._one() as conn:
            rows = await conn.fetch(f"{outbox_sql.PG_UNSENT}{where} ORDER BY o.seq", *params)
        return [outbox_sql.row(r) for r in rows]

    async def announce_process(
        self, holder: str, shards: Shards | None, now: float, alive_since: float
    ) -> list[tuple[str, Shards | None]]:
        async with self._write() as conn:
            await conn.execute(
                outbox_sql.PG_ANNOUNCE, holder, outbox_sql.shards_text(shards), now, now
            )
            rows = await conn.fetch(outbox_sql.PG_LIVE, holder, alive_since)
        return [(str(r["holder"]), outbox_sql.shards_of(r["shards"])) for r in rows]

    async def forget_process(self, holder: str) -> None:
        async with self._one() as conn:
            await conn.execute("DELETE FROM processes WHERE holder = $1", holder)

    async def set_thread(self, game_id: str, thread: str | None) -> None:
        async with self._one() as conn:
            await conn.execute("UPDATE games SET thread = $1 WHERE id = $2", thread, game_id)

    async def set_archive(self, game_id: str, at: float | None) -> None:
        async with self._one() as conn:
            await conn.execute("UPDATE games SET archive_at = $1 WHERE id = $2", at, game_id)

    async def threads_to_archive(
        self, now: float, shards: Shards | None = None
    ) -> list[GameRecord]:
        """Games whose thread is due to be archived, soonest first."""
        params: list[Any] = [now]
        on = _shards(shards, params)
        return await self._records(f"archive_at <= $1{on} ORDER BY archive_at, ord", params)

    async def spend_vacation_day(
        self, player: str, year: int, allowance: int, record: GameRecord, owed: Owed
    ) -> int | None:
        try:
            async with self._write() as conn:
                spent = await conn.fetchval(
                    "INSERT INTO vacation_days (guild, player, year, spent) "
                    "VALUES ($1, $2, $3, 1) ON CONFLICT (guild, player, year) DO UPDATE "
                    "SET spent = vacation_days.spent + 1 WHERE vacation_days.spent < $4 "
                    "RETURNING spent",
                    record.guild,
                    player,
                    year,
                    allowance,
                )
                if spent is None:
                    return None
                status = await conn.execute(
                    "UPDATE games SET remind_at = $1, deadline = $2, clocks = $3 "
                    "WHERE id = $4 AND version = $5",
                    record.remind_at,
                    record.deadline,
                    dumps(record.clocks),
                    record.id,
                    record.version,
                )
                if status != "UPDATE 1":
                    raise VersionConflict(f"game {record.id} moved")
                await outbox_sql.pg_owe(conn, record.id, [owed])
                return allowance - int(spent)
        except VersionConflict:
            return None

    async def vacation_days_spent(self, guild: str, player: str, year: int) -> int:
        async with self._one() as conn:
            spent = await conn.fetchval(
                "SELECT spent FROM vacation_days WHERE guild = $1 AND player = $2 AND year = $3",
                guild,
                player,
                year,
            )
        return int(spent or 0)

    async def count_threads(self, guild: str) -> int:
        async with self._one() as conn:
            return int(
                await conn.fetchval(
                    "SELECT COUNT(*) FROM games WHERE guild = $1 AND thread IS NOT NULL "
                    "AND (status = ANY($2::text[]) OR archive_at IS NOT NULL)",
                    guild,
                    [LOBBY, ACTIVE],
                )
            )

    async def finished_threads(self, guild: str, limit: int) -> list[GameRecord]:
        """Finished games of ``guild`` whose thread is still to archive, the oldest first."""
        return await self._records(
            "guild = $1 AND thread IS NOT NULL AND archive_at IS NOT NULL "
            "ORDER BY archive_at, ord LIMIT $2",
            [guild, limit],
        )

    async def expired_lobbies(self, now: float, shards: Shards | None = None) -> list[GameRecord]:
        """Lobbies past their deadline, soonest first."""
        params: list[Any] = [now, LOBBY]
        on = _shards(shards, params)
        return await self._records(
            f"deadline <= $1 AND status = $2{on} ORDER BY deadline, ord", params
        )

    async def due_games(self, now: float, shards: Shards | None = None) -> list[GameRecord]:
        """Active games whose reminder or deadline has come, soonest first."""
        params: list[Any] = [now, ACTIVE]
        on = _shards(shards, params)
        return await self._records(
            f"status = $2 AND (remind_at <= $1 OR deadline <= $1){on} "
            "ORDER BY LEAST(remind_at, deadline), ord",
            params,
        )

    async def actions(self, game_id: str) -> list[LoggedAction]:
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT seq, player, action, at FROM actions WHERE game_id = $1 ORDER BY seq",
                game_id,
            )
        logged = []
        for seq, player, action, at in rows:
            try:
                logged.append(LoggedAction(seq=seq, player=player, action=loads(action), at=at))
            except ValueError as exc:
                raise UnreadableLog(
                    f"game {game_id}: action {seq} of its log is unreadable"
                ) from exc
        return logged

    async def backup(self, target: str) -> int:
        """Refused with what to run instead: ``pg_dump`` takes a consistent copy of a running
        PostgreSQL database, and ``pg_restore`` puts it back."""
        self._connected()
        raise StoreError(
            f"the games are in PostgreSQL ({self.where}), which backs up with its own tools: "
            f"run pg_dump --format=custom --file={target} on the database DATABASE_URL names "
            "(it copies a consistent snapshot while the bot runs), and pg_restore --clean "
            f"--dbname=... {target} to restore it"
        )

    # -- servers -----------------------------------------------------------------------------

    async def player_prefs(self, players: Sequence[str]) -> dict[str, dict[str, Any]]:
        if not players:
            return {}
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT player, prefs FROM player_prefs WHERE player = ANY($1::text[])",
                list(players),
            )
        found = {
            str(r["player"]): read_settings(r["player"], r["prefs"], "using the defaults")
            for r in rows
        }
        return {player: prefs for player, prefs in found.items() if prefs is not None}

    async def save_player_prefs(self, player: str, prefs: dict[str, Any]) -> None:
        async with self._one() as conn:
            await conn.execute(
                "INSERT INTO player_prefs (player, prefs, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (player) DO UPDATE SET prefs = excluded.prefs, "
                "updated_at = excluded.updated_at",
                player,
                dumps(prefs),
                time.time(),
            )

    async def digests_due(self, now: float, limit: int) -> dict[str, dict[str, Any]]:
        due = "(prefs::jsonb->>'digest_at')::float8"
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT player, prefs FROM player_prefs WHERE {due} <= $1 ORDER BY {due} LIMIT $2",
                now,
                limit,
            )
        found = {
            str(r["player"]): read_settings(r["player"], r["prefs"], "no digest") for r in rows
        }
        return {player: prefs for player, prefs in found.items() if prefs is not None}

    async def claim_digest(
        self, player: str, due: float, prefs: dict[str, Any], game_id: str | None, owed: Owed | None
    ) -> bool:
        async with self._write() as conn:
            won = await conn.execute(
                "UPDATE player_prefs SET prefs = $1, updated_at = $2 WHERE player = $3 "
                "AND (prefs::jsonb->>'digest_at')::float8 = $4",
                dumps(prefs),
                time.time(),
                player,
                due,
            )
            if won != "UPDATE 1":
                return False
            if game_id is not None and owed is not None:
                await outbox_sql.pg_owe(conn, game_id, [owed])
            return True

    async def guild_settings(self, guild: str) -> dict[str, Any]:
        """A server's settings; unreadable JSON reads as none chosen (logged)."""
        async with self._one() as conn:
            text = await conn.fetchval(
                "SELECT settings FROM guild_settings WHERE guild = $1", guild
            )
        if text is None:
            return {}
        return read_settings(guild, text, "using the defaults") or {}

    async def save_guild_settings(self, guild: str, settings: dict[str, Any]) -> None:
        async with self._one() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild, settings, updated_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild) DO UPDATE SET settings = excluded.settings, "
                "updated_at = excluded.updated_at",
                guild,
                dumps(settings),
                time.time(),
            )

    # -- messages ----------------------------------------------------------------------------

    async def save_message(self, game_id: str, kind: str, channel: str, message: str) -> None:
        """Remember the latest message of ``kind``, replacing the previous one."""
        try:
            async with self._one() as conn:
                await conn.execute(
                    "INSERT INTO messages (game_id, kind, channel, message, at) "
                    "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, kind) DO UPDATE SET "
                    "channel = excluded.channel, message = excluded.message, at = excluded.at",
                    game_id,
                    kind,
                    channel,
                    message,
                    time.time(),
                )
        except StoreError as exc:
            if isinstance(exc.__cause__, asyncpg.ForeignKeyViolationError):
                raise StoreError(f"unknown game {game_id!r}") from exc.__cause__
            raise

    async def get_message(self, game_id: str, kind: str) -> tuple[str, str] | None:
        async with self._one() as conn:
            row = await conn.fetchrow(
                "SELECT channel, message FROM messages WHERE game_id = $1 AND kind = $2",
                game_id,
                kind,
            )
        return None if row is None else (row[0], row[1])

    # -- memory of the table: results and ratings ----------------------------------------------

    async def record_results(self, game_id: str, rate: RateGame) -> bool:
        """One transaction, under a lock on the game's server and game type (two games ending
        at once for one player are rated one after the other, never from the same old rating):
        nothing is written if the game already has results. ``rate`` is given, as SQLite's
        gives it, the ratings there of the seats' players and of every AI identity (an AI
        seat's id is not the id it is rated under, and the store does not map one to the
        other)."""
        async with self._write() as conn:
            game = await conn.fetchrow("SELECT guild, game FROM games WHERE id = $1", game_id)
            if game is None:
                raise StoreError(f"unknown game {game_id!r}")
            guild, kind = game["guild"], game["game"]
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext($1))", f"ratings:{guild}:{kind}"
            )
            if await conn.fetchval("SELECT 1 FROM results WHERE game_id = $1 LIMIT 1", game_id):
                return False
            found = await conn.fetch(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild = $1 AND game = $2 "
                "AND player IN (SELECT player FROM seats WHERE game_id = $3) UNION "
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild = $1 AND game = $2 AND ai",
                guild,
                kind,
                game_id,
            )
            current = {row["player"]: Rating(**dict(row)) for row in found}
            rows, ratings = rate(current)
            await conn.executemany(
                _INSERT_RESULT, [(i, *_values(row)) for i, row in enumerate(rows)]
            )
            await conn.executemany(_UPSERT_RATING, [_values(r) for r in ratings])
        return True

    async def results_of_game(self, game_id: str) -> list[ResultRow]:
        """By rank, then the order ``rate`` gave them in (seat order), as SQLite's."""
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT {_RESULT_COLUMNS} FROM results WHERE game_id = $1 ORDER BY rank, position",
                game_id,
            )
        return [_result(row) for row in rows]

    async def take_hint(self, game_id: str, player: str, at: float) -> None:
        async with self._one() as conn:
            await conn.execute(
                "INSERT INTO hints_taken (game_id, player, at) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id, player) DO NOTHING",
                game_id,
                player,
                at,
            )

    async def hinted(self, game_id: str) -> set[str]:
        async with self._one() as conn:
            rows = await conn.fetch("SELECT player FROM hints_taken WHERE game_id = $1", game_id)
        return {str(row["player"]) for row in rows}

    async def hints_taken(self, game_id: str) -> list[tuple[str, float]]:
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT player, at FROM hints_taken WHERE game_id = $1 ORDER BY at, player", game_id
            )
        return [(str(row["player"]), float(row["at"])) for row in rows]

    async def player_results(
        self, guild: str, player: str, game: str | None = None
    ) -> list[ResultRow]:
        """A player's rows on one server (by seat id, as SQLite's), oldest first."""
        params: list[Any] = [guild, player]
        kind = ""
        if game is not None:
            params.append(game)
            kind = " AND game = $3"
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT {_RESULT_COLUMNS} FROM results "
                f"WHERE guild = $1 AND player = $2{kind} "
                "ORDER BY finished_at, game_id, position",
                *params,
            )
        return [_result(row) for row in rows]

    async def season_results(
        self, guild: str, game: str, since: float, until: float
    ) -> list[ResultRow]:
        """As SQLite's: a season's result rows, in the order finished, seats in seat order."""
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT {_RESULT_COLUMNS} FROM results WHERE guild = $1 AND game = $2 "
                "AND finished_at >= $3 AND finished_at < $4 "
                "AND EXISTS (SELECT 1 FROM games g "
                "WHERE g.id = results.game_id AND g.created_at >= $3) "
                "ORDER BY finished_at, game_id, position",
                guild,
                game,
                since,
                until,
            )
        return [_result(row) for row in rows]

    @staticmethod
    async def _ratings(
        conn: asyncpg.Connection, guild: str, game: str, players: list[str]
    ) -> dict[str, Rating]:
        rows = await conn.fetch(
            f"SELECT {_RATING_COLUMNS} FROM ratings "
            "WHERE guild = $1 AND game = $2 AND player = ANY($3::text[])",
            guild,
            game,
            players,
        )
        return {row["player"]: Rating(**dict(row)) for row in rows}

    async def ratings(self, guild: str, game: str, players: list[str]) -> dict[str, Rating]:
        async with self._one() as conn:
            return await self._ratings(conn, guild, game, players)

    async def leaderboard(
        self, guild: str, game: str, *, limit: int, offset: int = 0
    ) -> list[Rating]:
        """Highest ordinal (``mu - 3 sigma``) first, ties by more games then identity (as
        SQLite's), so pages never overlap."""
        async with self._one() as conn:
            rows = await conn.fetch(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild = $1 AND game = $2 "
                "ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT $3 OFFSET $4",
                guild,
                game,
                limit,
                offset,
            )
        return [Rating(**dict(row)) for row in rows]

    async def finished_without_results(self, limit: int = 100) -> list[GameRecord]:
        """Finished games with no result rows, the longest finished first: only those marked
        as such (``results_pending``, kept by triggers), never the whole history."""
        return await self._records(
            "id IN (SELECT game_id FROM results_pending) AND status = $1 "
            "ORDER BY updated_at, ord LIMIT $2",
            (FINISHED, limit),
        )

    # -- memory of the table: undo ---------------------------------------------------------

    async def undo(
        self,
        record: GameRecord,
        expected_version: int,
        keep: int,
        requested_by: str,
        at: float,
    ) -> list[UndoneAction]:
        """One transaction: CAS the game to ``record`` (a loser stops there), copy every action
        after seq ``keep`` to the audit, then delete it from the log (the trigger lets a row go
        only once its copy is in ``undone_actions``)."""
        check_bump(record, expected_version)
        now = time.time()
        async with self._write() as conn:
            await self._cas(conn, record.id, expected_version, _PROGRESS_SET, progress(record, now))
            taken = await conn.fetch(
                "INSERT INTO undone_actions "
                "(game_id, seq, player, action, at, undone_at, requested_by) "
                "SELECT game_id, seq, player, action, at, $3, $4 FROM actions "
                "WHERE game_id = $1 AND seq > $2 RETURNING seq, player, action, at",
                record.id,
                keep,
                at,
                requested_by,
            )
            await conn.execute(
                "DELETE FROM actions WHERE game_id = $1 AND seq > $2", record.id, keep
            )
        record.updated_at = now
        taken = sorted(taken, key=lambda row: row["seq"])
        return [_undone(record.id, row, at, requested_by) for row in taken]

    async def undone_actions(self, game_id: str) -> list[UndoneAction]:
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT seq, player, action, at, undone_at, requested_by FROM undone_actions "
                "WHERE game_id = $1 ORDER BY undone_at, seq",
                game_id,
            )
        return [_undone(game_id, row, row["undone_at"], row["requested_by"]) for row in rows]

    async def save_undo_request(self, request: UndoRequest) -> None:
        async with self._one() as conn:
            await conn.execute(_UPSERT_REQUEST, *request_values(request))

    async def undo_request(self, game_id: str) -> UndoRequest | None:
        """The pending proposal (a damaged one counts as none: ``read_request``)."""
        async with self._one() as conn:
            row = await conn.fetchrow(
                f"SELECT {', '.join(REQUEST_COLUMNS)} FROM undo_requests WHERE game_id = $1",
                game_id,
            )
        return None if row is None else read_request(tuple(row))

    async def drop_undo_request(self, game_id: str) -> None:
        async with self._one() as conn:
            await conn.execute("DELETE FROM undo_requests WHERE game_id = $1", game_id)

    async def forget_player(self, user: str) -> Forgotten:
        """``bot.store.forget``, in one transaction."""
        async with self._write() as conn:
            seats = await conn.fetch(
                "SELECT game_id, seat, ai FROM seats WHERE player = $1 FOR UPDATE", user
            )
            for game_id, seat, ai in seats:
                new = alias(seat)
                await conn.execute(
                    "UPDATE seats SET player = $1, name = $2 WHERE game_id = $3 AND seat = $4",
                    new,
                    former_name(seat, ai),
                    game_id,
                    seat,
                )
                for table in TABLES:
                    columns = ", ".join((*table.keys, *table.ids, *table.texts))
                    rows = await conn.fetch(
                        f"SELECT {columns} FROM {table.name} WHERE {game_column(table)} = $1",
                        game_id,
                    )
                    for row in rows:
                        change = changes(table, row, user, new)
                        sets = [f"{column} = ${i}" for i, column in enumerate(change, 1)]
                        if table.name == "games":  # a writer holding the old snapshot loses
                            sets.append("version = version + 1")
                        if not sets:
                            continue
                        keys = table.keys
                        where = " AND ".join(
                            f"{key} = ${len(change) + i}" for i, key in enumerate(keys, 1)
                        )
                        await conn.execute(
                            f"UPDATE {table.name} SET {', '.join(sets)} WHERE {where}",
                            *change.values(),
                            *list(row)[: len(keys)],
                        )
            results = await conn.execute(
                "DELETE FROM results WHERE player = $1 OR rated_as = $1", user
            )
            ratings = await conn.execute("DELETE FROM ratings WHERE player = $1", user)
            await conn.execute("DELETE FROM player_prefs WHERE player = $1", user)
            await conn.execute("DELETE FROM vacation_days WHERE player = $1", user)
            await conn.execute("DELETE FROM hints_taken WHERE player = $1", user)
        renamed = [(game_id, alias(seat)) for game_id, seat, _ai in seats]
        return Forgotten(renamed, _count(results), _count(ratings))

    # -- copying a whole store (``python -m bot migrate``) ------------------------------------

    async def games_by_status(self) -> dict[str, int]:
        async with self._one() as conn:
            rows = await conn.fetch("SELECT status, COUNT(*) FROM games GROUP BY status")
        return {row[0]: int(row[1]) for row in rows}

    async def outbox_pending(self) -> int:
        async with self._one() as conn:
            return int(await conn.fetchval("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"))

    async def all_game_ids(self) -> list[str]:
        async with self._one() as conn:
            rows = await conn.fetch("SELECT id FROM games ORDER BY created_at, ord")
        return [row[0] for row in rows]

    async def messages_of(self, game_id: str) -> dict[str, tuple[str, str]]:
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT kind, channel, message FROM messages WHERE game_id = $1 ORDER BY kind",
                game_id,
            )
        return {kind: (channel, message) for kind, channel, message in rows}

    async def all_guild_settings(self) -> dict[str, dict[str, Any]]:
        """Every server's settings; an unreadable row is logged and left out, like a server
        that never chose any (``guild_settings`` reads it so too)."""
        async with self._one() as conn:
            rows = await conn.fetch("SELECT guild, settings FROM guild_settings ORDER BY guild")
        found = {guild: read_settings(guild, text, "left out") for guild, text in rows}
        return {guild: settings for guild, settings in found.items() if settings is not None}

    async def all_vacation_days(self) -> list[tuple[str, str, int, int]]:
        async with self._one() as conn:
            rows = await conn.fetch(
                "SELECT guild, player, year, spent FROM vacation_days ORDER BY guild, player, year"
            )
        return [(g, p, int(y), int(n)) for g, p, y, n in rows]

    async def import_vacation_days(self, rows: Sequence[tuple[str, str, int, int]]) -> None:
        async with self._write() as conn:
            await conn.executemany(
                "INSERT INTO vacation_days (guild, player, year, spent) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (guild, player, year) DO UPDATE SET spent = excluded.spent",
                rows,
            )

    async def import_game(
        self, record: GameRecord, actions: Sequence[LoggedAction], *, replace: bool = False
    ) -> None:
        """The game's row, seats and log as given, in one transaction (a replaced game's other
        rows go with it: every table refers to ``games`` ON DELETE CASCADE, and the log's
        delete trigger lets a row go once its game is gone)."""
        try:
            async with self._write() as conn:
                if replace:
                    await conn.execute("DELETE FROM games WHERE id = $1", record.id)
                await self._insert_game(conn, record, record.created_at, record.updated_at)
                await conn.executemany(
                    "INSERT INTO actions (game_id, seq, player, action, at) "
                    "VALUES ($1, $2, $3, $4, $5)",
                    [(record.id, a.seq, a.player, dumps(a.action), a.at) for a in actions],
                )
        except StoreError as exc:
            if isinstance(exc.__cause__, asyncpg.UniqueViolationError):
                raise StoreError(f"game {record.id!r} already exists") from exc.__cause__
            raise

    async def owed_posts(self, game_id: str) -> list[CopiedPost]:
        async with self._one() as conn:
            rows = await conn.fetch(outbox_sql.PG_OWED_POSTS, game_id)
        return [outbox_sql.copied(r) for r in rows]

    async def posts(self, keys: Sequence[str]) -> list[CopiedPost]:
        async with self._one() as conn:
            rows = await conn.fetch(outbox_sql.PG_POSTS, list(keys))
        return [outbox_sql.copied(r) for r in rows]

    async def import_posts(self, posts: Sequence[CopiedPost]) -> None:
        async with self._write() as conn:
            await conn.executemany(
                outbox_sql.PG_IMPORT_POSTS, [outbox_sql.import_values(p) for p in posts]
            )

    async def import_undone(self, rows: Sequence[UndoneAction]) -> None:
        async with self._one() as conn:
            await conn.executemany(
                "INSERT INTO undone_actions (game_id, seq, player, action, at, undone_at, "
                "requested_by) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                [
                    (r.game_id, r.seq, r.player, dumps(r.action), r.at, r.undone_at, r.requested_by)
                    for r in rows
                ],
            )
