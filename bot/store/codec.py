"""Rows besides a game's own that both backends write and read alike: a pending undo proposal
and a server's settings, and the upsert that writes them. One codec for both, so a value that
SQLite reads back PostgreSQL reads back the same, and a damaged one costs the same (a proposal,
or a server's choices; never a game)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from bot.store.base import UndoRequest
from bot.store.rows import dumps, loads

log = logging.getLogger(__name__)

#: The columns of ``undo_requests``, in the order of ``request_values``; the first is the key.
REQUEST_COLUMNS = (
    "game_id",
    "requested_by",
    "version",
    "keep",
    "awaiting",
    "accepted",
    "at",
    "expires_at",
)


def upsert(table: str, columns: Sequence[str], marks: Sequence[str]) -> str:
    """``INSERT`` a row of ``columns`` (``marks``: the backend's placeholders), or replace the
    row with the same first column, which is the table's key."""
    key, rest = columns[0], columns[1:]
    updates = ", ".join(f"{column} = excluded.{column}" for column in rest)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(marks)}) "
        f"ON CONFLICT ({key}) DO UPDATE SET {updates}"
    )


def request_values(request: UndoRequest) -> tuple[Any, ...]:
    """The values of ``REQUEST_COLUMNS`` for ``request``."""
    return (
        request.game_id,
        request.requested_by,
        request.version,
        request.keep,
        dumps(list(request.awaiting)),
        dumps(list(request.accepted)),
        request.at,
        request.expires_at,
    )


def read_request(values: Sequence[Any]) -> UndoRequest | None:
    """A row of ``REQUEST_COLUMNS`` as a proposal; one whose consents do not read back counts
    as none (logged)."""
    game_id, by, version, keep, awaiting, accepted, at, expires_at = values
    try:
        waited, given = loads(awaiting), loads(accepted)
    except (TypeError, ValueError):
        log.error("game %s: its undo proposal is unreadable; ignoring it", game_id)
        return None
    return UndoRequest(game_id, by, version, keep, tuple(waited), tuple(given), at, expires_at)


def read_settings(guild: str, text: Any, instead: str) -> dict[str, Any] | None:
    """A server's settings as stored; None if they do not read back as a JSON object (logged,
    saying what is done ``instead``)."""
    try:
        settings = loads(text)
    except (TypeError, ValueError):
        settings = None
    if not isinstance(settings, dict):
        log.error("guild %s: its settings are unreadable; %s", guild, instead)
        return None
    return settings
