"""The outbox's statements for both backends (issue 22): written in a change's own transaction,
claimed by compare-and-swap, marked sent. Kept apart from the stores so each store only calls
them inside the transactions it already has.

A worker claims only the oldest unsent row of a game, and only when its lease is free, so a
game's posts go out in order and one at a time, whatever the number of workers.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from typing import Any

import asyncpg

from bot.store.base import Clock, CopiedPost, OutboxRow, Owed, ReminderClaim, Shards
from bot.store.rows import dumps, loads

_COLUMNS = "o.seq, o.key, o.game_id, o.kind, o.payload, o.created_at, o.attempts"

#: The oldest unsent row of its game, with a free lease (``{now}`` and the shard condition
#: on the games table are filled in per backend). A player's alert (``outbox.ALERT``) waits
#: for the older posts of its game, but no post waits for an alert (one may wait for the end
#: of its player's quiet hours). Read through ``outbox_unsent``, which holds the unsent rows
#: only: the sent ones stay (every post a game ever owed), and ordering by the plain ``seq``
#: would walk them all in key order looking for the few unsent (``+o.seq`` is the same order,
#: which no index serves, so the unsent rows are found first and then sorted).
_CLAIMABLE = (
    "FROM outbox o JOIN games g ON g.id = o.game_id "
    "WHERE o.sent_at IS NULL AND o.lease_until <= {now} "
    "AND o.seq = (SELECT MIN(i.seq) FROM outbox i WHERE i.game_id = o.game_id "
    "AND i.sent_at IS NULL AND (i.seq = o.seq OR i.kind <> 'alert')){shards} "
    "ORDER BY +o.seq LIMIT {limit}"
)


def row(values: Sequence[Any]) -> OutboxRow:
    seq, key, game_id, kind, payload, created_at, attempts = values
    return OutboxRow(
        int(seq), str(key), str(game_id), str(kind), loads(payload), created_at, attempts
    )


def _values(game_id: str, owed: Owed, now: float) -> tuple[Any, ...]:
    return (owed.key, game_id, owed.kind, dumps(owed.payload), now, owed.holder, owed.lease_until)


#: An outbox row as ``migrate`` copies it (``CopiedPost``): a holder's lease released, a
#: wait of the row's own (no holder: an alert's quiet hours, a backoff) kept.
_COPY_COLUMNS = (
    "key, game_id, kind, payload, created_at, attempts, "
    "CASE WHEN holder IS NULL THEN lease_until ELSE 0 END, sent_at, channel, message"
)
#: A game's unsent rows, through ``outbox_unsent`` (whose condition it repeats).
_OWED_POSTS = f"SELECT {_COPY_COLUMNS} FROM outbox WHERE game_id = {{game}} AND sent_at IS NULL"
SQLITE_OWED_POSTS = _OWED_POSTS.format(game="?") + " ORDER BY seq"
PG_OWED_POSTS = _OWED_POSTS.format(game="$1") + " ORDER BY seq"
PG_POSTS = f"SELECT {_COPY_COLUMNS} FROM outbox WHERE key = ANY($1::text[]) ORDER BY seq"


def sqlite_posts(count: int) -> str:
    """The rows of ``count`` keys, each found by the key's unique index."""
    marks = ", ".join("?" * count)
    return f"SELECT {_COPY_COLUMNS} FROM outbox WHERE key IN ({marks}) ORDER BY seq"


def copied(values: Sequence[Any]) -> CopiedPost:
    key, game_id, kind, payload, created_at, attempts, lease_until, sent_at, channel, message = (
        values
    )
    return CopiedPost(
        str(key),
        str(game_id),
        str(kind),
        loads(payload),
        created_at,
        int(attempts),
        lease_until,
        sent_at,
        channel,
        message,
    )


_IMPORT_POSTS = (
    "INSERT INTO outbox (key, game_id, kind, payload, created_at, attempts, lease_until) "
    "VALUES ({}) ON CONFLICT (key) DO NOTHING"
)
SQLITE_IMPORT_POSTS = _IMPORT_POSTS.format("?, ?, ?, ?, ?, ?, ?")
PG_IMPORT_POSTS = _IMPORT_POSTS.format("$1, $2, $3, $4, $5, $6, $7")


def import_values(post: CopiedPost) -> tuple[Any, ...]:
    """The parameters of ``*_IMPORT_POSTS``: no holder, the row's own wait."""
    return (
        post.key,
        post.game_id,
        post.kind,
        dumps(post.payload),
        post.created_at,
        post.attempts,
        post.lease_until,
    )


def shards_text(shards: Shards | None) -> str | None:
    return None if shards is None else dumps({"count": shards.count, "ids": list(shards.ids)})


