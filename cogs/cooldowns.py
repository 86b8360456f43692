"""Cooldowns per player on the reads that cost the most: a board picture, a replay GIF, a
game's export. One click a player repeats a hundred times draws once; the others get a
sentence saying when to ask again, and the renderer stays free for the other tables.

The cooldowns are checked before anything is read or drawn, so a flood costs a dictionary
look-up each. They live with the bot (one set per client), in memory: a restart forgets them,
which a cooldown of seconds can afford.
"""

from __future__ import annotations

import math
import time
import weakref
from collections.abc import Callable

import discord

from bot.errors import ServiceError
from bot.i18n import _n

BOARD, GIF, EXPORT = "board", "gif", "export"
#: Seconds for one more request of a kind to come back to a player, and how many may come
#: one after another: a player who looks twice is never refused, a flood is, at once.
SECONDS = {BOARD: 5.0, GIF: 60.0, EXPORT: 20.0}
BURST = {BOARD: 5, GIF: 2, EXPORT: 3}
#: Entries kept before the full ones are swept out.
SWEEP_AT = 10_000


class Cooldowns:
    """A bucket of requests per (player, kind): ``BURST`` of them, one back every
    ``SECONDS``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        #: (player, kind) -> (requests left, when that was counted)
        self._left: dict[tuple[str, str], tuple[float, float]] = {}

    def wait(self, user: str, kind: str) -> float:
        """0 and one request taken, if ``user`` may ask for ``kind`` now; else the seconds
        left to wait (nothing taken)."""
        now = self._clock()
        burst, period = BURST[kind], SECONDS[kind]
        left, at = self._left.get((user, kind), (float(burst), now))
        left = min(float(burst), left + (now - at) / period)
        if left < 1:
            return (1 - left) * period
        if len(self._left) >= SWEEP_AT:
            self._left = {
                key: (n, t)
                for key, (n, t) in self._left.items()
                if n + (now - t) / SECONDS[key[1]] < BURST[key[1]]
            }
        self._left[(user, kind)] = (left - 1, now)
        return 0.0


_OF: weakref.WeakKeyDictionary[discord.Client, Cooldowns] = weakref.WeakKeyDictionary()


def check(interaction: discord.Interaction, kind: str) -> None:
    """Refuse, in a sentence, a ``kind`` of read the player asked for a moment ago."""
    cooldowns = _OF.setdefault(interaction.client, Cooldowns())
    left = cooldowns.wait(str(interaction.user.id), kind)
    if left <= 0:
        return
    n = math.ceil(left)
    sentences = {
        BOARD: _n(
            "You asked for a board a moment ago — ask again in {n} second.",
            "You asked for a board a moment ago — ask again in {n} seconds.",
            n,
        ),
        GIF: _n(
            "A GIF takes a while to draw: you may ask for another in {n} second.",
            "A GIF takes a while to draw: you may ask for another in {n} seconds.",
            n,
        ),
        EXPORT: _n(
            "You exported a game a moment ago — export again in {n} second.",
            "You exported a game a moment ago — export again in {n} seconds.",
            n,
        ),
    }
    raise ServiceError(sentences[kind].format(n=n))
