"""Vacation days and stalled tables in the store (issue 27), on both backends: a day spent and
the clock moved in one transaction with the post it owes, the allowance kept per player a year,
the third reminder in a row owing the host's message, and the server's threads counted.
"""

from __future__ import annotations

import time

from bot import outbox
from bot.service import DAY, GameService
from bot.store import Store
from tests.backends import Backend
from tests.bot.test_seat_clocks import ANA, BO, C, Clock, G, ReadyRounds, ana_and_bo, first_legal


def service_on(store: Store, clock: Clock) -> GameService:
    """A game on a two-day clock: a vacation day covers it (a reminder after one)."""
    return GameService(
        store,
        games={ReadyRounds.id: ReadyRounds()},
        decide=first_legal,
        clock=clock,
        remind_after=DAY,
        timeout_after=2 * DAY,
    )


async def test_days_are_spent_until_none_are_left_and_a_stall_is_told_once(
    backend: Backend,
) -> None:
    clock = Clock()
    store = await backend.opened()
    service = service_on(store, clock)
    await service.configure(G, vacation_days=2)
    await service.new_game(ReadyRounds.id, G, C, ANA, "Ana")
    await service.join(G, C, BO, "Bo")
    record = (await service.start(G, C, ANA)).record
    await service.move(G, C, ANA, {"type": "ready"})  # Bo alone owes a decision
    deadline = clock.now + 2 * DAY
    year = time.gmtime(deadline).tm_year

    assert await service.remind(await service.get(record.id), clock.now + DAY) == [BO]
    for spent in (1, 2):
        result = await service.time_out(record.id, deadline)
        assert result.timed_out == [] and result.steps == []
        deadline += DAY
        assert result.record.clocks[BO][:3] == [deadline - DAY / 2, deadline, deadline]
        assert await store.vacation_days_spent(G, BO, year) == spent
        assert await service.remind(await service.get(record.id), deadline - DAY / 2) == [BO]
    kinds = [row.kind for row in await store.unsent(record.id)]
    assert kinds.count(outbox.VACATION) == 2 and kinds.count(outbox.STALL) == 1
    (stall,) = [r for r in await store.unsent(record.id) if r.kind == outbox.STALL]
    assert stall.payload == {"user": BO}

    result = await service.time_out(record.id, deadline)  # none left: the AI decides
    assert result.timed_out == [BO]
    assert await store.vacation_days_spent(G, BO, year) == 2
    assert await store.vacation_days_spent(G, BO, year + 1) == 0, "a new year, new days"
    await service.forget(BO)
    assert await store.vacation_days_spent(G, BO, year) == 0, "forgotten with the rest"
    await store.close()


async def test_the_threads_a_server_holds_are_counted_and_the_oldest_finished_found(
    backend: Backend,
) -> None:
    clock = Clock()
    store = await backend.opened()
    service = service_on(store, clock)
    first = await service.new_game(ReadyRounds.id, G, C, ANA, "Ana")
    second = await service.new_game(ReadyRounds.id, G, "other", BO, "Bo")
    for record, thread in ((first, "71"), (second, "72")):
        await service.set_thread(record, thread)
    assert await service.count_threads(G) == 2 and await service.count_threads("else") == 0
    await service.abandon(G, C, ANA, False, first.id)
    assert await service.count_threads(G) == 1, "an ended game's archived thread is not held"
    await service.archive_later(await service.get(first.id), 3600)
    assert await service.count_threads(G) == 2, "held until it is archived"
    assert [r.id for r in await service.finished_threads(G, 5)] == [first.id]
    await store.close()


async def test_a_planned_absence_holds_reminders_until_it_ends(backend: Backend) -> None:
    """`/game away until:`: no reminder pings the player meanwhile (so none counts toward a
    stall), the first comes the day the absence ends; back early, a fresh clock."""
    clock = Clock()
    store = await backend.opened()
    service = service_on(store, clock)
    record = await ana_and_bo(service)
    until = clock.now + 5 * DAY
    await service.away(G, C, BO, True, until=until)
    await service.move(G, C, ANA, {"type": "ready"})  # Bo alone owes a decision
    record = await service.get(record.id)
    assert record.clocks[BO][0] == until and record.remind_at == until
    assert record.clocks[BO][1] == clock.now + 2 * DAY, "the deadline runs on"
    assert await service.remind(record, clock.now + DAY) == []
    assert [r.kind for r in await store.unsent(record.id)].count(outbox.STALL) == 0

    clock.now += DAY / 2
    await service.away(G, C, BO, False)  # back early
    record = await service.get(record.id)
    assert record.clocks[BO][0] == clock.now + DAY
    assert await service.remind(record, clock.now + DAY) == [BO]
    await store.close()
