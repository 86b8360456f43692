"""`python -m bench.hints`: how long a hint takes to answer, per game (issue 39: within 2 s at
p95).

Each game is played by easy seats from a fixed seed; at every ``--every``-th decision, the mover's
hint is asked for as the bot asks for it: ``bot.hints.compute`` in a worker of a real process
pool (the AI's), the seat's view and legal moves pickled across, timed from the submission to
the answer. It prints, per game, the positions timed, p50, p95 and the longest, and how many
answers hit the cap (``bot.hints.CAP_S``: the search stopped short). Run it beside whatever
else the machine does: the figure is the answer time a player would see there.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from bench.ai import seat_count
from bot import hints
from bot.ai import Agent
from bot.pool import WorkerPool
from rules import GAMES


def positions(game_id: str, count: int, every: int) -> list[tuple[dict, list[dict], str]]:
    """``count`` positions of one seeded game (and its successors), a mover's view, legal moves
    and a seed each."""
    game = GAMES[game_id]
    found: list[tuple[dict, list[dict], str]] = []
    table = 0
    while len(found) < count:
        players = [f"p{i}" for i in range(seat_count(game_id))]
        state = game.start(players, f"bench-hints:{table}", dict(game.default_options))
        agent = Agent(f"bench-hints:{table}")
        step = 0
        while game.outcome(state) is None and len(found) < count:
            mover = game.to_move(state)[0]
            legal = game.legal(state, mover)
            if step % every == 0 and len(legal) > 1:
                found.append((game.view(state, mover), legal, f"{game_id}:{table}:{step}"))
            state, _events = game.play(state, mover, agent.choose(game, state, mover))
            step += 1
        table += 1
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def measure(count: int, every: int, workers: int) -> None:
    pool = WorkerPool(workers, initializer=None)
    await pool.ready()
    try:
        print(f"{'game':18} {'n':>4} {'p50 s':>7} {'p95 s':>7} {'max s':>7} {'capped':>7}")
        for game_id in sorted(GAMES):
            times: list[float] = []
            capped = 0
            for view, legal, seed in positions(game_id, count, every):
                began = time.perf_counter()
                move = await pool.run(hints.compute, game_id, view, legal, seed)
                took = time.perf_counter() - began
                assert move in legal
                times.append(took)
                capped += took >= hints.CAP_S
            print(
                f"{game_id:18} {len(times):>4} {statistics.median(times):>7.2f} "
                f"{percentile(times, 0.95):>7.2f} {max(times):>7.2f} {capped:>7}"
            )
    finally:
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40, help="positions timed per game")
    parser.add_argument("--every", type=int, default=3, help="time every n-th decision")
    parser.add_argument("--workers", type=int, default=1, help="worker processes of the pool")
    args = parser.parse_args()
    asyncio.run(measure(args.positions, args.every, args.workers))


if __name__ == "__main__":
    main()
