"""Which game a player last pressed Play on, per channel: the Activity lists it first.

A launch through Discord carries nothing but the channel (interaction callback type 12 has no
data), so the Discord layer notes the game here when it launches, and the Activity's list,
served by the same process, reads it back. It is a hint, kept in memory for a few minutes: a
web table in a process of its own (``python -m bot web``) lists the player's waiting games
first instead.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

#: Seconds a launch is remembered: the Activity opens within seconds of the press.
LAUNCH_SECONDS = 600.0
#: Launches remembered at most (the oldest forgotten first).
KEEP = 10_000


class Launches:
    """(player, channel) -> the game of their last Play press there, and when."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._games: OrderedDict[tuple[str, str], tuple[str, float]] = OrderedDict()

    def remember(self, user: str, channel: str, game_id: str) -> None:
        self._games[(user, channel)] = (game_id, self.clock())
        self._games.move_to_end((user, channel))
        while len(self._games) > KEEP:
            self._games.popitem(last=False)

    def clicked(self, user: str, channel: str) -> str | None:
        """The game ``user`` last pressed Play on in ``channel``, if recently."""
        found = self._games.get((user, channel))
        if found is None or self.clock() - found[1] > LAUNCH_SECONDS:
            return None
        return found[0]


#: This process's launches (the bot and its web table share it).
LAUNCHES = Launches()
