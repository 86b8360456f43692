"""Advice from a seat's own view: what each move is worth, the hint (what to look at, then the
move) and the verdict on a move (the expected score it gives up against the best one).

A teaching table (hints, "that was a mistake" notes, "why not?") builds on this. Like a
decision it reads only the seat's view, its legal moves and its memory (``bot.ai.memory``), so
a hint is the same whatever the hidden cards are, and it is always one of the legal moves.

Every move worth searching is played on the same determinized tables with the same random
draws (common random numbers, as ``hard`` does), its turn finished greedily and followed by
``hard``'s playouts; a move's worth is its mean score there: the final margin over the best
rival where a playout ends the game, the game's evaluation (a margin too) where it stops
short. A loss is thus in points (hearts in Street Art). The effort is fixed per game (tables and
horizon), not a time: the clock is only a cap (``CAP_S``) that a working machine never meets.
The thresholds that make a loss a mistake are set per game by ``python -m bench.ai --verdicts``
against a deeper search (more tables, a longer look) on sampled positions.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from bot.ai.dealing import dealer
from bot.ai.levels import TO_THE_END, TUNING, new_search
from bot.ai.memory import Memory
from bot.ai.search import Search, searchable
from rules import DETERMINIZERS, GAMES, Game

Action = dict[str, Any]
#: Seconds an appraisal may take at most (a hint must answer within 2 s): only a cap.
CAP_S = 1.8
#: Tables each move is played on, per game (Mural is nearly all public: one is enough).
TABLES: dict[str, int] = {"street-art": 48, "artsee": 8, "street-art-mural": 1, "street-kings": 6}
#: Per game, the expected loss (points; hearts in Street Art) above which a move is called a
#: mistake, set by ``bench.ai --verdicts`` on 40 sampled positions a game (80 moves judged:
#: normal's and a random one each) against a search with four times the tables and a horizon
#: two turns longer: the lowest line where most notes are confirmed by the deeper search.
#: Street Art at 2 (agreement 0.94; 2 of 4 notes confirmed; at 1, 16 of 28), ArtSee at 4
#: (0.99; 3 of 3), Mural at 4.5 (1.0, no note; at 3, 0 of 3 confirmed: one table and a short
#: horizon disagree with the longer look), Street Kings at 8 (0.93; 11 of 12). On 40 fresh
#: positions a game, with ``verdict``'s check: agreement 0.95 (2 of 3 notes confirmed), 0.99
#: (3 of 3), 1.0 (2 of 2) and 0.975 (7 of 7).
MISTAKE: dict[str, float] = {
    "street-art": 2.0,
    "artsee": 4.0,
    "street-art-mural": 4.5,
    "street-kings": 8.0,
}
#: How much deeper the search is that checks a loss past the threshold (``verdict``).
CHECK_DEPTH = 2
#: The parts of a move a player looks at first, most telling first: the hint's first step.
FOCUS_KEYS = ("card", "car", "tile", "disc", "discs", "pile", "token", "slot", "victim", "kind")


@dataclass(frozen=True)
class Appraisal:
    """Each searchable move with its expected value for the seat, best first."""

    moves: tuple[Action, ...]
    values: tuple[float, ...]
    capped: bool

    @property
    def best(self) -> Action:
        return self.moves[0]

    def loss(self, move: Action) -> float:
        """What ``move`` gives up against the best move (0 for the best, and for a move not
        worth searching: taking a choice back, a standing order)."""
        if move not in self.moves:
            return 0.0
        return self.values[0] - self.values[self.moves.index(move)]


@dataclass(frozen=True)
class Hint:
    """What to look at (``focus``: the card, car, place... of the move), then the move."""

    focus: dict[str, Any]
    move: Action


@dataclass(frozen=True)
class Verdict:
    """A move's expected loss against the best move, which is named; ``mistake`` when the loss
    passes the game's threshold."""

    move: Action
    best: Action
    loss: float
    mistake: bool


