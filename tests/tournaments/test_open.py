"""Tournaments open to other servers (issue 38), in the service on both backends: only a
server that takes part (`open_tournaments`) opens one or reaches another's, a host that stops
taking part is listed and joined from elsewhere no more, and a player already in reaches it
still (a running tournament finishes). The flag survives the store, and so the list."""

from __future__ import annotations

import pytest

from bot.errors import ServiceError
from bot.store.base import Store
from tests.backends import Backend
from tests.tournaments.test_runs import CHANNEL, GAME, GUILD, services

OTHER, THIRD = "7101", "7201"
TERMS = {
    "game": GAME,
    "format": "swiss",
    "rounds": 2,
    "clock": "24h",
    "cap": 3,
    "start_hours": 1,
    "round_hours": 24,
    "withdraw_after": 2,
}


async def opened_across(store: Store):
    games, tournaments = services(store)
    for guild in (GUILD, OTHER):
        await games.configure(guild, open_tournaments=True)
    t = await tournaments.create(GUILD, CHANNEL, "11", "Ana", cross_server=True, **TERMS)
    return games, tournaments, t


async def test_only_servers_that_take_part_open_list_and_join(backend: Backend) -> None:
    store = await backend.opened()
    games, tournaments = services(store)
    assert not (await games.guild_settings(GUILD)).open_tournaments, "off by default"
    with pytest.raises(ServiceError, match="does not take part"):
        await tournaments.create(GUILD, CHANNEL, "11", "Ana", cross_server=True, **TERMS)
    games, tournaments, t = await opened_across(store)
    own = await tournaments.create(GUILD, CHANNEL, "11", "Ana", **TERMS)
    assert (await store.get_tournament(t.id)).cross_server
    assert not (await store.get_tournament(own.id)).cross_server
    assert [x.id for x in await store.cross_server_signups(10)] == [t.id]

    assert [x.id for x in await tournaments.joinable(OTHER)] == [t.id], "not the host's own"
    assert await tournaments.joinable(THIRD) == [], "a server that does not take part"
    with pytest.raises(ServiceError, match="does not take part"):
        await tournaments.join(t.id, THIRD, "31", "Cy")
    with pytest.raises(ServiceError, match="There is no tournament"):
        await tournaments.join(own.id, OTHER, "21", "Bo")  # never confirms another's exists
    t = await tournaments.join(t.id, OTHER, "21", "Bo")
    assert [e.user for e in t.entries] == ["11", "21"]

    await games.configure(GUILD, open_tournaments=False)  # the host stops taking part
    assert await tournaments.joinable(OTHER) == []
    with pytest.raises(ServiceError, match="no longer open to other servers"):
        await tournaments.join(t.id, OTHER, "22", "Di")
    assert (await tournaments.find(t.id, OTHER, "21")).id == t.id, "Bo is in: he reaches it"
    started = await tournaments.advance(t.id, t.starts_at)
    assert started.tournament.status == "running" and len(started.started) == 1
    assert [x.id for x in await store.cross_server_signups(10)] == [], "sign-ups only"
    await store.close()
