"""The Discord Activity's server (web/activity.py) over HTTP, against a fake of Discord's API.

A player signs in with a code from Discord and gets a session bound to them, the instance and
its channel; a code of someone not in the instance, an unknown instance, an altered session or
one used on another channel's game is refused. A seat's turn is taken only from its own
session at the current version, and not once the instance has ended. Only Discord and the
table itself may frame the Activity's pages; no other page may be framed. Static files cost no
request budget, and an Activity's requests spend their player's budget. No payload of the
Activity changes when everything its viewer cannot see is dealt again.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot import launches, metrics
from bot.service import GameService
from bot.store.base import ACTIVE, GameRecord
from bot.teaching import TEACHING
from bot.teaching.courses import COURSES
from rules import DETERMINIZERS, GAMES
from tests.backends import Backend
from tests.web.conftest import ANA, BO, CHANNEL, GUILD, SECRET
from tests.web.fake_discord_api import CLIENT_ID, FakeDiscordApi, serving
from web import activity
from web.app import create_app
from web.ratelimit import RateLimit

CY = "103"  # in the channel, not seated
ZED = "104"  # not in the instance
INSTANCE = "i-1387000111"


@dataclass
class Site:
    service: GameService
    client: TestClient
    discord: FakeDiscordApi

    async def sign_in(self, user: str, instance: str = INSTANCE) -> Any:
        """The page's POST of the code Discord gave ``user``; the answer."""
        form = {"code": self.discord.code_for(user), "instance_id": instance}
        return await self.client.post("/activity/token", data=form)

    async def session(self, user: str) -> str:
        answer = await self.sign_in(user)
        assert answer.status == 200, await answer.text()
        return str((await answer.json())["session"])

    async def game(
        self, name: str = "street-art", channel: str = CHANNEL, players: tuple[str, ...] = (ANA, BO)
    ) -> GameRecord:
        """A started game in ``channel``: ``players`` and an AI."""
        service, host = self.service, players[0]
        record = await service.new_game(name, GUILD, channel, host, f"P{host}")
        for player in players[1:]:
            await service.join(GUILD, channel, player, f"P{player}", record.id)
        await service.add_ai(GUILD, channel, host, record.id)
        return (await service.start(GUILD, channel, host, record.id)).record


def exchanges(outcome: str) -> float:
    """The sign-ins counted with ``outcome`` so far (``bot.metrics``)."""
    sample = metrics.REGISTRY.get_sample_value(
        "tabletop_activity_token_exchanges_total", {"outcome": outcome}
    )
    return sample or 0.0


@pytest.fixture
async def site(backend: Backend) -> AsyncIterator[Site]:
    store = await backend.opened()
    service = GameService(store, seed_factory=lambda: "activity-seed")
    fake = FakeDiscordApi()
    fake.launch(INSTANCE, GUILD, CHANNEL, ANA, BO, CY)
    async with serving(fake) as api:
        limit = RateLimit(burst=10_000, per_second=10_000)
        client = TestClient(TestServer(create_app(service, SECRET, limit=limit, discord=api)))
        await client.start_server()
        try:
            yield Site(service, client, fake)
        finally:
            await client.close()
            await store.close()


async def test_a_player_in_the_instance_signs_in_and_plays_their_seat(site: Site) -> None:
    record = await site.game()
    session = await site.session(ANA)
    assert site.discord.calls == ["oauth2/token", "users/@me", "activity-instances"]
    listed = (await (await site.client.get(f"/activity/s/{session}/games")).json())["games"]
    assert [(g["id"], g["seated"]) for g in listed] == [(record.id, True)]
    base = f"/activity/s/{session}/g/{record.id}"
    fragment = await (await site.client.get(f"{base}/fragment")).text()
    version = re.search(r'name="version" value="(\d+)"', fragment)
    assert version is not None and 'action="s/' in fragment  # relative: /.proxy/ holds
    waiting = site.service.read(record).to_move
    assert waiting == [ANA], "the deal gives Ana the first turn"
    turn = await site.client.post(
        f"{base}/turn",
        data={"version": version.group(1), "steps": "0", "confirm": "1"},
        headers={"Accept": "application/json"},
    )
    assert (await turn.json())["sent"] == "moved"
    assert (await site.service.get(record.id)).version > record.version
    again = await site.client.post(  # the same turn replayed at the old version
        f"{base}/turn",
        data={"version": version.group(1), "steps": "0", "confirm": "1"},
        headers={"Accept": "application/json"},
    )
    assert (await again.json())["sent"] == "stale"


