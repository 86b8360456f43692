"""Whole steps (``bot.steps``): a move and the decision that always follows it, as one choice,
exactly when the two are the same player's in a row and legal one after the other."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot import steps
from bot.read_model import ReadModel
from bot.service import GameService
from bot.store import SqliteStore


@asynccontextmanager
async def started(tmp_path: Path, game: str) -> AsyncIterator[tuple[GameService, ReadModel]]:
    """A two-player game of ``game`` just started (always the same deal), and its service."""
    store = SqliteStore(str(tmp_path / "s.db"))
    await store.open()
    try:
        service = GameService(store, seed_factory=lambda: "s")
        record = await service.new_game(game, "g", "c", "1", "Ana")
        record = await service.join("g", "c", "2", "Bo", record.id)
        yield service, service.read((await service.start("g", "c", "1")).record)
    finally:
        await store.close()


async def test_an_artsee_column_and_the_draw_after_it_are_one_choice(tmp_path: Path) -> None:
    async with started(tmp_path, "artsee") as (service, read):
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


async def test_a_mural_rotation_is_one_choice_from_its_kind_to_the_paint_collected(
    tmp_path: Path,
) -> None:
    """Mural's rotation is four decisions (its kind, the disc, how far, the paint collected):
    a panel offers each whole one as one choice, in a select per kind, and the turn's end with
    it when only free moves are left (a mix or a technique can wait for the next turn); a
    pass, or a technique, stays a move alone."""
    async with started(tmp_path, "street-art-mural") as (_service, read):
        mover = read.to_move[0]
        whole = steps.composed(read, mover)
        alone = [c.steps for c in whole if not c.group]
        assert ({"type": "pass"},) in alone and all(len(a) == 1 for a in alone)
        rotations = [c for c in whole if c.steps[0]["type"] == "rotate"]
        assert rotations and all(
            [s["type"] for s in c.steps][:4] == ["rotate", "disc", "turn", "collect"]
            for c in rotations
        )
        laid = steps.layout(whole)
        selects = [row for row in laid if row.placeholder]
        assert 1 < len(selects) <= steps.SELECT_ROWS
        assert {c.group for c in rotations} == {row.placeholder for row in selects}
        engine = read.engine
        ended = 0
        for choice in rotations:  # each is its moves, legal one after the other
            state = read.load()
            for step in choice.steps:
                assert step in engine.legal(state, mover), choice
                state = engine.play(state, mover, step)[0]
            left = {a["type"] for a in engine.legal(state, mover)}
            if choice.steps[-1]["type"] == "end_turn":
                ended += 1
                assert mover not in engine.to_move(state) and choice.label.endswith("end turn")
            elif left <= {"end_turn", "mix", "technique"} and mover in engine.to_move(state):
                # the turn stays open where ending it asks more (a discard down to 5)
                state = engine.play(state, mover, {"type": "end_turn"})[0]
                assert mover in engine.to_move(state)
        assert ended
