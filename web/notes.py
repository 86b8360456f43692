"""The mistake notes a teaching table's hand page shows (issue 39): the note a seat's last
confirmed turn earned (worked out in ``bot``: ``bot.presentation.confirm.mistake``), kept
until that seat sends its next turn, as Discord's private note stays until it is dismissed.

They live in this process only: a note is a comment on a move just made, shown on the page
that made it, never something the game holds.
"""

from __future__ import annotations

from collections import OrderedDict

#: Seats whose note is kept at most (the oldest go first): one a learner at a time.
KEPT = 2000


class Notes:
    """The last note of each (game, seat), or none."""

    def __init__(self) -> None:
        self._notes: OrderedDict[tuple[str, str], str] = OrderedDict()

    def sent(self, game_id: str, seat: str, note: str | None) -> None:
        """The seat sent a turn: its note now is ``note`` (None: the earlier one goes)."""
        key = (game_id, seat)
        self._notes.pop(key, None)
        if note is None:
            return
        self._notes[key] = note
        while len(self._notes) > KEPT:
            self._notes.popitem(last=False)

    def of(self, game_id: str, seat: str) -> str | None:
        return self._notes.get((game_id, seat))
