"""The service's AI seats: each decides at the level in its id, from its seat's view and legal
moves only (plain JSON, as a worker process would take them), through the one injected
``decide``; a player whose time ran out has a ``normal`` stand-in."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.ai import EASY, HARD, NORMAL, decide
from bot.ai.memory import fingerprint
from bot.errors import ServiceError
from bot.service import GameService
from bot.store import Store
from tests.bot import test_service

G, C, ANA = "guild", "chan", "101"
#: The service tests' fresh store for each test.
store = test_service.store


class Recorder:
    """A ``decide`` that keeps every call's arguments, then decides as the real one does."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def __call__(self, *args: Any) -> dict[str, Any]:
        self.calls.append(args)
        return decide(*args)


async def test_each_ai_seat_decides_at_its_level_from_its_view_only(store: Store) -> None:
    recorder = Recorder()
    service = GameService(store, decide=recorder, ai_budget=0.05, seed_factory=lambda: "seats")
    await service.new_game("artsee", G, C, ANA, "Ana")
    await service.add_ai(G, C, ANA, level=HARD)
    record = await service.add_ai(G, C, ANA, level=EASY)
    assert [seat.user for seat in record.seats] == [ANA, "ai:hard:1", "ai:easy:2"]
    result = await service.start(G, C, ANA)
    assert recorder.calls, "the AI seats played until Ana's turn"
    players = {"ai:hard:1": HARD, "ai:easy:2": EASY}
    for game_id, level, view, legal, seed, budget in recorder.calls:
        assert game_id == "artsee" and budget == 0.05 and isinstance(seed, str)
        assert players[view["viewer"]] == level
        assert json.loads(json.dumps([view, legal])) == [view, legal]
        assert "hand_cards" in view and "names" not in view, "the seat's own engine view"
    assert service.to_move(result.record) == [ANA]


async def test_a_late_player_is_stood_in_for_at_normal(store: Store) -> None:
    recorder = Recorder()
    service = GameService(store, decide=recorder, seed_factory=lambda: "late", timeout_after=10)
    await service.new_game("street-kings", G, C, ANA, "Ana")
    await service.add_ai(G, C, ANA, level=EASY)
    record = (await service.start(G, C, ANA)).record
    before = len(recorder.calls)
    assert record.deadline is not None
    result = await service.time_out(record.id, record.deadline)
    assert result.timed_out == [ANA]
    stood_in = [call for call in recorder.calls[before:] if call[2]["viewer"] == ANA]
    assert stood_in and all(call[1] == NORMAL for call in stood_in)
    seat = result.record.seat_of(ANA)
    assert seat is not None and not seat.ai, "the seat stays Ana's for her next turn"


async def test_an_unknown_level_is_refused_with_a_sentence(store: Store) -> None:
    service = GameService(store)
    await service.new_game("artsee", G, C, ANA, "Ana")
    with pytest.raises(ServiceError, match="no AI level"):
        await service.add_ai(G, C, ANA, level="grandmaster")


async def test_a_hard_street_art_seat_is_handed_what_it_saw_of_the_game(store: Store) -> None:
    """hard's memory comes from a replay of the log seen through the seat's own view: it
    fits the view it decides from, and it knows the piles card by card."""
    recorder = Recorder()
    service = GameService(store, decide=recorder, ai_budget=0.05, seed_factory=lambda: "memo")
    await service.new_game("street-art", G, C, ANA, "Ana")
    await service.add_ai(G, C, ANA, level=HARD)
    await service.add_ai(G, C, ANA, level=NORMAL)
    record = (await service.start(G, C, ANA)).record
    for _ in range(6):
        if record.status != "active" or service.to_move(record) != [ANA]:
            break
        legal = service.read(record).legal(ANA)
        record = (await service.move(G, C, ANA, legal[0])).record
    hard = [call for call in recorder.calls if call[1] == HARD]
    normal = [call for call in recorder.calls if call[1] == NORMAL]
    assert hard and normal
    assert all(len(call) == 6 for call in normal), "normal reads no memory"
    for _, _, view, _, _, _, memory in hard:
        assert memory["seen"] == fingerprint(view)
        assert [len(memory["piles"][e["id"]]) for e in view["players"]] == [
            e["pile"] for e in view["players"]
        ]
    assert any(sum(e["pile"] for e in call[2]["players"]) > 3 for call in hard)
