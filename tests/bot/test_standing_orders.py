"""The service's standing orders and dry runs (generic; ArtSee's visitor policy is the example):
a seated player may give a standing order out of turn without touching the turn in progress,
and ``refusal`` says why an action would be refused without storing anything."""

from __future__ import annotations

import pytest

from bot.errors import ServiceError
from bot.read_model import turn_steps, turn_version
from bot.service import GameService
from rules import GAMES
from tests.backends import Backend

G, C = "guild", "chan"
ANA, BO = "101", "102"


@pytest.fixture
async def service(backend: Backend):
    store = await backend.opened()
    yield GameService(store, seed_factory=lambda: "standing")
    await store.close()


async def started(service: GameService):
    record = await service.new_game("artsee", G, C, ANA, "Ana")
    await service.join(G, C, BO, "Bo", record.id)
    return (await service.start(G, C, ANA)).record


async def test_a_standing_order_out_of_turn_leaves_the_turn_untouched(
    service: GameService,
) -> None:
    record = await started(service)
    (mover,) = service.to_move(record)
    other = BO if mover == ANA else ANA
    card = service.legal(record, mover)[0]
    record = (await service.move(G, C, mover, card)).record  # mid-turn: a card chosen
    journal, deadline = record.journal, record.deadline
    assert journal

    before = record
    result = await service.move(G, C, other, {"type": "policy", "policy": "ask"})
    assert not result.turn_over and result.told == []
    assert [step.standing for step in result.steps] == [True]
    record = result.record
    assert turn_steps(record.journal) == journal and record.deadline == deadline
    assert turn_version(record) == turn_version(before)  # the mover's panel stays valid
    assert service.to_move(record) == [mover]
    assert service.view(record, other)["players"][[ANA, BO].index(other)]["policy"] == "ask"

    with pytest.raises(ServiceError, match="turn"):
        await service.move(G, C, other, {"type": "pass"})


async def test_refusal_is_a_dry_run(service: GameService) -> None:
    record = await started(service)
    (mover,) = service.to_move(record)
    version = record.version
    assert "do not hold" in (service.refusal(record, mover, {"type": "card", "card": "x"}) or "")
    assert service.refusal(record, mover, service.legal(record, mover)[0]) is None
    assert (await service.get(record.id)).version == version


def test_games_without_standing_orders_have_none() -> None:
    assert not GAMES["street-art"].is_standing_order({"type": "policy", "policy": "ask"})
    assert GAMES["artsee"].is_standing_order({"type": "policy", "policy": "ask"})
    assert not GAMES["artsee"].is_standing_order({"type": "pass"})
