"""The web table's season page (issue 38), on both store backends: the season's table from the
server's public games only, its window, the seasons to choose, and no page for a season that
does not exist."""

from __future__ import annotations

import re
from dataclasses import replace

from bot.seasons.service import Seasons
from bot.store.titles_sql import KeptTitle
from bot.titles.achievements import BEST_MOVE, GOOD_SPORT
from bot.titles.service import Titles
from tests.web.conftest import ANA, BO, EVIL, GUILD, Web
from tests.web.test_handlers import finish


async def test_the_season_page_ranks_from_public_games_only(web: Web) -> None:
    Seasons(web.service)  # the bot's: it opens the season when a game finishes
    await web.service.configure(GUILD, season_games=1)
    await finish(web.service, await web.public_game(ai=1, public=False))
    await finish(web.service, await web.public_game(ai=1))
    response = await web.client.get(f"/s/{GUILD}/street-art/season")
    page = await response.text()
    assert response.status == 200 and "Street Art: season 1" in page
    assert EVIL not in page and f'href="/s/{GUILD}/p/{BO}"' in page
    rows = re.findall(
        r"<tr><td>(\d+)</td><td><a[^>]*><bdi>([^<]*)</bdi></a></td>"
        r"<td>[^<]*</td><td>(\d+)</td>",
        page,
    )
    assert [(name, games) for _place, name, games in rows if name == "Bo"] == [("Bo", "1")], (
        "the private game counts for nobody here"
    )
    assert "AI" not in "".join(name for _p, name, _g in rows)
    assert (await web.client.get(f"/s/{GUILD}/street-art/season/1")).status == 200
    assert (await web.client.get(f"/s/{GUILD}/street-art/season/2")).status == 404
    assert (await web.client.get(f"/s/{GUILD}/artsee/season")).status == 404
    board = await (await web.client.get(f"/s/{GUILD}/street-art")).text()
    assert f'href="/s/{GUILD}/street-art/season"' in board


async def test_the_player_page_shows_the_titles_held(web: Web) -> None:
    record = await finish(web.service, await web.public_game(ai=1))
    await web.service.store.keep_title(KeptTitle(GUILD, BO, "best-move", 1.0, record.id, ANA))
    page = await (await web.client.get(f"/s/{GUILD}/p/{BO}")).text()
    assert "🏅 First game finished · Best move</p>" in page


async def test_a_private_game_s_titles_never_reach_the_player_page(web: Web) -> None:
    titles = Titles(web.service)  # the bot's: it keeps what a game's end earns
    hidden = await finish(web.service, await web.public_game(ai=1, public=False))
    # A teaching table's end (the bot marks the game so) earns its players a title, kept
    # with the game: here a private one.
    await titles.heard(replace(hidden, prefs={**hidden.prefs, "teaching": True}), [])
    await titles.give(hidden.id, ANA, BO, BEST_MOVE)
    shown = await finish(web.service, await web.public_game(ai=1))
    await titles.give(shown.id, ANA, BO, GOOD_SPORT)
    page = await (await web.client.get(f"/s/{GUILD}/p/{BO}")).text()
    assert "🏅 First game finished · Good sport</p>" in page, "the public game's only"
    assert "Best move" not in page and "teaching" not in page
    assert [t for t, _n in await titles.held(GUILD, BO)][-3:] == [
        "teaching",
        BEST_MOVE,
        GOOD_SPORT,
    ], "all kept, for the player's own eyes"
