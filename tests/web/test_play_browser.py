"""Whole games played on the hand page in Debian's Chromium, by tapping targets only.

For each game, a player plays against an easy AI seat on a phone (390×844) until the game ends,
choosing among the lit targets at random; a desktop (1280×800) plays a few turns. Every tap is
counted: a confirmed turn takes one tap per decision (a card picked up and the place it goes
are two) plus its Confirm, and nothing else. Every target is at least 44×44 CSS px and every
control has an accessible name; a whole ArtSee turn is played with the keyboard alone.
Screenshots (lit, picked, dim, previewed, confirmed) go to ``WEB_SHOTS`` when it is set.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from bot.store.base import ACTIVE, FINISHED, GameRecord
from tests.web.conftest import ANA, CHANNEL, GUILD, Web
from tests.web.test_browser import LIVE_SECONDS, PHONE, browser, shoot, site  # noqa: F401
from tests.web.test_handlers import play_one

#: A short game of each (two seats; Street Kings to 4 rounds).
SHORT = {
    "street-art": {"two_players": "true"},
    "artsee": {},
    "street-art-mural": {},
    "street-kings": {"shorter_game": "true", "round_cap": "4"},
}
WIDE = {"width": 1280, "height": 800}
#: How long a page may take to show another player's move, in ms: a timeout, not a figure (the
#: table page's test measures the delay). Two seconds failed twice in a whole run of the suite,
#: where this page's fragment is drawn beside another worker's browser and AI, and ten seconds
#: once in three (it passes in 3-5 s alone): only a page that never updates should fail here.
LIVE_MS = 15 * LIVE_SECONDS * 1000
#: Taps a whole game may take at most (a loop that never ends fails instead).
MOST_TAPS = 400


@dataclass
class Taps:
    """Taps counted per confirmed build: (taps, decisions) each."""

    builds: list[tuple[int, int]] = field(default_factory=list)
    taps: int = 0
    decisions: int = 0
    #: Pieces picked up (the first half of a two-part decision).
    picks: int = 0
    shots: set[str] = field(default_factory=set)

    def confirmed(self) -> None:
        self.builds.append((self.taps + 1, self.decisions))
        self.taps = self.decisions = 0


async def table(web: Web, game: str) -> tuple[GameRecord, str]:
    service = web.service
    record = await service.new_game(game, GUILD, CHANNEL, ANA, "Ana", SHORT[game])
    await service.add_ai(GUILD, CHANNEL, ANA, record.id, level="easy")
    record = (await service.start(GUILD, CHANNEL, ANA, record.id)).record
    return record, web.links.hand(record.id, ANA, time.time())


async def tap(page: Page, selector: str, nth: int) -> None:
    """A tap on a button that loads the surface again, waiting for it to be drawn."""
    before = await page.evaluate("document.body.dataset.updated || ''")
    await page.locator(selector).nth(nth).click()
    await page.wait_for_function(
        "before => (document.body.dataset.updated || '') !== before", arg=before
    )


async def look(page: Page, taps: Taps, game: str, name: str) -> None:
    """One screenshot of each kind per game and viewport."""
    if name not in taps.shots:
        taps.shots.add(name)
        width = (page.viewport_size or PHONE)["width"]
        await shoot(page, f"play-{game}-{width}-{name}")


async def check_targets(page: Page) -> None:
    """Every control is at least 44×44 CSS px and has an accessible name."""
    boxes = await page.evaluate(
        """() => [...document.querySelectorAll('#play button, #play summary')].map(b => {
            const r = b.getBoundingClientRect();
            const name = (b.getAttribute('aria-label') || b.textContent || '').trim();
            return [b.outerHTML.slice(0, 80), r.width, r.height, name];
        })"""
    )
    for html, width, height, name in boxes:
        assert name, f"no accessible name: {html}"
        if not html.startswith("<summary"):
            assert width >= 44 and height >= 44, f"{width}x{height}: {html}"


async def play(page: Page, web: Web, record: GameRecord, game: str, most: int) -> Taps:
    """Tap lit targets at random (a quiet one only when nothing else is lit), build until
    the turn closes, Confirm; until the game ends or ``most`` builds are confirmed."""
    rng = random.Random(game)
    taps = Taps()
    for _tap in range(MOST_TAPS):
        if len(taps.builds) >= most:
            break
        await check_targets(page)
        places = page.locator("#play .target.lit:not(.source):not(.passive)")
        quiet = page.locator("#play .target.lit.passive")
        sources = page.locator("#play .target.source.lit:not(.picked)")
        dim = page.locator("#play .target.dim")
        if await dim.count() and "dim" not in taps.shots:
            await dim.first.click(force=True)  # aria-disabled: still tappable, says why
            assert await page.inner_text("#note"), "a dim target says why"
            await look(page, taps, game, "dim")
        if await places.count():
            await look(page, taps, game, "lit" if not taps.taps else "previewed")
            await tap(
                page,
                "#play .target.lit:not(.source):not(.passive)",
                rng.randrange(await places.count()),
            )
        elif await sources.count():
            await tap(
                page, "#play .target.source.lit:not(.picked)", rng.randrange(await sources.count())
            )
            await look(page, taps, game, "picked")
            taps.picks += 1
        elif await quiet.count():
            await tap(page, "#play .target.lit.passive", rng.randrange(await quiet.count()))
        elif await page.locator("#confirm").count():
            await look(page, taps, game, "built")
            await tap(page, "#confirm", 0)
            taps.confirmed()
            assert await page.inner_text("#note") == "Done."
            await look(page, taps, game, "confirmed")
            continue
        else:
            record = await web.service.get(record.id)
            assert record.status != ACTIVE or ANA not in web.service.read(record).to_move
            break
        taps.taps += 1
        taps.decisions += 1
    return taps


#: The two longest whole games in a browser (a minute or more each on two busy cores) run with
#: ``-m slow``; in the default run every game's targets and previews are still played through
#: whole games below the page (tests/bot/test_presentation.py).
LONG = {"street-art-mural", "street-kings"}


@pytest.mark.parametrize(
    "game", [pytest.param(g, marks=[pytest.mark.slow] if g in LONG else []) for g in sorted(SHORT)]
)
async def test_a_whole_game_is_played_by_tapping_targets_only(
    site: Web,  # noqa: F811
    browser: Browser,  # noqa: F811
    game: str,
) -> None:
    record, link = await table(site, game)
    page = await browser.new_page(viewport=PHONE)
    await page.goto(link)
    taps = await play(page, site, record, game, most=10_000)
    record = await site.service.get(record.id)
    assert record.status == FINISHED, f"{game}: the game did not end on the page"
    assert taps.builds and all(t == d + 1 for t, d in taps.builds), taps.builds
    mine = [a for a in await site.service.store.actions(record.id) if a.player == ANA]
    assert sum(d for _t, d in taps.builds) <= len(mine) + sum(
        1 for s in taps.shots if s == "picked"
    ) * len(mine)
    per = [t for t, _d in taps.builds]
    print(
        f"\n{game}: {len(per)} confirmed turns, taps per turn median "
        f"{statistics.median(per)}, max {max(per)}; {len(mine)} decisions logged"
    )
    wide = await browser.new_page(viewport=WIDE)
    again, link = await table(site, game)
    await wide.goto(link)
    await play(wide, site, again, game, most=3)


async def test_a_whole_turn_is_played_with_the_keyboard_alone(
    site: Web,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    record, link = await table(site, "artsee")
    page = await browser.new_page(viewport=PHONE)
    await page.goto(link)
    for _key in range(30):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.matches('.target.lit')"):
            break
    names, aloud = [], []
    for _step in range(8):
        focused: Any = await page.evaluate(
            "[document.activeElement.id, document.activeElement.getAttribute('aria-label')]"
        )
        names.append(focused[1] or focused[0])
        before = await page.evaluate("document.body.dataset.updated || ''")
        await page.keyboard.press("Enter")
        await page.wait_for_function(
            "before => (document.body.dataset.updated || '') !== before", arg=before
        )
        if focused[0] == "confirm":
            break
        await page.wait_for_function("document.querySelector('#aloud').textContent !== ''")
        aloud.append(str(await page.text_content("#aloud")))
    assert names[-1] == "confirm" and len(names) >= 3, names
    assert aloud[0].startswith("Play "), aloud  # each step said to a screen reader
    logged = [a.action["type"] for a in await site.service.store.actions(record.id)]
    assert {"card", "place", "draw"} <= set(logged), logged
    assert await page.inner_text("#note") == "Done."


async def test_another_players_move_shows_at_once_and_is_marked_new(
    site: Web,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    """Ana's page is open while Bo moves: the page draws the game after Bo's move without a
    reload, and marks the turns told since Ana last looked."""
    record = await site.public_game("street-art")
    for _move in range(10):
        record = await site.service.get(record.id)
        if site.service.read(record).waiting_humans[0] != ANA:
            break
        await play_one(site.service, record)
    mover = site.service.read(record).waiting_humans[0]
    page = await browser.new_page(viewport=PHONE)
    await page.goto(site.links.hand(record.id, ANA, time.time()))
    seen = await page.locator(".log li").count()
    await page.goto(site.links.hand(record.id, ANA, time.time()))  # looked once: nothing new
    assert await page.locator(".log li.new").count() == 0
    await page.evaluate("window.marker = 'not reloaded'")
    after = await play_one(site.service, await site.service.get(record.id))
    assert mover != ANA
    await page.wait_for_selector(f'#play [data-version="{after.version}"]', timeout=LIVE_MS)
    assert await page.evaluate("window.marker") == "not reloaded"
    assert await page.locator(".log li.new").count() >= 1
    assert await page.locator(".log li").count() > seen
    await shoot(page, "play-live-marked")
