"""The hand page's Hint (issue 39): the same two steps as the Discord panel's, taken only by a
POST from the page, shown without a script by the address and in place by the script; none at
a rated table of humans."""

from __future__ import annotations

import re
import time

from bot import hints
from tests.web.conftest import ANA, BO, CHANNEL, GUILD, Web
from tests.web.test_surface import artsee


def version_of(page: str) -> str:
    found = re.search(
        r'id="hinting"[^>]*>\s*<input type="hidden" name="version" value="(\d+)"', page
    )
    assert found is not None, "the page offers a hint"
    return found.group(1)


async def test_a_hint_in_two_steps_without_a_script(web: Web) -> None:
    record, path = await artsee(web)
    page = await (await web.client.get(path)).text()
    assert "Hint (no rating change)</button>" in page
    untaken = await (await web.client.get(f"{path}?hint=2")).text()
    assert "Where to look" not in untaken, "an address alone never takes a hint"
    assert await web.service.store.hinted(record.id) == set()
    form = {"version": version_of(page), "step": "1"}
    answer = await web.client.post(f"{path}/hint", data=form, allow_redirects=False)
    assert answer.status == 303 and answer.headers["Location"].endswith("?hint=1")
    first = await (await web.client.get(answer.headers["Location"])).text()
    assert "💡 Where to look" in first and "💡 The move" not in first
    assert "You took a hint: this game will not change your rating." in first
    assert ">Show the move</button>" in first
    assert await web.service.store.hinted(record.id) == {ANA}
    answer = await web.client.post(
        f"{path}/hint", data={**form, "step": "2"}, allow_redirects=False
    )
    both = await (await web.client.get(answer.headers["Location"])).text()
    shown = await web.service.hints.hint(web.service, record, ANA)
    assert "💡 The move: <strong><bdi>" in both and "Show the move</button>" not in both
    move = re.sub(r"\*\*(.+?)\*\*", r"<strong><bdi>\1</bdi></strong>", shown.move)
    assert move in both, "the same words as the Discord panel's hint"


async def test_the_script_gets_the_hint_as_markup_and_an_old_page_is_told(web: Web) -> None:
    _record, path = await artsee(web)
    page = await (await web.client.get(path)).text()
    json_only = {"Accept": "application/json"}
    form = {"version": version_of(page), "step": "2"}
    answer = await (await web.client.post(f"{path}/hint", data=form, headers=json_only)).json()
    assert answer["step"] == "2" and answer["html"].count("<p>") == 3
    old = await web.client.post(f"{path}/hint", data={**form, "version": "1"}, headers=json_only)
    assert "The game moved on" in (await old.json())["html"]


async def test_a_rated_table_of_humans_offers_no_hint_on_the_page(web: Web) -> None:
    service = web.service
    record = await service.new_game("street-kings", GUILD, CHANNEL, ANA, "Ana")
    await service.join(GUILD, CHANNEL, BO, "Bo", record.id)
    record = (await service.start(GUILD, CHANNEL, ANA, record.id)).record
    mover = service.to_move(record)[0]
    path = web.links.hand(record.id, mover, time.time()).removeprefix(web.links.base_url)
    page = await (await web.client.get(path)).text()
    assert 'id="hinting"' not in page and not hints.allowed(record)
    refused = await web.client.post(
        f"{path}/hint",
        data={"version": str(record.version), "step": "1"},
        headers={"Accept": "application/json"},
    )
    assert "not offered" in (await refused.json())["html"]
    assert await service.store.hinted(record.id) == set()
