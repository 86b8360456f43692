"""The store's side of `/game undo`: the log's tail moved to an audit in one compare-and-swap,
a log that loses rows to nothing else, and pending proposals that survive a restart; on both
backends (``backend``)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import asyncpg
import pytest

from bot.store import ACTIVE, GameRecord, Seat, Store, StoreError, VersionConflict
from bot.store.base import UndoRequest
from tests.backends import Backend

#: What a statement the database refuses raises, on either backend.
REFUSED = (sqlite3.DatabaseError, asyncpg.PostgresError)


def record(game_id: str = "g1") -> GameRecord:
    return GameRecord(
        id=game_id,
        game="street-art",
        guild="100",
        channel="200",
        host="u1",
        status=ACTIVE,
        seed="s",
        seats=[Seat("u1", name="Ann"), Seat("u2", name="Bea"), Seat("ai:1", ai=True)],
        state={"n": 0},
        version=1,
    )


async def moved(store: Store, rec: GameRecord, moves: list[tuple[str, str]]) -> None:
    """Commit ``moves`` (player, action type) one after the other, state counting them."""
    for player, kind in moves:
        expected = rec.version
        rec.version += 1
        rec.state = {"n": rec.state["n"] + 1} if rec.state else {"n": 1}
        await store.commit_move(rec, expected, player, {"type": kind})


async def test_undo_moves_the_tail_to_the_audit_and_writes_the_state(store: Store) -> None:
    rec = record()
    await store.create_game(rec)
    await moved(store, rec, [("u1", "a"), ("u2", "b"), ("u1", "c"), ("ai:1", "d")])
    expected = rec.version
    rec.version, rec.state, rec.journal = expected + 1, {"n": 2}, [{"player": "u1"}]

    undone = await store.undo(rec, expected, keep=2, requested_by="u1", at=1234.5)

    assert [(u.seq, u.player, u.action["type"]) for u in undone] == [
        (3, "u1", "c"),
        (4, "ai:1", "d"),
    ]
    assert all(u.requested_by == "u1" and u.undone_at == 1234.5 for u in undone)
    assert [a.action["type"] for a in await store.actions(rec.id)] == ["a", "b"]
    assert await store.undone_actions(rec.id) == undone
    stored = await store.get_game(rec.id)
    assert stored is not None
    assert (stored.version, stored.state, stored.journal) == (
        expected + 1,
        {"n": 2},
        [{"player": "u1"}],
    )
    # The log goes on from where it was cut: the next move is seq 3 again.
    assert (
        await store.commit_move(replace(rec, version=rec.version + 1), rec.version, "u1", {}) == 3
    )


async def test_a_lost_compare_and_swap_writes_nothing(store: Store) -> None:
    rec = record()
    await store.create_game(rec)
    await moved(store, rec, [("u1", "a"), ("u2", "b")])
    stale = replace(rec, version=rec.version + 1, state={"n": 99})
    with pytest.raises(VersionConflict):
        await store.undo(stale, rec.version - 1, keep=0, requested_by="u1", at=1.0)
    assert [a.seq for a in await store.actions(rec.id)] == [1, 2]
    assert await store.undone_actions(rec.id) == []
    stored = await store.get_game(rec.id)
    assert stored is not None and (stored.version, stored.state) == (rec.version, {"n": 2})


async def test_an_undo_must_raise_the_version(store: Store) -> None:
    rec = record()
    await store.create_game(rec)
    await moved(store, rec, [("u1", "a")])
    with pytest.raises(StoreError, match="must be greater"):
        await store.undo(rec, rec.version, keep=0, requested_by="u1", at=1.0)
    assert len(await store.actions(rec.id)) == 1


async def test_the_same_seq_undone_twice_keeps_both_audit_rows(store: Store) -> None:
    rec = record()
    await store.create_game(rec)
    for at, kind in ((10.0, "first"), (20.0, "second")):
        await moved(store, rec, [("u1", kind)])
        expected = rec.version
        rec.version += 1
        await store.undo(rec, expected, keep=0, requested_by="u2", at=at)
    audit = await store.undone_actions(rec.id)
    assert [(u.seq, u.action["type"], u.undone_at) for u in audit] == [
        (1, "first", 10.0),
        (1, "second", 20.0),
    ]
    assert await store.undone_actions("other") == []


async def test_the_log_refuses_deletes_and_edits_outside_an_undo(
    store: Store, backend: Backend
) -> None:
    rec = record()
    await store.create_game(rec)
    await moved(store, rec, [("u1", "a"), ("u2", "b")])
    with pytest.raises(REFUSED, match="only to an undo"):
        await backend.execute("DELETE FROM actions WHERE game_id = 'g1' AND seq = 2")
    with pytest.raises(REFUSED, match="append-only"):
        await backend.execute("UPDATE actions SET player = 'x' WHERE game_id = 'g1'")
    assert [a.seq for a in await store.actions(rec.id)] == [1, 2]


async def test_an_audited_row_may_leave_the_log_and_no_other(
    store: Store, backend: Backend
) -> None:
    """The guard compares the whole row: a copy in the audit that differs (another player,
    action or time) does not let the logged row go."""
    rec = record()
    await store.create_game(rec)
    await moved(store, rec, [("u1", "a"), ("u2", "b")])
    (second,) = [a for a in await store.actions(rec.id) if a.seq == 2]
    audit = (
        "INSERT INTO undone_actions (game_id, seq, player, action, at, undone_at, requested_by) "
        "VALUES ('g1', 2, ?, ?, ?, 9.0, 'u1')"
    )
    await backend.execute(audit, "u1", '{"type":"b"}', second.at)  # another player
    with pytest.raises(REFUSED, match="only to an undo"):
        await backend.execute("DELETE FROM actions WHERE game_id = 'g1' AND seq = 2")
    await backend.execute(audit.replace("9.0", "10.0"), "u2", '{"type":"b"}', second.at)
    await backend.execute("DELETE FROM actions WHERE game_id = 'g1' AND seq = 2")
    assert [a.seq for a in await store.actions(rec.id)] == [1]


async def test_a_deleted_game_still_takes_its_log_with_it(store: Store, backend: Backend) -> None:
    rec = record()
    await store.create_game(rec)
    await moved(store, rec, [("u1", "a")])
    await store.save_undo_request(UndoRequest("g1", "u1", 2, 0, ("u2",), at=1.0, expires_at=2.0))
    await backend.execute("DELETE FROM games WHERE id = 'g1'")
    assert await backend.fetchval("SELECT COUNT(*) FROM actions") == 0
    assert await backend.fetchval("SELECT COUNT(*) FROM undo_requests") == 0


async def test_a_pending_request_round_trips_and_survives_a_restart(backend: Backend) -> None:
    store = await backend.opened()
    await store.create_game(record())
    assert await store.undo_request("g1") is None
    request = UndoRequest("g1", "u1", version=7, keep=3, awaiting=("u2",), at=5.0, expires_at=605.0)
    await store.save_undo_request(request)
    await store.save_undo_request(replace(request, accepted=("u2",)))
    await store.close()

    store = await backend.opened()
    assert await store.undo_request("g1") == replace(request, accepted=("u2",))
    await store.drop_undo_request("g1")
    assert await store.undo_request("g1") is None
    await store.drop_undo_request("g1")  # dropping none is no error
    await store.close()


async def test_an_unreadable_request_counts_as_none(store: Store, backend: Backend) -> None:
    await store.create_game(record())
    await store.save_undo_request(UndoRequest("g1", "u1", 2, 0, ("u2",), at=1.0, expires_at=2.0))
    await backend.execute("UPDATE undo_requests SET accepted = '[' WHERE game_id = 'g1'")
    assert await store.undo_request("g1") is None
    assert await store.get_game("g1") is not None  # the game itself reads on
