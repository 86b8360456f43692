"""Which store failures are an outage (the database cannot be reached or written just now)
rather than a bug: both backends raise ``StoreUnavailable`` for those, so the player hears that
their move was not saved and to try again in a minute, not an apology for a crash.

SQLite: a full disk, an I/O error, a file that cannot be opened or written, a lock held past the
busy timeout. PostgreSQL: a connection refused, lost or timed out, a server shutting down or out
of resources (SQLSTATE classes 08, 53 and 57). Everything else (a constraint, a syntax error)
stays a plain ``StoreError``: a bug, logged as one.
"""

from __future__ import annotations

import sqlite3

#: SQLite's primary result codes for "not now" (the low byte of an extended code):
#: BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN.
SQLITE_OUTAGES = frozenset({5, 6, 8, 10, 13, 14})
#: What SQLite says when a failure (a full disk) ended the transaction under us.
ENDED_EARLY = "the transaction ended early"
#: SQLSTATE classes of a PostgreSQL server that cannot serve now.
POSTGRES_OUTAGE_CLASSES = ("08", "53", "57")


def sqlite_outage(error: BaseException) -> bool:
    """Whether a ``sqlite3`` error means the file cannot be read or written just now."""
    if not isinstance(error, sqlite3.OperationalError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in SQLITE_OUTAGES
    return str(error) == ENDED_EARLY


def postgres_outage(error: BaseException) -> bool:
    """Whether an asyncpg (or socket) error means the server cannot serve just now."""
    if isinstance(error, OSError | TimeoutError):
        return True
    state = getattr(error, "sqlstate", None)
    if isinstance(state, str):
        return state[:2] in POSTGRES_OUTAGE_CLASSES
    # No state: asyncpg's own words for a connection closed or lost mid-way.
    return type(error).__name__ == "ConnectionDoesNotExistError" or "closed" in str(error)
