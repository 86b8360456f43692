"""One answer per key, shared by everyone who asks while it is being made.

When a move lands, every open page asks for the same new fragment at once; without sharing,
each request would replay the game's log and lay out the page again. Keys name a game at a
version, so an answer never goes stale: a later version is another key."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

#: Answers kept, newest used last.
KEEP = 128


class Memo:
    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._answers: OrderedDict[Hashable, asyncio.Future[Any]] = OrderedDict()

    async def get(self, key: Hashable, make: Callable[[], Awaitable[Any]]) -> Any:
        found = self._answers.get(key)
        if found is None:
            found = asyncio.ensure_future(make())
            self._answers[key] = found
            found.add_done_callback(lambda done: self._forget_failure(key, done))
            while len(self._answers) > self.keep:
                self._answers.popitem(last=False)
        else:
            self._answers.move_to_end(key)
        return await asyncio.shield(found)

    def _forget_failure(self, key: Hashable, done: asyncio.Future[Any]) -> None:
        """A failed answer is not kept: the next request tries again."""
        if (done.cancelled() or done.exception() is not None) and self._answers.get(key) is done:
            del self._answers[key]
