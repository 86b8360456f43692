"""The three calls the Activity makes to Discord's HTTP API, all through one base URL.

``DISCORD_API_BASE`` (Discord's v10 API unless set) is the only address any of them reaches,
so a test points the whole of it at a fake server on localhost. What the calls are, from
Discord's OAuth2 and Activity docs: the authorization code the page got from the SDK's
``authorize`` is exchanged for an access token with the application's client id and secret
(``POST /oauth2/token``); the token names its user (``GET /users/@me``); and the activity
instance, read with the bot's token, says which channel it runs in and who is in it
(``GET /applications/{id}/activity-instances/{instance}``). No web module imports discord.py:
these are plain aiohttp requests.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import aiohttp

log = logging.getLogger(__name__)

#: Seconds a call to Discord may take: the player is waiting in front of a loading board.
CALL_SECONDS = 5.0


class DiscordRefused(Exception):
    """Discord said no, or could not be asked; ``outcome`` is the metrics label."""

    def __init__(self, outcome: str, detail: str = "") -> None:
        super().__init__(detail or outcome)
        self.outcome = outcome


@dataclass(frozen=True)
class Instance:
    """An activity instance as Discord tells it: where it runs and who is in it now."""

    id: str
    channel: str
    guild: str | None
    users: frozenset[str]


@dataclass(frozen=True)
class Person:
    """The user an access token belongs to."""

    id: str
    name: str


class DiscordApi:
    """Discord's HTTP API at ``base`` for the application ``client_id``."""

    def __init__(self, base: str, client_id: str, client_secret: str, bot_token: str) -> None:
        self.base = base.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._bot = bot_token
        self._session: aiohttp.ClientSession | None = None

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=CALL_SECONDS))
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def _json(self, method: str, path: str, refused: str, **kwargs: Any) -> Any:
        """The JSON answer of one call; a 4xx is ``refused`` (the caller's word for it), and
        a 5xx, a timeout or a broken connection is ``discord_error``."""
        try:
            async with self.session().request(method, f"{self.base}{path}", **kwargs) as answer:
                if 400 <= answer.status < 500:
                    raise DiscordRefused(refused, f"{method} {path.split('?')[0]}: {answer.status}")
                if answer.status >= 300:
                    raise DiscordRefused("discord_error", f"{method}: {answer.status}")
                return await answer.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise DiscordRefused("discord_error", type(error).__name__) from error

    async def exchange(self, code: str) -> str:
        """The access token an authorization code is worth (Discord takes each code once)."""
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        data = await self._json("POST", "/oauth2/token", "bad_code", data=form)
        token = data.get("access_token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not token:
            raise DiscordRefused("discord_error", "no access_token")
        return token

    async def me(self, access_token: str) -> Person:
        """Who the access token belongs to."""
        headers = {"Authorization": f"Bearer {access_token}"}
        data = await self._json("GET", "/users/@me", "bad_code", headers=headers)
        if not isinstance(data, dict) or not str(data.get("id", "")).isdigit():
            raise DiscordRefused("discord_error", "users/@me without an id")
        return Person(str(data["id"]), str(data.get("global_name") or data.get("username") or ""))

    async def instance(self, instance_id: str) -> Instance:
        """The running instance ``instance_id`` of this application; an unknown or ended one
        is ``no_instance``."""
        path = f"/applications/{self.client_id}/activity-instances/{quote(instance_id, safe='')}"
        headers = {"Authorization": f"Bot {self._bot}"}
        data = await self._json("GET", path, "no_instance", headers=headers)
        try:
            location = data["location"]
            return Instance(
                id=str(data["instance_id"]),
                channel=str(location["channel_id"]),
                guild=str(location["guild_id"]) if location.get("guild_id") else None,
                users=frozenset(str(user) for user in data["users"]),
            )
        except (KeyError, TypeError) as error:
            raise DiscordRefused("discord_error", "an instance without its location") from error
