"""Which titles a player holds (pure: no store, no Discord).

Some are read from the player's results whenever asked (a first finished game, ten finished
games in a row without a timeout, a tournament won); the others are earned at a game's end
(a win at a table with a hard AI, a completed teaching table) or given by another player, and
kept (``bot.titles.service``). None counts games played beyond a small threshold, and no table
ranks anyone by them.
"""

from __future__ import annotations

from collections import Counter

from bot.ai import HARD, is_ai_id, level_of
from bot.i18n import N_, _
from bot.store.base import GameRecord, ResultRow

FIRST_GAME = "first-game"
HARD_WIN = "hard-ai-win"
CLEAN_TEN = "ten-clean"
TEACHING = "teaching"
TOURNAMENT_WON = "tournament-won"
#: Given by one player to another at a game's end (one per player per game).
BEST_MOVE = "best-move"
GOOD_SPORT = "good-sport"
GIVEN = (BEST_MOVE, GOOD_SPORT)

#: Each title's name, in the order they are shown.
NAMES = {
    FIRST_GAME: N_("First game finished"),
    HARD_WIN: N_("Beat a hard AI"),
    CLEAN_TEN: N_("Ten games without a timeout"),
    TEACHING: N_("Finished a teaching table"),
    TOURNAMENT_WON: N_("Tournament winner"),
    BEST_MOVE: N_("Best move"),
    GOOD_SPORT: N_("Good sport"),
}
#: Finished games in a row without a timeout that earn ``CLEAN_TEN``.
CLEAN_RUN = 10


def earned_at_end(record: GameRecord, rows: list[ResultRow]) -> list[tuple[str, str]]:
    """The (player, title) a finished game earns its human seats: a win at a table with a
    hard AI seat, and for everyone a completed teaching table (``prefs["teaching"]``)."""
    humans = [row for row in rows if not row.ai]
    hard = any(is_ai_id(seat.user) and level_of(seat.user) == HARD for seat in record.seats)
    out = [(row.player, HARD_WIN) for row in humans if hard and row.winner]
    if record.prefs.get("teaching"):
        out += [(row.player, TEACHING) for row in humans]
    return out


def kept_counts(kept: list[tuple[str, str]]) -> dict[str, int]:
    """How many times each kept (title, game) counts: a given title once a game it was given
    for, a title earned at a game's end once however many games earned it (each game's is
    kept, so that a reader who may see only some of them still sees it)."""
    found = Counter(title for title, _game in kept)
    return {title: n if title in GIVEN else 1 for title, n in found.items()}


def longest_clean_run(rows: list[ResultRow], timed_out: set[str]) -> int:
    """The most finished games in a row (oldest first) the player never timed out of."""
    best = run = 0
    for row in rows:
        run = 0 if row.game_id in timed_out else run + 1
        best = max(best, run)
    return best


def held(
    rows: list[ResultRow], timed_out: set[str], kept: dict[str, int], tournaments_won: int
) -> list[tuple[str, int]]:
    """Every title a player holds on a server and how many times (a given title may come
    more than once), in ``NAMES`` order: from their results (``rows``, oldest first), the
    games they timed out of, the titles kept for them, and the tournaments they won."""
    found = dict(kept)
    if rows:
        found[FIRST_GAME] = 1
    if longest_clean_run(rows, timed_out) >= CLEAN_RUN:
        found[CLEAN_TEN] = 1
    if tournaments_won:
        found[TOURNAMENT_WON] = tournaments_won
    return [(title, found[title]) for title in NAMES if found.get(title)]


def named(held: list[tuple[str, int]]) -> list[str]:
    """The titles held, each in the reader's language ("Best move ×2" for one given twice)."""
    return [_(NAMES[title]) + (f" ×{n}" if n > 1 else "") for title, n in held]
