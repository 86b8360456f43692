"""Sent outbox rows are pruned (issue 28): the delivery worker deletes the rows sent more than
``outbox.SENT_KEPT`` ago, a page at a time, and keeps the recent sent rows and every unsent
one, however old; on both backends."""

from __future__ import annotations

from bot import outbox
from bot.store import ACTIVE, GameRecord, Seat, Store
from tests.backends import Backend

NOW = 50_000_000.0
LONG_AGO = NOW - outbox.SENT_KEPT


async def an_outbox(store: Store, backend: Backend) -> tuple[list[str], list[str], list[str]]:
    """A game's outbox: 23 rows sent over a week ago (each sent before the row written before
    it, so the prune's order, by sent time, is not the order of seq), 4 sent a minute ago, and
    3 owed long ago and never sent. Their keys, in those three groups."""
    await store.create_game(
        GameRecord(
            id="g1", game="street-art", guild="1", channel="2", host="u", status=ACTIVE,
            seats=[Seat("u")],
        )
    )  # fmt: skip
    old = [f"old-{i:02d}" for i in range(23)]
    recent = [f"recent-{i}" for i in range(4)]
    unsent = [f"unsent-{i}" for i in range(3)]
    insert = (
        "INSERT INTO outbox (key, game_id, kind, payload, created_at, sent_at) "
        "VALUES (?, 'g1', 'turn', '{}', ?, ?)"
    )
    for i, key in enumerate(old):  # old-00 was sent last of them
        await backend.execute(insert, key, 1.0, LONG_AGO - 10 - i)
    for key in recent:
        await backend.execute(insert, key, NOW - 120, NOW - 60)
    for key in unsent:
        await backend.execute(insert, key, 1.0, None)
    return old, recent, unsent


async def keys(backend: Backend) -> set[str]:
    """The keys left in the outbox."""
    joined = "string_agg(key, ',')" if backend.name == "postgres" else "group_concat(key, ',')"
    text = await backend.fetchval(f"SELECT {joined} FROM outbox")
    return set(text.split(",")) if text else set()


async def test_old_sent_rows_go_a_page_at_a_time_the_oldest_first(
    store: Store, backend: Backend
) -> None:
    old, recent, unsent = await an_outbox(store, backend)
    assert await store.prune_outbox(LONG_AGO, 10) == 10
    assert await keys(backend) == {*old[:13], *recent, *unsent}  # the ten sent first went
    assert await store.prune_outbox(LONG_AGO, 10) == 10
    assert await store.prune_outbox(LONG_AGO, 10) == 3
    assert await store.prune_outbox(LONG_AGO, 10) == 0
    assert await keys(backend) == {*recent, *unsent}
    assert [r.key for r in await store.unsent("g1")] == unsent  # still owed, still claimable


async def test_a_round_prunes_a_bounded_number_of_pages(store: Store, backend: Backend) -> None:
    old, recent, unsent = await an_outbox(store, backend)
    assert await outbox.prune(store, NOW, page=5, pages=2) == 10  # a backlog: two pages
    assert await keys(backend) == {*old[:13], *recent, *unsent}
    assert await outbox.prune(store, NOW, page=5, pages=10) == 13  # the rest, then it stops
    assert await keys(backend) == {*recent, *unsent}
    assert await outbox.prune(store, NOW + outbox.SENT_KEPT, page=5) == 4  # their week is up
    assert await keys(backend) == set(unsent)  # never sent: kept, however old
