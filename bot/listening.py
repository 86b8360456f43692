"""The base of a part of the bot kept beside the game service (seasons, titles, tournaments):
it reads and writes through the same store, on the same clock, and hears of every finished game
and timeout (``GameService.listeners``)."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.service import GameService
from bot.store.base import GameRecord


class Listening:
    """``listen``: whether this instance is told of finished games and timeouts: the bot's one
    instance is; a reader (the web table's) is not, or it would act on each game twice."""

    def __init__(
        self, games: GameService, clock: Callable[[], float] = time.time, *, listen: bool = True
    ) -> None:
        self.games = games
        self.store = games.store
        self._clock = clock
        if listen:
            games.listeners.append(self.heard)

    async def heard(self, record: GameRecord, timed_out: list[str]) -> None:
        """A game ended, or timed ``timed_out`` out."""
        raise NotImplementedError
