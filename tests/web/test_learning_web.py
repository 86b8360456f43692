"""A teaching table on the web (issue 39): the server page says how to learn each game, the
hand page shows the mistake note a confirmed turn earned (as Discord's private note does),
and a finished table's end screen starts a real game and leads to its page."""

from __future__ import annotations

import html
import re
import time

from bot.i18n import _
from bot.store.base import ACTIVE, FINISHED, GameRecord
from bot.teaching import TEACHING
from bot.teaching.courses import COURSES
from bot.teaching.notes import judge, seed_of
from bot.teaching.tables import HOW_TO_LEARN, open_table
from rules import GAMES
from tests.web.conftest import ANA, CHANNEL, GUILD, Web


def path_of(web: Web, record: GameRecord) -> str:
    return web.links.hand(record.id, ANA, time.time()).removeprefix(web.links.base_url)


def mistake(page: str) -> list[str]:
    """The lines of the page's mistake note, as a reader sees them."""
    found = re.search(r'<aside class="mistake"[^>]*>(.*?)</aside>', page, re.S)
    if found is None:
        return []
    return [html.unescape(re.sub("<[^>]+>", "", p)) for p in re.findall("<p>(.*?)</p>", found[1])]


async def confirmed(web: Web, path: str, index: int) -> str:
    """The page after a turn of one step, the ``index``-th legal move, sent without a script."""
    page = await (await web.client.get(path)).text()
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version is not None
    form = {"version": version[1], "steps": str(index), "pick": "", "confirm": "1"}
    sent = await web.client.post(f"{path}/turn", data=form, allow_redirects=False)
    assert sent.status == 303 and sent.headers["Location"].endswith("?note=moved")
    return await (await web.client.get(sent.headers["Location"])).text()


async def test_the_server_page_says_how_to_learn_each_game(web: Web) -> None:
    page = await (await web.client.get(f"/s/{GUILD}")).text()
    for game in COURSES:
        assert f"<summary>Learn {GAMES[game].title}</summary>" in page
        how = _(HOW_TO_LEARN).format(id=game, game=GAMES[game].title)
        assert html.escape(how.split("`")[0]) in page
        assert f"<code>/game learn game:{game}</code>" in page


async def test_a_clear_mistake_sent_from_the_page_gets_its_note_there(web: Web) -> None:
    service = web.service
    record = await open_table(service, "street-art", GUILD, CHANNEL, ANA, "Ana")
    path = path_of(web, record)
    before = service.read(record)
    legal = before.legal(ANA)
    seed = seed_of(record.seed or "", before.version, ANA)
    bad = next(
        i for i, m in enumerate(legal) if judge("street-art", before.view(ANA), legal, m, seed)
    )
    page = await confirmed(web, path, bad)
    note = mistake(page)
    assert note and "was the stronger move" in note[0] and note[1].startswith("Yours: Ana played")
    assert mistake(await (await web.client.get(path)).text()) == note, "kept until the next turn"
    record = await service.get(record.id)
    assert service.read(record).to_move == [ANA]
    await service.move(GUILD, CHANNEL, ANA, service.read(record).legal(ANA)[0], record.id)
    assert mistake(await (await web.client.get(path)).text()) == [], "a move from another door"


async def test_a_finished_teaching_table_leads_to_a_real_game(web: Web) -> None:
    service = web.service
    record = await open_table(service, "street-art", GUILD, CHANNEL, ANA, "Ana")
    path = path_of(web, record)
    early = await web.client.post(f"{path}/real", allow_redirects=False)
    assert early.status == 409 and "finished teaching table" in await early.text()
    assert "/real" not in await (await web.client.get(path)).text()
    while record.status == ACTIVE:
        legal = service.read(record).legal(ANA)
        record = (await service.move(GUILD, CHANNEL, ANA, legal[0], record.id)).record
    assert record.status == FINISHED
    page = await (await web.client.get(path)).text()
    assert f'action="{path}/real"' in page and "Play a real game" in page
    answer = await web.client.post(f"{path}/real", allow_redirects=False)
    assert answer.status == 303
    real = [g for g in await service.store.games_in_channel(GUILD, CHANNEL) if g.id != record.id]
    assert len(real) == 1 and real[0].status == ACTIVE and not real[0].prefs.get(TEACHING)
    assert real[0].game == "street-art" and real[0].seats[0].user == ANA
    assert [s.ai for s in real[0].seats] == [False] + [True] * COURSES["street-art"].ai_seats
    new_page = await (await web.client.get(answer.headers["Location"])).text()
    assert "Your turn." in new_page
    assert 'class="lesson"' not in new_page
