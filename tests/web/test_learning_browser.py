"""A teaching table's hand page in Debian's Chromium (issue 39), with its script: the end
screen's button leads to the real game's own page, and the server page's Learn opens its
sentence. Screenshots (phone and desktop) go to ``WEB_SHOTS`` when it is set."""

from __future__ import annotations

import time

from playwright.async_api import Browser

from bot.store.base import ACTIVE
from bot.teaching.tables import open_table
from tests.web.conftest import ANA, CHANNEL, GUILD, Web
from tests.web.test_browser import PHONE, browser, shoot, site  # noqa: F401

WIDE = {"width": 1280, "height": 800}


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
