"""Hints (``bot.hints``): who may have one, the same hint whatever the seat cannot see, always
a legal move, and a hint taken in a game with an AI seat keeping the taker's rating out of it."""

from __future__ import annotations

import random

import pytest

from bench.ai import seat_count
from bot import hints
from bot.errors import ServiceError
from bot.pictures import Pictures
from bot.pool import WorkerPool
from bot.read_model import ReadModel
from bot.service import GameService
from bot.store import FINISHED, GameRecord, Seat
from bot.store.base import ACTIVE, LOBBY
from cogs.memory import rating_line
from rules import DETERMINIZERS, GAMES
from tests.ai.test_levels import AMPLE, mid_game
from tests.bot import test_results
from tests.store.games import GUILD, play, started

# -- who may have one ----------------------------------------------------------------------------


def table(*seats: Seat, status: str = ACTIVE, **prefs: object) -> GameRecord:
    return GameRecord(
        "g1", "street-art", GUILD, "c", "u1", status=status, seats=list(seats), prefs=dict(prefs)
    )


HUMANS = (Seat("u1"), Seat("u2"), Seat("u3"))
WITH_AI = (Seat("u1"), Seat("u2"), Seat("ai:normal:1", ai=True))


@pytest.mark.parametrize(
    ("record", "offered", "costs"),
    [
        (table(*HUMANS, teaching=True), True, False),
        (table(Seat("u1"), Seat("ai:normal:1", ai=True), teaching=True), True, False),
        (table(*WITH_AI), True, True),
        (table(*WITH_AI, hints=True), True, True),
        (table(*HUMANS, hints=True, rated=False), True, False),
        (table(*HUMANS, rated=False), False, False),
        (table(*HUMANS, hints=True), False, False),  # rated among humans: never
        (table(*HUMANS), False, False),
        (table(*WITH_AI, status=LOBBY), False, False),
        (table(*WITH_AI, status=FINISHED), False, False),
    ],
    ids=[
        "teaching",
        "teaching-with-ai",
        "ai-seat",
        "ai-seat-config",
        "unrated-config",
        "unrated-no-config",
        "rated-humans-config",
        "rated-humans",
        "lobby",
        "finished",
    ],
)
def test_who_may_have_a_hint(record: GameRecord, offered: bool, costs: bool) -> None:
    assert hints.allowed(record) == offered
    assert hints.costs_rating(record) == costs
    if not offered and record.status == ACTIVE:
        said = hints.refusal(record)
        assert ("rated" in said) == hints.rated(record) and ("config" in said) != hints.rated(
            record
        )


# -- the hint: from the seat's own view ------------------------------------------------------------


def read_of(game_id: str, state: object, seats: list[str]) -> ReadModel:
    game = GAMES[game_id]
    record = table(*(Seat(p, name=p.upper()) for p in seats), state=None)
    record.game, record.state = game_id, game.dump(state)
    return ReadModel(record, game, Pictures(WorkerPool(inline=True, initializer=None)), state)


def said(game_id: str, state: object, mover: str) -> tuple[str, str, dict[str, object]]:
    """The hint's two steps and its move for ``mover`` on ``state``."""
    game = GAMES[game_id]
    read = read_of(game_id, state, [f"p{i}" for i in range(seat_count(game_id))])
    legal = game.legal(state, mover)
    move = hints.compute(game_id, game.view(state, mover), legal, "same", AMPLE)
    assert move in legal
    return hints.look_at(read, mover, move), hints.the_move(read, mover, move), move


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_hint_is_legal_and_the_same_whatever_the_seat_cannot_see(game_id: str) -> None:
    """Every hidden thing dealt anew (the views' redeal): the same two steps, the same move."""
    game, state = mid_game(game_id, 11)
    mover = game.to_move(state)[0]
    here = said(game_id, state, mover)
    assert here[0].startswith("💡") and here[1].startswith("💡")
    for n in range(2):
        redealt = DETERMINIZERS[game_id](game.view(state, mover), mover, random.Random(n))
        assert game.dump(redealt) != game.dump(state)
        assert said(game_id, redealt, mover) == here


# -- taking one: remembered, and the rating kept out ---------------------------------------------

#: A service on this test's backend (SQLite, then PostgreSQL): the results tests' fixture.
service = test_results.service


async def test_a_rated_game_among_humans_offers_no_hint(service: GameService) -> None:
    record = await started(service, "c", "street-art")
    mover = service.to_move(record)[0]
    with pytest.raises(ServiceError, match="not offered"):
        await service.hints.hint(service, record, mover)
    assert await service.store.hinted(record.id) == set()


async def test_a_hint_taken_beside_an_ai_keeps_the_takers_rating_out(service: GameService) -> None:
    lobby = await service.new_game("artsee", GUILD, "c", "101", "Ana")
    await service.join(GUILD, "c", "102", "Bo", lobby.id)
    await service.add_ai(GUILD, "c", "101", lobby.id)
    record = (await service.start(GUILD, "c", "101", lobby.id)).record
    while "101" not in service.to_move(record):
        record = await play(service, record, 1)
    hint = await service.hints.hint(service, record, "101")
    legal = service.legal(record, "101")
    assert 0 <= hint.index < len(legal) and hint.costs
    assert hint.look.startswith("💡") and hint.move.startswith("💡")
    again = await service.hints.hint(service, record, "101")
    assert again == hint, "the second step shows the first step's move"
    assert await service.store.hinted(record.id) == {"101"}
    record = await play(service, record, 5000)
    assert record.status == FINISHED
    rows = {row.player: row for row in await service.results.of_game(record.id)}
    taker, other = rows["101"], rows["102"]
    assert taker.hinted and not other.hinted
    assert (taker.mu_after, taker.sigma_after) == (taker.mu_before, taker.sigma_before)
    assert other.sigma_after < other.sigma_before, "the others are rated as the game went"
    ratings = await service.store.ratings(GUILD, "artsee", ["101", "102"])
    assert set(ratings) == {"102"}, "no rating row moved for the taker"
    line = rating_line(list(rows.values()), service.names(record))
    assert "Ana 1,000 (took a hint: no rating change)" in line
    assert "Bo 1,000 →" in line
