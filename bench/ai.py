"""The AI league: two levels play each other, seats alternating, and one JSON line sums it up.

``python -m bench.ai --game <id> --a <level> --b <level> --games N --seed S`` plays N games (two
players; three for Street Art, whose base game needs three) and prints, as its last line,
``{"game", "a", "b", "games", "seed", "first", "a_win_rate", "b_win_rate", "a_ci95",
"decision_ms_mean", "decision_ms_p50", "decision_ms_p95", "decision_cpu_ms_mean",
"decision_cpu_ms_p50", "decision_cpu_ms_p95", "a_capped", "a_capped_share", "mean_length",
"load_average", "load_max"}``: a shared win counts half to each side, ``a_ci95`` is the
Wilson interval of ``a``'s rate, the decision times are ``a``'s, on the clock and in CPU time
(a busy machine inflates the clock's: the league's mean one-minute load, read after each game,
and its most are reported beside them), ``a_capped`` counts ``a``'s decisions whose search the
budget's clock cut short (a level is set by effort, so this should be near 0), the length
counts decisions. ``--jobs N`` plays N games side by side in worker processes.
``--arena`` (``make arena``) plays every game and every pair of levels and prints a table;
``--seats 4 --solo`` seats one ``a`` among ``b`` seats at a bigger table. ``--differs`` asks
what a league cannot: ``b`` plays every seat, ``a`` is asked at each of those decisions too, and
the line counts how often ``a`` would have chosen otherwise (a stronger level that never does
is the weaker one, slower). ``--verdicts N`` judges moves at N sampled positions with
``bot.ai.advice`` and with a deeper search, and reports how often they agree and the hint's
time.

Every decision goes through ``bot.ai.decide`` with the seat's view and legal moves only, as the
bot's AI seats do.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import signal
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

from bot.ai import DEFAULT_BUDGET, EASY, HARD, NORMAL, advice, decide
from bot.ai.levels import choose
from bot.ai.memory import Memories
from bot.ai.search import searchable
from rules import GAMES

#: A game longer than this is a loop of the AI's, reported rather than waited on.
MAX_DECISIONS = 5_000
#: The pairs ``make arena`` plays, stronger level first, with the share ``a`` should win.
PAIRS = ((HARD, EASY, 0.9), (NORMAL, EASY, 0.75), (HARD, NORMAL, 0.6))


def seat_count(game_id: str) -> int:
    return 3 if game_id == "street-art" else 2


def levels_for(game: int, seats: int, a: str, b: str, solo: bool = False) -> list[str]:
    """Seats alternate between the two levels, and the pattern flips every game, so over two
    games each level sits in every seat. ``solo``: ``a`` takes one seat, moving on a seat each
    game, and ``b`` all the others (a bigger table's check)."""
    if solo:
        return [a if seat == game % seats else b for seat in range(seats)]
    return [a if (game + seat) % 2 == 0 else b for seat in range(seats)]


class Played(NamedTuple):
    """One game: each level's share of the win, its decision times (on the clock, and in CPU
    time, which a busy machine inflates far less) and how many of its decisions the clock
    cut short (the cap fired), and the game's length in decisions."""

    share: dict[str, float]
    times: dict[str, list[float]]
    cpu: dict[str, list[float]]
    capped: dict[str, int]
    length: int


def play_one(game_id: str, levels: list[str], seed: str, budget_s: float) -> Played:
    """One game of the seated ``levels``."""
    game = GAMES[game_id]
    players = [f"p{seat}" for seat in range(len(levels))]
    level_of = dict(zip(players, levels, strict=True))
    state = game.start(players, seed, dict(game.default_options))
    memories = Memories(game, players)
    memories.saw(state)
    times: dict[str, list[float]] = {level: [] for level in levels}
    cpu: dict[str, list[float]] = {level: [] for level in levels}
    capped = {level: 0 for level in levels}
    decisions = 0
    while (outcome := game.outcome(state)) is None:
        if decisions >= MAX_DECISIONS:
            raise RuntimeError(f"{game_id} game {seed!r} ({levels}) did not end: a loop")
        player = game.to_move(state)[0]
        legal = game.legal(state, player)
        view = game.view(state, player)
        start, used = time.perf_counter(), time.process_time()
        level, memory = level_of[player], memories.of(player)
        choice = choose(game_id, level, view, legal, f"{seed}:{decisions}", budget_s, memory)
        times[level].append(time.perf_counter() - start)
        cpu[level].append(time.process_time() - used)
        capped[level] += choice.capped
        state, _ = game.play(state, player, choice.action)
        memories.saw(state)
        decisions += 1
    share = {level: 0.0 for level in levels}
    for winner in outcome.winners:
        share[level_of[winner]] += 1 / len(outcome.winners)
    return Played(share, times, cpu, capped, decisions)


def differs(game_id: str, a: str, b: str, games: int, seed: str, budget_s: float) -> dict[str, Any]:
    """``b`` plays ``games`` games in every seat; at each decision ``a`` is asked as well, with
    the same view, legal moves and seed. Counts the decisions, the forced ones (a single move
    worth searching) and those where ``a`` chose otherwise, with ``a``'s decision times."""
    game = GAMES[game_id]
    decisions = forced = other = 0
    times: list[float] = []
    for number in range(games):
        players = [f"p{seat}" for seat in range(seat_count(game_id))]
        state = game.start(players, f"{seed}:{number}", dict(game.default_options))
        for _ in range(MAX_DECISIONS):
            if game.outcome(state) is not None:
                break
            player = game.to_move(state)[0]
            legal = game.legal(state, player)
            view = game.view(state, player)
            choice_seed = f"{seed}:{number}:{decisions}"
            chosen = decide(game_id, b, view, legal, choice_seed, budget_s)
            start = time.perf_counter()
            asked = decide(game_id, a, view, legal, choice_seed, budget_s)
            times.append(time.perf_counter() - start)
            decisions += 1
            forced += len(searchable(game, legal)) == 1
            other += asked != chosen
            state, _ = game.play(state, player, chosen)
        else:
            raise RuntimeError(f"{game_id} game {seed!r}:{number} did not end: a loop")
    return {
        **pairing(game_id, a, b, games, seed),
        "decisions": decisions,
        "forced": forced,
        "a_chose_otherwise": other,
        "otherwise_share_of_unforced": round(other / max(1, decisions - forced), 3),
        **decision_times(times),
    }


#: The expected losses (in each game's evaluation units) at which ``--verdicts`` compares the
#: quick verdict with the deeper search, besides the game's own threshold.
THRESHOLD_SCALE = (0.5, 1.0, 1.5, 2.0, 3.0)


def verdicts(game_id: str, positions: int, seed: str, every: int = 5) -> dict[str, Any]:
    """``normal`` plays every seat; at every ``every``-th decision, until ``positions`` are
    sampled, the move it chose and a random legal move are judged as ``bot.ai.advice.verdict``
    judges them (the quick search, and the check of a loss past the line) and by a search four
    times as deep. Reports how often the two agree that a move is a mistake (at the game's
    threshold and at multiples of it), how often the deeper search finds the hint no mistake,
    and the hint's time."""
    game = GAMES[game_id]
    rng = random.Random(seed)
    judged: list[tuple[float, float, float]] = []  # quick, checked, deep losses
    hints_fine = 0
    times: list[float] = []
    capped = 0
    number = 0
    lowest = advice.MISTAKE[game_id] * min(THRESHOLD_SCALE)
    while len(times) < positions:
        players = [f"p{seat}" for seat in range(seat_count(game_id))]
        state = game.start(players, f"{seed}:{number}", dict(game.default_options))
        memories = Memories(game, players)
        memories.saw(state)
        for step in range(MAX_DECISIONS):
            if game.outcome(state) is not None or len(times) >= positions:
                break
            player = game.to_move(state)[0]
            legal, view = game.legal(state, player), game.view(state, player)
            memory = memories.of(player)
            chosen = decide(game_id, NORMAL, view, legal, f"{seed}:{number}:{step}")
            if step % every == 0 and len(searchable(game, legal)) > 1:
                start = time.perf_counter()
                quick = advice.appraise(game_id, view, legal, f"{seed}:{step}", memory)
                times.append(time.perf_counter() - start)
                capped += quick.capped
                deep = advice.appraise(game_id, view, legal, f"{seed}:deep:{step}", memory, 4)
                hints_fine += deep.loss(quick.best) <= advice.MISTAKE[game_id]
                moves = (chosen, rng.choice(searchable(game, legal)))
                check = None
                if any(quick.loss(move) > lowest for move in moves):
                    check = advice.appraise(
                        game_id, view, legal, f"{seed}:{step}:check", memory, advice.CHECK_DEPTH
                    )
                for move in moves:
                    checked = check.loss(move) if check is not None else 0.0
                    judged.append((quick.loss(move), checked, deep.loss(move)))
            state, _ = game.play(state, player, chosen)
            memories.saw(state)
        number += 1
    threshold = advice.MISTAKE[game_id]
    agreement = {}
    for scale in THRESHOLD_SCALE:
        line = threshold * scale
        says = [q > line and c > line for q, c, _ in judged]
        deep_says = [d > line for _, _, d in judged]
        called = sum(says)
        agreement[f"{line:g}"] = {
            "agree": round(
                sum(q == d for q, d in zip(says, deep_says, strict=True)) / len(says), 3
            ),
            "mistakes_called": called,
            "deep_confirms_called": round(
                sum(q and d for q, d in zip(says, deep_says, strict=True)) / max(1, called), 3
            ),
            "deep_mistakes": sum(deep_says),
        }
    return {
        "game": game_id,
        "seed": seed,
        "positions": len(times),
        "moves_judged": len(judged),
        "threshold": threshold,
        "agreement": agreement,
        "hint_no_mistake_by_deep": round(hints_fine / len(times), 3),
        "hint_capped": capped,
        "hint_ms_p50": decision_times(times)["decision_ms_p50"],
        "hint_ms_p95": decision_times(times)["decision_ms_p95"],
        "load_average": round(os.getloadavg()[0], 2),
    }


def pairing(game_id: str, a: str, b: str, games: int, seed: str) -> dict[str, Any]:
    """What a result line was measured on."""
    return {"game": game_id, "a": a, "b": b, "games": games, "seed": seed}


def decision_times(times: list[float]) -> dict[str, float]:
    """``a``'s decision times in milliseconds: the mean, the median and the 95th percentile."""
    ms = sorted(t * 1000 for t in times) or [0.0]
    return {
        "decision_ms_mean": round(statistics.fmean(ms), 2),
        "decision_ms_p50": round(ms[len(ms) // 2], 2),
        "decision_ms_p95": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 2),
    }


def wilson(wins: float, games: int, z: float = 1.96) -> list[float]:
    """The 95 % Wilson score interval of a win rate (half wins count as they are)."""
    if games == 0:
        return [0.0, 1.0]
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return [round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)]


def league(
    game_id: str,
    a: str,
    b: str,
    games: int,
    seed: str,
    budget_s: float,
    seats: int | None = None,
    solo: bool = False,
    jobs: int = 1,
    first: int = 0,
) -> dict[str, Any]:
    """``games`` games of ``a`` against ``b``; ``jobs`` worker processes play them side by side
    (each game is seeded by its number, so the results do not depend on ``jobs``). ``first``
    numbers the first game: a league cut short goes on with the very games it would have
    played. Interrupted (SIGINT), it sums up the games played so far (``cut_short``)."""
    wins = {a: 0.0, b: 0.0}
    times: list[float] = []
    cpu: list[float] = []
    capped: list[int] = []
    lengths = []
    loads = []
    tables = [
        levels_for(number, seats or seat_count(game_id), a, b, solo)
        for number in range(first, first + games)
    ]
    seeds = [f"{seed}:{number}" for number in range(first, first + games)]
    ids = [game_id] * games
    budgets = [budget_s] * games

    def tally(result: Played) -> None:
        if a == b:
            wins[a] += 0.5  # a level against itself: every game is half won by each side
        else:
            for level in (a, b):
                wins[level] += result.share.get(level, 0.0)
        times.extend(result.times[a])
        cpu.extend(result.cpu[a])
        capped.append(result.capped[a])
        lengths.append(result.length)
        loads.append(os.getloadavg()[0])

    cut_short = False
    with ProcessPoolExecutor(jobs) if jobs > 1 else _Inline() as pool:
        played = pool.map(play_one, ids, tables, seeds, budgets)
        try:
            for number, (levels, result) in enumerate(zip(tables, played, strict=True)):
                tally(result)
                print(
                    f"{game_id} game {first + number + 1}/{first + games}: {levels} "
                    f"{result.share} {result.length}",
                    file=sys.stderr,
                )
        except KeyboardInterrupt:
            # Interrupted (SIGINT: a deadline's ``timeout -s INT``): the games played so far
            # are still a league, and their line is printed.
            cut_short = True
            if not lengths:
                raise
    games = len(lengths)
    return {
        **pairing(game_id, a, b, games, seed),
        "first": first,
        "cut_short": cut_short,
        "a_win_rate": round(wins[a] / games, 3),
        "b_win_rate": round(wins[b] / games, 3),
        "a_ci95": wilson(wins[a], games),
        **decision_times(times),
        **{key.replace("ms", "cpu_ms"): value for key, value in decision_times(cpu).items()},
        "a_capped": sum(capped),
        "a_capped_share": round(sum(capped) / max(1, len(times)), 4),
        "mean_length": round(statistics.fmean(lengths), 1),
        "load_average": round(statistics.fmean(loads), 2),
        "load_max": round(max(loads), 2),
    }


class _Inline:
    """``map`` in this process: a league of one job needs no pool."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Any, *iterables: Any) -> Any:
        return map(fn, *iterables)


def arena(games: int, seed: str, budget_s: float, jobs: int = 1) -> None:
    """Every game, every pair of levels: one JSON line each, then the table."""
    rows = []
    for game_id in sorted(GAMES):
        for a, b, _ in PAIRS:
            result = league(game_id, a, b, games, seed, budget_s, jobs=jobs)
            print(json.dumps(result), flush=True)
            rows.append(result)
    print_table(rows)


def print_table(rows: list[dict[str, Any]]) -> None:
    """The league's results against the targets, one line a game and pairing."""
    targets = {(a, b): target for a, b, target in PAIRS}
    print(
        f"{'game':<18} {'a vs b':<16} {'a wins':>7} {'ci95':>13} {'target':>11} "
        f"{'a ms p50':>9} {'a ms p95':>9} {'length':>7} {'load':>5}"
    )
    for result in rows:
        target = targets.get((result["a"], result["b"]))
        mark = "" if target is None else "ok" if result["a_win_rate"] >= target else "MISS"
        goal = "" if target is None else f"{target:.2f}"
        ci = "[{:.2f},{:.2f}]".format(*result["a_ci95"])
        print(
            f"{result['game']:<18} {result['a'] + ' vs ' + result['b']:<16} "
            f"{result['a_win_rate']:>7.2f} {ci:>13} {goal:>6} {mark:<4} "
            f"{result['decision_ms_p50']:>9.1f} {result['decision_ms_p95']:>9.1f} "
            f"{result['mean_length']:>7.1f} {result['load_average']:>5.1f}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ai", description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES))
    parser.add_argument("--a", choices=(EASY, NORMAL, HARD), default=HARD)
    parser.add_argument("--b", choices=(EASY, NORMAL, HARD), default=EASY)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", default="league")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="seconds a decision")
    parser.add_argument("--arena", action="store_true", help="every game and pair of levels")
    parser.add_argument("--seats", type=int, help="a bigger table (default 2, Street Art 3)")
    parser.add_argument("--solo", action="store_true", help="a takes one seat, b the others")
    parser.add_argument("--jobs", type=int, default=1, help="games played side by side")
    parser.add_argument("--first", type=int, default=0, help="the number of the first game")
    parser.add_argument(
        "--differs", action="store_true", help="b plays; count where a would choose otherwise"
    )
    parser.add_argument(
        "--verdicts",
        type=int,
        metavar="N",
        help="judge moves at N positions, against a deeper search",
    )
    args = parser.parse_args(argv)
    # A league started in the background inherits SIGINT ignored; a deadline's interrupt
    # must still end it with its line (``league``).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if args.arena:
        arena(args.games, args.seed, args.budget, args.jobs)
        return
    if args.game is None:
        parser.error("--game is required (or --arena)")
    if args.verdicts:
        print(json.dumps(verdicts(args.game, args.verdicts, args.seed)))
        return
    if args.differs:
        print(json.dumps(differs(args.game, args.a, args.b, args.games, args.seed, args.budget)))
        return
    result = league(
        args.game,
        args.a,
        args.b,
        args.games,
        args.seed,
        args.budget,
        args.seats,
        args.solo,
        args.jobs,
        args.first,
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
