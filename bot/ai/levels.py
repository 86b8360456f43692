"""The three levels of play, and ``decide``: one decision from a seat's view and legal moves.

``decide`` takes plain JSON arguments and returns a plain action, so it runs as well in a worker
process (a pool calls the top-level function) as in a thread; it is pure in its arguments, the
clock aside (``hard`` searches until its budget is spent).

- ``easy``: a random legal move, a pass (the game's ``passive_actions``) only when nothing else
  is legal: what every AI seat played before levels.
- ``normal``: a greedy turn: each move is judged by the position at the end of the turn it
  starts, the rest of the turn taken greedily, on a few determinized tables.
- ``hard``: the best few ``normal`` moves, each followed on fresh determinized tables by rollouts
  of the other players' replies, played as ``normal``'s greedy turns, until the budget is spent
  (determinized rollouts; OpenSpiel's information-set MCTS is the fuller method).
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
#: How many standard errors ahead of ``normal``'s choice a ``hard`` rollout must show another.
CONFIDENCE = 2.0


@dataclass(frozen=True)
class Tuning:
    """Per game: the tables ``normal`` samples, the moves tried at each later step of a turn,
    ``hard``'s candidate moves and the most turns of others its rollouts play."""

    samples: int
    breadth: int
    candidates: int
    horizon: int


TUNING: dict[str, Tuning] = {
    "street-art": Tuning(samples=4, breadth=6, candidates=4, horizon=4),
    # ArtSee's rollouts of the replies made hard lose to normal (3 of 10 in the league): with
    # no reply played, hard judges normal's candidates again on many more tables.
    "artsee": Tuning(samples=3, breadth=12, candidates=4, horizon=0),
    "street-art-mural": Tuning(samples=1, breadth=14, candidates=4, horizon=3),
    "street-kings": Tuning(samples=2, breadth=12, candidates=4, horizon=4),
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
    return roll_out(search, view, candidates, tuning.horizon)


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
    search: Search, view: dict[str, Any], candidates: list[Action], horizon: int
) -> Action:
    """``hard``: ``normal``'s choice (the first candidate) unless rollouts show another one
    better. Each round of rollouts plays every candidate on one fresh determinized table, so
    candidates are compared table by table; another candidate wins only if its mean lead over
    the first is more than ``CONFIDENCE`` standard errors of that lead."""
    if len(candidates) == 1:
        return candidates[0]
    player = view["viewer"]
    leads: list[list[float]] = [[] for _ in candidates]
    while not search.out_of_time():
        table = DETERMINIZERS[search.game.id](view, player, search.rng)
        values: list[float | None] = []
        for move in candidates:
            end = search.after_move(table, player, move)
            rolled = None if end is None else search.rollout(end, player, horizon)
            values.append(None if rolled is None else search.value(rolled, player))
            if search.out_of_time():
                break
        if len(values) < len(candidates) or values[0] is None:
            continue
        for i, value in enumerate(values):
            if value is not None:
                leads[i].append(value - values[0])
    best, best_lead = 0, 0.0
    for i, lead in enumerate(leads[1:], 1):
        if len(lead) < 2:
            continue
        mean = statistics.fmean(lead)
        error = statistics.stdev(lead) / math.sqrt(len(lead))
        if mean > best_lead and mean > CONFIDENCE * error:
            best, best_lead = i, mean
    return candidates[best]
