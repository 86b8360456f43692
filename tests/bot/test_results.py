"""Ranks, ratings and stats of finished games (pure), and the service recording them once: when
the last move lands, and at start-up for a game whose results a crash left unwritten."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.results import MODEL, ranks, rate, rated_as, stats
from bot.service import GameService
from bot.store import FINISHED, GameRecord, Seat
from bot.store.base import Rating
from rules import Outcome
from tests.backends import Backend
from tests.store.games import GUILD, play, started

# -- ranks ---------------------------------------------------------------------------------------


def test_winners_rank_first_and_the_others_by_score_with_shared_places() -> None:
    outcome = Outcome(scores={"a": 10, "b": 8, "c": 8, "d": 5, "e": 9}, winners=["a"])
    assert ranks(outcome, ["a", "b", "c", "d", "e"]) == {"a": 1, "e": 2, "b": 3, "c": 3, "d": 5}


def test_shared_wins_share_first_even_below_a_loser_s_score() -> None:
    # A tie-break can crown a player whose score is not the highest: the win still ranks first.
    outcome = Outcome(scores={"a": 7, "b": 7, "c": 9}, winners=["a", "b"])
    assert ranks(outcome, ["a", "b", "c"]) == {"a": 1, "b": 1, "c": 3}


@settings(max_examples=60, deadline=None)
@given(
    scores=st.lists(st.integers(-5, 20), min_size=2, max_size=5),
    data=st.data(),
)
def test_places_agree_with_wins_and_scores(scores: list[int], data: st.DataObject) -> None:
    players = [f"p{i}" for i in range(len(scores))]
    winners = data.draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
    placed = ranks(Outcome(dict(zip(players, scores, strict=True)), winners), players)
    assert {p for p, r in placed.items() if r == 1} == set(winners)
    for p in players:
        assert 1 <= placed[p] <= len(players)
        for q in players:
            if p in winners or q in winners:
                continue
            score_p, score_q = scores[players.index(p)], scores[players.index(q)]
            assert (placed[p] < placed[q]) == (score_p > score_q)
    # A place is taken by exactly as many players as it says come before the next one.
    for p in players:
        assert sum(1 for r in placed.values() if r < placed[p]) == placed[p] - 1


def test_rated_as_maps_ai_seats_to_their_level() -> None:
    assert rated_as("ai:hard:2") == "ai:hard"
    assert rated_as("ai:normal:1") == "ai:normal"
    assert rated_as("ai:3") == "ai:easy"  # a seat from before AI levels played at easy
    assert rated_as("1001") == "1001"


# -- ratings -------------------------------------------------------------------------------------


def table(*users: str) -> GameRecord:
    seats = [Seat(u, ai=u.startswith("ai:"), name=f"N{u}") for u in users]
    return GameRecord(
        "g1", "street-art", GUILD, "c", users[0], status=FINISHED, seats=seats, options={"x": 1}
    )


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_the_winner_gains_the_last_loses_and_everyone_is_surer(size: int) -> None:
    users = [f"u{i}" for i in range(size)]
    scores = {u: 100 - 10 * i for i, u in enumerate(users)}
    rows, ratings = rate(table(*users), Outcome(scores, [users[0]]), {}, at=5.0)
    assert [r.player for r in rows] == users and [r.rank for r in rows] == list(range(1, size + 1))
    by_player = {r.player: r for r in ratings}
    assert by_player[users[0]].mu > MODEL.mu > by_player[users[-1]].mu
    assert all(r.sigma < MODEL.sigma and r.games == 1 for r in ratings)
    mus = [by_player[u].mu for u in users]
    assert mus == sorted(mus, reverse=True), "a better place never rates lower"
    first = rows[0]
    assert (first.mu_before, first.sigma_before) == (MODEL.mu, MODEL.sigma)
    assert first.mu_after == by_player[users[0]].mu and first.winner and first.score == 100
    assert first.players == size and first.finished_at == 5.0 and first.options == {"x": 1}


def test_tied_players_with_equal_ratings_move_alike() -> None:
    outcome = Outcome({"a": 10, "b": 4, "c": 4}, ["a"])
    _, ratings = rate(table("a", "b", "c"), outcome, {}, at=1.0)
    by_player = {r.player: r for r in ratings}
    assert by_player["b"].mu == pytest.approx(by_player["c"].mu)
    assert by_player["b"].sigma == pytest.approx(by_player["c"].sigma)


def test_ratings_start_from_the_current_ones() -> None:
    strong = Rating(GUILD, "street-art", "a", 35.0, 3.0, games=40)
    outcome = Outcome({"a": 10, "b": 4}, ["a"])
    rows, ratings = rate(table("a", "b"), outcome, {"a": strong}, at=1.0)
    by_player = {r.player: r for r in ratings}
    assert by_player["a"].games == 41 and by_player["b"].games == 1
    assert rows[0].mu_before == 35.0 and rows[0].sigma_before == 3.0
    # Beating a newcomer teaches little about a well-known strong player.
    assert 0 < by_player["a"].mu - 35.0 < MODEL.mu - by_player["b"].mu


def test_ai_seats_are_rated_by_level_one_rating_per_level() -> None:
    users = ["u1", "ai:hard:1", "ai:easy:2", "ai:easy:3"]
    outcome = Outcome({"u1": 1, "ai:hard:1": 9, "ai:easy:2": 5, "ai:easy:3": 3}, ["ai:hard:1"])
    rows, ratings = rate(table(*users), outcome, {}, at=1.0)
    assert sorted(r.player for r in ratings) == ["ai:easy", "ai:hard", "u1"]
    by_player = {r.player: r for r in ratings}
    assert by_player["ai:hard"].ai and by_player["ai:easy"].ai and not by_player["u1"].ai
    assert by_player["ai:hard"].name == "hard" and by_player["u1"].name == "Nu1"
    assert by_player["ai:easy"].games == 1, "one game, however many seats played at the level"
    easy = [r for r in rows if r.rated_as == "ai:easy"]
    assert [r.player for r in easy] == ["ai:easy:2", "ai:easy:3"] and all(r.ai for r in easy)
    assert {r.mu_after for r in easy} == {by_player["ai:easy"].mu}
    # The level's rating sits between what each of its seats alone would have earned.
    assert by_player["ai:hard"].mu > by_player["ai:easy"].mu > by_player["u1"].mu


def test_a_human_whose_seat_the_ai_took_is_still_rated_as_themselves() -> None:
    record = table("u1", "u2")
    record.seats[1] = Seat("u2", ai=True, name="Nu2 (AI)")
    rows, ratings = rate(record, Outcome({"u1": 3, "u2": 1}, ["u1"]), {}, at=1.0)
    assert rows[1].rated_as == "u2" and not rows[1].ai
    assert {r.player for r in ratings} == {"u1", "u2"}


def test_stats_of_a_player_s_rows() -> None:
    record = table("a", "b", "c")
    games = [
        Outcome({"a": 10, "b": 4, "c": 1}, ["a"]),
        Outcome({"a": 2, "b": 4, "c": 1}, ["b"]),
        Outcome({"a": 6, "b": 6, "c": 1}, ["a", "b"]),
    ]
    mine = [rate(record, outcome, {}, at=1.0)[0][0] for outcome in games]
    got = stats(mine)
    assert got is not None
    assert (got.played, got.wins, got.best_score) == (3, 2, 10)
    assert got.win_rate == pytest.approx(2 / 3) and got.average_rank == pytest.approx(4 / 3)
    assert stats([]) is None


# -- the service records them --------------------------------------------------------------------


@pytest.fixture
async def service(backend: Backend) -> AsyncIterator[GameService]:
    """A service on this test's backend (SQLite, then PostgreSQL)."""
    store = await backend.opened()
    yield GameService(store, seed_factory=lambda: "results")
    await store.close()


