"""The three levels of play, and ``decide``: one decision from a seat's view and legal moves.

``decide`` takes plain JSON arguments and returns a plain action, so it runs as well in a worker
process (a pool calls the top-level function) as in a thread; it is pure in its arguments. A
level is an amount of search (tables sampled, rounds of rollouts), not a time, so it plays the
same on a slow or busy machine; the budget is only a cap, reached only when the machine is too
slow for the level's search.

- ``easy``: a random legal move, a pass (the game's ``passive_actions``) only when nothing else
  is legal: what every AI seat played before levels.
- ``normal``: a greedy turn: each move is judged by the position at the end of the turn it
  starts, the rest of the turn taken greedily, on a few determinized tables.
- ``hard``: the best few ``normal`` moves, compared on up to ``iterations`` fresh determinized
  tables (flat Monte Carlo over deals: every candidate on the same table), each move followed
  by a playout of everyone's greedy turns (``normal``'s policy on that table) for ``horizon``
  turns or to the game's end, then judged. Candidates clearly worse than the best (a paired
  confidence bound) drop out, and the search stops as soon as one is left; a forced move is
  played at once. ``normal``'s choice stands unless the search drops it.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from bot.ai.evaluate import EVALUATIONS
from bot.ai.search import TIE_DIGITS, Search, searchable
from bot.ai.seats import EASY, HARD, LEVELS, NORMAL
from rules import DETERMINIZERS, GAMES, Game

Action = dict[str, Any]
#: Seconds a ``hard`` decision may take unless told otherwise (the setting AI_BUDGET_SECONDS).
DEFAULT_BUDGET = 1.0
#: ``normal`` stops sampling tables after this share of the budget, ``hard`` leaves its rollouts
#: this share of it as margin: a decision must not overrun its budget by the last sample.
NORMAL_SHARE = 0.3
MARGIN = 0.1
#: How many standard errors behind the best a ``hard`` candidate's mean lead must fall to drop.
CONFIDENCE = 2.0
#: Rounds before any candidate may be dropped (a standard error of fewer is no evidence).
MIN_ROUNDS = 8


@dataclass(frozen=True)
class Tuning:
    """Per game: the tables ``normal`` samples, the moves tried at each later step of a turn;
    ``hard``'s candidate moves, the turns its playouts run (``None``: to the end), the most
    rounds of its search (its level of effort) and the moves tried at each step of a playout."""

    samples: int
    breadth: int
    candidates: int
    horizon: int | None
    iterations: int
    hard_breadth: int = 12


TUNING: dict[str, Tuning] = {
    # Street Art is short and cheap to play out: hard plays every candidate to the game's end.
    "street-art": Tuning(
        samples=4, breadth=6, candidates=4, horizon=None, iterations=24, hard_breadth=3
    ),
    # ArtSee: six turns of everyone after the move (three rounds of two players).
    "artsee": Tuning(samples=3, breadth=12, candidates=4, horizon=6, iterations=16),
    # Mural's turns are long and costly to play: a short horizon and few tables.
    "street-art-mural": Tuning(
        samples=1, breadth=14, candidates=4, horizon=2, iterations=8, hard_breadth=6
    ),
    "street-kings": Tuning(samples=2, breadth=12, candidates=4, horizon=4, iterations=24),
}


def decide(
    game_id: str,
    level: str,
    view: dict[str, Any],
    legal: list[Action],
    seed: str,
    budget_s: float = DEFAULT_BUDGET,
) -> Action:
    """One of ``legal``, chosen at ``level`` by the seat whose ``view`` this is (its
    ``viewer``). ``seed`` makes the choice repeatable; ``budget_s`` bounds ``hard``'s search."""
    if not legal:
        raise ValueError(f"no legal action to choose from in {game_id}")
    if level not in LEVELS:
        raise ValueError(f"no AI level {level!r} (levels: {', '.join(LEVELS)})")
    game = GAMES[game_id]
    rng = random.Random(seed)
    if level == EASY:
        return random_move(game, legal, rng)
    moves = searchable(game, legal)
    if len(moves) == 1:
        return moves[0]
    tuning = TUNING[game_id]
    start = time.perf_counter()
    share = NORMAL_SHARE if level == HARD else 1.0
    search = Search(
        game=game,
        evaluate=EVALUATIONS[game_id],
        rng=rng,
        breadth=tuning.breadth,
        deadline=start + share * budget_s,
    )
    prior = judge(search, view, moves, tuning.samples)
    passive = game.passive_actions
    # Best first; between equals, giving up (a pass) first: a move that changes nothing must
    # not be taken again and again (a shop visit that buys nothing, round after round).
    ranked = sorted(
        range(len(moves)),
        key=lambda i: (-round(prior[i], TIE_DIGITS), moves[i].get("type") not in passive),
    )
    if level == NORMAL:
        return moves[ranked[0]]
    search.deadline = start + (1 - MARGIN) * budget_s
    ruled_out = float("-inf")
    top = [i for i in ranked[: tuning.candidates] if prior[i] > ruled_out] or ranked[:1]
    candidates = [moves[i] for i in top]
    return roll_out(search, view, candidates, tuning)


