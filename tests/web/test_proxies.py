"""Behind a reverse proxy (issue 35): the client's address comes from ``X-Forwarded-For``
only when the peer is a trusted proxy, so two clients behind it have limits of their own, and
a client cannot choose its address by sending the header itself. The access log holds no
credential and no address unless the admin asks for addresses."""

from __future__ import annotations

import logging
import time

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from tests.web.conftest import ANA, SECRET, Web
from web.access_log import AccessLog
from web.addresses import Proxies
from web.app import create_app
from web.ratelimit import RateLimit

PROXY = Proxies(Settings(web_trusted_proxies="127.0.0.1, 10.0.0.0/8").trusted_proxies())


def statuses(codes: list[int]) -> list[int]:
    return [429 if code == 429 else 0 for code in codes]


async def test_two_clients_behind_a_trusted_proxy_have_limits_of_their_own(web: Web) -> None:
    app = create_app(web.service, SECRET, limit=RateLimit(burst=3, per_second=0.001), proxies=PROXY)
    async with TestClient(TestServer(app)) as client:
        one = {"X-Forwarded-For": "203.0.113.7, 10.1.2.3"}  # the client, then a second proxy
        other = {"X-Forwarded-For": "198.51.100.9"}
        first = [(await client.get("/g/nothing", headers=one)).status for _n in range(5)]
        second = [(await client.get("/g/nothing", headers=other)).status for _n in range(3)]
    assert statuses(first) == [0, 0, 0, 429, 429]
    assert statuses(second) == [0, 0, 0]  # the first client's flood is not the second's


async def test_a_forwarded_address_from_an_untrusted_peer_is_ignored(web: Web) -> None:
    app = create_app(web.service, SECRET, limit=RateLimit(burst=3, per_second=0.001))
    async with TestClient(TestServer(app)) as client:
        codes = [
            (await client.get("/g/nothing", headers={"X-Forwarded-For": f"192.0.2.{n}"})).status
            for n in range(5)
        ]
    assert statuses(codes) == [0, 0, 0, 429, 429]  # one peer, whatever it claims


def test_the_client_is_the_rightmost_untrusted_hop() -> None:
    assert PROXY.client("127.0.0.1", ["1.1.1.1, 203.0.113.7"]) == "203.0.113.7"  # forged left
    assert PROXY.client("127.0.0.1", ["203.0.113.7", "10.0.0.5"]) == "203.0.113.7"
    assert PROXY.client("127.0.0.1", []) == "127.0.0.1"
    assert PROXY.client("127.0.0.1", ["not an address"]) == "127.0.0.1"
    assert PROXY.client("192.0.2.1", ["203.0.113.7"]) == "192.0.2.1"  # not a proxy of ours


@pytest.mark.parametrize("mode", ["paths", "addresses"])
async def test_the_access_log_holds_no_link_and_addresses_only_when_asked(
    web: Web, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    record = await web.public_game()
    token = web.links.hand(record.id, ANA, time.time()).rsplit("/", 1)[1]
    app = create_app(web.service, SECRET, proxies=PROXY)
    server = TestServer(app)
    with caplog.at_level(logging.INFO, logger="web.access"):
        await server.start_server(  # as web.server.start runs it
            access_log_class=AccessLog,
            access_log=logging.getLogger("web.access"),
            access_log_format=mode,
        )
        async with TestClient(server) as client:
            headers = {"X-Forwarded-For": "203.0.113.7"}
            assert (await client.get(f"/h/{token}?note=moved", headers=headers)).status == 200
            assert (await client.get(f"/h/{token}/fragment", headers=headers)).status == 200
    lines = [r.getMessage() for r in caplog.records if r.name == "web.access"]
    assert len(lines) == 2 and all(" 200 " in line for line in lines)
    assert '"GET /h/…" 200' in lines[0] and '"GET /h/…/fragment" 200' in lines[1]
    logged = "\n".join(lines)
    assert token not in logged and token.split(".")[1] not in logged and "note" not in logged
    assert ("203.0.113.7" in logged) == (mode == "addresses")
    assert "127.0.0.1" not in logged