def shards_of(text: str | None) -> Shards | None:
    if text is None:
        return None
    data = loads(text)
    return Shards(int(data["count"]), tuple(int(i) for i in data["ids"]))


CLOCK_COLUMNS = "id, game, guild, channel, thread, version, remind_at, deadline, clocks"


def clock(values: Sequence[Any]) -> Clock:
    game_id, game, guild, channel, thread, version, remind_at, deadline, clocks = values
    return Clock(
        str(game_id),
        str(game),
        str(guild),
        str(channel),
        thread,
        int(version),
        remind_at,
        deadline,
        loads(clocks or "{}"),
    )


def claim_values(claim: ReminderClaim) -> tuple[Any, ...]:
    """The parameters of ``*_CLAIM_REMINDER``, in order."""
    return (
        claim.remind_at,
        claim.deadline,
        dumps(claim.clocks),
        claim.game_id,
        claim.version,
        claim.expected_remind_at,
    )


# -- SQLite (inside the writer's transaction) ---------------------------------------------------

_SQLITE_INSERT = (
    "INSERT INTO outbox (key, game_id, kind, payload, created_at, holder, lease_until) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def sqlite_owe(conn: sqlite3.Connection, game_id: str, owed: Sequence[Owed]) -> None:
    """Write the posts a change owes, in the change's transaction."""
    if not owed:
        return
    now = time.time()
    conn.executemany(_SQLITE_INSERT, [_values(game_id, o, now) for o in owed])


def sqlite_claim(
    conn: sqlite3.Connection,
    holder: str,
    now: float,
    lease: float,
    limit: int,
    shards: tuple[str, tuple[int, ...]],
) -> list[OutboxRow]:
    """Claim (in the writer's transaction, so nobody else claims between the read and the
    write) the oldest claimable row of each game."""
    on, params = shards
    sql = _CLAIMABLE.format(now="?", shards=f" {on}" if on else "", limit="?")
    found = [row(r) for r in conn.execute(f"SELECT {_COLUMNS} {sql}", (now, *params, limit))]
    conn.executemany(
        "UPDATE outbox SET holder = ?, lease_until = ?, attempts = attempts + 1 "
        "WHERE seq = ? AND sent_at IS NULL AND lease_until <= ?",
        [(holder, now + lease, r.seq, now) for r in found],
    )
    return [OutboxRow(**{**r.__dict__, "attempts": r.attempts + 1}) for r in found]


SQLITE_SENT = (
    "UPDATE outbox SET sent_at = ?, channel = ?, message = ?, holder = NULL "
    "WHERE key = ? AND sent_at IS NULL"
)
#: A page of the oldest sent rows sent before a time, by ``outbox_sent`` (whose condition
#: it repeats word for word), deleted by their keys.
_PRUNE = (
    "DELETE FROM outbox WHERE seq IN (SELECT seq FROM outbox "
    "WHERE sent_at IS NOT NULL AND sent_at < {before} ORDER BY sent_at LIMIT {limit})"
)
SQLITE_PRUNE = _PRUNE.format(before="?", limit="?")
PG_PRUNE = _PRUNE.format(before="$1", limit="$2")
SQLITE_RELEASE = (
    "UPDATE outbox SET holder = NULL, lease_until = ? "
    "WHERE key = ? AND sent_at IS NULL AND (holder = ? OR holder IS NULL)"
)
SQLITE_CLAIM_REMINDER = (
    "UPDATE games SET remind_at = ?, deadline = ?, clocks = ? "
    "WHERE id = ? AND version = ? AND remind_at = ?"
)


def sqlite_claim_reminders(conn: sqlite3.Connection, claims: Sequence[ReminderClaim]) -> list[bool]:
    won = []
    for claim in claims:
        ok = conn.execute(SQLITE_CLAIM_REMINDER, claim_values(claim)).rowcount == 1
        if ok:
            sqlite_owe(conn, claim.game_id, claim.posts)
        won.append(ok)
    return won


SQLITE_UNSENT = f"SELECT {_COLUMNS} FROM outbox o WHERE o.sent_at IS NULL"
SQLITE_ANNOUNCE = (
    "INSERT INTO processes (holder, shards, started_at, seen_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (holder) DO UPDATE SET shards = excluded.shards, seen_at = excluded.seen_at"
)
SQLITE_LIVE = (
    "SELECT holder, shards FROM processes WHERE holder <> ? AND seen_at >= ? ORDER BY holder"
)


# -- PostgreSQL -----------------------------------------------------------------------------------

_PG_INSERT = (
    "INSERT INTO outbox (key, game_id, kind, payload, created_at, holder, lease_until) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7)"
)


async def pg_owe(conn: asyncpg.Connection, game_id: str, owed: Sequence[Owed]) -> None:
    """Write the posts a change owes, on the connection of the change's transaction."""
    if not owed:
        return
    now = time.time()
    await conn.executemany(_PG_INSERT, [_values(game_id, o, now) for o in owed])


def pg_owed_cte(first: int, game: str, created: str, source: str) -> str:
    """A data-modifying ``WITH`` item that writes the posts a change owes within the change's
    own statement (``owed_arrays`` gives its five array parameters, numbered from ``first``),
    one row for each row of ``source`` (the CTE of the change: none if it lost its
    compare-and-swap), in the order they were owed: one statement is one round trip, where a
    transaction with a separate insert took four."""
    k, kind, payload, holder, lease = (f"${first + i}" for i in range(5))
    return (
        "owed AS (INSERT INTO outbox (key, game_id, kind, payload, created_at, holder, "
        f"lease_until) SELECT o.key, {game}, o.kind, o.payload, {created}, o.holder, o.lease "
        f"FROM {source}, unnest({k}::text[], {kind}::text[], {payload}::text[], "
        f"{holder}::text[], {lease}::float8[]) WITH ORDINALITY "
        "AS o(key, kind, payload, holder, lease, n) ORDER BY o.n)"
    )


def owed_arrays(owed: Sequence[Owed]) -> tuple[list[Any], ...]:
    """The parameters of ``pg_owed_cte``: each field of the owed posts as an array."""
    return (
        [o.key for o in owed],
        [o.kind for o in owed],
        [dumps(o.payload) for o in owed],
        [o.holder for o in owed],
        [o.lease_until for o in owed],
    )


def pg_claim_sql(shards: str) -> str:
    """The claim as one statement: rows locked with SKIP LOCKED, and the lease checked again
    on the locked row (a compare-and-swap), so two workers never take the same row.
    Parameters: $1 holder, $2 lease end, $3 now, $4 limit, then the shard condition's."""
    inner = _CLAIMABLE.format(now="$3", shards=shards, limit="$4")
    return (
        "UPDATE outbox AS u SET holder = $1, lease_until = $2, attempts = u.attempts + 1 "
        f"WHERE u.seq IN (SELECT o.seq {inner} FOR UPDATE OF o SKIP LOCKED) "
        "AND u.sent_at IS NULL AND u.lease_until <= $3 "
        "RETURNING u.seq, u.key, u.game_id, u.kind, u.payload, u.created_at, u.attempts"
    )


PG_SENT = (
    "UPDATE outbox SET sent_at = $1, channel = $2, message = $3, holder = NULL "
    "WHERE key = $4 AND sent_at IS NULL"
)
PG_RELEASE = (
    "UPDATE outbox SET holder = NULL, lease_until = $1 "
    "WHERE key = $2 AND sent_at IS NULL AND (holder = $3 OR holder IS NULL)"
)
#: Every claim of a page in one statement: the games still at the version and reminder time
#: read take the new timers; their ids come back.
PG_CLAIM_REMINDERS = (
    "UPDATE games AS g SET remind_at = c.remind_at, deadline = c.deadline, clocks = c.clocks "
    "FROM unnest($1::text[], $2::bigint[], $3::float8[], $4::float8[], $5::float8[], "
    "$6::text[]) AS c(id, version, expected, remind_at, deadline, clocks) "
    "WHERE g.id = c.id AND g.version = c.version AND g.remind_at = c.expected RETURNING g.id"
)


async def pg_claim_reminders(
    conn: asyncpg.Connection, claims: Sequence[ReminderClaim]
) -> list[bool]:
    columns = list(zip(*(claim_values(c) for c in claims), strict=True))
    remind_at, deadline, clocks, ids, versions, expected = columns
    rows = await conn.fetch(
        PG_CLAIM_REMINDERS,
        list(ids),
        list(versions),
        list(expected),
        list(remind_at),
        list(deadline),
        list(clocks),
    )
    won = {r["id"] for r in rows}
    now = time.time()
    await conn.executemany(
        _PG_INSERT,
        [_values(c.game_id, o, now) for c in claims if c.game_id in won for o in c.posts],
    )
    return [c.game_id in won for c in claims]


PG_UNSENT = f"SELECT {_COLUMNS} FROM outbox o WHERE o.sent_at IS NULL"
PG_ANNOUNCE = (
    "INSERT INTO processes (holder, shards, started_at, seen_at) VALUES ($1, $2, $3, $4) "
    "ON CONFLICT (holder) DO UPDATE SET shards = excluded.shards, seen_at = excluded.seen_at"
)
PG_LIVE = (
    "SELECT holder, shards FROM processes WHERE holder <> $1 AND seen_at >= $2 ORDER BY holder"
)
