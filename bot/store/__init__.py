"""Persistence: the ``Store`` interface and the factory that picks a backend from a URL.

Code above the store imports from here (never from ``bot.store.sqlite`` or
``bot.store.postgres``): ``open_store`` picks the backend from ``DATABASE_URL``.
"""

from __future__ import annotations

import re

from bot.store.base import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    Attention,
    DamagedDatabase,
    GameRecord,
    GameSummary,
    LoggedAction,
    ReadOnlyDatabase,
    Seat,
    Store,
    StoreError,
    StoreUnavailable,
    UnreadableLog,
    VersionConflict,
)
from bot.store.postgres import POOL_SIZE, PostgresStore
from bot.store.recovery import replay_snapshot
from bot.store.sqlite import SqliteStore

__all__ = [
    "ABANDONED",
    "ACTIVE",
    "FINISHED",
    "LOBBY",
    "OPEN_STATUSES",
    "POOL_SIZE",
    "Attention",
    "DamagedDatabase",
    "GameRecord",
    "GameSummary",
    "LoggedAction",
    "PostgresStore",
    "ReadOnlyDatabase",
    "Seat",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "UnreadableLog",
    "VersionConflict",
    "is_postgres",
    "open_store",
    "sqlite_path",
]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_SQLITE_SCHEMES = ("sqlite", "sqlite+aiosqlite")
_POSTGRES_SCHEMES = ("postgresql", "postgres")


def sqlite_path(database_url: str) -> str:
    """The filesystem path (or ``:memory:``) named by a SQLite URL or a bare path.

    Follows the SQLAlchemy convention people already write in ``DATABASE_URL``:
    ``sqlite:///rel/path.db`` is relative, ``sqlite:////abs/path.db`` is absolute, and
    ``sqlite://`` or ``sqlite:///:memory:`` is an in-memory database. A URL with a host
    (``sqlite://host/x.db``) is refused rather than guessed at.
    """
    url = database_url.strip()
    if not url:
        raise StoreError("empty database URL")
    match = _SCHEME.match(url)
    if match is None:
        return url
    scheme = match.group(1).lower()
    if scheme not in _SQLITE_SCHEMES:
        raise StoreError(
            f"unsupported database URL scheme {scheme!r} in {database_url!r}: use SQLite "
            "(sqlite:///relative.db, sqlite:////absolute.db, a path or :memory:) or PostgreSQL "
            "(postgresql://user:password@host/database)"
        )
    rest = url[match.end() :]
    if rest == "":
        return ":memory:"
    if not rest.startswith("/"):
        raise StoreError(
            f"SQLite URL {database_url!r} names a host; use sqlite:///relative.db or "
            "sqlite:////absolute.db"
        )
    path = rest[1:]
    if not path:
        raise StoreError(f"SQLite URL {database_url!r} names no file")
    return path


def is_postgres(database_url: str) -> bool:
    """Whether ``database_url`` names a PostgreSQL database (``postgresql://``, ``postgres://``)."""
    match = _SCHEME.match(database_url.strip())
    return match is not None and match.group(1).lower() in _POSTGRES_SCHEMES


def open_store(database_url: str, *, pool_size: int = POOL_SIZE) -> Store:
    """A store for ``database_url``, not yet opened (``await store.open()`` connects).

    Kept synchronous so configuration errors (a bad URL) surface at start-up, before any
    event loop work. A snapshot that does not load is rebuilt from its game's seed and log.
    ``pool_size`` is PostgreSQL's connections per process (SQLite has one writer).
    """
    if is_postgres(database_url):
        return PostgresStore(database_url.strip(), pool_size=pool_size, rebuild=replay_snapshot)
    return SqliteStore(sqlite_path(database_url), rebuild=replay_snapshot)
