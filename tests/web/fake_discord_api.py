"""A fake of the part of Discord's HTTP API the Activity calls, served by aiohttp on localhost.

It answers as Discord's docs and OpenAPI spec say: ``POST /oauth2/token`` takes a form with the
client id and secret and an authorization code (each code once) and gives an access token;
``GET /users/@me`` names the token's user; ``GET /applications/{id}/activity-instances/{id}``,
read with the bot's token, gives an ``EmbeddedActivityInstance`` (its ``location`` and its
``users``), or 404 once the instance has ended. Every request is recorded.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer

from web.discord_api import DiscordApi

CLIENT_ID = "555000111222333444"
CLIENT_SECRET = "fake-client-secret"
BOT_TOKEN = "fake-bot-token"


@dataclass
class FakeDiscordApi:
    """Instances by id (``channel``, ``guild``, ``users``), codes handed out, calls made."""

    instances: dict[str, dict[str, Any]] = field(default_factory=dict)
    codes: dict[str, str] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)

    def launch(self, instance: str, guild: str, channel: str, *users: str) -> None:
        """An instance running in ``channel`` with ``users`` in it."""
        self.instances[instance] = {"guild": guild, "channel": channel, "users": set(users)}

    def end(self, instance: str) -> None:
        """Everyone left: Discord forgets the instance."""
        self.instances.pop(instance, None)

    def code_for(self, user: str) -> str:
        """What the client's AUTHORIZE gives ``user``: a code good once."""
        code = secrets.token_urlsafe(12)
        self.codes[code] = user
        return code

    def app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.post("/oauth2/token", self.token),
                web.get("/users/@me", self.me),
                web.get("/applications/{app}/activity-instances/{instance}", self.instance_of),
            ]
        )
        return app

    async def token(self, request: web.Request) -> web.Response:
        self.calls.append("oauth2/token")
        form = await request.post()
        if form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        user = self.codes.pop(str(form.get("code", "")), None)
        if form.get("grant_type") != "authorization_code" or user is None:
            return web.json_response({"error": "invalid_grant"}, status=400)
        access = secrets.token_urlsafe(16)
        self.tokens[access] = user
        return web.json_response(
            {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": 604800,
                "scope": "identify",
                "refresh_token": secrets.token_urlsafe(8),
            }
        )

    async def me(self, request: web.Request) -> web.Response:
        self.calls.append("users/@me")
        scheme, _sep, access = request.headers.get("Authorization", "").partition(" ")
        user = self.tokens.get(access) if scheme == "Bearer" else None
        if user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(
            {
                "id": user,
                "username": f"user{user}",
                "discriminator": "0",
                "global_name": None,
                "avatar": None,
                "public_flags": 0,
            }
        )

    async def instance_of(self, request: web.Request) -> web.Response:
        self.calls.append("activity-instances")
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        if request.match_info["app"] != CLIENT_ID:
            return web.json_response({"message": "Unknown Application", "code": 10002}, status=404)
        found = self.instances.get(request.match_info["instance"])
        if found is None:
            return web.json_response(
                {"message": "Unknown Activity Instance", "code": 10076}, status=404
            )
        iid = request.match_info["instance"]
        return web.json_response(
            {
                "application_id": CLIENT_ID,
                "instance_id": iid,
                "launch_id": "1" + iid[-6:].rjust(6, "0"),
                "location": {
                    "id": f"gc-{found['guild']}-{found['channel']}",
                    "kind": "gc",
                    "channel_id": found["channel"],
                    "guild_id": found["guild"],
                },
                "users": sorted(found["users"]),
            }
        )


@asynccontextmanager
async def serving(fake: FakeDiscordApi) -> AsyncIterator[DiscordApi]:
    """The fake on a localhost port, and a ``DiscordApi`` pointed at it (DISCORD_API_BASE)."""
    server = TestServer(fake.app(), host="127.0.0.1")
    await server.start_server()
    api = DiscordApi(str(server.make_url("")).rstrip("/"), CLIENT_ID, CLIENT_SECRET, BOT_TOKEN)
    try:
        yield api
    finally:
        await api.close()
        await server.close()
