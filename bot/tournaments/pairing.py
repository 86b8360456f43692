"""Who meets whom in a round: round-robin by the circle method, Swiss by a maximum-weight
matching, and multi-player tables by score groups. Pure: players in, tables out.

A Swiss round is networkx's ``max_weight_matching`` on the graph of every pair (and of every
player with the bye, when the count is odd), maximum cardinality first, each edge weighted by
what it costs: a rematch costs more than every score difference of a round together, so a
rematch is made only when no pairing avoids it; then the square of the score difference, so
equal scores meet; the bye goes to a player who has not had one, the lowest score first.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

#: The bye's node in the Swiss graph (no player id starts with a space).
BYE = " bye"


@dataclass(frozen=True)
class Pairing:
    """One round: its tables (seats in order) and who sits out with a bye (a win)."""

    tables: list[tuple[str, ...]]
    byes: list[str] = field(default_factory=list)


def round_robin(players: Sequence[str], number: int) -> Pairing:
    """Round ``number`` (1-based) of a round-robin of two-player games, by the circle method:
    the first player stays, the others turn one place a round; with an odd count, the one
    paired with the empty place has the bye. ``len(players) - 1`` rounds (one more when odd)
    meet every pair once."""
    ring: list[str | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    count = len(ring)
    turn = (number - 1) % max(count - 1, 1)
    rest = ring[1:]
    rest = rest[-turn:] + rest[:-turn] if turn else rest
    order = [ring[0], *rest]
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for i in range(count // 2):
        a, b = order[i], order[count - 1 - i]
        if a is None or b is None:
            byes.extend(p for p in (a, b) if p is not None)
        else:  # colours alternate by round so nobody always moves first
            tables.append((a, b) if (number + i) % 2 else (b, a))
    return Pairing(tables, byes)


def round_robin_rounds(count: int) -> int:
    """How many rounds a round-robin of ``count`` players has."""
    return count - 1 if count % 2 == 0 else count


def swiss(
    players: Sequence[str],
    scores: Mapping[str, float],
    met: Collection[frozenset[str]],
    had_bye: Collection[str],
) -> Pairing:
    """A Swiss round of two-player games: ``players`` in standing order (best first),
    ``scores`` their points, ``met`` the pairs who played already, ``had_bye`` those who sat
    out once. No rematch while a pairing without one exists; equal scores meet where they can
    (the sum of squared score differences is least among such pairings)."""
    if len(players) < 2:
        return Pairing([], list(players))
    half_points = {p: round(2 * scores.get(p, 0.0)) for p in players}
    lowest = min(half_points.values())
    spread = max(half_points.values()) - lowest + 2
    #: More than every score difference (and bye) of one round together: one rematch
    #: outweighs them all.
    rematch = 2 * len(players) * spread * spread + 1
    graph = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            cost = (half_points[a] - half_points[b]) ** 2
            if frozenset((a, b)) in met:
                cost += rematch
            graph.add_edge(a, b, weight=-cost)
        if len(players) % 2:
            # The lowest score takes the bye (before equal scores meet: a bye is a win); a
            # second bye costs as much as a rematch.
            above = half_points[a] - lowest
            cost = len(players) * above * above + (rematch if a in had_bye else 0)
            graph.add_edge(a, BYE, weight=-cost)
    # Non-negative weights (networkx's algorithm takes any, but its docs speak of these).
    offset = 1 + max(-w for _a, _b, w in graph.edges(data="weight"))
    for a, b in graph.edges():
        graph[a][b]["weight"] += offset
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    rank = {p: i for i, p in enumerate(players)}
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for a, b in matched:
        if BYE in (a, b):
            byes.append(b if a == BYE else a)
            continue
        first, second = sorted((a, b), key=rank.__getitem__)
        tables.append((first, second))
    tables.sort(key=lambda t: rank[t[0]])
    return Pairing(tables, byes)


def table_sizes(count: int, seats: int, low: int, high: int) -> list[int]:
    """How many sit at each table when ``count`` players are seated ``seats`` a table, each
    table within the game's ``low``–``high`` players: as many tables as ``seats`` needs, as
    even as can be; fewer tables when that leaves some too small. Those left over (the sizes
    sum to less than ``count``) sit out with a bye."""
    if count < low:
        return []
    tables = -(-count // seats)
    while tables > 1 and count // tables < low:
        tables -= 1
    base, extra = divmod(count, tables)
    sizes = [min(base + (1 if i < extra else 0), high) for i in range(tables)]
    return sizes


def score_groups(players: Sequence[str], seats: int, low: int, high: int) -> Pairing:
    """Multi-player tables by score groups: ``players`` in standing order fill the tables
    from the top (the leaders together, and so on down); whoever is left over sits out with
    a bye, the lowest placed first."""
    tables: list[tuple[str, ...]] = []
    start = 0
    for size in table_sizes(len(players), seats, low, high):
        tables.append(tuple(players[start : start + size]))
        start += size
    return Pairing(tables, list(players[start:]))
