"""Swiss pairings over random results, 4 to 64 players (hypothesis): every player placed once,
no rematch while a pairing without one exists, equal scores meet (no swap of partners
between two tables brings closer scores), the bye to the lowest score group; and the
round-robin meets every pair once."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import pairing
from bot.tournaments.pairing import Pairing


def rematch_free_exists(players: list[str], met: set[frozenset[str]]) -> bool:
    """Whether a pairing of everyone (one left out when odd) avoids every rematch: a maximum
    matching of the graph of pairs who have not met, found apart from the pairing's own."""
    allowed = nx.Graph()
    allowed.add_nodes_from(players)
    allowed.add_edges_from(p for p in itertools.combinations(players, 2) if frozenset(p) not in met)
    return 2 * len(nx.max_weight_matching(allowed, maxcardinality=True)) >= len(players) - 1


def simulate(count: int, rounds: int, seed: int) -> tuple[list[str], dict[str, float], set, set]:
    """A Swiss of ``count`` players after ``rounds`` rounds of random results, paired by
    ``pairing.swiss`` itself: the players, their points, the pairs met, the byes had."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(count)]
    points = dict.fromkeys(players, 0.0)
    met: set[frozenset[str]] = set()
    byes: set[str] = set()
    for _ in range(rounds):
        ranked = sorted(players, key=lambda p: -points[p])
        made = pairing.swiss(ranked, points, met, byes)
        for a, b in made.tables:
            met.add(frozenset((a, b)))
            result = rng.choice((1.0, 0.5, 0.0))
            points[a] += result
            points[b] += 1.0 - result
        for p in made.byes:
            byes.add(p)
            points[p] += 1.0
    return players, points, met, byes


def cost(points: dict[str, float], a: str, b: str) -> float:
    return (points[a] - points[b]) ** 2


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(4, 64),
    rounds=st.integers(0, 6),
    seed=st.integers(0, 2**32),
)
def test_a_swiss_round_pairs_everyone_without_avoidable_rematches_by_score(
    count: int, rounds: int, seed: int
) -> None:
    players, points, met, byes = simulate(count, rounds, seed)
    ranked = sorted(players, key=lambda p: -points[p])
    made: Pairing = pairing.swiss(ranked, points, met, byes)

    seated = Counter(p for table in made.tables for p in table) + Counter(made.byes)
    assert seated == Counter(players), "everyone once, nobody twice"
    assert len(made.byes) == count % 2
    rematches = [t for t in made.tables if frozenset(t) in met]
    if rematch_free_exists(players, met):
        assert rematches == [], "a rematch although a pairing without one exists"
    # Score groups: no two tables could swap partners (without a rematch) for closer scores.
    for (a, b), (c, d) in itertools.combinations(made.tables, 2):
        here = cost(points, a, b) + cost(points, c, d)
        for x, y, z, w in ((a, c, b, d), (a, d, b, c)):
            swapped = [frozenset((x, y)), frozenset((z, w))]
            new_rematches = sum(pair in met for pair in swapped)
            old_rematches = (frozenset((a, b)) in met) + (frozenset((c, d)) in met)
            if new_rematches <= old_rematches:
                better = cost(points, x, y) + cost(points, z, w)
                assert better >= here, f"{(a, b)}, {(c, d)} would meet closer as {(x, y, z, w)}"
    if made.byes:
        (bye,) = made.byes
        fresh = [p for p in players if p not in byes]
        if bye not in byes and fresh:
            assert points[bye] == min(points[p] for p in fresh), "the bye to the lowest score"


def test_equal_scores_meet_and_a_bye_goes_once() -> None:
    points = {"a": 1.0, "b": 1.0, "c": 0.0, "d": 0.0, "e": 0.0}
    made = pairing.swiss(list(points), points, {frozenset("ab")}, {"e"})
    assert made.byes in (["c"], ["d"]), "the lowest score, not the one who had a bye"
    assert frozenset("ab") not in {frozenset(t) for t in made.tables}


def test_a_round_robin_meets_every_pair_once() -> None:
    for count in (4, 5, 8, 9):
        players = [f"p{i}" for i in range(count)]
        met: Counter[frozenset[str]] = Counter()
        byes: Counter[str] = Counter()
        for number in range(1, pairing.round_robin_rounds(count) + 1):
            made = pairing.round_robin(players, number)
            met.update(frozenset(t) for t in made.tables)
            byes.update(made.byes)
        assert set(met) == {frozenset(p) for p in itertools.combinations(players, 2)}
        assert set(met.values()) == {1}
        assert byes == (Counter(players) if count % 2 else Counter())


def test_multi_player_tables_fill_from_the_top_of_the_standings() -> None:
    ranked = [f"p{i}" for i in range(11)]
    made = pairing.score_groups(ranked, 4, 3, 5)
    assert made.tables == [tuple(ranked[0:4]), tuple(ranked[4:8]), tuple(ranked[8:11])]
    assert made.byes == []
    assert pairing.score_groups(ranked[:2], 3, 3, 5) == Pairing([], ranked[:2])
