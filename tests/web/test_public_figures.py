"""Public rating figures come from public games only (issue 35): a rating after a game played
in a private channel includes that game, so the player page's chart stops at it."""

from __future__ import annotations

from tests.web.conftest import BO, GUILD, Web
from tests.web.test_handlers import finish


async def test_the_rating_chart_shows_no_rating_a_private_game_moved(web: Web) -> None:
    first = await finish(web.service, await web.public_game(ai=1))
    await finish(web.service, await web.public_game(ai=1, public=False))
    last = await finish(web.service, await web.public_game(ai=1))
    page = await (await web.client.get(f"/s/{GUILD}/p/{BO}")).text()
    assert web.table(first) in page and web.table(last) in page  # both public games listed
    assert page.count("<circle") == 1  # but only the rating from before the private one
