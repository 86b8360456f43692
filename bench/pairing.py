"""`python -m bench.pairing`: how long a Swiss round's pairing takes, by the number of players.

Each size plays a Swiss of random results (decisive games and draws) through
``bot.tournaments.pairing.swiss`` itself, and times the pairing of every round after the
first, when scores differ and rematches must be avoided. Medians over the rounds of several
tournaments, in milliseconds. It reports and never fails on a figure.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bot.tournaments import pairing

SIZES = (8, 16, 32, 64)


def timed_swiss(count: int, rounds: int, seed: int) -> list[float]:
    """Seconds each round's pairing took (rounds 2 on) in one random Swiss of ``count``."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(count)]
    points = dict.fromkeys(players, 0.0)
    met: set[frozenset[str]] = set()
    byes: set[str] = set()
    samples = []
    for number in range(1, rounds + 1):
        ranked = sorted(players, key=lambda p: -points[p])
        start = time.perf_counter()
        made = pairing.swiss(ranked, points, met, byes)
        if number > 1:
            samples.append(time.perf_counter() - start)
        for a, b in made.tables:
            met.add(frozenset((a, b)))
            result = rng.choice((1.0, 0.5, 0.0))
            points[a] += result
            points[b] += 1.0 - result
        for p in made.byes:
            byes.add(p)
            points[p] += 1.0
    return samples


def measure(count: int, rounds: int, tournaments: int) -> dict[str, float]:
    samples = [s for seed in range(tournaments) for s in timed_swiss(count, rounds, seed)]
    return {
        "players": count,
        "median_ms": statistics.median(samples) * 1000,
        "max_ms": max(samples) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--tournaments", type=int, default=5)
    args = parser.parse_args()
    print("| players | median ms | max ms |")
    print("|---:|---:|---:|")
    for count in SIZES:
        row = measure(count, args.rounds, args.tournaments)
        print(f"| {count} | {row['median_ms']:.1f} | {row['max_ms']:.1f} |")


if __name__ == "__main__":
    main()
