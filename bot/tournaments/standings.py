"""A tournament's standings: points, then Buchholz, then Sonneborn–Berger. Pure.

A game gives each player a point shared by place: every opponent placed below counts 1,
every one placed level counts ½, divided by the opponents at the table; so a two-player game
gives 1, ½ or 0, as in chess, and a four-player game 1, ⅔, ⅓ and 0 to its places. A bye
is a point. Buchholz is the sum of the points of the opponents met (at a bigger table, the
mean of the table's opponents counts once); Sonneborn–Berger the sum, over the opponents
met, of their points times the result against them (1, ½ or 0; at a bigger table, divided
by the opponents at it). Equal on all three, the earlier sign-up places first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """One finished table: each player's place (1 best, equal places shared)."""

    places: Mapping[str, int]


@dataclass(frozen=True)
class Line:
    """One player's line in the standings."""

    player: str
    points: float
    buchholz: float
    sonneborn_berger: float
    games: int
    byes: int


def against(mine: int, theirs: int) -> float:
    """The result of one place against another: 1 above, ½ level, 0 below."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def game_points(game: Game) -> dict[str, float]:
    """Each player's point from one game (see the module's docstring)."""
    players = list(game.places)
    opponents = max(len(players) - 1, 1)
    return {
        p: sum(against(game.places[p], game.places[q]) for q in players if q != p) / opponents
        for p in players
    }


def standings(
    players: Sequence[str], games: Sequence[Game], byes: Sequence[str] = ()
) -> list[Line]:
    """The standings of ``players`` (in sign-up order, the last tie-break) after ``games``
    and ``byes`` (one entry per bye), best first."""
    points = dict.fromkeys(players, 0.0)
    played = dict.fromkeys(players, 0)
    for game in games:
        for player, point in game_points(game).items():
            points[player] = points.get(player, 0.0) + point
            played[player] = played.get(player, 0) + 1
    for player in byes:
        points[player] = points.get(player, 0.0) + 1.0
    buchholz = dict.fromkeys(points, 0.0)
    berger = dict.fromkeys(points, 0.0)
    for game in games:
        opponents = max(len(game.places) - 1, 1)
        for player, place in game.places.items():
            others = [q for q in game.places if q != player]
            buchholz[player] += sum(points[q] for q in others) / opponents
            berger[player] += (
                sum(points[q] * against(place, game.places[q]) for q in others) / opponents
            )
    order = {p: i for i, p in enumerate(players)}
    lines = [
        Line(
            player=p,
            points=points[p],
            buchholz=buchholz[p],
            sonneborn_berger=berger[p],
            games=played.get(p, 0),
            byes=sum(1 for b in byes if b == p),
        )
        for p in points
    ]
    lines.sort(
        key=lambda line: (
            -line.points,
            -line.buchholz,
            -line.sonneborn_berger,
            order.get(line.player, len(order)),
        )
    )
    return lines


def written(value: float) -> str:
    """A score as players write it: 2, 2½, ½, 0.67 (a share of a bigger table's point)."""
    whole, part = divmod(round(value * 100), 100)
    if part == 50:
        return f"{whole}½" if whole else "½"
    return f"{value:.2f}".rstrip("0").rstrip(".")
