"""Standings worked by hand: points, Buchholz and Sonneborn–Berger, and a bigger table's
shares of a point."""

from __future__ import annotations

from bot.tournaments.standings import Game, game_points, standings


def beat(winner: str, loser: str) -> Game:
    return Game({winner: 1, loser: 2})


def draw(a: str, b: str) -> Game:
    return Game({a: 1, b: 1})


def test_a_four_player_swiss_as_worked_by_hand() -> None:
    """Round 1: A beats B, C draws D. Round 2: A draws C, B beats D. Round 3: A beats D,
    B beats C. Points A 2½, B 2, C 1, D ½. Buchholz (opponents' points): A 2+1+½ = 3½,
    B 2½+½+1 = 4, C ½+2½+2 = 5, D 1+2+2½ = 5½. Sonneborn–Berger (beaten opponents' points,
    half of those drawn): A 2+½+½ = 3, B ½+1 = 1½, C ¼+1¼ = 1½, D ½."""
    games = [beat("A", "B"), draw("C", "D"), draw("A", "C"), beat("B", "D")]
    games += [beat("A", "D"), beat("B", "C")]
    table = [
        (line.player, line.points, line.buchholz, line.sonneborn_berger)
        for line in standings(["A", "B", "C", "D"], games)
    ]
    assert table == [
        ("A", 2.5, 3.5, 3.0),
        ("B", 2.0, 4.0, 1.5),
        ("C", 1.0, 5.0, 1.5),
        ("D", 0.5, 5.5, 0.5),
    ]


def test_equal_points_are_parted_by_buchholz_then_sonneborn_berger() -> None:
    """A and B both beat someone and lost to someone; A's opponents scored more."""
    games = [beat("A", "C"), beat("D", "A"), beat("B", "E"), beat("E", "B"), beat("D", "C")]
    lines = standings(["B", "A", "C", "D", "E"], games, byes=["C"])
    order = [line.player for line in lines]
    assert order.index("A") < order.index("B"), "A met D (2) and C (1): Buchholz 3 against 2"
    bye = next(line for line in lines if line.player == "C")
    assert (bye.points, bye.byes, bye.games) == (1.0, 1, 2)


def test_a_four_player_table_shares_a_point_by_place() -> None:
    points = game_points(Game({"a": 1, "b": 2, "c": 2, "d": 4}))
    assert points == {"a": 1.0, "b": 0.5, "c": 0.5, "d": 0.0}
