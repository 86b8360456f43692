"""Whole steps (``bot.steps``): a move and the decision that always follows it, as one choice,
exactly when the two are the same player's in a row and legal one after the other."""

from __future__ import annotations

from pathlib import Path

from bot import steps
from bot.service import GameService
from bot.store import SqliteStore


async def test_an_artsee_column_and_the_draw_after_it_are_one_choice(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "s.db"))
    await store.open()
    try:
        service = GameService(store, seed_factory=lambda: "s")
        record = await service.new_game("artsee", "g", "c", "1", "Ana")
        record = await service.join("g", "c", "2", "Bo", record.id)
        read = service.read((await service.start("g", "c", "1")).record)
        mover = read.to_move[0]
        assert steps.composed(read, mover) == [], "a card leads to a column: nothing to fold"
        card = read.legal(mover)[0]
        read = (await service.move("g", "c", mover, card, ref=read.record.id)).read
        other = next(p for p in ("1", "2") if p != mover)
        assert steps.composed(read, other) == [], "only the player to move has steps"
        whole = steps.composed(read, mover)
        pairs = [c for c in whole if len(c.steps) == 2]
        assert pairs and all(c.steps[1]["type"] == "draw" for c in pairs)
        assert {c.steps[0]["type"] for c in whole} == {"place", "back"}
        engine = read.engine
        for choice in whole:  # each is its moves, legal one after the other
            state = read.load()
            for step in choice.steps:
                assert step in engine.legal(state, mover), choice
                state = engine.play(state, mover, step)[0]
            if len(choice.steps) == 2:
                assert choice.label.endswith(f"Draw from pile {choice.steps[1]['pile']}")
            elif choice.steps[0]["type"] == "place":  # a claim comes between: not folded
                assert {a["type"] for a in engine.legal(state, mover)} & {"claim", "pass"}
    finally:
        await store.close()