def appraise(
    game_id: str,
    view: dict[str, Any],
    legal: list[Action],
    seed: str,
    memory: Memory | None = None,
    depth: int = 1,
    cap_s: float = CAP_S,
) -> Appraisal:
    """Every move worth searching, valued from the seat's view on ``depth`` times the game's
    tables (and, at a depth above 1, a horizon two turns longer: the deeper search the
    thresholds are set against)."""
    if not legal:
        raise ValueError(f"no legal action to appraise in {game_id}")
    moves = searchable(GAMES[game_id], legal)
    tuning = TUNING[game_id]
    horizon = tuning.horizon if depth == 1 or tuning.horizon == TO_THE_END else tuning.horizon + 2
    rng = random.Random(seed)
    search = new_search(game_id, rng, time.perf_counter() + cap_s * depth)
    if len(moves) == 1:
        return Appraisal(tuple(moves), (0.0,), False)
    deal = dealer(DETERMINIZERS[game_id], game_id, memory)
    player = view["viewer"]
    values: list[list[float]] = [[] for _ in moves]
    #: Moves that, on every table, gave the seat back the same decision with nothing changed.
    idle = [True] * len(moves)
    for _ in range(TABLES[game_id] * depth):
        table = deal(view, player, rng)
        draws = rng.random()
        for i, move in enumerate(moves):
            search.rng, search.breadth = random.Random(draws), tuning.breadth
            end = search.after_move(table, player, move)
            if end is None:
                continue  # a move this table refuses (a hidden card dealt against it)
            idle[i] = idle[i] and changes_nothing(search.game, table, end, player)
            search.breadth = tuning.playout_breadth
            reached = search.playout(end, horizon)
            if reached is not None:
                values[i].append(score(search, reached, player))
        if search.capped:
            break
    means = [statistics.fmean(v) if v else float("-inf") for v in values]
    # A move that changes nothing comes last whatever its playouts said: it only asks the
    # same decision again (Street Kings' shop visit that sells nothing), so the best of the
    # others is worth at least as much, and advice that named it would name it again and
    # again. Its playouts overvalue it when they push what the others start (a race) past
    # the horizon.
    order = sorted(range(len(moves)), key=lambda i: (idle[i] and not all(idle), -means[i]))
    return Appraisal(tuple(moves[i] for i in order), tuple(means[i] for i in order), search.capped)


def changes_nothing(game: Game, before: Any, after: Any, player: str) -> bool:
    """Whether the turn that led from ``before`` to ``after`` leaves ``player`` owing the
    same decision, on a view that shows no change at all."""
    return game.to_move(after) == [player] and game.view(after, player) == game.view(before, player)


def score(search: Search, state: Any, player: str) -> float:
    """The seat's expected score where a line stops: at the game's end its final margin over
    the best rival (not the win's bonus, whose all-or-nothing swings drown a heart or two in
    noise), else the game's evaluation (a margin of score too)."""
    outcome = search.game.outcome(state)
    if outcome is None:
        return search.evaluate(state, player)
    rivals = [points for seat, points in outcome.scores.items() if seat != player]
    return outcome.scores[player] - max(rivals)


def focus(move: Action) -> dict[str, Any]:
    """What a player looks at first for ``move``: its card, car, place...; else its kind."""
    for key in FOCUS_KEYS:
        if key in move:
            return {key: move[key]}
    return {"type": move.get("type")}


def hint(
    game_id: str,
    view: dict[str, Any],
    legal: list[Action],
    seed: str,
    memory: Memory | None = None,
    cap_s: float = CAP_S,
) -> Hint:
    """The best move from the seat's view, and what to look at first."""
    best = appraise(game_id, view, legal, seed, memory, cap_s=cap_s).best
    return Hint(focus(best), best)


def verdict(
    game_id: str,
    view: dict[str, Any],
    legal: list[Action],
    move: Action,
    seed: str,
    memory: Memory | None = None,
    cap_s: float = CAP_S,
) -> Verdict:
    """``move`` judged from the seat's view (the view it was chosen from): its expected loss
    against the best move, and whether that is a mistake for this game. A loss past the
    game's threshold may be the quick search's noise, so it is checked by a search
    ``CHECK_DEPTH`` times deeper on other tables, whose loss and best move the verdict then
    gives: a note must come only for a real mistake."""
    if move not in legal:
        raise ValueError(f"{move!r} is not a legal move here")
    appraisal = appraise(game_id, view, legal, seed, memory, cap_s=cap_s)
    loss = appraisal.loss(move)
    if loss <= MISTAKE[game_id]:
        return Verdict(move, appraisal.best, loss, False)
    check = appraise(game_id, view, legal, f"{seed}:check", memory, CHECK_DEPTH, cap_s)
    loss = check.loss(move)
    return Verdict(move, check.best, loss, loss > MISTAKE[game_id])
