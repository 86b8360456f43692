"""A teaching table's hand page shows the lessons of the decision, as the Discord panel does
(worked out once, in ``bot``), and a lesson taught by a confirmed move is not shown again."""

from __future__ import annotations

import html
import re
import time

from bot.i18n import _
from bot.teaching.courses import COURSES
from tests.web.conftest import ANA, CHANNEL, GUILD, Web
from tests.web.test_surface import tap


def lessons(page: str) -> list[str]:
    return [html.unescape(line) for line in re.findall(r'<p class="lesson">📘 ([^<]+)</p>', page)]


async def test_the_hand_page_teaches_the_decisions_lessons_once(web: Web) -> None:
    service = web.service
    lobby = await service.learn("artsee", GUILD, CHANNEL, ANA, "Ana")
    record = (await service.autostart(lobby.id)).record  # type: ignore[union-attr]
    assert service.to_move(record) == [ANA]
    path = web.links.hand(record.id, ANA, time.time()).removeprefix(web.links.base_url)
    page = await (await web.client.get(path)).text()
    course = {lesson.key: _(lesson.text) for lesson in COURSES["artsee"].lessons}
    assert lessons(page) == [course["goal"], course["turn"]]
    for _step in ("card", "column"):
        page = await (await web.client.get(await tap(web, path, page, add="0"))).text()
    sent = await tap(web, path, page, confirm="1")
    after = await (await web.client.get(sent)).text()
    assert (await service.get(record.id)).prefs["taught"][:2] == ["goal", "turn"]
    assert course["turn"] not in lessons(after)
