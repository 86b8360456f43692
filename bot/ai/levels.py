"""The three levels of play, and ``decide``: one decision from a seat's view and legal moves.

``decide`` takes plain JSON arguments and returns a plain action, so it runs as well in a worker
process (a pool calls the top-level function) as in a thread. A level is an amount of search
(tables dealt, turns looked ahead), not a time, so it plays the same on a slow or busy machine
and is pure in its arguments; the budget is only a cap, reached when the machine is too slow for
the level's search (then the search stops where it is).

- ``easy``: a random legal move, a pass (the game's ``passive_actions``) only when nothing else
  is legal: what every AI seat played before levels.
- ``normal``: a greedy turn: each move is judged by the position at the end of the turn it
  starts, the rest of the turn taken greedily, on a few determinized tables.
- ``hard``: a deeper horizon. ``normal``'s best few moves are each played, with the rest of
  their turn, on the same determinized tables, followed by a few turns of everyone's greedy
  play (its own later turns included; in Street Art, the game's cheap rollout policy up to the
  end), and judged where that leaves the table. One-turn
  judgement misses what a move sets up or gives away for the next turns; this is where ``hard``
  gains. A forced move is played at once, and the search stops as soon as one move is clearly
  best (a paired confidence bound). OpenSpiel's information-set MCTS is the fuller method.
  In Mural, whose turns are chains of small choices that greedy steps cannot tell apart,
  ``hard`` compares whole turns instead (``bot.ai.mural``).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from bot.ai import mural
from bot.ai.dealing import Dealer, dealer
from bot.ai.evaluate import EVALUATIONS
from bot.ai.memory import Memory
from bot.ai.rollouts import PLAYOUTS
from bot.ai.search import TIE_DIGITS, Search, searchable
from bot.ai.seats import EASY, HARD, LEVELS, NORMAL
from rules import DETERMINIZERS, GAMES, Game

Action = dict[str, Any]
#: Seconds a ``hard`` decision may take unless told otherwise (the setting AI_BUDGET_SECONDS).
DEFAULT_BUDGET = 1.0
#: ``normal`` stops sampling tables after this share of the budget, ``hard`` leaves this share of
#: it as margin: a decision must not overrun its budget by the last table.
NORMAL_SHARE = 0.3
MARGIN = 0.2
#: How many standard errors behind the best a ``hard`` candidate's mean must fall to drop out.
CONFIDENCE = 2.0
#: Tables before any candidate may drop out (a standard error of fewer is no evidence).
MIN_TABLES = 4


@dataclass(frozen=True)
class Tuning:
    """Per game: the tables ``normal`` samples and the moves tried at each later step of a turn;
    ``hard``'s candidate moves, the most tables it plays them on (its effort), the turns of
    everyone's greedy play after each move and the moves tried at each step of those turns;
    and, where a decision's work varies widely (Mural), the most moves ``hard``'s decision may
    play through the rules (``effort``), which bounds its longest searches as the clock would,
    but the same on every machine."""

    samples: int
    breadth: int
    candidates: int
    tables: int
    horizon: int
    playout_breadth: int
    effort: int | None = None


#: The game whose ``hard`` compares whole turns (``bot.ai.mural``).
MURAL = "street-art-mural"
#: A horizon no game reaches: the playouts run to the game's end.
TO_THE_END = 200

TUNING: dict[str, Tuning] = {
    # Street Art is luck: the game's outcome tells more than a few turns ahead, and many
    # tables are needed to see it. Its playouts run to the end, every seat moved by the rollout
    # policy (``bot.ai.rollouts``: the most hearts at once, a little noise), which is cheap (no
    # position judged on the way) and, unlike the random moves it replaced, steals a card left
    # showing as a player would. Every card in hand is a candidate: a quiet card (a Brass Band,
    # Fireworks) that normal ranks last is often the one that leaves nothing to steal. On one
    # dev seed (N=150): random playouts 0.54, this with normal's best 4 0.62 (0.59 on a fresh
    # seed, N=60), with every card 0.66 over the first 114; two turns ahead, 0.56-0.58. With
    # the true hands and draws (a ceiling no seat may use) two turns ahead reach 0.68 and
    # playouts to the end 0.84: the hidden cards, more than the search, hold it back. So hard
    # now deals from the seat's memory (``bot.ai.dealing``: no buried card in a rival's hand,
    # the rivals' hands leaning to what they opened their last turn with). 48 tables, not 64:
    # with the memory a decision costs a p95 of about 0.3 s of CPU on a busy machine, so at a
    # load of 4 (half a core) it stays under the cap.
    "street-art": Tuning(
        samples=4, breadth=6, candidates=5, tables=48, horizon=TO_THE_END, playout_breadth=1
    ),
    # ArtSee: two rounds of both players after the move; a six-turn look at more tables won no
    # more in the dev leagues (0.80 and 0.83) and cost three times as much.
    "artsee": Tuning(samples=3, breadth=12, candidates=3, tables=8, horizon=4, playout_breadth=3),
    # Mural: whole turns compared (``bot.ai.mural``): every chain of its main action on one
    # table (nearly all of Mural is public), the best 6 by hard's own evaluation met by the
    # rival's best plan and then its own next one, every move tried in the greedy rests of
    # turns. Normal's first steps, each finished greedily, tied too often to gain (0.61 over
    # 80 games); the rival's greedy answer alone, 0.675 over 160 dev games; this, 0.84 over
    # 80 dev games and 0.775 on a fresh seed (m2final-1922, N=40). Its work varies widely (a
    # median decision plays about 200 moves, one in twenty over 1,500): at most 600 plays
    # bring the p95 of a decision's CPU from about 0.5 s to 0.3 s, so that at a load of 4 the
    # clock's cap seldom fires, and change 1.4 % of its moves (9 of 656 on six dev games).
    "street-art-mural": Tuning(
        samples=1,
        breadth=14,
        candidates=6,
        tables=1,
        horizon=2,
        playout_breadth=mural.EVERY_MOVE,
        effort=600,
    ),
    # Street Kings: hard led normal already when it played the rival's replies; two rounds of
    # everyone keep the lead (1.0 in the dev league).
    "street-kings": Tuning(
        samples=2, breadth=12, candidates=3, tables=8, horizon=4, playout_breadth=4
    ),
}


@dataclass(frozen=True)
class Choice:
    """A decision and whether the clock cut its search short (``capped``): a level is set by
    effort, so the cap should almost never fire; the benches count how often it does."""

    action: Action
    capped: bool = False


def decide(
    game_id: str,
    level: str,
    view: dict[str, Any],
    legal: list[Action],
    seed: str,
    budget_s: float = DEFAULT_BUDGET,
    memory: Memory | None = None,
) -> Action:
    """One of ``legal``, chosen at ``level`` by the seat whose ``view`` this is (its
    ``viewer``). ``seed`` makes the choice repeatable; ``budget_s`` bounds ``hard``'s search.
    ``memory`` is what the seat saw of the game so far (``bot.ai.memory``), read by ``hard``."""
    return choose(game_id, level, view, legal, seed, budget_s, memory).action


def choose(
    game_id: str,
    level: str,
    view: dict[str, Any],
    legal: list[Action],
    seed: str,
    budget_s: float = DEFAULT_BUDGET,
    memory: Memory | None = None,
) -> Choice:
    """``decide``, telling also whether the budget's cap fired."""
    if not legal:
        raise ValueError(f"no legal action to choose from in {game_id}")
    if level not in LEVELS:
        raise ValueError(f"no AI level {level!r} (levels: {', '.join(LEVELS)})")
    game = GAMES[game_id]
    rng = random.Random(seed)
    if level == EASY:
        return Choice(random_move(game, legal, rng))
    moves = searchable(game, legal)
    if len(moves) == 1:
        return Choice(moves[0])
    tuning = TUNING[game_id]
    start = time.perf_counter()
    share = NORMAL_SHARE if level == HARD else 1.0
    search = new_search(game_id, rng, start + share * budget_s)
    if level == HARD:
        search.effort = tuning.effort
    # Only ``hard`` reads the seat's memory: ``normal`` plays as it always has.
    deal = dealer(DETERMINIZERS[game_id], game_id, memory if level == HARD else None)
    prior = judge(search, view, moves, tuning.samples, deal)
    passive = game.passive_actions
    # Best first; between equals, giving up (a pass) first: a move that changes nothing must
    # not be taken again and again (a shop visit that buys nothing, round after round).
    ranked = sorted(
        range(len(moves)),
        key=lambda i: (-round(prior[i], TIE_DIGITS), moves[i].get("type") not in passive),
    )
    if level == NORMAL:
        return Choice(moves[ranked[0]], search.capped)
    search.deadline = start + (1 - MARGIN) * budget_s
    if game_id == MURAL:
        table = DETERMINIZERS[game_id](view, view["viewer"], rng)
        pick = mural.choose(
            search,
            table,
            view["viewer"],
            moves,
            ranked,
            tuning.candidates,
            tuning.horizon,
            tuning.playout_breadth,
        )
        return Choice(moves[pick], search.capped)
    top = [i for i in ranked[: tuning.candidates] if prior[i] > float("-inf")] or ranked[:1]
    pick = top[look_ahead(search, view, [moves[i] for i in top], tuning, deal)]
    return Choice(moves[pick], search.capped)


