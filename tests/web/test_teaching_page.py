"""A teaching table's hand page shows the lessons of the decision, as the Discord panel does
(worked out once, in ``bot``), and a lesson taught by a confirmed move is not shown again."""

from __future__ import annotations

import html
import re
import time

from bot.__main__ import parser
from bot.i18n import _
from bot.teaching.courses import COURSES
from tests.web.conftest import ANA, CHANNEL, GUILD, Web
from tests.web.test_surface import tap
from web.play import seat


def lessons(page: str) -> list[str]:
    return [html.unescape(line) for line in re.findall(r'<p class="lesson">([^<]+)</p>', page)]


async def test_the_hand_page_teaches_the_decisions_lessons_once(web: Web) -> None:
    service = web.service
    lobby = await service.learn("artsee", GUILD, CHANNEL, ANA, "Ana")
    record = (await service.autostart(lobby.id)).record  # type: ignore[union-attr]
    assert service.to_move(record) == [ANA]
    path = web.links.hand(record.id, ANA, time.time()).removeprefix(web.links.base_url)
    page = await (await web.client.get(path)).text()
    course = {lesson.key: _(lesson.text) for lesson in COURSES["artsee"].lessons}
    assert lessons(page) == [course["goal"], course["turn"]]
    page = await (await web.client.get(await tap(web, path, page, add="0"))).text()
    # A card tapped, not sent: the page is at the column's decision, and teaches its rule.
    assert lessons(page) == [course["arrow"]]
    page = await (await web.client.get(await tap(web, path, page, add="0"))).text()
    sent = await tap(web, path, page, confirm="1")
    after = await (await web.client.get(sent)).text()
    assert (await service.get(record.id)).prefs["taught"][:3] == ["goal", "turn", "arrow"]
    assert course["turn"] not in lessons(after)


async def test_make_play_learn_seats_a_teaching_table_in_place_of_the_last(web: Web) -> None:
    """`make play LEARN=1` (``python -m bot play --learn``): the local table is a teaching
    table, its seats the course's whatever ``--players`` says; an earlier table is closed."""
    assert parser().parse_args(["play", "--game", "artsee", "--learn"]).learn
    assert not parser().parse_args(["play"]).learn
    first = await seat(web.service, "street-kings", 3, {})
    record = await seat(web.service, "street-kings", 3, {}, learn=True)
    assert record.status == "active" and record.prefs["teaching"]
    assert len(record.seats) == 1 + COURSES["street-kings"].ai_seats
    assert (await web.service.get(first.id)).status == "abandoned"
