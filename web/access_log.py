"""The web table's access log, with no credential in it.

A hand link is a six-hour credential carried in the path (``/h/<signed link>/…``), and aiohttp's
own access log writes every path with its query string and the client's address. This one
writes the method, the path with a hand link's signed part replaced by ``…``, no query string,
the status, the bytes sent and the time taken; the client's address only when the admin asks
for it (``WEB_ACCESS_LOG=addresses``; docs/privacy.md says so).
"""

from __future__ import annotations

import logging

from aiohttp.abc import AbstractAccessLogger
from aiohttp.web import BaseRequest, StreamResponse

from web.addresses import CLIENT

log = logging.getLogger("web.access")

#: What the log line holds (``WEB_ACCESS_LOG``), passed to aiohttp as its ``access_log_format``.
PATHS, ADDRESSES, OFF = "paths", "addresses", "off"


def shown_path(path: str) -> str:
    """``path`` as logged: a hand link's signed part left out."""
    if path.startswith("/h/"):
        _token, slash, rest = path[3:].partition("/")
        return f"/h/…{slash}{rest}"
    return path


class AccessLog(AbstractAccessLogger):
    """One line per answered request; ``log_format`` is the ``WEB_ACCESS_LOG`` mode."""

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        line = (
            f'"{request.method} {shown_path(request.path)}" {response.status} '
            f"{response.body_length} {time:.3f}s"
        )
        if self.log_format == ADDRESSES:
            line = f"{request.get(CLIENT, request.remote or '?')} {line}"
        self.logger.info("%s", line)

    @property
    def enabled(self) -> bool:
        return self.log_format != OFF and self.logger.isEnabledFor(logging.INFO)