def new_search(game_id: str, rng: random.Random, deadline: float) -> Search:
    """A search of ``game_id`` with its evaluation, rollout policy and ``normal``'s breadth."""
    return Search(
        game=GAMES[game_id],
        evaluate=EVALUATIONS[game_id],
        rng=rng,
        breadth=TUNING[game_id].breadth,
        deadline=deadline,
        rollout=PLAYOUTS.get(game_id),
    )


def random_move(game: Game, legal: list[Action], rng: random.Random) -> Action:
    """``easy``: any move that does something, a pass only as the last resort."""
    passive = game.passive_actions
    active = [action for action in legal if action.get("type") not in passive]
    return rng.choice(active or legal)


def judge(
    search: Search, view: dict[str, Any], moves: list[Action], samples: int, deal: Dealer
) -> list[float]:
    """``normal``: each move's mean value at the end of its turn over ``samples`` determinized
    tables (fewer if the clock runs out; always one). A move whose turn leaves the player's view
    as it was is no move (a shop visit that buys nothing, to put off a race one cannot enter):
    it ranks last, so such a loop cannot go on for ever."""
    player = view["viewer"]
    totals = [0.0] * len(moves)
    counts = [0] * len(moves)
    idle = [True] * len(moves)
    for _ in range(samples):
        table = deal(view, player, search.rng)
        seen = search.game.view(table, player)
        for i, move in enumerate(moves):
            end = search.after_move(table, player, move)
            if end is not None:
                totals[i] += search.value(end, player)
                counts[i] += 1
                idle[i] = idle[i] and search.game.view(end, player) == seen
        if search.must_stop():
            break
    return [
        float("-inf") if not c or (still and not all(idle)) else t / c
        for t, c, still in zip(totals, counts, idle, strict=True)
    ]