async def test_someone_else_in_the_channel_gets_the_public_table(site: Site) -> None:
    record = await site.game()
    session = await site.session(CY)
    listed = (await (await site.client.get(f"/activity/s/{session}/games")).json())["games"]
    assert [(g["id"], g["seated"]) for g in listed] == [(record.id, False)]
    base = f"/activity/s/{session}/g/{record.id}"
    fragment = await (await site.client.get(f"{base}/fragment")).text()
    assert 'id="surface"' not in fragment and f'src="s/{session}/g/{record.id}/board/' in fragment
    board = await site.client.get(f"{base}/board/{record.version}.png")
    assert board.status == 200 and board.content_type == "image/png"
    turn = await site.client.post(f"{base}/turn", data={"version": "1", "confirm": "1"})
    assert turn.status == 404  # no seat: no turn, no hand, no faces
    assert (await site.client.get(f"{base}/hand/{record.version}.png")).status == 404


async def test_a_forged_user_instance_or_session_is_refused(site: Site) -> None:
    record = await site.game()
    before = {o: exchanges(o) for o in ("not_in_instance", "no_instance", "bad_code", "ok")}
    assert (await site.sign_in(ZED)).status == 403  # a real user, not in the instance
    assert (await site.sign_in(ANA, "i-forged")).status == 403  # no such instance
    reused = {"code": "never-given", "instance_id": INSTANCE}
    assert (await site.client.post("/activity/token", data=reused)).status == 403
    counted = {o: exchanges(o) - n for o, n in before.items()}
    assert counted == {"not_in_instance": 1, "no_instance": 1, "bad_code": 1, "ok": 0}
    session = await site.session(BO)
    body, _dot, mac = session.partition(".")
    forged = f"{body[:-2]}{'A' if body[-2] != 'A' else 'B'}{body[-1]}.{mac}"
    answer = await site.client.get(f"/activity/s/{forged}/g/{record.id}/fragment")
    assert answer.status == 401
    elsewhere = await site.game(channel="778")  # Bo sits there too, but the session is 777's
    answer = await site.client.get(f"/activity/s/{session}/g/{elsewhere.id}/fragment")
    assert answer.status == 404


