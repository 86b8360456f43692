"""The outbox's bookkeeping (issue 22): which posts a change owes the table, and when a post
that could not be sent is tried again. No Discord here: the delivery worker in
``cogs/delivery.py`` makes and sends the posts; the service only writes what is owed, in the
same transaction as the change (``GameRecord.owed``), so any front door (a slash command, a
button, the scheduler, the web table) owes the same posts and a crash loses none.
"""

from __future__ import annotations

import os
import random
import secrets
import socket
from collections.abc import Callable
from typing import Any

from bot.store.base import Owed, Store

#: The kinds of owed posts: the first board of a game (its thread and its lobby's edit with
#: it), the board of each finished turn (the last one included), the end of a game (its
#: lobby's edit and the result post in the channel), a reminder, a vacation day a late
#: player's clock spent, and the host's choices at a stalled table (issue 27).
START, TURN, FINAL, REMINDER = "start", "turn", "final", "reminder"
#: A player's own alert of a turn (issue 27, ``bot.alerts``): a DM, or a thread ping that
#: waited for their quiet hours to end. It waits for the posts of its game written before it
#: (it links the latest), but no post waits for it: it may wait for the morning.
ALERT = "alert"
VACATION, STALL = "vacation", "stall"
#: Seconds the front door that made a change has to post it itself before any worker may.
FRONT_LEASE = 60.0
#: Seconds a worker holds a claimed row (a send with its retries takes far less).
WORKER_LEASE = 60.0
#: Tries of one send within a claim (with backoff) before the row waits for the next tick.
TRIES = 3
#: The longest wait between tries of a row that keeps failing.
BACKOFF_CAP = 300.0
#: Seconds a sent row is kept before the delivery worker deletes it. Once sent, a row is
#: needed by nothing (a claim reads the unsent rows only, and the message it made is kept in
#: ``messages``); it is kept a week so a complaint about a post ("the board never came") can
#: still be looked into: when it was owed, how many tries, when it went and which message it
#: became. Unsent rows are never deleted, however old: they are posts the table is owed.
SENT_KEPT = 7 * 24 * 3600.0
#: Sent rows deleted by one statement (one short write transaction each), and the most pages
#: one round deletes: a round never holds the writer long, and a backlog (a first start after
#: this was added, with months of posts) goes over a few rounds.
PRUNE_PAGE = 500
PRUNE_PAGES = 20


#: Row keys: 64 random bits from a generator seeded once per process from the system's entropy
#: (and again in a forked child), not a system call per key: ``secrets`` asks the kernel each
#: time, and the call lets go of the interpreter lock, so the event loop then waited on the
#: store's threads about 0.3 ms a key in a busy move.
_KEYS = random.Random(secrets.randbits(128))
os.register_at_fork(after_in_child=lambda: _KEYS.seed(secrets.randbits(128)))


def new_key() -> str:
    """A fresh key for an outbox row: 16 hex digits, unique in practice across processes."""
    return f"{_KEYS.getrandbits(64):016x}"


def process_id() -> str:
    """Who this process is, in the outbox's leases and in the start-up warnings: the host,
    the pid and a random part (a pid is reused after a restart)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def owed(kind: str, payload: dict[str, Any], holder: str | None, now: float) -> Owed:
    """A post owed by a change being saved; ``holder`` (the front door that made the change)
    has the first go at it for ``FRONT_LEASE`` seconds, None: any worker at once."""
    lease = now + FRONT_LEASE if holder is not None else 0.0
    return Owed(new_key(), kind, payload, holder, lease)


def alert(payload: dict[str, Any], at: float) -> Owed:
    """A player's alert owed by a change being saved, for a delivery worker to send at ``at``
    (now, or when their quiet hours end): no front door posts it."""
    return Owed(new_key(), ALERT, payload, None, at)


def backoff(
    attempt: int, base: float, cap: float = BACKOFF_CAP, rand: Callable[[], float] = random.random
) -> float:
    """Seconds to wait before try ``attempt + 1`` (1-based ``attempt``): "full jitter", a
    random share of an exponential bound, so many failed posts do not come back together."""
    bound = min(cap, base * 2 ** max(0, attempt - 1))
    return bound * (0.5 + rand() / 2)


async def prune(store: Store, now: float, page: int = PRUNE_PAGE, pages: int = PRUNE_PAGES) -> int:
    """Delete the rows sent more than ``SENT_KEPT`` before ``now``, ``page`` rows a
    statement, at most ``pages`` statements: the outbox stays as long as what is owed and a
    week of posts, whatever the history. How many went."""
    total = 0
    for _ in range(pages):
        gone = await store.prune_outbox(now - SENT_KEPT, page)
        total += gone
        if gone < page:
            break
    return total
