"""What SQLite checks at start-up, in time that does not grow with the history, and the full
check that does (``python -m bot check``).

``PRAGMA quick_check`` reads every page: 3.6 s for a file of 100k games, at every start. A
start now checks only what a start needs: that the file is a SQLite database (its 16-byte
header), that its schema reads (the migrations read it), and that the bot may write it (one
write inside a transaction that is rolled back). The page-by-page check is an explicit command,
run by the backup timer and after a restore (README, Backups).
"""

from __future__ import annotations

import os
import pwd
import sqlite3
from pathlib import Path

from bot.store.base import ReadOnlyDatabase

#: The first 16 bytes of every SQLite 3 database file.
HEADER = b"SQLite format 3\x00"


def header_ok(path: str) -> bool:
    """Whether ``path`` is a new (missing or empty) file or starts like a SQLite database."""
    try:
        with open(path, "rb") as file:
            head = file.read(len(HEADER))
    except FileNotFoundError:
        return True
    return head in (b"", HEADER)


def _user(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:  # a uid with no name here (a file restored from another machine)
        return f"uid {uid}"


def read_only(path: str) -> ReadOnlyDatabase:
    """The refusal of a file this process may not write, in one sentence naming the file, its
    owner and who the bot runs as."""
    target = Path(path)
    try:
        owner = _user(target.stat().st_uid)
    except OSError:
        owner = "an unknown user"
    me = _user(os.geteuid())
    return ReadOnlyDatabase(
        f"the database file {path!r} is read-only to the bot's user {me} (it belongs to "
        f"{owner}); give it to {me} with `chown {me} {path}*` or run the bot as {owner}"
    )


def write_test(conn: sqlite3.Connection, path: str) -> None:
    """Write once and roll back: ``BEGIN IMMEDIATE`` alone succeeds on a read-only file, so
    without this every move would fail later with a generic apology."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        # PRAGMA arguments cannot be bound; the value is the file's own integer.
        conn.execute(f"PRAGMA user_version = {version:d}")
    except sqlite3.OperationalError as exc:
        if "readonly" in str(exc).replace(" ", "").lower():
            raise read_only(path) from exc
        raise
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
