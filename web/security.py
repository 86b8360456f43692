"""What every request and answer of the web table goes through, whatever its handler.

In: the client's address (``web.addresses``), its rate limit, and for a POST a check that it
comes from the table's own pages (``Sec-Fetch-Site``, ``Origin``): a page elsewhere cannot
make a visitor's browser move with a hand link it holds. Out: the security headers on every
answer, errors and event streams included, with a Content-Security-Policy that forbids
framing everywhere except on the paths configured to be framed (the Discord Activity's own
pages, framed by Discord only). An error no handler expected is logged and answered 500 with
a page, never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from bot.i18n import _
from web import pages
from web.access_log import shown_path
from web.addresses import CLIENT, Proxies
from web.ratelimit import RateLimit

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: No inline script or style, nothing from elsewhere, no forms to elsewhere.
BASE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'"
)


def content_policy(frame_ancestors: str = "'none'") -> str:
    """The Content-Security-Policy of a page that ``frame_ancestors`` may frame."""
    return f"{BASE_POLICY}; frame-ancestors {frame_ancestors}"


#: The policy of every page that no configuration lets be framed.
CSP = content_policy()


class NotShown(Exception):
    """A page that does not exist for this visitor (no game, not public, web table off)."""


@dataclass(frozen=True)
class Policy:
    """``framing``: path prefixes whose pages may be framed, each with the sources allowed
    to frame them (its ``frame-ancestors``), e.g. the Activity's pages by Discord's origins;
    every other page may be framed by nobody. ``origin``: the origin players open
    (WEB_BASE_URL's), the one a POST may come from besides the request's own host."""

    framing: Mapping[str, str] = field(default_factory=dict)
    origin: str = ""
    #: Other origins the table's own pages are served from: the Activity's, which Discord
    #: serves at ``https://<application id>.discordsays.com`` through its proxy.
    origins: frozenset[str] = frozenset()
    #: The budget a request spends when it is not its address's (the Activity's requests
    #: spend their signed-in player's: behind Discord's proxy many share one address).
    budget: Callable[[web.Request], str | None] | None = None

    def csp_for(self, path: str) -> str:
        for prefix, sources in self.framing.items():
            if path.startswith(prefix):
                return content_policy(sources)
        return CSP

    def same_site(self, request: web.Request) -> bool:
        """Whether a POST comes from the table's own pages: a browser says where a request
        comes from in ``Sec-Fetch-Site`` (all current ones) and ``Origin``; a request that
        carries neither is not a browser's, and holds the link itself."""
        site = request.headers.get("Sec-Fetch-Site")
        if site is not None and site not in ("same-origin", "none"):
            return False
        given = request.headers.get("Origin")
        if given is None:
            return True
        own = {f"{request.scheme}://{request.host}", self.origin, *self.origins}
        return given in own


def origin_of(url: str) -> str:
    """``https://games.example.org`` from ``https://games.example.org/any/path``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def not_found() -> web.Response:
    """The one answer for every page that is not shown, byte for byte."""
    return web.Response(
        status=404,
        text=pages.message_page(
            _("No such table"),
            _("There is no public table here (or its server keeps its games private)."),
        ),
        content_type="text/html",
    )


#: Paths whose files cost no request budget: the scripts, style and SDK every page loads, a
#: few small files from disk that a browser keeps (many players behind one address, as behind
#: Discord's proxy, would spend a shared budget on them before their first move).
FREE_PREFIXES = ("/static/", "/activity/static/")


def free(path: str) -> bool:
    return path.startswith(FREE_PREFIXES)


def middleware(limit: RateLimit, proxies: Proxies, policy: Policy) -> Any:
    def budget_of(request: web.Request) -> str:
        own = policy.budget(request) if policy.budget is not None else None
        return own or request[CLIENT]

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        request[CLIENT] = proxies.of(request)
        if not free(request.path) and not limit.allow(budget_of(request)):
            return web.Response(status=429, text=_("Too many requests; try again in a moment."))
        if request.method == "POST" and not policy.same_site(request):
            return web.Response(status=403, text=_("Moves are made from the table's own pages."))
        try:
            return await handler(request)
        except NotShown:
            return not_found()
        except (web.HTTPException, asyncio.CancelledError):
            raise
        except Exception:
            where = shown_path(request.path)
            log.exception("the web table failed on %s %s", request.method, where)
            return web.Response(
                status=500,
                text=pages.message_page(
                    _("Something went wrong"), _("This page failed; try again in a moment.")
                ),
                content_type="text/html",
            )

    return guard


def headers_hook(policy: Policy) -> Callable[[web.Request, web.StreamResponse], Awaitable[None]]:
    """The security headers, set as every answer is prepared (``on_response_prepare``):
    pages, pictures, event streams, redirects and errors alike."""

    async def secure(request: web.Request, response: web.StreamResponse) -> None:
        response.headers["Content-Security-Policy"] = policy.csp_for(request.path)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"

    return secure
