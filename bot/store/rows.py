"""One ``games`` row into a ``GameRecord``, or a ``Fault`` saying what in it cannot be read.

Each row is decoded on its own, so one damaged game never stops its neighbours from loading: a
channel's listing skips the damaged row instead of failing whole. A fault whose only damage is
the state snapshot keeps the rest of the record, because a game is a function of its seed and
log and the snapshot can be rebuilt from them (``bot.store.recovery``).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

import orjson

from bot.store.base import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    LOBBY,
    GameRecord,
    GameSummary,
    StoreError,
)

STATUSES = (LOBBY, ACTIVE, FINISHED, ABANDONED)

#: The columns ``decode`` reads, in order.
COLUMNS = (
    "id, game, guild, channel, thread, host, status, seed, options, state, version, "
    "created_at, updated_at, journal, remind_at, deadline, prefs, archive_at, clocks, to_move"
)
#: The columns ``decode_summary`` reads, in order: a listing's, without the state snapshot
#: and the journal (the bulk of a row) nor what no listing shows.
SUMMARY_COLUMNS = (
    "id, game, guild, channel, thread, host, status, options, version, created_at, "
    "updated_at, remind_at, deadline, clocks, to_move"
)


def dumps(value: Any) -> str:
    """Compact JSON: snapshots are rewritten on every move, so bytes matter, and so does time:
    orjson writes one several times faster than ``json`` (and reads it two to five times), the
    largest share of a move's time on the event loop besides the engine. Keys that are not
    strings are written as strings, as ``json`` does."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def loads(text: str | bytes) -> Any:
    """The value of JSON text; a ``ValueError`` (orjson's ``JSONDecodeError``) if it is not
    JSON, or not text."""
    return orjson.loads(text)


def movers(record: GameRecord) -> str:
    """The stored ``to_move`` of ``record``: its seats to move while it is active, else
    none (a finished or abandoned game waits for nobody, whatever its last state says)."""
    return dumps(record.to_move if record.status == ACTIVE else [])


def encode(record: GameRecord, created: float, updated: float) -> tuple[Any, ...]:
    """The values of ``COLUMNS`` for a new row of ``record``, in order (what ``decode`` reads
    back), so every backend stores a game the same way."""
    return (
        record.id,
        record.game,
        record.guild,
        record.channel,
        record.thread,
        record.host,
        record.status,
        record.seed,
        dumps(record.options),
        None if record.state is None else dumps(record.state),
        record.version,
        created,
        updated,
        dumps(record.journal),
        record.remind_at,
        record.deadline,
        dumps(record.prefs),
        record.archive_at,
        dumps(record.clocks),
        movers(record),
    )


#: The columns every write of a game's progress sets (lobby changes and moves alike), in the
#: order of ``progress``. The table's preferences go with a move: a teaching table counts the
#: lessons it has taught there (``bot.teaching``), in the move's own transaction.
PROGRESS = (
    "status",
    "state",
    "journal",
    "remind_at",
    "deadline",
    "clocks",
    "version",
    "updated_at",
    "to_move",
    "prefs",
)


def progress(record: GameRecord, now: float) -> tuple[Any, ...]:
    """The values for ``PROGRESS``, in order."""
    state = None if record.state is None else dumps(record.state)
    return (
        record.status,
        state,
        dumps(record.journal),
        record.remind_at,
        record.deadline,
        dumps(record.clocks),
        record.version,
        now,
        movers(record),
        dumps(record.prefs),
    )


def check_bump(record: GameRecord, expected_version: int) -> None:
    """Refuse a write that does not raise the version.

    If a writer stored ``version == expected_version``, a second writer holding the same old
    version would also pass the compare-and-swap and the move would be applied twice.
    """
    if record.version <= expected_version:
        raise StoreError(
            f"game {record.id}: new version {record.version} must be greater than the "
            f"expected version {expected_version}"
        )


@dataclass
class Fault:
    """A row that does not decode. ``record`` is set when only its snapshot is unreadable."""

    id: str
    reason: str
    record: GameRecord | None = None


class _Unreadable(Exception):
    """A column that does not hold what the schema promises."""


def _json(text: Any, kind: type, column: str, *, nullable: bool = False) -> Any:
    if text is None and nullable:
        return None
    try:
        value = loads(text)
    except (TypeError, ValueError) as exc:
        raise _Unreadable(f"its {column} is not readable JSON") from exc
    if not isinstance(value, kind):
        raise _Unreadable(f"its {column} is not a JSON {kind.__name__}")
    return value


def _number(value: Any, column: str, *, nullable: bool = True) -> Any:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Unreadable(f"its {column} is not a number")
    return value


def _to_move(text: Any) -> list[str]:
    """The stored seats to move; none if the value does not read: it is only ever derived
    from the snapshot, so a damaged one costs a listing a name until the next save rewrites
    it, never the game."""
    try:
        value = loads(text)
    except (TypeError, ValueError):
        return []
    return [str(p) for p in value] if isinstance(value, list) else []


def _place(row: sqlite3.Row | tuple[Any, ...], version: Any) -> dict[str, Any]:
    """What a record and a summary read alike: the first seven columns of either (id to
    status), and the version."""
    if not isinstance(version, int) or isinstance(version, bool):
        raise _Unreadable("its version is not a whole number")
    if row[6] not in STATUSES:
        raise _Unreadable(f"its status {str(row[6])[:20]!r} is unknown")
    return {
        "id": str(row[0]),
        "game": str(row[1]),
        "guild": str(row[2]),
        "channel": str(row[3]),
        "thread": row[4],
        "host": str(row[5]),
        "status": row[6],
        "version": version,
    }


def decode(row: sqlite3.Row | tuple[Any, ...]) -> GameRecord | Fault:
    """The record of one row (seats still empty: they come from their own table)."""
    game_id = str(row[0])
    try:
        record = GameRecord(
            **_place(row, row[10]),
            seed=str(row[7]),
            options=_json(row[8], dict, "options"),
            created_at=_number(row[11], "created_at", nullable=False),
            updated_at=_number(row[12], "updated_at", nullable=False),
            journal=_json(row[13], list, "journal"),
            remind_at=_number(row[14], "remind_at"),
            deadline=_number(row[15], "deadline"),
            prefs=_json(row[16], dict, "prefs"),
            archive_at=_number(row[17], "archive_at"),
            clocks=_json(row[18], dict, "clocks"),
            to_move=_to_move(row[19]),
        )
    except _Unreadable as exc:
        return Fault(game_id, str(exc))
    try:
        record.state = _json(row[9], dict, "state snapshot", nullable=True)
    except _Unreadable as exc:
        return Fault(game_id, str(exc), record)
    return record


def decode_summary(row: sqlite3.Row | tuple[Any, ...]) -> GameSummary | Fault:
    """The summary of one row of ``SUMMARY_COLUMNS`` (seats still empty), or what in it
    cannot be read: a listing leaves such a game out and marks it as needing attention."""
    game_id = str(row[0])
    try:
        return GameSummary(
            **_place(row, row[8]),
            options=_json(row[7], dict, "options"),
            created_at=_number(row[9], "created_at", nullable=False),
            updated_at=_number(row[10], "updated_at", nullable=False),
            remind_at=_number(row[11], "remind_at"),
            deadline=_number(row[12], "deadline"),
            clocks=_json(row[13], dict, "clocks"),
            to_move=_to_move(row[14]),
        )
    except _Unreadable as exc:
        return Fault(game_id, str(exc))
