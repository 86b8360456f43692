"""The mistake notes a teaching table's hand page shows (issue 39): the note a seat's last
confirmed turn earned (worked out in ``bot``: ``bot.presentation.confirm.mistake``), kept
while the game stays where that turn (and the AI seats' turns after it) left it: the seat's
next decision. A move from any door (a Discord panel too) moves the game on, and the note
goes with it.

They live in this process only: a note is a comment on a move just made, shown on the page
that made it, never something the game holds.
"""

from __future__ import annotations

from collections import OrderedDict

#: Seats whose note is kept at most (the oldest go first): one a learner at a time.
KEPT = 2000


class Notes:
    """The last note of each (game, seat), with the game's version it belongs to."""

    def __init__(self) -> None:
        self._notes: OrderedDict[tuple[str, str], tuple[int, str]] = OrderedDict()

    def sent(self, game_id: str, seat: str, note: str | None, version: int) -> None:
        """The seat sent a turn, which left the game at ``version``: its note now is
        ``note`` (None: the earlier one goes)."""
        key = (game_id, seat)
        self._notes.pop(key, None)
        if note is None:
            return
        self._notes[key] = (version, note)
        while len(self._notes) > KEPT:
            self._notes.popitem(last=False)

    def of(self, game_id: str, seat: str, version: int) -> str | None:
        """The seat's note while the game is at the version its turn left it at."""
        kept = self._notes.get((game_id, seat))
        return kept[1] if kept is not None and kept[0] == version else None
