"""The store's memory of the table against the ``Store`` contract: result rows written once per
game, ratings read and upserted in the same transaction, stats and leaderboard reads.

Only ``Store`` methods are called, on both backends (``backend``: ids sqlite and postgres).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.store import ACTIVE, FINISHED, GameRecord, Seat, StoreError
from bot.store.base import Rating, ResultRow, Store
from tests.backends import Backend

GUILD, GAME = "100", "street-art"


def finished(game_id: str, *users: str, guild: str = GUILD, game: str = GAME) -> GameRecord:
    seats = [Seat(u, ai=u.startswith("ai:"), name=f"N{u}") for u in users]
    return GameRecord(
        id=game_id,
        game=game,
        guild=guild,
        channel="200",
        host=users[0],
        status=FINISHED,
        seats=seats,
        updated_at=float(len(game_id)),
    )


def row(record: GameRecord, player: str, rank: int, score: int, at: float = 1.0) -> ResultRow:
    return ResultRow(
        game_id=record.id,
        game=record.game,
        guild=record.guild,
        player=player,
        rated_as=player.rsplit(":", 1)[0] if player.startswith("ai:") else player,
        ai=player.startswith("ai:"),
        name=f"N{player}",
        rank=rank,
        score=score,
        winner=rank == 1,
        players=len(record.seats),
        options={"two_players": False},
        finished_at=at,
        mu_before=25.0,
        sigma_before=8.0,
        mu_after=25.0 + (3 - rank),
        sigma_after=7.5,
    )


def rating(
    player: str, mu: float, sigma: float = 5.0, *, guild: str = GUILD, game: str = GAME
) -> Rating:
    return Rating(guild, game, player, mu, sigma, games=1, ai=player.startswith("ai:"))


class Rater:
    """A RateGame that answers fixed rows and ratings and remembers what it was given."""

    def __init__(self, rows: list[ResultRow], ratings: list[Rating]) -> None:
        self.rows, self.out = rows, ratings
        self.seen: list[dict[str, Rating]] = []

    def __call__(self, current: dict[str, Rating]) -> tuple[list[ResultRow], list[Rating]]:
        self.seen.append(dict(current))
        return self.rows, self.out


async def test_results_are_written_once_with_their_ratings(store: Store) -> None:
    record = finished("g1", "u1", "u2", "ai:hard:1")
    await store.create_game(record)
    rows = [row(record, "u2", 2, 10), row(record, "u1", 1, 12), row(record, "ai:hard:1", 2, 10)]
    rater = Rater(rows, [rating("u1", 27.0), rating("u2", 24.0), rating("ai:hard", 24.5)])
    assert await store.record_results("g1", rater) is True
    # By rank, then the order the rows came in (seat order): u2 before the AI at rank 2.
    assert [r.player for r in await store.results_of_game("g1")] == ["u1", "u2", "ai:hard:1"]
    assert await store.results_of_game("g1") == [rows[1], rows[0], rows[2]]
    again = Rater([row(record, "u1", 2, 0)], [rating("u1", 1.0)])
    assert await store.record_results("g1", again) is False
    assert again.seen == [], "an already recorded game does not call rate"
    assert len(await store.results_of_game("g1")) == 3
    got = await store.ratings(GUILD, GAME, ["u1", "u2", "ai:hard", "nobody"])
    assert got == {
        "u1": rating("u1", 27.0),
        "u2": rating("u2", 24.0),
        "ai:hard": rating("ai:hard", 24.5),
    }


async def test_rate_sees_the_current_ratings_of_the_seats_and_the_ai_levels(store: Store) -> None:
    first = finished("g1", "u1", "u3", "ai:easy:1")
    await store.create_game(first)
    before = [
        rating("u1", 30.0),
        rating("u3", 20.0),
        rating("ai:easy", 18.0),
        rating("u1", 40.0, game="artsee"),
        rating("u1", 50.0, guild="999"),
    ]
    await store.record_results("g1", Rater([row(first, "u1", 1, 5)], before))
    second = finished("g22", "u1", "u2", "ai:easy:1")
    await store.create_game(second)
    rater = Rater([row(second, "u1", 1, 5)], [rating("u1", 31.0)])
    assert await store.record_results("g22", rater)
    (seen,) = rater.seen
    # Not u3 (not seated), not another game's or server's rating of u1, nobody's default.
    assert seen == {"u1": rating("u1", 30.0), "ai:easy": rating("ai:easy", 18.0)}
    assert (await store.ratings(GUILD, GAME, ["u1"]))["u1"].mu == 31.0
    assert (await store.ratings(GUILD, "artsee", ["u1"]))["u1"].mu == 40.0


async def test_a_failing_rate_writes_nothing_and_a_later_call_records(store: Store) -> None:
    record = finished("g1", "u1", "u2")
    await store.create_game(record)

    def broken(current: dict[str, Rating]) -> tuple[list[ResultRow], list[Rating]]:
        raise RuntimeError("rating failed")

    with pytest.raises(RuntimeError):
        await store.record_results("g1", broken)
    assert await store.results_of_game("g1") == []
    assert [g.id for g in await store.finished_without_results()] == ["g1"]
    rows = [row(record, "u1", 1, 3), row(record, "u2", 2, 1)]
    assert await store.record_results("g1", Rater(rows, [rating("u1", 26.0)]))
    assert await store.finished_without_results() == []


async def test_recording_an_unknown_game_is_a_store_error(store: Store) -> None:
    with pytest.raises(StoreError, match="unknown game"):
        await store.record_results("nope", Rater([], []))


async def test_player_results_per_server_and_game_oldest_first(store: Store) -> None:
    games = [
        finished("a", "u1", "u2"),
        finished("b", "u1", "u2", game="artsee"),
        finished("c", "u1", "u2"),
        finished("d", "u1", "u2", guild="999"),
    ]
    for at, record in zip((3.0, 2.0, 1.0, 0.5), games, strict=True):
        await store.create_game(record)
        rows = [row(record, "u1", 1, 9, at), row(record, "u2", 2, 4, at)]
        await store.record_results(record.id, Rater(rows, []))
    assert [r.game_id for r in await store.player_results(GUILD, "u1")] == ["c", "b", "a"]
    assert [r.game_id for r in await store.player_results(GUILD, "u1", GAME)] == ["c", "a"]
    assert [r.game_id for r in await store.player_results("999", "u2")] == ["d"]
    assert await store.player_results(GUILD, "u3") == []
    (got,) = await store.player_results(GUILD, "u2", "artsee")
    assert got == row(games[1], "u2", 2, 4, 2.0)


async def test_leaderboard_pages_by_ordinal_within_one_server_and_game(store: Store) -> None:
    record = finished("g1", "u1", "u2")
    await store.create_game(record)
    ratings = [
        rating("steady", 28.0, 2.0),  # ordinal 22
        rating("lucky", 35.0, 8.0),  # ordinal 11: higher mu, less sure
        rating("ai:hard", 30.0, 3.0),  # ordinal 21
        rating("new", 25.0, 25 / 3),  # ordinal 0
        rating("elsewhere", 99.0, 1.0, guild="999"),
        rating("other-game", 99.0, 1.0, game="artsee"),
    ]
    await store.record_results("g1", Rater([row(record, "u1", 1, 1)], ratings))
    top = await store.leaderboard(GUILD, GAME, limit=2)
    assert [r.player for r in top] == ["steady", "ai:hard"]
    assert top[1].ai and not top[0].ai
    rest = await store.leaderboard(GUILD, GAME, limit=2, offset=2)
    assert [r.player for r in rest] == ["lucky", "new"]
    assert await store.leaderboard(GUILD, GAME, limit=2, offset=4) == []
    assert await store.leaderboard(GUILD, "mural", limit=10) == []


async def test_finished_without_results_lists_only_unrecorded_finished_games(
    store: Store,
) -> None:
    for game_id in ("f1", "f22", "f333"):  # updated_at 2, 3, 4 (see ``finished``)
        await store.create_game(finished(game_id, "u1", "u2"))
    running = finished("run", "u1", "u2")
    running.status = ACTIVE
    await store.create_game(running)
    done = await store.get_game("f22")
    assert done is not None
    await store.record_results("f22", Rater([row(done, "u1", 1, 1)], []))
    # The longest finished first (updated_at), one page at a time.
    assert [g.id for g in await store.finished_without_results()] == ["f1", "f333"]
    assert [g.id for g in await store.finished_without_results(limit=1)] == ["f1"]
    listed = (await store.finished_without_results())[0]
    assert [s.user for s in listed.seats] == ["u1", "u2"]


async def test_ratings_of_nobody_is_empty(store: Store) -> None:
    assert await store.ratings(GUILD, GAME, []) == {}
    assert await store.ratings(GUILD, GAME, ["u1"]) == {}


def gaining(record: GameRecord, winner: str) -> Rater:
    """A RateGame whose ``winner`` gains a point of mu and everyone a game, from the ratings
    it is given: an update read from an old rating would show as a point or a game lost."""

    class Gaining(Rater):
        def __call__(self, current: dict[str, Rating]) -> tuple[list[ResultRow], list[Rating]]:
            self.seen.append(dict(current))
            ratings = []
            for seat in record.seats:
                before = current.get(seat.user, replace(rating(seat.user, 25.0), games=0))
                gain = 1.0 if seat.user == winner else 0.0
                ratings.append(replace(before, mu=before.mu + gain, games=before.games + 1))
            rows = [row(record, s.user, 1 if s.user == winner else 2, 1) for s in record.seats]
            return rows, ratings

    return Gaining([], [])


async def test_two_processes_ending_games_at_once_for_one_player_count_both(
    backend: Backend,
) -> None:
    """Two stores (two processes) record six games of the same players at the same moment:
    each reads the ratings after the other's update, so every game counts."""
    stores = [await backend.opened(), await backend.opened()]
    try:
        records = [finished(f"g{i}", "u1", "u2") for i in range(6)]
        for record in records:
            await stores[0].create_game(record)
        done = await asyncio.gather(
            *(stores[i % 2].record_results(r.id, gaining(r, "u1")) for i, r in enumerate(records))
        )
        assert done == [True] * 6
        got = await stores[1].ratings(GUILD, GAME, ["u1", "u2"])
        assert (got["u1"].games, got["u1"].mu) == (6, 31.0)
        assert (got["u2"].games, got["u2"].mu) == (6, 25.0)
    finally:
        for store in stores:
            await store.close()
