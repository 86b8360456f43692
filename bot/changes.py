"""Change notifications: who wants to hear that a game changed, and how they hear it.

The service calls ``Changes.publish(game_id, version)`` after each committed change (a move, a
lobby change, an undo). Subscribers in the same process (the web table's live pages, the
Discord layer's bookkeeping) hear it at once. A web table that runs as a process of its own
(``python -m bot web``) beside sharded bots on PostgreSQL hears them through ``PostgresBridge``:
each process sends its changes with ``NOTIFY`` and hears the others' with ``LISTEN``.

A notification carries only the game's id and version, never a state: whoever hears it reads
the game back from the store, through the same views as everyone else, so no hidden fact can
travel this way.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass

import asyncpg

log = logging.getLogger(__name__)

#: The PostgreSQL channel every process NOTIFYs and LISTENs on.
CHANNEL = "tabletop_changes"


@dataclass(frozen=True)
class Change:
    """A game's committed change: its id and the version the change left it at. ``owed``: the
    change owes the table posts that no front door will make (a move from the web table), so a
    delivery worker should send them now rather than at its next round."""

    game_id: str
    version: int
    owed: bool = False


Listener = Callable[[Change], None]


class Changes:
    """In-process publish/subscribe of committed changes.

    Listeners are plain callbacks, called on the event loop at publish time; they must be quick
    and must not raise (one that does is logged and the rest still hear the change). A listener
    that needs I/O schedules a task or sets an event. ``forward``: a second way out (the
    PostgreSQL bridge), told of every change published here."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self.forward: Listener | None = None

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Start hearing changes; returns the call that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def publish(self, game_id: str, version: int, owed: bool = False) -> None:
        """A change was committed here: tell this process's listeners and the bridge."""
        change = Change(game_id, version, owed)
        self.deliver(change)
        if self.forward is not None:
            self.forward(change)

    def deliver(self, change: Change) -> None:
        """Tell this process's listeners only (the bridge calls it for other processes')."""
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:
                log.exception("a change listener failed on game %s", change.game_id)


class PostgresBridge:
    """Carries changes between processes over PostgreSQL ``LISTEN/NOTIFY``.

    One connection of its own listens (a pooled connection cannot hold a LISTEN); the same
    connection sends. A payload is ``origin:game_id:version:owed`` (owed 0 or 1): a process
    ignores its own notifications, which its listeners already heard in process."""

    def __init__(self, url: str, changes: Changes) -> None:
        self.url = url
        self.changes = changes
        self.origin = secrets.token_hex(6)
        self._conn: asyncpg.Connection | None = None
        self._sending: set[asyncio.Task[None]] = set()
        #: One operation at a time on the connection (asyncpg refuses a second one meanwhile):
        #: changes committed together are sent one after the other.
        self._one_at_a_time = asyncio.Lock()

    async def open(self) -> None:
        self._conn = await asyncpg.connect(self.url)
        await self._conn.add_listener(CHANNEL, self._heard)
        self.changes.forward = self._send

    async def close(self) -> None:
        self.changes.forward = None
        if self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()

    def _send(self, change: Change) -> None:
        task = asyncio.get_running_loop().create_task(self._notify(change))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _notify(self, change: Change) -> None:
        payload = f"{self.origin}:{change.game_id}:{change.version}:{int(change.owed)}"
        try:
            async with self._one_at_a_time:
                if self._conn is None:
                    return
                await self._conn.execute("SELECT pg_notify($1, $2)", CHANNEL, payload)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as error:
            # A lost notice: pages poll on reconnect, workers at their next round.
            log.warning("could not send the change of game %s: %s", change.game_id, error)

    def _heard(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        origin, _sep, rest = payload.partition(":")
        rest, _sep, owed = rest.rpartition(":")
        game_id, _sep, version = rest.rpartition(":")
        if origin == self.origin or not game_id or not version.isdigit() or owed not in "01":
            return
        self.changes.deliver(Change(game_id, int(version), owed == "1"))
