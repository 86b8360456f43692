"""The season table cannot be gamed (issue 38): a simulated season in which a stalling player
and a cherry-picking player gain nothing, next to honest players of the same strength.

Outcomes are drawn from the rating model's own win chance (Plackett–Luce for two players,
``1 / (1 + exp((b - a) / c))``), so honest play is rated fairly and any edge is the exploit's."""

from __future__ import annotations

import math
import random

from bot.seasons.table import REMATCHES, SeasonGame, SeasonSeat, counted, places, season_lines

#: True strengths on the model's scale; H (honest) and C (cherry-picker) are equally strong.
FIELD = {f"p{i}": 14 + 3 * i for i in range(8)}
TWINS = {"H": 30, "C": 30}
WEAKEST = ["p0", "p1", "p2"]
SPREAD = math.sqrt(2) * 25 / 6


def game(n: int, winner: str, loser: str, timed_out: frozenset[str] = frozenset()) -> SeasonGame:
    seats = (
        SeasonSeat(winner, winner, False, winner, 1),
        SeasonSeat(loser, loser, False, loser, 2),
    )
    return SeasonGame(f"g{n}", float(n), seats, timed_out)


def season(seed: int, cherry_games: int, honest_games: int = 20) -> list[SeasonGame]:
    """A season: the field plays among itself, H meets anyone, C only the three weakest."""
    rng = random.Random(seed)
    strength = {**FIELD, **TWINS}
    games: list[SeasonGame] = []

    def play(a: str, b: str) -> None:
        a_wins = rng.random() < 1 / (1 + math.exp((strength[b] - strength[a]) / SPREAD))
        games.append(game(len(games), *((a, b) if a_wins else (b, a))))

    for k in range(max(cherry_games, honest_games)):
        for _ in range(3):
            play(*rng.sample(sorted(FIELD), 2))
        if k < honest_games:
            play("H", rng.choice(sorted(FIELD)))
        if k < cherry_games:
            play("C", rng.choice(WEAKEST))
    return games


def place_of(games: list[SeasonGame], player: str) -> int:
    return [line.player for line in season_lines(games)].index(player)


def test_a_cherry_picker_places_above_an_equal_honest_player_no_more_often_than_below() -> None:
    seeds = range(60)
    above = sum(place_of(season(s, 20), "C") < place_of(season(s, 20), "H") for s in seeds)
    assert above <= len(seeds) // 2


def test_grinding_more_games_against_the_weakest_players_changes_nothing() -> None:
    for seed in range(10):
        few = {line.player: line for line in season_lines(season(seed, 20))}
        many = {line.player: line for line in season_lines(season(seed, 60))}
        assert many["C"].ordinal <= few["C"].ordinal + 1e-9
        assert many["C"].games == few["C"].games <= len(WEAKEST) * REMATCHES


def test_a_staller_who_times_out_of_a_game_their_ai_then_wins_is_rated_as_losing_it() -> None:
    """S times out of two games they were losing; their AI stand-in wins one of them. For
    the season both are losses, exactly as if S had played them out and lost."""
    honest = [game(0, "S", "p3"), game(1, "p4", "S"), game(2, "p5", "S"), game(3, "S", "p6")]
    stalled = [
        game(0, "S", "p3"),
        game(1, "p4", "S", frozenset({"S"})),
        game(2, "S", "p5", frozenset({"S"})),  # the AI won it for S
        game(3, "S", "p6"),
    ]
    assert places(stalled[2]) == [2, 1]
    line = {x.player: x for x in season_lines(stalled)}["S"]
    assert line == {x.player: x for x in season_lines(honest)}["S"]
    assert line.wins == 2


def test_the_same_table_counts_three_times_a_season() -> None:
    games = [game(n, "A", "B") for n in range(5)] + [game(5, "A", "C")]
    assert [g.game_id for g in counted(games)] == ["g0", "g1", "g2", "g5"]
    lines = {line.player: line for line in season_lines(games)}
    assert (lines["A"].games, lines["A"].wins, lines["B"].games) == (4, 4, 3)