def random_move(game: Game, legal: list[Action], rng: random.Random) -> Action:
    """``easy``: any move that does something, a pass only as the last resort."""
    passive = game.passive_actions
    active = [action for action in legal if action.get("type") not in passive]
    return rng.choice(active or legal)


def judge(search: Search, view: dict[str, Any], moves: list[Action], samples: int) -> list[float]:
    """``normal``: each move's mean value at the end of its turn over ``samples`` determinized
    tables (fewer if the clock runs out; always one). A move whose turn leaves the player's view
    as it was is no move (a shop visit that buys nothing, to put off a race one cannot enter):
    it ranks last, so such a loop cannot go on for ever."""
    player = view["viewer"]
    totals = [0.0] * len(moves)
    counts = [0] * len(moves)
    idle = [True] * len(moves)
    for _ in range(samples):
        table = DETERMINIZERS[search.game.id](view, player, search.rng)
        seen = search.game.view(table, player)
        for i, move in enumerate(moves):
            end = search.after_move(table, player, move)
            if end is not None:
                totals[i] += search.value(end, player)
                counts[i] += 1
                idle[i] = idle[i] and search.game.view(end, player) == seen
        if search.out_of_time():
            break
    return [
        float("-inf") if not c or (still and not all(idle)) else t / c
        for t, c, still in zip(totals, counts, idle, strict=True)
    ]


def roll_out(
    search: Search, view: dict[str, Any], candidates: list[Action], tuning: Tuning
) -> Action:
    """``hard``: flat Monte Carlo over determinized tables. Each round deals one table and plays
    every live candidate on it, each followed by ``tuning.horizon`` greedy turns of everyone
    (to the end of the game if ``None``), and scores the position reached. A candidate whose
    mean lead over the best falls ``CONFIDENCE`` standard errors short is dropped; the search
    stops when one is left, after ``tuning.iterations`` rounds, or at the deadline."""
    player = view["viewer"]
    live = list(range(len(candidates)))
    search.breadth = tuning.hard_breadth
    values: list[list[float]] = [[] for _ in candidates]
    rounds = 0
    for _ in range(2 * tuning.iterations):
        if rounds >= tuning.iterations or len(live) == 1 or search.out_of_time():
            break
        table = DETERMINIZERS[search.game.id](view, player, search.rng)
        seed = search.rng.random()
        row: dict[int, float] = {}
        for i in live:
            search.rng.seed(seed)
            end = search.after_move(table, player, candidates[i])
            if end is None or search.out_of_time():
                break
            reached = search.playout(end, tuning.horizon)
            if reached is None:
                break
            row[i] = search.value(reached, player)
        if len(row) < len(live):
            continue
        rounds += 1
        for i, value in row.items():
            values[i].append(value)
        if rounds >= MIN_ROUNDS:
            live = survivors(live, values)
    # Normal's choice stands unless the search dropped it as clearly worse.
    if 0 in live:
        return candidates[0]
    return candidates[max(live, key=lambda i: statistics.fmean(values[i]))]


def survivors(live: list[int], values: list[list[float]]) -> list[int]:
    """The candidates not clearly worse than the best by mean, compared round by round."""
    best = max(live, key=lambda i: statistics.fmean(values[i]))
    kept = []
    for i in live:
        if i == best:
            kept.append(i)
            continue
        leads = [a - b for a, b in zip(values[i], values[best], strict=True)]
        error = statistics.stdev(leads) / math.sqrt(len(leads))
        if statistics.fmean(leads) + CONFIDENCE * error >= 0:
            kept.append(i)
    return kept
