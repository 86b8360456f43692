"""A season's table, worked out from its games alone (pure: no store, no Discord).

Three rules keep the table honest (issue 38), each a function here:
- a player who timed out of a game placed last in it, whatever their stand-in AI made of
  the rest (``places``): stalling a lost game gains nothing;
- the same table of players (the same identities) counts ``REMATCHES`` times a season
  (``counted``): playing the weakest players again and again, or grinding more games, adds
  nothing past that;
- the rank is a conservative rating (``mu - 3 sigma``) over the season's games alone, from
  the model of the all-time ratings (``bot.results.rate_places``), and only players with
  at least the server's minimum of counted games are ranked: volume is not the measure.

Games the all-time ratings leave alone are left alone here too: an unrated game (a teaching
table, whose rows show no rating moved) counts for nobody, and a player who took a hint
(``bot.hints``) is rated as an opponent in that game but gains nothing from it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bot.results import MODEL, rate_places
from bot.seasons.model import SeasonLine
from bot.store.base import ResultRow

#: Games a season counts for one same table of players (see the module's docstring): in a
#: simulation (tests/seasons/test_table.py) a player who only meets the weakest players
#: places above an equally strong player who meets everyone no more often than below.
REMATCHES = 3


@dataclass(frozen=True)
class SeasonSeat:
    player: str
    rated_as: str
    ai: bool
    name: str
    rank: int
    #: Took a hint in this game: an opponent for the others, no change for themselves.
    hinted: bool = False


@dataclass(frozen=True)
class SeasonGame:
    """A finished game of the season: its seats in seat order and who timed out of it."""

    game_id: str
    finished_at: float
    seats: tuple[SeasonSeat, ...]
    timed_out: frozenset[str] = field(default_factory=frozenset)


def games_of(rows: list[ResultRow], timeouts: dict[str, set[str]]) -> list[SeasonGame]:
    """The season's games from their result rows (in the order finished, seats in seat
    order) and who timed out of each."""
    seats: dict[str, list[SeasonSeat]] = {}
    finished: dict[str, float] = {}
    moved: set[str] = set()
    for row in rows:
        seat = SeasonSeat(row.player, row.rated_as, row.ai, row.name, row.rank, row.hinted)
        seats.setdefault(row.game_id, []).append(seat)
        finished[row.game_id] = row.finished_at
        if (row.mu_before, row.sigma_before) != (row.mu_after, row.sigma_after):
            moved.add(row.game_id)
    seats = {game_id: s for game_id, s in seats.items() if game_id in moved}  # rated ones
    return [
        SeasonGame(game_id, finished[game_id], tuple(s), frozenset(timeouts.get(game_id, ())))
        for game_id, s in sorted(seats.items(), key=lambda item: (finished[item[0]], item[0]))
    ]


def places(game: SeasonGame) -> list[int]:
    """Each seat's place for the season: those who timed out share the last place, the
    others keep their order ("1, 2, 2, 4" as ever) ahead of them."""
    stayed = [s for s in game.seats if s.player not in game.timed_out]
    out = []
    for seat in game.seats:
        if seat.player in game.timed_out:
            out.append(len(stayed) + 1)
        else:
            out.append(1 + sum(1 for other in stayed if other.rank < seat.rank))
    return out


def counted(games: list[SeasonGame]) -> list[SeasonGame]:
    """The games that count: each same table of identities ``REMATCHES`` times, the first
    ones finished."""
    seen: Counter[frozenset[str]] = Counter()
    kept = []
    for game in games:
        table = frozenset(seat.rated_as for seat in game.seats)
        seen[table] += 1
        if seen[table] <= REMATCHES:
            kept.append(game)
    return kept


def season_lines(games: list[SeasonGame]) -> list[SeasonLine]:
    """Every human player's season line, best conservative rating first (ties: more games,
    then the id, so the order never wobbles). AI levels are rated as opponents, not listed."""
    ratings: dict[str, tuple[float, float]] = {}
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    names: dict[str, str] = {}
    for game in counted(games):
        seats = list(zip(game.seats, places(game), strict=True))
        before = {s.rated_as: ratings.get(s.rated_as, (MODEL.mu, MODEL.sigma)) for s, _ in seats}
        after = rate_places(before, [(s.rated_as, place) for s, place in seats])
        for seat, _place in seats:
            if seat.hinted:
                after.pop(seat.rated_as, None)
        ratings.update(after)
        for seat, place in seats:
            if not seat.ai and not seat.hinted:
                played[seat.rated_as] += 1
                won[seat.rated_as] += place == 1
                names[seat.rated_as] = seat.name
    lines = [SeasonLine(p, names[p], *ratings[p], games=played[p], wins=won[p]) for p in played]
    return sorted(lines, key=lambda line: (-line.ordinal, -line.games, line.player))
