"""A teaching table's hand page in Debian's Chromium (issue 39), with its script: the end
screen's button leads to the real game's own page, and the server page's Learn opens its
sentence; a card whose face has not arrived is a named card, never a blank tile. Screenshots
(phone and desktop) go to ``WEB_SHOTS`` when it is set."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from playwright.async_api import Browser, Route

from bot.store.base import ACTIVE
from bot.teaching.tables import open_table
from bot.words.street_art import card_name
from tests.web.conftest import ANA, CHANNEL, GUILD, Web
from tests.web.test_browser import PHONE, browser, shoot, site  # noqa: F401

WIDE = {"width": 1280, "height": 800}


@dataclass
class Held:
    """Requests the network holds back until ``release`` (a slow picture, as a player on a
    busy table gets it), then lets through."""

    routes: list[Route] = field(default_factory=list)
    released: bool = False

    async def hold(self, route: Route) -> None:
        if self.released:
            await route.continue_()
        else:
            self.routes.append(route)

    async def release(self) -> None:
        self.released = True
        for route in self.routes:
            await route.continue_()


async def test_a_learner_goes_on_from_the_end_screen_to_a_real_game(
    site: Web,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    service = site.service
    record = await open_table(service, "street-art", GUILD, CHANNEL, ANA, "Ana")
    link = site.links.hand(record.id, ANA, time.time())
    phone = await browser.new_page(viewport=PHONE)
    desktop = await browser.new_page(viewport=WIDE)
    await phone.goto(link)
    await desktop.goto(link)
    while record.status == ACTIVE:
        legal = service.read(record).legal(ANA)
        record = (await service.move(GUILD, CHANNEL, ANA, legal[0], record.id)).record
    await desktop.reload()
    await shoot(desktop, "learn-end-desktop")
    await phone.reload()
    await shoot(phone, "learn-end-phone")
    await phone.get_by_role("button", name="Play a real game").click()
    await phone.wait_for_url(lambda url: "/h/" in url and url.split("?")[0] != link)
    await phone.locator("#surface").wait_for()
    assert "Your turn." in await phone.locator(".turn").inner_text()
    await shoot(phone, "learn-real-phone")
    await phone.goto(site.links.base_url + f"/s/{GUILD}")
    await phone.get_by_text("Learn Street Art", exact=True).click()
    assert "/game learn game:street-art" in await phone.locator("details[open] p").inner_text()
    await shoot(phone, "learn-server-phone")


async def test_a_card_whose_face_has_not_arrived_is_its_name_not_a_blank_tile(
    site: Web,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """The first hand of a teaching table, its faces held back by the network (the pool drew
    the last one seconds after the others on a busy machine, and the Activity showed an empty
    lit tile): each card's tile is card-shaped and says its card; once a face arrives it
    covers the name, as before."""
    service = site.service
    record = await open_table(service, "street-art", GUILD, CHANNEL, ANA, "Ana")
    faces = Held()
    page = await browser.new_page(viewport=PHONE)
    await page.route("**/face/*.png", faces.hold)
    await page.goto(site.links.hand(record.id, ANA, time.time()), wait_until="commit")
    tiles = page.locator("#surface .target.face")
    await tiles.first.wait_for()
    hand = sorted({card_name(card) for card in service.read(record).view(ANA)["hand"]})
    assert sorted(set(await tiles.all_inner_texts())) == hand
    for box in [await tile.bounding_box() for tile in await tiles.all()]:
        assert box is not None and box["width"] >= 96 and box["height"] > box["width"], box
    await shoot(page, "learn-faces-held-phone")
    await faces.release()
    await page.wait_for_function(
        "() => [...document.querySelectorAll('.target.face img')].every(i => i.naturalWidth)"
    )
    covered = await page.evaluate(
        """() => [...document.querySelectorAll('.target.face')].map(tile => {
            const r = tile.querySelector('img').getBoundingClientRect();
            return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).tagName;
        })"""
    )
    assert set(covered) == {"IMG"}, covered
