"""The smaller attacks of issue 35, each against the real aiohttp server: a cross-site POST,
malformed bodies and numbers, names that reverse the text after them, error answers without
the security headers, pictures a shared cache would keep after a channel goes private, and a
framing policy that only the Activity's pages may loosen."""

from __future__ import annotations

import asyncio
import time

from aiohttp.test_utils import TestClient, TestServer

from bot.store.web_tables import WebTable
from tests.web.conftest import ANA, BO, CHANNEL, GUILD, SECRET, Web
from tests.web.test_handlers import finish, next_event
from web.app import CSP, create_app
from web.links import public_id
from web.ratelimit import RateLimit
from web.security import Policy

HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


async def test_a_cross_site_post_is_refused_and_a_same_site_one_applied(web: Web) -> None:
    record = await web.public_game()
    record = await web.service.get(record.id)
    human = web.service.read(record).waiting_humans[0]
    path = web.links.hand(record.id, human, time.time()).removeprefix(web.links.base_url)
    form = {"index": "0", "version": str(record.version)}
    for headers in (
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
    ):
        answer = await web.client.post(f"{path}/move", data=form, headers=headers)
        assert answer.status == 403, headers
    assert (await web.service.get(record.id)).version == record.version  # nothing applied
    own = str(web.client.make_url("")).rstrip("/")
    answer = await web.client.post(
        f"{path}/move",
        data=form,
        headers={"Sec-Fetch-Site": "same-origin", "Origin": own, "Accept": "application/json"},
        allow_redirects=False,
    )
    assert answer.status == 200
    assert (await web.service.get(record.id)).version > record.version


async def test_malformed_input_is_a_400_never_a_500(web: Web) -> None:
    record = await web.public_game()
    path = web.links.hand(record.id, ANA, time.time()).removeprefix(web.links.base_url)
    bodies = [
        (b"index=\xff\xfe&version=1", "application/x-www-form-urlencoded"),
        (b"--x\r\nContent-Disposition: form-data; name=index\r\n\r\n0", "multipart/form-data"),
        (b"--x\r\nbroken", "multipart/form-data; boundary=x"),
        (b"index=zero&version=1", "application/x-www-form-urlencoded"),
    ]
    for body, kind in bodies:
        answer = await web.client.post(f"{path}/move", data=body, headers={"Content-Type": kind})
        assert answer.status == 400, (body, kind, answer.status)
    long_turn = "9" * 4301
    assert (await web.client.get(f"{web.table(record)}/replay/{long_turn}.png")).status == 404
    long_version = "9" * 4301
    board = await web.client.get(
        f"{web.table(record)}/board/{long_version}.png", allow_redirects=False
    )
    assert board.status == 302  # to the current version's board


async def test_every_answer_carries_the_security_headers(web: Web) -> None:
    record = await web.public_game()
    path = web.links.hand(record.id, ANA, time.time()).removeprefix(web.links.base_url)
    answers = [
        await web.client.get(f"{web.table(record)}/board/0.png", allow_redirects=False),  # 302
        await web.client.post(
            f"{path}/move", data={"index": "99", "version": "0"}, allow_redirects=False
        ),  # 303
        await web.client.get("/h/nonsense"),  # 403
        await web.client.get("/g/nothing"),  # 404
        await web.client.get("/nowhere/at/all"),  # 404 from the router
        await web.client.put(web.table(record)),  # 405
        await web.client.post(
            f"{path}/move",
            data=b"index=" + b"1" * (3 * 2**20),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        ),  # 413
    ]
    statuses = [answer.status for answer in answers]
    assert statuses == [302, 303, 403, 404, 404, 405, 413]
    stream = await web.client.get(f"{web.table(record)}/events")
    await asyncio.wait_for(next_event(stream.content), 5)
    answers.append(stream)
    app = create_app(web.service, SECRET, limit=RateLimit(burst=1, per_second=0.001))
    async with TestClient(TestServer(app)) as client:
        await client.get("/g/nothing")
        answers.append(await client.get("/g/nothing"))  # 429
    for answer in answers:
        for header in HEADERS:
            assert header in answer.headers, (answer.status, header)
        assert answer.headers["Content-Security-Policy"] == CSP
    stream.close()
    await web.service.store.close()  # a fault no handler expects: the store is gone
    failed = await web.client.get(web.table(record))
    assert failed.status == 500 and all(header in failed.headers for header in HEADERS)
    assert "Traceback" not in await failed.text()


async def test_only_the_paths_configured_may_be_framed_and_only_by_their_sources(
    web: Web,
) -> None:
    policy = Policy(framing={"/activity/": "https://discord.com https://*.discordsays.com"})
    app = create_app(web.service, SECRET, policy=policy)
    async with TestClient(TestServer(app)) as client:
        page = await client.get("/g/nothing")
        activity = await client.get("/activity/anything")
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    framed = activity.headers["Content-Security-Policy"]
    assert "frame-ancestors https://discord.com https://*.discordsays.com" in framed
    assert "'none'" not in framed.split("frame-ancestors")[1]


async def test_names_are_isolated_so_they_cannot_reverse_what_follows(web: Web) -> None:
    """A name ending in an unclosed right-to-left override would reverse the score after it:
    each name is in a ``<bdi>`` of its own, on the table, the leaderboard and player pages."""
    reverser = "Bo\u202e"
    record = await web.service.new_game("street-art", GUILD, CHANNEL, ANA, "Ana")
    await web.service.join(GUILD, CHANNEL, BO, reverser, record.id)
    await web.service.add_ai(GUILD, CHANNEL, ANA, record.id)
    record = (await web.service.start(GUILD, CHANNEL, ANA, record.id)).record
    await web.service.store.save_web_table(WebTable(record.id, public_id(SECRET, record.id), True))
    page = await (await web.client.get(web.table(record))).text()
    assert f"<bdi>{reverser}</bdi>" in page and "<bdi>Ana</bdi>" in page
    record = await finish(web.service, record)
    board = await (await web.client.get(f"/s/{GUILD}/street-art")).text()
    assert f"<bdi>{reverser}</bdi>" in board
    player = await (await web.client.get(f"/s/{GUILD}/p/{BO}")).text()
    assert f"<bdi>{reverser}</bdi>" in player


async def test_board_pictures_are_kept_by_browsers_only(web: Web) -> None:
    record = await web.public_game()
    board = await web.client.get(f"{web.table(record)}/board/{record.version}.png")
    assert board.status == 200
    assert "private" in board.headers["Cache-Control"]
    assert "public" not in board.headers["Cache-Control"]
    page = await web.client.get(web.table(record))
    assert "private" in page.headers.get("Cache-Control", "")


async def test_web_off_ends_an_open_stream_within_seconds(web: Web) -> None:
    """Within seconds, not at the next keep-alive (15 s): the switch is looked at every
    second for all of a server's open pages at once."""
    record = await web.public_game()
    stream = await web.client.get(f"{web.table(record)}/events")
    await asyncio.wait_for(next_event(stream.content), 5)
    await web.service.configure(GUILD, web=False)
    rest = await asyncio.wait_for(stream.content.read(), 10)
    assert b"data:" not in rest
