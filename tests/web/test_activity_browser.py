"""The Discord Activity in Debian's Chromium, with the real Embedded App SDK, without Discord.

A page on the table's own origin plays Discord's client (``activity_client``) and a fake of
Discord's HTTP API answers the sign-in (``fake_discord_api``). Two players, each in a phone's
390×844 frame, play an ArtSee game side by side: each sees the other's turn arrive live and
plays their own on the board. Every request any frame makes goes to the table: one to any
other host fails the test. The instance then ends, and a relaunch (a new instance in the same
channel) finds the same game where it was. Screenshots go to ``WEB_SHOTS`` when it is set.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.async_api import Browser, Frame

from bot.service import GameService
from bot.store.base import GameRecord
from tests.web.activity_client import READY_MS, Table, activity_table, discord_proxy
from tests.web.conftest import ANA, BO, CHANNEL, GUILD
from tests.web.test_browser import PHONE, browser, shoot  # noqa: F401
from tests.web.test_handlers import play_one
from tests.web.test_play_browser import LIVE_MS, WIDE, tap

INSTANCE = "i-1387000222"


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    async with activity_table(tmp_path) as found:
        yield found


async def artsee(service: GameService) -> GameRecord:
    record = await service.new_game("artsee", GUILD, CHANNEL, ANA, "Ana")
    await service.join(GUILD, CHANNEL, BO, "Bo", record.id)
    return (await service.start(GUILD, CHANNEL, ANA, record.id)).record


async def my_turn(frame: Frame) -> None:
    """One whole turn on the board: a lit place (a piece first when one must be picked up),
    until the turn closes, then Confirm."""
    await frame.locator("#play .target.lit, #confirm").first.wait_for(timeout=LIVE_MS)
    for _tap in range(12):
        if await frame.locator("#play #confirm").count():
            await tap(frame, "#confirm", 0)  # type: ignore[arg-type]
            assert await frame.inner_text("#note") == "Done."
            return
        for selector in (
            "#play .target.lit:not(.source):not(.passive)",
            "#play .target.source.lit:not(.picked)",
            "#play .target.lit.passive",
        ):
            if await frame.locator(selector).count():
                await tap(frame, selector, 0)  # type: ignore[arg-type]
                break
    raise AssertionError("the turn never closed")


async def test_two_players_play_side_by_side_in_discord_and_a_relaunch_finds_the_game(
    table: Table,
    browser: Browser,  # noqa: F811
) -> None:
    record = await artsee(table.service)
    table.discord.launch(INSTANCE, GUILD, CHANNEL, ANA, BO)
    ana = await table.open(browser, ANA, INSTANCE)
    bo = await table.open(browser, BO, INSTANCE)
    await shoot(ana.page, "activity-390-ana")
    padding = await ana.evaluate(
        """() => {
            document.documentElement.style.setProperty('--discord-safe-area-inset-top', '37px');
            return getComputedStyle(document.body).paddingTop;
        }"""
    )
    assert padding == "37px", "Discord's safe-area inset keeps the board clear of its bar"
    for frame in (ana, bo):  # the board, sized for the phone, no sideways scroll
        width = await frame.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
        assert await frame.locator("#play .board img").count() == 1
    frames, moved = {ANA: ana, BO: bo}, []
    while len(set(moved)) < 2 or moved[-1] == moved[0]:  # each plays, and the first again
        assert len(moved) < 10, moved
        waiting = table.service.read(await table.service.get(record.id)).to_move
        moved.append(waiting[0])
        mover, other = frames[waiting[0]], frames[ANA if waiting[0] == BO else BO]
        before = await other.get_attribute("#play [data-version]", "data-version")
        await my_turn(mover)
        await other.wait_for_function(
            "before => document.querySelector('#play [data-version]')?.dataset.version !== before",
            arg=before,
            timeout=LIVE_MS,
        )
    transport = await ana.evaluate("document.getElementById('play').dataset.transport || 'sse'")
    assert transport == "sse"
    played = await table.service.get(record.id)
    assert played.version > record.version
    await shoot(bo.page, "activity-390-bo")
    # The instance ends (everyone left); Discord relaunches a new one in the same channel.
    table.discord.end(INSTANCE)
    table.discord.launch("i-1387000333", GUILD, CHANNEL, ANA)
    await ana.page.set_viewport_size(WIDE)
    again = await table.launch(ana.page, ANA, "i-1387000333")
    assert await again.get_attribute("#play", "data-game") == record.id
    shown = await again.get_attribute("#play [data-version]", "data-version")
    assert shown == str((await table.service.get(record.id)).version)
    await shoot(ana.page, "activity-1280-ana")
    assert not table.elsewhere, table.elsewhere
    print(f"\nactivity hosts: {sorted(table.hosts)}")


async def test_a_user_outside_the_instance_is_refused_in_the_frame(
    table: Table,
    browser: Browser,  # noqa: F811
) -> None:
    await artsee(table.service)
    table.discord.launch(INSTANCE, GUILD, CHANNEL, BO)  # Ana is not in it
    page = await browser.new_page(viewport=PHONE)
    await page.route("**/*", table.guard)
    await page.goto(f"{table.url}/client?user={ANA}&instance={INSTANCE}")
    frame = page.frame_locator("#frame")
    await frame.locator("body[data-failed]").wait_for(timeout=READY_MS)
    assert "did not let you in" in await frame.locator("#status").inner_text()
    assert await frame.locator("#play").count() == 0
    assert not table.elsewhere, table.elsewhere


async def test_the_activity_plays_behind_discords_proxy_prefix(
    table: Table,
    browser: Browser,  # noqa: F811
) -> None:
    """Every address of the page is relative: behind ``/.proxy/`` (the prefix taken off by
    the proxy, the page's origin Discord's), sign-in, board and turn all go through it."""
    record = await artsee(table.service)
    table.discord.launch(INSTANCE, GUILD, CHANNEL, ANA, BO)
    mover = table.service.read(record).to_move[0]
    async with discord_proxy(table) as proxied:
        page = await browser.new_page(viewport=PHONE)
        await page.route("**/*", table.guard)
        table.url = proxied  # the host every frame may ask is the proxy's now
        frame = await table.launch(page, mover, INSTANCE)
        await my_turn(frame)
        await page.close()
    activity = [u for u in table.requests if "/activity" in u]
    assert activity and all(urlsplit(u).path.startswith("/.proxy/activity") for u in activity)
    assert (await table.service.get(record.id)).version > record.version
    assert not table.elsewhere, table.elsewhere


@pytest.mark.slow
async def test_a_stream_the_proxy_holds_back_falls_back_to_asking(
    table: Table,
    browser: Browser,  # noqa: F811
) -> None:
    """A proxy that buffers server-sent events: the page hears nothing from its stream, asks
    for the version instead, and still shows the other player's move."""
    record = await artsee(table.service)
    table.discord.launch(INSTANCE, GUILD, CHANNEL, ANA, BO)
    waiting = table.service.read(record).to_move[0]
    watcher = ANA if waiting == BO else BO
    async with discord_proxy(table, hold_streams=True) as proxied:
        page = await browser.new_page(viewport=PHONE)
        table.url = proxied
        frame = await table.launch(page, watcher, INSTANCE)
        await frame.wait_for_function(
            "() => document.getElementById('play').dataset.transport === 'poll'", timeout=LIVE_MS
        )
        after = await play_one(table.service, record)
        await frame.wait_for_function(
            "v => document.querySelector('#play [data-version]').dataset.version === v",
            arg=str(after.version),
            timeout=LIVE_MS,
        )
        await page.close()