async def finish(service: GameService) -> GameRecord:
    record = await play(service, await started(service, "c", "artsee"), 5000)
    assert record.status == FINISHED
    return record


async def test_a_finished_game_writes_one_set_of_rows_and_ratings(service: GameService) -> None:
    record = await finish(service)
    rows = await service.store.results_of_game(record.id)
    assert sorted(r.player for r in rows) == sorted(s.user for s in record.seats)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    outcome = service.outcome(record)
    assert outcome is not None
    assert {r.player for r in rows if r.rank == 1} == set(outcome.winners)
    ratings = await service.store.ratings(GUILD, "artsee", [s.user for s in record.seats])
    assert {p: r.mu for p, r in ratings.items()} == {r.player: r.mu_after for r in rows}
    # Again (a retry, the sweep) changes nothing.
    assert await service.results.record(record) == rows
    assert await service.results.sweep() == 0
    assert await service.store.results_of_game(record.id) == rows
    assert all(r.games == 1 for r in ratings.values())


async def test_a_crash_before_the_results_loses_no_move_and_the_sweep_recovers(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []

    async def crash(game_id: str, rate: object) -> bool:
        calls.append(game_id)
        raise OSError("the process died here")

    monkeypatch.setattr(service.store, "record_results", crash)
    record = await finish(service)
    assert calls == [record.id]
    stored = await service.store.get_game(record.id)
    assert stored is not None and stored.status == FINISHED and stored.version == record.version
    assert await service.store.results_of_game(record.id) == []
    monkeypatch.undo()

    restarted = GameService(service.store)  # a new process on the same store
    assert await restarted.results.sweep() == 1
    rows = await service.store.results_of_game(record.id)
    assert len(rows) == len(record.seats)
    assert rows[0].finished_at == stored.updated_at
    assert await restarted.results.sweep() == 0
    assert await service.store.finished_without_results() == []


async def test_the_next_game_starts_from_the_ratings_the_last_one_left(
    service: GameService,
) -> None:
    first = await finish(service)
    before = {r.player: r for r in await service.store.results_of_game(first.id)}
    second = await play(service, await started(service, "d", "artsee"), 5000, seed="second")
    assert second.status == FINISHED
    rows = await service.store.results_of_game(second.id)
    for row in rows:
        assert (row.mu_before, row.sigma_before) == (
            before[row.player].mu_after,
            before[row.player].sigma_after,
        )
        assert row.sigma_after < row.sigma_before
    ratings = await service.store.ratings(GUILD, "artsee", [r.player for r in rows])
    assert all(r.games == 2 for r in ratings.values())
    assert {p: r.mu for p, r in ratings.items()} == {r.player: r.mu_after for r in rows}
