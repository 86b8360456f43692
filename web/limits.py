"""What the web table holds open at most, so that no visitor can starve the process.

A process has a fixed number of open files (``RLIMIT_NOFILE``), and inside the bot the same
files also serve Discord's and the database's sockets. Every connection takes one, and an event
stream holds its connection for as long as the page stays open. So: connections are capped
(in all, and per peer address), from the file limit down, leaving the rest of the files to the
process; event streams are capped in all and per client, leaving connections for the pages;
and a connection that has not sent its request's headers within ``HEADER_SECONDS`` is closed.
A connection past the cap gets a short 503 and is closed at once, before it costs anything.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_protocol import RequestHandler
from multidict import MultiDictProxy

from bot.i18n import _

log = logging.getLogger(__name__)

#: Seconds a connection may take to send a request's headers (and stay idle between two
#: requests): aiohttp's keep-alive timer, which it also starts when a connection opens.
HEADER_SECONDS = 10.0
#: Seconds a write to an event stream may wait for a reader that does not read.
WRITE_SECONDS = 10.0
#: Seconds a move's form may take to arrive once its headers have.
BODY_SECONDS = 10.0
#: Open files kept for everything but the web table's connections (database, Discord, worker
#: pipes, logs), or this share of the limit if it is more.
RESERVED_FILES = 64
RESERVED_SHARE = 0.25
#: The answer to a connection past the cap: short, closed, and no page to build.
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 33\r\n"
    b"Retry-After: 5\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
    b"Too busy; try again in a moment.\n"
)


def open_file_limit() -> int:
    """The process's soft limit on open files."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


@dataclass(frozen=True)
class Caps:
    """How much the web table may hold: ``connections`` in all, ``per_peer`` from one peer
    address (a trusted proxy's are not counted), ``streams`` in all, ``streams_per_client``
    from one client."""

    connections: int
    per_peer: int
    streams: int
    streams_per_client: int
    #: The listening socket's backlog, which is also how many connections asyncio accepts in
    #: one go when the socket turns readable, each taking a file before the guard can turn it
    #: away: a burst of them must fit in the reserve (it was 100, beyond a small process's).
    backlog: int = 128

    @classmethod
    def for_process(
        cls, max_connections: int, streams_per_client: int, files: int | None = None
    ) -> Caps:
        """Caps that fit this process's open files (``files``: its limit, read if None):
        connections up to ``max_connections`` and never into the reserve; half of them for
        streams; a quarter of them per peer; a backlog (a burst of accepts) of a quarter of
        the reserve."""
        files = open_file_limit() if files is None else files
        reserve = max(RESERVED_FILES, int(files * RESERVED_SHARE))
        connections = max(4, min(max_connections, files - reserve))
        return cls(
            connections=connections,
            per_peer=max(2, connections // 4),
            streams=max(1, connections // 2),
            streams_per_client=streams_per_client,
            backlog=max(4, min(128, reserve // 4)),
        )


class StreamsFull(Exception):
    """No room for another event stream (``everyone``: the cap in all, else the client's)."""

    def __init__(self, everyone: bool) -> None:
        super().__init__("streams in all" if everyone else "streams of one client")
        self.everyone = everyone


class Streams:
    """The open event streams, in all and per client."""

    def __init__(self, caps: Caps) -> None:
        self.caps = caps
        self.by_client: Counter[str] = Counter()
        #: Streams refused since the start (for a test, or an admin's metrics).
        self.refused = 0

    @property
    def open(self) -> int:
        return self.by_client.total()

    def take(self, client: str) -> None:
        """Count one more stream of ``client``, or raise ``StreamsFull``."""
        if self.open >= self.caps.streams or self.by_client[client] >= self.caps.streams_per_client:
            self.refused += 1
            raise StreamsFull(self.open >= self.caps.streams)
        self.by_client[client] += 1

    def give_back(self, client: str) -> None:
        self.by_client[client] -= 1
        if self.by_client[client] <= 0:
            del self.by_client[client]


class ConnectionGuard:
    """Counts the server's connections and turns away those past the caps.

    It wraps the two calls aiohttp's ``Server`` gets from each connection's ``RequestHandler``
    (``connection_made``, ``connection_lost``): a connection turned away is never counted,
    gets ``BUSY`` and is closed before its handler reads a byte."""

    def __init__(self, caps: Caps, trusted: Callable[[str], bool]) -> None:
        self.caps = caps
        self.trusted = trusted
        self.by_peer: Counter[str] = Counter()
        self._peers: dict[RequestHandler, str] = {}
        #: Connections turned away since the start.
        self.refused = 0

    @property
    def open(self) -> int:
        return len(self._peers)

    def install(self, server: web.Server) -> None:
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: RequestHandler, transport: asyncio.Transport) -> None:
            peer = peer_of(transport)
            if self._full(peer):
                self.refused += 1
                made(handler, transport)  # aiohttp's handler expects its server to know it
                transport.write(BUSY)
                # Closed once the handler has started (it asserts its server on start), before
                # it reads a byte of the request.
                asyncio.get_running_loop().call_soon(handler.force_close)
                return
            self._peers[handler] = peer
            self.by_peer[peer] += 1
            made(handler, transport)

        def connection_lost(handler: RequestHandler, exc: BaseException | None = None) -> None:
            peer = self._peers.pop(handler, None)
            if peer is not None:
                self.by_peer[peer] -= 1
                if self.by_peer[peer] <= 0:
                    del self.by_peer[peer]
            lost(handler, exc)

        # aiohttp offers no hook for this: the server's own two methods, wrapped.
        server.connection_made = connection_made  # type: ignore[method-assign]
        server.connection_lost = connection_lost  # type: ignore[method-assign]

    def _full(self, peer: str) -> bool:
        if self.open >= self.caps.connections:
            return True
        return not self.trusted(peer) and self.by_peer[peer] >= self.caps.per_peer


def peer_of(transport: Any) -> str:
    """The address at the other end of a connection."""
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


#: Digits a number of ours may have in a form (a version, an index): more is no number of ours.
FORM_DIGITS = 12


async def posted_form(
    request: web.Request,
) -> MultiDictProxy[str | bytes | bytearray | web.FileField]:
    """A POST's form, read safely: a body that is not UTF-8 or a broken multipart is a 400, and
    one that takes longer than ``BODY_SECONDS`` to arrive a 408, never a 500."""
    try:
        return await asyncio.wait_for(request.post(), BODY_SECONDS)
    except TimeoutError as error:
        raise web.HTTPRequestTimeout(text=_("The form took too long to arrive.")) from error
    except (HttpProcessingError, ValueError, AssertionError, LookupError) as error:
        raise web.HTTPBadRequest(text=_("That form cannot be read.")) from error


def whole(field: str) -> int:
    """A form field that must be a whole number of ours; anything else is a 400."""
    if not (field.isascii() and field.isdigit() and len(field) <= FORM_DIGITS):
        raise web.HTTPBadRequest(text=_("That form cannot be read."))
    return int(field)