async def test_a_player_learns_a_game_from_the_activitys_list(
    table: Table,
    browser: Browser,  # noqa: F811
) -> None:
    """Learn (issue 39): in a channel with no game the list offers a Learn button per game;
    a tap opens a teaching table for the player and its board, lessons first."""
    table.discord.launch(INSTANCE, GUILD, CHANNEL, ANA)
    page = await browser.new_page(viewport=PHONE)
    await page.route("**/*", table.guard)
    await page.goto(f"{table.url}/client?user={ANA}&instance={INSTANCE}")
    frame = page.frame_locator("#frame")
    learn = frame.locator('#games button[data-learn="street-art"]')
    await learn.wait_for(timeout=READY_MS)
    assert await frame.locator("#games button[data-learn]").count() == 4
    assert "learn one here" in await frame.locator("#status").inner_text()
    await shoot(page, "activity-390-learn-list")
    await learn.click()
    await frame.locator("#play .lesson").first.wait_for(timeout=READY_MS)
    assert await frame.locator("#play .lesson").count() == 2
    (record,) = await table.service.store.games_in_channel(GUILD, CHANNEL)
    assert record.prefs["teaching"] and record.seats[0].user == ANA
    await shoot(page, "activity-390-learning")
    assert not table.elsewhere, table.elsewhere
