"""A hand link is good only while its player plays their seat themselves (issue 35): after a
leave, a kick or being forgotten, the link kept from before shows nothing of the seat's hand,
now played by the AI, and moves nothing."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

import pytest

from bot.service import GameService
from bot.store.base import GameRecord
from tests.web.conftest import ANA, BO, CHANNEL, GUILD, Web


async def bo_leaves(service: GameService, record: GameRecord) -> None:
    await service.leave(GUILD, CHANNEL, BO, record.id)


async def ana_kicks_bo(service: GameService, record: GameRecord) -> None:
    await service.kick(GUILD, CHANNEL, ANA, BO, False, record.id)


async def bo_is_forgotten(service: GameService, record: GameRecord) -> None:
    await service.forget(BO)


@pytest.mark.parametrize("unseat", [bo_leaves, ana_kicks_bo, bo_is_forgotten])
async def test_a_kept_hand_link_dies_with_the_seat(
    web: Web, unseat: Callable[[GameService, GameRecord], Awaitable[None]]
) -> None:
    record = await web.public_game()
    path = web.links.hand(record.id, BO, time.time()).removeprefix(web.links.base_url)
    assert (await web.client.get(path)).status == 200
    assert (await web.client.get(f"{path}/fragment")).status == 200
    await unseat(web.service, record)
    after = await web.service.get(record.id)
    for part in ("", "/fragment", "/events", f"/board/{after.version}.png"):
        answer = await web.client.get(f"{path}{part}")
        assert answer.status == 404, part
    move = await web.client.post(f"{path}/move", data={"index": "0", "version": str(after.version)})
    assert move.status == 404
    # Ana still plays her own seat: her link holds.
    mine = web.links.hand(record.id, ANA, time.time()).removeprefix(web.links.base_url)
    assert (await web.client.get(mine)).status == 200
