"""Discord's client, played by a page on the web table's own origin, for the Activity's tests.

The page (``/client?user=…&instance=…``) frames ``/activity`` with the query Discord adds and
answers the real Embedded App SDK over ``postMessage`` as the SDK's own tests do: the
handshake with ``READY``, ``AUTHORIZE`` with a code the fake Discord API hands out for that
user, ``AUTHENTICATE`` with the user the access token names. The SDK accepts messages from its
own origin, so nothing of Discord's is needed.
"""

from __future__ import annotations

import json

from aiohttp import web

from tests.web.fake_discord_api import CLIENT_ID, FakeDiscordApi

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


def routes(fake: FakeDiscordApi, guild: str, channel: str) -> list[web.RouteDef]:
    """The client page, its script and style, and the codes it asks the fake Discord for."""

    async def page(request: web.Request) -> web.Response:
        user, instance = request.query["user"], request.query["instance"]
        query = (
            f"frame_id=frame-{user}&instance_id={instance}&channel_id={channel}"
            f"&guild_id={guild}&platform=mobile"
        )
        text = PAGE.format(src=f"/activity?{query}", user=user)
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
