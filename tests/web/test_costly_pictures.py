"""Costly pictures are drawn once per version (issue 35): twenty visitors asking at once for a
finished game's GIF (seconds of drawing on the pool that draws the bot's boards) wait for one
drawing, and a running game's GIF is refused without naming the game's internal id."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.replay import draw_gif
from tests.web.conftest import Web
from tests.web.test_handlers import finish, play_one


async def test_twenty_visitors_at_once_cost_one_drawing_of_the_gif(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = await finish(web.service, await web.public_game(ai=2))
    pool = web.service.pictures.pool
    real_run = pool.run
    drawn: list[str] = []

    async def counted(fn: Callable[..., Any], *args: Any) -> Any:
        if fn is draw_gif:
            drawn.append(args[0])
        return await real_run(fn, *args)

    monkeypatch.setattr(pool, "run", counted)
    answers = await asyncio.gather(
        *(web.client.get(f"{web.table(record)}/replay.gif") for _n in range(20))
    )
    bodies = {await answer.read() for answer in answers}
    assert [answer.status for answer in answers] == [200] * 20
    assert len(bodies) == 1 and next(iter(bodies)).startswith(b"GIF8")
    assert drawn == [record.game]  # one drawing for twenty requests
    again = await web.client.get(f"{web.table(record)}/replay.gif")
    assert again.status == 200 and drawn == [record.game]  # and none for a later one


async def test_a_running_games_gif_is_refused_without_its_id(web: Web) -> None:
    record = await play_one(web.service, await web.public_game())
    answer = await web.client.get(f"{web.table(record)}/replay.gif")
    assert answer.status == 409
    assert record.id not in await answer.text()
