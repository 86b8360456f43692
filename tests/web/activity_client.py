"""Discord's client, played by a page on the web table's own origin, for the Activity's tests.

The page (``/client?user=…&instance=…``) frames ``/activity`` with the query Discord adds and
answers the real Embedded App SDK over ``postMessage`` as the SDK's own tests do: the
handshake with ``READY``, ``AUTHORIZE`` with a code the fake Discord API hands out for that
user, ``AUTHENTICATE`` with the user the access token names. The SDK accepts messages from its
own origin, so nothing of Discord's is needed.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer
from playwright.async_api import Browser, Frame, Page, Route

from bot.service import GameService
from tests.backends import sqlite_backend
from tests.web.conftest import CHANNEL, GUILD, SECRET
from tests.web.fake_discord_api import CLIENT_ID, FakeDiscordApi, serving
from web.app import create_app
from web.ratelimit import RateLimit

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Discord</title>
<link rel="stylesheet" href="/client.css"><script src="/client.js" defer></script></head>
<body><iframe id="frame" title="Activity" src="{src}" data-user="{user}"></iframe></body></html>
"""
STYLE = "html, body { margin: 0; height: 100%; } iframe { border: 0; width: 100%; height: 100%; }"
SCRIPT = """// Discord's side of the SDK's RPC: opcodes 0 HANDSHAKE, 1 FRAME.
const frame = document.getElementById("frame");
const user = frame.dataset.user;
const reply = (payload) => frame.contentWindow.postMessage([1, payload], location.origin);
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  if (opcode === 0) {
    reply({ cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, config: {
      api_endpoint: "//discord.com/api", environment: "production" } } });
    return;
  }
  if (opcode !== 1) return;
  const { cmd, nonce, args } = payload;
  if (cmd === "AUTHORIZE") {
    const code = await (await fetch(`/client/code/${user}`)).text();
    reply({ cmd, nonce, evt: null, data: { code } });
  } else if (cmd === "AUTHENTICATE") {
    reply({ cmd, nonce, evt: null, data: {
      access_token: args.access_token, scopes: ["identify"], expires: "2030-01-01T00:00:00Z",
      user: { id: user, username: `user${user}`, discriminator: "0", public_flags: 0 },
      application: { id: __CLIENT_ID__, name: "Tabletop", description: "" } } });
  } else {
    reply({ cmd, nonce, evt: null, data: null });
  }
});
""".replace("__CLIENT_ID__", json.dumps(CLIENT_ID))


def routes(fake: FakeDiscordApi, guild: str, channel: str, prefix: str = "") -> list[web.RouteDef]:
    """The client page, its script and style, and the codes it asks the fake Discord for
    (``prefix``: where the Activity is, behind a proxy)."""

    async def page(request: web.Request) -> web.Response:
        user, instance = request.query["user"], request.query["instance"]
        query = (
            f"frame_id=frame-{user}&instance_id={instance}&channel_id={channel}"
            f"&guild_id={guild}&platform=mobile"
        )
        text = PAGE.format(src=f"{prefix}/activity?{query}", user=user)
        return web.Response(text=text, content_type="text/html")

    async def code(request: web.Request) -> web.Response:
        return web.Response(text=fake.code_for(request.match_info["user"]))

    async def script(_request: web.Request) -> web.Response:
        return web.Response(text=SCRIPT, content_type="text/javascript")

    async def style(_request: web.Request) -> web.Response:
        return web.Response(text=STYLE, content_type="text/css")

    return [
        web.get("/client", page),
        web.get("/client/code/{user}", code),
        web.get("/client.js", script),
        web.get("/client.css", style),
    ]


#: How long the Activity may take to sign in and show its board, in ms: a timeout, not a figure
#: (``python -m bench.activity`` measures it).
READY_MS = 20_000
PHONE = {"width": 390, "height": 844}