async def test_a_session_outlives_no_instance_and_the_game_outlives_the_instance(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = await site.game()
    session = await site.session(ANA)
    site.discord.end(INSTANCE)
    site.discord.launch("i-relaunched", GUILD, CHANNEL, ANA)
    monkeypatch.setattr(activity, "PRESENCE_SECONDS", 0.0)  # Discord is asked at once
    base = f"/activity/s/{session}/g/{record.id}"
    turn = await site.client.post(
        f"{base}/turn", data={"version": str(record.version), "steps": "0", "confirm": "1"}
    )
    assert turn.status == 401 and "ended" in await turn.text()
    assert (await site.service.get(record.id)).version == record.version
    answer = await site.sign_in(ANA, "i-relaunched")
    fresh = (await answer.json())["session"]
    listed = (await (await site.client.get(f"/activity/s/{fresh}/games")).json())["games"]
    assert [g["id"] for g in listed] == [record.id]


async def test_the_game_pressed_first_is_listed_first(site: Site) -> None:
    first = await site.game()
    second = await site.game(players=(CY, ZED))  # Bo looks on there
    session = await site.session(BO)
    listed = (await (await site.client.get(f"/activity/s/{session}/games")).json())["games"]
    assert listed[0]["id"] == first.id
    launches.LAUNCHES.remember(BO, CHANNEL, second.id)
    listed = (await (await site.client.get(f"/activity/s/{session}/games")).json())["games"]
    assert listed[0]["id"] == second.id and listed[0]["first"]


async def test_only_discord_and_the_table_frame_the_activity(site: Site) -> None:
    record = await site.game()
    page = await site.client.get("/activity/?frame_id=f&instance_id=i&platform=mobile")
    policy = page.headers["Content-Security-Policy"]
    ancestors = policy.split("frame-ancestors ")[1].split(";")[0].split()
    assert sorted(ancestors) == sorted(
        ["'self'", "https://discord.com", "https://*.discordsays.com"]
    )
    entry = await site.client.get("/activity?frame_id=f&platform=desktop", allow_redirects=False)
    assert entry.status == 302
    assert entry.headers["Location"] == "activity/?frame_id=f&platform=desktop"
    root = await site.client.get("/?frame_id=f", allow_redirects=False)
    assert root.headers["Location"] == "activity/?frame_id=f"
    assert (await site.client.get("/")).status == 404
    session = await site.session(ANA)
    for path in (f"/activity/s/{session}/g/{record.id}/fragment", "/activity/static/play.js"):
        framed = (await site.client.get(path)).headers["Content-Security-Policy"]
        assert "https://*.discordsays.com" in framed
    for path in ("/g/nothing", "/static/play.js", "/s/1"):
        assert (
            (await site.client.get(path))
            .headers["Content-Security-Policy"]
            .endswith("frame-ancestors 'none'")
        )
    assert 'src="static/activity.js"' in await page.text()  # relative


async def test_the_activity_posts_from_discords_origin_and_no_other(site: Site) -> None:
    """Inside Discord the page is served from the application's own discordsays.com origin
    (through Discord's proxy): its sign-in and turns come from there, and from nowhere else."""
    form = {"code": site.discord.code_for(ANA), "instance_id": INSTANCE}
    inside = {"Origin": f"https://{CLIENT_ID}.discordsays.com", "Sec-Fetch-Site": "same-origin"}
    answer = await site.client.post("/activity/token", data=form, headers=inside)
    assert answer.status == 200
    elsewhere = {"Origin": "https://1.discordsays.com", "Sec-Fetch-Site": "same-origin"}
    form = {"code": site.discord.code_for(ANA), "instance_id": INSTANCE}
    assert (await site.client.post("/activity/token", data=form, headers=elsewhere)).status == 403


async def test_static_files_spend_no_budget_and_a_session_spends_its_players(
    backend: Backend,
) -> None:
    store = await backend.opened()
    service = GameService(store, seed_factory=lambda: "activity-seed")
    fake = FakeDiscordApi()
    fake.launch(INSTANCE, GUILD, CHANNEL, ANA, BO)
    async with serving(fake) as api:
        limit = RateLimit(burst=6, per_second=0.001)
        client = TestClient(TestServer(create_app(service, SECRET, limit=limit, discord=api)))
        await client.start_server()
        try:
            for _file in range(20):  # one address: the SDK, scripts and style, again and again
                for path in ("/activity/static/discord-sdk.js", "/static/style.css"):
                    assert (await client.get(path)).status == 200
            sessions = []
            for user in (ANA, BO):
                form = {"code": fake.code_for(user), "instance_id": INSTANCE}
                sessions.append(await (await client.post("/activity/token", data=form)).json())
            for session in sessions:  # each player has a budget of their own
                for _ask in range(6):
                    url = f"/activity/s/{session['session']}/games"
                    assert (await client.get(url)).status == 200
            assert (await client.get(f"/activity/s/{sessions[0]['session']}/games")).status == 429
            assert (await client.get("/activity/static/activity.js")).status == 200
        finally:
            await client.close()
            await store.close()


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_no_payload_of_the_activity_changes_with_what_its_viewer_cannot_see(
    site: Site, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The redeal test: everything Ana cannot see dealt again (``rules.DETERMINIZERS``), her
    Activity's list and board, a step ahead included, and a watcher's table read the same."""
    record = await site.game(game)
    for _move in range(3):
        record = await site.service.get(record.id)
        read = site.service.read(record)
        if record.status != ACTIVE or ANA in read.to_move or not read.waiting_humans:
            break
        human = read.waiting_humans[0]
        action = site.service.legal(record, human)[0]
        record = (await site.service.move(GUILD, CHANNEL, human, action, record.id)).record
    record = await site.service.get(record.id)
    sessions = {ANA: await site.session(ANA), CY: await site.session(CY)}

    async def payloads() -> list[str]:
        texts = []
        for user, session in sessions.items():
            base = f"/activity/s/{session}"
            texts.append(await (await site.client.get(f"{base}/games")).text())
            texts.append(await (await site.client.get(f"{base}/g/{record.id}/fragment")).text())
            if user == ANA:
                ahead = f"{base}/g/{record.id}/fragment?steps=0"
                texts.append(await (await site.client.get(ahead)).text())
        return texts

    before = await payloads()
    engine = GAMES[game]
    state = engine.load(record.state)
    redealt = DETERMINIZERS[game](engine.view(state, ANA), ANA, random.Random("redeal"))
    assert engine.dump(redealt) != engine.dump(state)
    other = replace(record, state=engine.dump(redealt))
    get_game = site.service.store.get_game

    async def redealt_game(game_id: str) -> GameRecord | None:
        return other if game_id == record.id else await get_game(game_id)

    async def redealt_channel(*args: Any, **kwargs: Any) -> list[GameRecord]:
        return [other]

    monkeypatch.setattr(site.service.store, "get_game", redealt_game)
    monkeypatch.setattr(site.service.store, "games_in_channel", redealt_channel)
    assert await payloads() == before


async def test_a_player_learns_a_game_in_the_activity_and_then_plays_a_real_one(
    site: Site,
) -> None:
    """Learn (issue 39): the list offers each course; a teaching table opens for the signed-in
    player in the instance's channel, under their Discord name, its lessons on the board; a
    second one there is refused in a sentence; its Hint answers there as on a hand link's
    page; its end screen starts a real game that the
    Activity opens (no address: the page is told which game)."""
    session = await site.session(ANA)
    answer = await (await site.client.get(f"/activity/s/{session}/games")).json()
    assert answer["games"] == []
    assert [g["id"] for g in answer["learn"]] == list(COURSES)
    unknown = await site.client.post(f"/activity/s/{session}/learn", data={"game": "chess"})
    assert unknown.status == 400
    learnt = await site.client.post(f"/activity/s/{session}/learn", data={"game": "street-art"})
    assert learnt.status == 200, await learnt.text()
    opened = await learnt.json()
    record = await site.service.get(opened["game"])
    assert record.status == ACTIVE and record.prefs[TEACHING] and record.channel == CHANNEL
    assert (record.seats[0].user, record.seats[0].name) == (ANA, f"user{ANA}")
    base = f"/activity/s/{session}/g/{record.id}"
    fragment = await (await site.client.get(f"{base}/fragment")).text()
    assert fragment.count('class="lesson"') == 2 and 'action="s/' in fragment
    assert f'action="{base.removeprefix("/activity/")}/hint"' in fragment
    hint = await site.client.post(
        f"{base}/hint",
        data={"version": str(record.version), "step": "1"},
        headers={"Accept": "application/json"},
    )
    assert hint.status == 200 and (await hint.json())["html"].startswith("<p>")
    again = await site.client.post(f"/activity/s/{session}/learn", data={"game": "artsee"})
    assert again.status == 409 and "Ana" not in await again.text() and await again.text()
    while record.status == ACTIVE:
        legal = site.service.read(record).legal(ANA)
        record = (await site.service.move(GUILD, CHANNEL, ANA, legal[0], record.id)).record
    fragment = await (await site.client.get(f"{base}/fragment")).text()
    assert f'action="{base.removeprefix("/activity/")}/real"' in fragment
    real = await site.client.post(f"{base}/real", headers={"Accept": "application/json"})
    started = await real.json()
    assert started["page"] == "" and started["title"] == "Street Art"
    game = await site.service.get(started["game"])
    assert game.status == ACTIVE and not game.prefs.get(TEACHING) and game.channel == CHANNEL
