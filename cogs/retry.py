"""Discord's bad moments, retried (issue 22): a 5xx or a 429 on any route, or a network
fault, is tried again a few times with backoff and jitter. discord.py retries only some of
them itself (500, 502 and 504; a 429 with its ``retry_after``), never a 503 nor a dropped
connection. What still fails after the tries is raised for the caller: a post owed by a
change then waits in the outbox for the delivery worker's next round.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord

from bot import outbox

if TYPE_CHECKING:
    from cogs.messages import Post

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds before the second try (then doubled, with jitter): short, so a mover whose post
#: needed one retry is still answered within Discord's three seconds.
FIRST_WAIT = 0.25


def fresh_kwargs(post: Post) -> Callable[[], dict[str, Any]]:
    """The keyword arguments of ``post`` anew at each call: discord.py closes a file once it
    has sent it, so each try gets its pictures again (read once, here)."""
    pictures = [(f.fp.read(), f.filename, f.description, f.spoiler) for f in post.files]

    def kwargs() -> dict[str, Any]:
        out = post.kwargs()
        if pictures:
            out["files"] = [
                discord.File(io.BytesIO(data), name, description=text, spoiler=spoiler)
                for data, name, text, spoiler in pictures
            ]
        return out

    return kwargs


def transient(error: BaseException) -> bool:
    """Whether trying again later may succeed: Discord's 5xx and 429, or the network."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, aiohttp.ClientError | asyncio.TimeoutError | ConnectionError)


async def retrying(
    send: Callable[[], Awaitable[T]], *, tries: int = outbox.TRIES, first_wait: float = FIRST_WAIT
) -> T:
    """``send()`` until it succeeds, at most ``tries`` times while its errors are transient
    (``send`` makes its request anew each time: a file is read again)."""
    for attempt in range(1, tries + 1):
        try:
            return await send()
        except Exception as error:
            if attempt == tries or not transient(error):
                raise
            wait = outbox.backoff(attempt, first_wait)
            log.info("Discord failed (%s); trying again in %.2f s", error, wait)
            await asyncio.sleep(wait)
    raise AssertionError("unreachable: the last try returns or raises")