def look_ahead(
    search: Search, view: dict[str, Any], candidates: list[Action], tuning: Tuning, deal: Dealer
) -> int:
    """``hard``: the index of the candidate (best ``normal`` move first) worth most after its
    turn and ``tuning.horizon`` greedy turns of everyone, own turns included, on average over
    up to ``tuning.tables`` determinized tables. Every candidate is played on the same table
    with the same random draws (common random numbers), so two candidates differ by their move
    and not by luck; one that falls clearly behind the best drops out, and the search stops
    when a single candidate is left, when every candidate has led to the same values so far
    (nothing to choose), or at the budget's cap."""
    if len(candidates) == 1:
        return 0
    player = view["viewer"]
    normal_breadth = search.breadth
    generator = search.rng
    live = list(range(len(candidates)))
    values: list[list[float]] = [[] for _ in candidates]
    for _ in range(2 * tuning.tables):
        if len(values[live[0]]) >= tuning.tables or len(live) == 1 or search.must_stop():
            break
        table = deal(view, player, generator)
        draws = generator.random()
        row: dict[int, float] = {}
        for i in live:
            if search.must_stop():
                break
            search.rng = random.Random(draws)
            search.breadth = normal_breadth
            end = search.after_move(table, player, candidates[i])
            if end is None:
                break
            search.breadth = tuning.playout_breadth
            reached = search.playout(end, tuning.horizon)
            if reached is None:
                break
            row[i] = search.value(reached, player)
        if len(row) < len(live):
            continue
        for i, value in row.items():
            values[i].append(value)
        if len(values[live[0]]) >= MIN_TABLES:
            if all(values[i] == values[live[0]] for i in live):
                break
            live = survivors(live, values)
    search.rng, search.breadth = generator, normal_breadth
    if not values[live[0]]:
        return 0
    return max(live, key=lambda i: statistics.fmean(values[i]))


def survivors(live: list[int], values: list[list[float]]) -> list[int]:
    """The candidates not clearly worse than the best by mean, compared table by table. (Plain
    float sums: ``statistics.stdev`` is exact and many times dearer, and this runs after
    every table.)"""
    means = {i: math.fsum(values[i]) / len(values[i]) for i in live}
    best = max(live, key=means.__getitem__)
    kept = []
    for i in live:
        if i == best:
            kept.append(i)
            continue
        leads = [a - b for a, b in zip(values[i], values[best], strict=True)]
        count = len(leads)
        mean = math.fsum(leads) / count
        variance = math.fsum((lead - mean) ** 2 for lead in leads) / (count - 1)
        if mean + CONFIDENCE * math.sqrt(variance / count) >= 0:
            kept.append(i)
    return kept
