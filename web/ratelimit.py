"""Requests per address, as token buckets: a burst is fine, a flood is answered 429.

Behind a reverse proxy every request comes from the proxy, so the proxy is expected to pass
the client's address and limit on its own as well (docs/deploy.md); here the peer address is
what is counted, never a header a client could forge."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

#: Addresses remembered at most; the longest idle is forgotten first.
KEEP = 10_000


class RateLimit:
    """``burst`` requests at once per address, refilled at ``per_second``."""

    def __init__(
        self, burst: float = 60, per_second: float = 5, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, address: str) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.per_second)
        allowed = tokens >= 1
        self._buckets[address] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > KEEP:
            self._buckets.popitem(last=False)
        return allowed
