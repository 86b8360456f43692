"""A move's owed posts are written with the move, in the order they were owed, and only if the
move's compare-and-swap won (on PostgreSQL they ride in the move's one statement)."""

from __future__ import annotations

import copy

import pytest

from bot import outbox
from bot.service import GameService
from bot.store import Store, VersionConflict
from tests.store.games import started


async def test_a_move_writes_what_it_owes_in_order_and_a_lost_move_writes_nothing(
    store: Store,
) -> None:
    service = GameService(store, seed_factory=lambda: "owed")
    record = await started(service, "c1")
    stale = copy.deepcopy(record)
    before = [row.key for row in await store.unsent(record.id)]

    turn = outbox.owed(outbox.TURN, {"steps": [], "over": False}, "me", 10.0)
    alert = outbox.alert({"user": "102", "mode": "dm", "deadline": None}, 5.0)
    record.owed = [turn, alert]
    record.version += 1
    seq = await store.commit_move(record, record.version - 1, "101", {"type": "play"})
    assert seq == 1 and record.owed == []
    rows = await store.unsent(record.id)
    assert [row.key for row in rows] == [*before, turn.key, alert.key]
    assert rows[-2].payload == {"steps": [], "over": False}

    lost = outbox.owed(outbox.TURN, {"steps": [], "over": False}, "me", 10.0)
    stale.owed = [lost]
    stale.version += 1  # from the version the winner moved on from
    with pytest.raises(VersionConflict):
        await store.commit_move(stale, stale.version - 1, "101", {"type": "play"})
    assert [row.key for row in await store.unsent(record.id)] == [*before, turn.key, alert.key]
    assert len(await store.actions(record.id)) == 1