@dataclass
class Table:
    """The web table with the Activity and Discord's client page on a real port, the fake
    Discord API, and the hosts every frame asked (any but the table's is refused and kept)."""

    service: GameService
    url: str
    discord: FakeDiscordApi
    hosts: set[str] = field(default_factory=set)
    elsewhere: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    async def guard(self, route: Route) -> None:
        """Every request of every frame: the table's own host, or it is refused and kept."""
        url = route.request.url
        host = urlsplit(url).netloc
        self.hosts.add(host)
        self.requests.append(url)
        if host != urlsplit(self.url).netloc:
            self.elsewhere.append(url)
            await route.abort()
            return
        await route.continue_()

    async def open(self, browser: Browser, user: str, instance: str) -> Frame:
        """Discord's client for ``user`` on a phone with the Activity in it, board shown."""
        page = await browser.new_page(viewport=PHONE)  # type: ignore[arg-type]
        await page.route("**/*", self.guard)
        return await self.launch(page, user, instance)

    async def launch(self, page: Page, user: str, instance: str) -> Frame:
        """Discord opens the Activity in ``page`` (as after Play): the frame, signed in and
        showing its board."""
        await page.goto(f"{self.url}/client?user={user}&instance={instance}")
        frame = page.frame_locator("#frame")
        await frame.locator("body[data-ready], body[data-failed]").wait_for(timeout=READY_MS)
        found = next(f for f in page.frames if f.url.split("?")[0].endswith("/activity/"))
        failed = await found.evaluate("document.body.dataset.failed || ''")
        assert not failed, failed
        return found


async def client_policy(request: web.Request, response: web.StreamResponse) -> None:
    """Discord's client page frames the Activity: its own policy, not the table's."""
    if request.path == "/client":
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; frame-src 'self'; frame-ancestors 'none'"
        )


@asynccontextmanager
async def activity_table(folder: Path) -> AsyncIterator[Table]:
    """The web table over a SQLite store in ``folder``, with the Activity pointed at a fake
    Discord API and Discord's client page, on a localhost port."""
    store = await sqlite_backend(folder).opened()
    service = GameService(store, seed_factory=lambda: "activity-browser")
    fake = FakeDiscordApi()
    async with serving(fake) as api:
        limit = RateLimit(burst=10_000, per_second=10_000)
        app = create_app(service, SECRET, limit=limit, discord=api)
        app.add_routes(routes(fake, GUILD, CHANNEL))
        app.on_response_prepare.append(client_policy)
        server = TestServer(app, host="127.0.0.1")
        await server.start_server()
        try:
            yield Table(service, str(server.make_url("")).rstrip("/"), fake)
        finally:
            await server.close()
            await store.close()


#: Headers a proxy does not pass on.
HOP = {"host", "connection", "keep-alive", "transfer-encoding", "content-length", "upgrade"}


@asynccontextmanager
async def discord_proxy(table: Table, *, hold_streams: bool = False) -> AsyncIterator[str]:
    """Discord's proxy in front of the table, as the Activity meets it: Discord's client page
    at its root, and the table under ``/.proxy/`` (the prefix taken off on the way), its
    pages' requests carrying the application's discordsays.com origin. ``hold_streams``: a
    proxy that holds an event stream back (it buffers it whole). Its address."""
    session = aiohttp.ClientSession(auto_decompress=False)
    target = table.url

    async def forward(request: web.Request) -> web.StreamResponse:
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        if "Origin" in headers:
            headers["Origin"] = f"https://{CLIENT_ID}.discordsays.com"
        url = f"{target}/{request.match_info['tail']}"
        async with session.request(
            request.method,
            url,
            params=request.query,
            data=await request.read(),
            headers=headers,
            allow_redirects=False,
        ) as upstream:
            answer = web.StreamResponse(
                status=upstream.status,
                headers={k: v for k, v in upstream.headers.items() if k.lower() not in HOP},
            )
            await answer.prepare(request)
            streaming = upstream.headers.get("Content-Type", "").startswith("text/event-stream")
            async for chunk in upstream.content.iter_any():
                if not (hold_streams and streaming):
                    await answer.write(chunk)
            return answer

    app = web.Application()
    app.add_routes(routes(table.discord, GUILD, CHANNEL, prefix="/.proxy"))
    app.add_routes([web.route("*", "/.proxy/{tail:.*}", forward)])
    # A live page's stream is forwarded for as long as it is open: closing cuts it at once.
    server = TestServer(app, host="127.0.0.1", shutdown_timeout=0.1)
    await server.start_server()
    try:
        yield str(server.make_url("")).rstrip("/")
    finally:
        await server.close()
        await session.close()
