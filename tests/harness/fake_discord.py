"""An in-memory Discord: answers discord.py's REST calls and records every request it was sent.

discord.py sends every REST call (``HTTPClient.request``) and every interaction callback and
followup (``AsyncWebhookAdapter.request``) through the one aiohttp session that
``HTTPClient.static_login`` creates. ``FakeSession`` stands in for that session, so what we record
is the exact body discord.py built, after all of its own serialisation (JSON or multipart form).
"""

from __future__ import annotations

import asyncio
import email.parser
import email.policy
import json
import re
import secrets
import struct
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any

import aiohttp
import discord
import yarl
from multidict import CIMultiDict

from .models import (
    Channel,
    SeenMessage,
    SnowflakeFactory,
    User,
    components_text,
)

API_PREFIX = "/api/v10"
CDN_HOST = "cdn.discordapp.com"
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

Handler = Callable[["RecordedRequest", dict[str, str]], tuple[int, Any]]


class DiscordHTTPError(Exception):
    """Raised inside a route handler to answer with a Discord JSON error."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(frozen=True)
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    data: bytes
    content_type: str | None

    @property
    def index(self) -> int | None:
        match = re.fullmatch(r"files\[(\d+)\]", self.field)
        return int(match.group(1)) if match else None


@dataclass
class RecordedRequest:
    """One HTTP request discord.py made, after its own serialisation, and what we answered."""

    seq: int
    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    multipart: bool
    status: int = 0
    response: Any = None
    handled: bool = True
    interaction_token: str | None = None
    issues: list[str] = field(default_factory=list)
    rejected: bool = False

    def __str__(self) -> str:
        return f"#{self.seq} {self.method} {self.path} -> {self.status}"


@dataclass
class StoredMessage:
    """The fake's copy of a message: its JSON as Discord returns it plus the attached bytes."""

    data: dict[str, Any]
    files: dict[str, bytes]
    ephemeral: bool
    visible_to: int | None = None
    deleted: bool = False
    interaction_token: str | None = None

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def channel_id(self) -> int:
        return int(self.data["channel_id"])

    def snapshot(self) -> SeenMessage:
        """A frozen copy for tests; later edits do not change it."""
        data = json.loads(json.dumps(self.data))
        return SeenMessage(
            id=self.id,
            channel_id=self.channel_id,
            ephemeral=self.ephemeral,
            content=data.get("content") or "",
            embeds=tuple(data.get("embeds") or ()),
            components=tuple(data.get("components") or ()),
            files=dict(self.files),
            flags=int(data.get("flags") or 0),
            raw=data,
            deleted=self.deleted,
            loading=bool(int(data.get("flags") or 0) & LOADING),
            visible_to=self.visible_to,
        )


@dataclass
class InteractionRecord:
    """What the fake knows of one interaction it delivered: who, where, how it was answered."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    guild_id: int | None
    name: str | None = None
    source_message_id: int | None = None
    created_at: float = field(default_factory=time.monotonic)
    callback_type: int | None = None
    acked_at: float | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    loading: bool = False
    deferred_ephemeral: bool = False
    #: The token dies once the interaction is first answered (``FakeDiscord.tokens_die``).
    dies_after_answer: bool = False
    #: Dead: every callback and webhook request with the token answers 401 (50027).
    dead: bool = False


@dataclass(frozen=True)
class MessageEvent:
    """An entry in the fake's log of message changes: ``create``, ``edit`` or ``delete``."""

    kind: str
    message_id: int
    token: str | None


@dataclass
class _Injected:
    method: str
    pattern: re.Pattern[str]
    status: int
    code: int
    message: str
    times: int
    #: Matching requests let through before the failures begin.
    after: int = 0


def _template_regex(template: str) -> re.Pattern[str]:
    """``/channels/{channel_id}/messages`` -> a regex with one named group per parameter."""
    out = ""
    for part in re.split(r"(\{[a-z_]+\}|\*)", template):
        if part == "*":
            out += ".*"
        elif part.startswith("{"):
            out += f"(?P<{part[1:-1]}>[^/]+)"
        else:
            out += re.escape(part)
    return re.compile(f"^{out}$")


def _attached_filenames(body: Any) -> set[str] | None:
    """Filenames of the attachments on the message a response returned, if it returned one."""
    if isinstance(body, dict) and isinstance(body.get("resource"), dict):
        body = body["resource"].get("message")
    if isinstance(body, dict) and isinstance(body.get("attachments"), list):
        return {a["filename"] for a in body["attachments"]}
    return None


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return None


def _guess_content_type(filename: str, declared: str | None) -> str:
    lowered = filename.lower()
    for ext, kind in ((".png", "image/png"), (".jpg", "image/jpeg"), (".gif", "image/gif")):
        if lowered.endswith(ext):
            return kind
    if lowered.endswith((".txt", ".log")):
        return "text/plain; charset=utf-8"
    return declared or "application/octet-stream"


async def parse_form_data(form: aiohttp.FormData) -> tuple[Any, list[UploadedFile]]:
    """Turn the FormData discord.py built back into ``payload_json`` and the uploaded files.

    The form is encoded to real multipart bytes with aiohttp's own writer and parsed back with
    the standard library, so what we see is what would have gone over the wire.
    """
    writer = form()
    body = await writer.as_bytes()
    head = f"Content-Type: {writer.content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    payload: Any = None
    files: list[UploadedFile] = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        filename = part.get_filename()
        data = part.get_payload(decode=True) or b""
        if name == "payload_json":
            payload = json.loads(data.decode("utf-8"))
        else:
            files.append(
                UploadedFile(
                    field=str(name),
                    filename=filename or str(name),
                    data=data,
                    content_type=part.get_content_type(),
                )
            )
    return payload, files


class FakeResponse:
    """Just enough of ``aiohttp.ClientResponse`` for discord.py's request loops."""

    def __init__(self, method: str, url: str, status: int, body: Any) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.reason = HTTPStatus(status).phrase
        self.headers: CIMultiDict[str] = CIMultiDict()
        if body is None:
            self._raw = b""
        elif isinstance(body, bytes):
            self._raw = body
            self.headers["Content-Type"] = "application/octet-stream"
        else:
            self._raw = json.dumps(body).encode()
            self.headers["Content-Type"] = "application/json"

    async def text(self, encoding: str = "utf-8") -> str:
        return self._raw.decode(encoding)

    async def read(self) -> bytes:
        return self._raw

    async def json(self) -> Any:
        return json.loads(self._raw)

    def release(self) -> None:
        pass


class _RequestContext:
    """The ``async with session.request(...)`` object."""

    def __init__(self, session: FakeSession, method: str, url: str, kwargs: dict[str, Any]) -> None:
        self._session = session
        self._method = method
        self._url = url
        self._kwargs = kwargs

    async def __aenter__(self) -> FakeResponse:
        return await self._session.fake.handle(self._method, self._url, self._kwargs)

    async def __aexit__(self, *exc: object) -> None:
        return None


class FakeGatewaySocket:
    """The websocket ``DiscordWebSocket.from_client`` reads HELLO from and sends IDENTIFY to.

    After startup the harness feeds events by calling ``received_message`` itself, so that a
    parser exception surfaces in the test instead of dying inside a background poll loop.
    """

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.inbox: asyncio.Queue[aiohttp.WSMessage] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []
        self._closed = False
        self.close_code: int | None = None
        hello = {"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}
        self.inbox.put_nowait(aiohttp.WSMessage(aiohttp.WSMsgType.TEXT, json.dumps(hello), None))

    @property
    def closed(self) -> bool:
        return self._closed

    async def receive(self, timeout: float | None = None) -> aiohttp.WSMessage:
        return await asyncio.wait_for(self.inbox.get(), timeout)

    async def send_str(self, data: str, compress: int | None = None) -> None:
        payload = json.loads(data)
        self.sent.append(payload)
        if payload.get("op") == 8:  # REQUEST_GUILD_MEMBERS: answer with one chunk of everyone
            self.fake.queue_members_chunk(payload["d"])

    async def send_bytes(self, data: bytes, compress: int | None = None) -> None:
        await self.send_str(data.decode())

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        self._closed = True
        self.close_code = code
        return True


class FakeSession:
    """Stands in for the ``aiohttp.ClientSession`` that ``HTTPClient.static_login`` creates."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self._closed = False
        self.sockets: list[FakeGatewaySocket] = []

    @property
    def closed(self) -> bool:
        return self._closed

    async def close(self) -> None:
        self._closed = True

    def request(self, method: str, url: str, **kwargs: Any) -> _RequestContext:
        if self._closed:
            raise RuntimeError("Session is closed")
        return _RequestContext(self, method, str(url), kwargs)

    def get(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("GET", url, **kwargs)

    async def ws_connect(self, url: str, **kwargs: Any) -> FakeGatewaySocket:
        socket = FakeGatewaySocket(self.fake)
        self.sockets.append(socket)
        return socket


@dataclass
class World:
    """The guild the bot sees: shared by every bot instance started on one FakeDiscord."""

    guild_id: int
    guild_name: str
    channels: dict[int, Channel]
    members: dict[int, User]
    owner_id: int
    everyone_permissions: int
    bot_role_id: int
    member_role_ids: dict[int, int]
    #: Permissions the bot is denied in every channel (an overwrite for its role), e.g.
    #: Create Public Threads, so a test can see what the bot does without them.
    bot_denied: int = 0
    #: The server's preferred locale (its Community setting), in GUILD_CREATE and every
    #: interaction's ``guild_locale``.
    locale: str = "en-US"
    #: Permissions the bot's role has besides the default ones (e.g. Manage Roles).
    bot_granted: int = 0
    #: The roles besides @everyone's, the bot's and the members' own: made by an admin
    #: (``FakeDiscord.add_role``) or by the bot, by id.
    roles: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: Which of those roles each member holds.
    held_roles: dict[int, set[int]] = field(default_factory=dict)

    def channel_json(self, channel: Channel, owner_id: int) -> dict[str, Any]:
        """A channel as Discord sends it, the bot's denied permissions as an overwrite on
        every channel that is not a thread (threads take their parent's permissions)."""
        data = channel.to_json(self.guild_id, owner_id=owner_id)
        if self.bot_denied and not channel.is_thread:
            data["permission_overwrites"] = [
                *data["permission_overwrites"],
                {
                    "id": str(self.bot_role_id),
                    "type": 0,
                    "allow": "0",
                    "deny": str(self.bot_denied),
                },
            ]
        return data


class FakeDiscord:
    """In-memory Discord for one application: REST routes, message store, interaction ledger.

    One FakeDiscord can serve several bot instances in turn (a restart test logs a second bot in
    against the same fake and clicks a button the first one posted).
    """

    def __init__(
        self,
        *,
        application_id: int = 1_300_000_000_000_000_001,
        bot_user_id: int | None = None,
        bot_name: str = "Tabletop",
        reject_invalid: bool = True,
    ) -> None:
        self.application_id = application_id
        self.reject_invalid = reject_invalid
        self.bot_user = User(id=bot_user_id or application_id, name=bot_name, bot=True)
        self.snowflake = SnowflakeFactory()
        self.requests: list[RecordedRequest] = []
        #: Every request and every ``mark`` (a store write, a render) in the order they came.
        self.timeline: list[RecordedRequest | str] = []
        self.messages: dict[int, StoredMessage] = {}
        self.log: list[MessageEvent] = []
        self.interactions: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_puts: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.channels: dict[int, dict[str, Any]] = {}
        self.dm_channels: dict[int, int] = {}
        self.cdn: dict[str, bytes] = {}
        self.gateway_outbox: list[tuple[str, dict[str, Any]]] = []
        self.world: World | None = None
        #: Other servers the bot is on (``Harness.add_guild``): known to the member look-up.
        self.other_worlds: dict[int, World] = {}
        self._injected: list[_Injected] = []
        self._dying = 0
        self._routes: list[tuple[str, str, re.Pattern[str], Handler]] = []
        self._install_routes()

    # ----------------------------------------------------------------- setup helpers

    def session(self) -> FakeSession:
        """A fresh session for one bot instance (discord.py closes its session on logout)."""
        return FakeSession(self)

    def set_world(self, world: World) -> None:
        self.world = world
        for channel in world.channels.values():
            self.channels[channel.id] = world.channel_json(channel, self.bot_user.id)

    def fail_next(
        self,
        method: str,
        path: str,
        *,
        status: int = 404,
        code: int = 10062,
        message: str = "Unknown interaction",
        times: int = 1,
        after: int = 0,
    ) -> None:
        """Make the next ``times`` matching requests fail, e.g. an expired interaction (10062),
        once ``after`` of them went through. A 429 says to retry after 50 ms; with ``code=0``
        it is the global rate limit.

        ``path`` is a spec-style template (``/interactions/{interaction_id}/{token}/callback``);
        ``*`` matches anything.
        """
        self._injected.append(
            _Injected(method.upper(), _template_regex(path), status, code, message, times, after)
        )

    def add_role(self, name: str, position: int) -> dict[str, Any]:
        """A role made on the server (by an admin, or by the bot: ``_create_role``), told to
        the bot by GUILD_ROLE_CREATE. Roles rank as Discord and discord.py rank them: by
        position, then the older (smaller id) above; the bot's own is at
        ``payloads.BOT_ROLE_POSITION``."""
        from .payloads import role_json  # local: payloads imports this module

        assert self.world is not None
        role = role_json(self.snowflake(), name, 0, position)
        self.world.roles[int(role["id"])] = role
        self.gateway_outbox.append(
            ("GUILD_ROLE_CREATE", {"guild_id": str(self.world.guild_id), "role": role})
        )
        return role

    def tokens_die(self, times: int = 1) -> None:
        """The tokens of the next ``times`` interactions die once each is first answered (its
        defer or answer is taken): from then on every callback and webhook request with it
        answers 401 "Invalid Webhook Token" (50027), as Discord does past a token's 15
        minutes, while the bot's own token still works."""
        self._dying += times

    # ----------------------------------------------------------------- queries

    def stored(self, message_id: int) -> StoredMessage:
        try:
            return self.messages[int(message_id)]
        except KeyError:
            raise LookupError(f"no message {message_id} was ever sent") from None

    def channel_messages(self, channel_id: int) -> list[SeenMessage]:
        """Public, undeleted messages of a channel, oldest first."""
        return [
            m.snapshot()
            for m in self.messages.values()
            if m.channel_id == int(channel_id) and not m.ephemeral and not m.deleted
        ]

    def unhandled_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if not r.handled]

    def command_catalogue(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """Global commands plus the guild's own, as the last sync uploaded them (ids added)."""
        out = list(self.commands.get(None, []))
        if guild_id is not None:
            out += self.commands.get(guild_id, [])
        return out

    # ----------------------------------------------------------------- interactions

    def new_interaction(
        self,
        *,
        type: int,
        user: User,
        channel_id: int,
        guild_id: int | None,
        name: str | None = None,
        source_message_id: int | None = None,
    ) -> InteractionRecord:
        """Register an interaction about to be delivered, with a fresh id and token."""
        record = InteractionRecord(
            id=self.snowflake(),
            token="aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48),
            type=type,
            user=user,
            channel_id=channel_id,
            guild_id=guild_id,
            name=name,
            source_message_id=source_message_id,
            dies_after_answer=self._dying > 0,
        )
        self._dying = max(0, self._dying - 1)
        self.interactions[record.token] = record
        return record

    def queue_members_chunk(self, request: Mapping[str, Any]) -> None:
        if self.world is None:
            return
        from .payloads import member_json  # local: payloads imports this module

        world = self.world
        members = [member_json(world, u) for u in world.members.values()]
        members.append(member_json(world, self.bot_user))
        chunk = {
            "guild_id": str(world.guild_id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if request.get("nonce"):
            chunk["nonce"] = request["nonce"]
        self.gateway_outbox.append(("GUILD_MEMBERS_CHUNK", chunk))

    def mark(self, label: str) -> None:
        """Put something the bot did besides HTTP (``"store:commit_move"``, ``"render"``) on
        the timeline, so a test can read its order against the requests. Thread-safe: renders
        mark from worker threads."""
        self.timeline.append(label)

    # ----------------------------------------------------------------- HTTP entry point

    async def handle(self, method: str, url: str, kwargs: dict[str, Any]) -> FakeResponse:
        """Record one request and answer it like Discord would."""
        parsed = yarl.URL(url)
        query = {k: str(v) for k, v in parsed.query.items()}
        for key, value in (kwargs.get("params") or {}).items():
            query[key] = str(value)
        data = kwargs.get("data")
        payload: Any = None
        files: list[UploadedFile] = []
        multipart = isinstance(data, aiohttp.FormData)
        if multipart:
            payload, files = await parse_form_data(data)
        elif isinstance(data, (str, bytes)) and data:
            payload = json.loads(data)
        elif kwargs.get("json") is not None:
            payload = kwargs["json"]
        path = parsed.path
        if parsed.host == CDN_HOST:
            return self._cdn(method, url, path)
        if path.startswith(API_PREFIX):
            path = path[len(API_PREFIX) :]
        request = RecordedRequest(
            seq=len(self.requests),
            method=method.upper(),
            path=path,
            query=query,
            json=payload,
            files=files,
            multipart=multipart,
        )
        self.requests.append(request)
        self.timeline.append(request)
        from . import validate  # local: validate imports this module

        request.issues = validate.hard_issues(request)
        if request.issues and self.reject_invalid:
            # Discord answers a body that breaks its limits or schema with 400 Invalid Form Body.
            request.rejected = True
            status, body = (
                400,
                {
                    "message": "Invalid Form Body",
                    "code": 50035,
                    "errors": {
                        "body": {
                            "_errors": [{"code": "INVALID", "message": i} for i in request.issues]
                        }
                    },
                },
            )
        else:
            status, body = self._dispatch(request)
        request.status, request.response = status, body
        request.issues += validate.policy_issues(request, _attached_filenames(body))
        return FakeResponse(method, url, status, body)

    def _cdn(self, method: str, url: str, path: str) -> FakeResponse:
        key = f"https://{CDN_HOST}{path}"
        if method.upper() == "GET" and key in self.cdn:
            return FakeResponse(method, url, 200, self.cdn[key])
        return FakeResponse(method, url, 404, {"message": "404: Not Found", "code": 0})

    def _dispatch(self, request: RecordedRequest) -> tuple[int, Any]:
        for injected in self._injected:
            if (
                injected.times > 0
                and injected.method == request.method
                and injected.pattern.match(request.path)
            ):
                if injected.after > 0:
                    injected.after -= 1
                    continue
                injected.times -= 1
                body: dict[str, Any] = {"message": injected.message, "code": injected.code}
                if injected.status == 429:  # a rate limit says when to come back
                    body.update(retry_after=0.05, **{"global": injected.code == 0})
                return injected.status, body
        for method, _template, regex, handler in self._routes:
            if method != request.method:
                continue
            match = regex.match(request.path)
            if match is None:
                continue
            try:
                return handler(request, match.groupdict())
            except DiscordHTTPError as error:
                return error.status, {"message": error.message, "code": error.code}
        request.handled = False
        return 404, {"message": "404: Not Found", "code": 0}

    def _install_routes(self) -> None:
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/users/{user_id}", self._get_user),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/gateway", self._get_gateway_bot),
            ("PUT", "/applications/{application_id}/commands", self._put_commands),
            (
                "PUT",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._put_commands,
            ),
            ("GET", "/applications/{application_id}/commands", self._get_commands),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._get_commands,
            ),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._callback),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self._followup),
            ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self._wh_get),
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._wh_edit,
            ),
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._wh_del,
            ),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("PATCH", "/channels/{channel_id}", self._edit_channel),
            ("POST", "/channels/{channel_id}/typing", self._no_content),
            ("GET", "/channels/{channel_id}/messages", self._history),
            ("POST", "/channels/{channel_id}/messages", self._create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/channels/{channel_id}/threads", self._create_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/*", self._no_content),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions*", self._no_content),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._no_content),
            ("GET", "/channels/{channel_id}/thread-members/{user_id}", self._thread_member),
            ("PUT", "/channels/{channel_id}/pins/{message_id}", self._no_content),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("POST", "/guilds/{guild_id}/roles", self._create_role),
            ("PUT", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self._member_role),
            ("DELETE", "/guilds/{guild_id}/members/{user_id}/roles/{role_id}", self._member_role),
        ]
        self._routes = [(m, t, _template_regex(t), h) for m, t, h in table]

    # ----------------------------------------------------------------- simple routes

    def _get_me(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        data = self.bot_user.to_json()
        data.update(verified=True, mfa_enabled=False, locale="en-US", email=None)
        return 200, data

    def _get_user(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        user = self._user(int(params["user_id"]))
        return 200, user.to_json()

    def _user(self, user_id: int) -> User:
        if user_id == self.bot_user.id:
            return self.bot_user
        if self.world and user_id in self.world.members:
            return self.world.members[user_id]
        raise DiscordHTTPError(404, 10013, "Unknown User")

    def _get_member(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        from .payloads import member_json

        guild_id = int(params["guild_id"])
        world = self.world if self.world and self.world.guild_id == guild_id else None
        world = world or self.other_worlds.get(guild_id)
        if world is None:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")
        user = self._user(int(params["user_id"]))
        if user.id != self.bot_user.id and user.id not in world.members:
            raise DiscordHTTPError(404, 10007, "Unknown Member")
        return 200, member_json(world, user)

    def _create_role(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        """A new role (Manage Roles): Discord puts it at the bottom, just above @everyone."""
        self._require("manage_roles")
        return 200, self.add_role(str((request.json or {}).get("name") or "new role"), 1)

    def _member_role(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        """Give (PUT) or take (DELETE) a member's role: Discord wants Manage Roles and a role
        below the bot's highest (else 403 Missing Permissions), and answers 204."""
        from .payloads import BOT_ROLE_POSITION  # local: payloads imports this module

        world = self.world
        if world is None or int(params["guild_id"]) != world.guild_id:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")
        self._require("manage_roles")
        role_id, user_id = int(params["role_id"]), int(params["user_id"])
        role = world.roles.get(role_id)
        if role is None:
            raise DiscordHTTPError(404, 10011, "Unknown Role")
        if user_id not in world.members:
            raise DiscordHTTPError(404, 10007, "Unknown Member")
        if (role["position"], -role_id) >= (BOT_ROLE_POSITION, -world.bot_role_id):
            raise DiscordHTTPError(403, 50013, "Missing Permissions")
        held = world.held_roles.setdefault(user_id, set())
        if request.method == "PUT":
            held.add(role_id)
        else:
            held.discard(role_id)
        return 204, None

    def _get_application(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        owner = User(id=self.application_id + 7, name="owner")
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "is_monetized": False,
            "is_verified": False,
            "is_discoverable": False,
            "hook": True,
            "storefront_available": False,
            "bot_public": False,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 1 << 19 | 1 << 23,  # GATEWAY_GUILD_MEMBERS_LIMITED | APPLICATION_COMMAND_BADGE
            "owner": owner.to_json(),
            "team": None,
            "bot": self.bot_user.to_json(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": 1,
            "integration_types_config": {"0": {}},
        }

    def _get_gateway_bot(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        return 200, {
            "url": "wss://gateway.discord.gg",
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    def _no_content(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        return 204, None

    def _thread_member(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        """A thread's member, or 404 Unknown Member: the members of a private thread are the
        ones its ``Channel`` names (and the bot); everyone who can see a public one."""
        channel_id, user_id = int(params["channel_id"]), int(params["user_id"])
        self._channel(channel_id)
        known = self.world.channels.get(channel_id) if self.world else None
        members = known.thread_members if known is not None and known.type == 12 else None
        if members is not None and user_id != self.bot_user.id and user_id not in members:
            raise DiscordHTTPError(404, 10007, "Unknown Member")
        return 200, {
            "id": str(channel_id),
            "user_id": str(user_id),
            "join_timestamp": "2025-01-01T00:00:00+00:00",
            "flags": 0,
        }

    def _get_channel(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        return 200, self._channel(int(params["channel_id"]))

    def _require(self, permission: str) -> None:
        """Answer 403 Missing Permissions (50013) if the bot lacks ``permission``."""
        from .payloads import permissions_in  # local: payloads imports this module

        if self.world is None:
            return
        have = discord.Permissions(permissions_in(self.world, self.bot_user))
        if not getattr(have, permission):
            raise DiscordHTTPError(403, 50013, "Missing Permissions")

    def _edit_channel(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        """PATCH a channel; for a thread, archiving and locking it (THREAD_UPDATE follows)."""
        channel = self._channel(int(params["channel_id"]))
        body = request.json or {}
        if channel.get("type") in (10, 11, 12):
            if int(channel.get("owner_id") or 0) != self.bot_user.id:
                self._require("manage_threads")
            metadata = channel["thread_metadata"]
            for key in ("archived", "locked", "auto_archive_duration"):
                if key in body:
                    metadata[key] = body[key]
            if "archived" in body:
                metadata["archive_timestamp"] = _now_iso()
        else:
            self._require("manage_channels")
        if "name" in body:
            channel["name"] = body["name"]
        if channel.get("type") in (10, 11, 12):
            self.gateway_outbox.append(("THREAD_UPDATE", dict(channel)))
        else:
            self.gateway_outbox.append(("CHANNEL_UPDATE", dict(channel)))
        return 200, channel

    def _channel(self, channel_id: int) -> dict[str, Any]:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise DiscordHTTPError(404, 10003, "Unknown Channel") from None

    def _create_dm(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        user = self._user(int(request.json["recipient_id"]))
        return 200, self.channels[self.dm_channel(user)]

    def dm_channel(self, user: User) -> int:
        """The id of the bot's DM channel with ``user``, opened if need be."""
        channel_id = self.dm_channels.get(user.id)
        if channel_id is None:
            channel_id = self.snowflake()
            self.dm_channels[user.id] = channel_id
            self.channels[channel_id] = {
                "id": str(channel_id),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [user.to_json()],
            }
        return channel_id

    # ----------------------------------------------------------------- commands

    def _put_commands(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        if int(params["application_id"]) != self.application_id:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        guild_id = int(params["guild_id"]) if params.get("guild_id") else None
        previous = {(c["name"], c.get("type", 1)): c["id"] for c in self.commands.get(guild_id, [])}
        echoed = []
        for command in request.json or []:
            key = (command["name"], command.get("type", 1))
            data = json.loads(json.dumps(command))
            data.setdefault("type", 1)
            data.setdefault("options", [])
            data.update(
                id=previous.get(key) or str(self.snowflake()),
                application_id=str(self.application_id),
                version=str(self.snowflake()),
                default_member_permissions=command.get("default_member_permissions"),
                nsfw=bool(command.get("nsfw", False)),
            )
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
            echoed.append(data)
        self.commands[guild_id] = echoed
        self.command_puts.append((guild_id, echoed))
        return 200, echoed

    def _get_commands(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        guild_id = int(params["guild_id"]) if params.get("guild_id") else None
        return 200, self.commands.get(guild_id, [])

    # ----------------------------------------------------------------- messages

    def _author(self) -> dict[str, Any]:
        return self.bot_user.to_json()

    def _interaction_fields(self, record: InteractionRecord) -> dict[str, Any]:
        """What Discord adds to a message an interaction produced (webhook + metadata)."""
        metadata: dict[str, Any] = {
            "id": str(record.id),
            "type": record.type,
            "user": record.user.to_json(),
            "authorizing_integration_owners": {"0": str(record.guild_id or 0)},
        }
        if record.source_message_id is not None:
            metadata["interacted_message_id"] = str(record.source_message_id)
        fields: dict[str, Any] = {
            "webhook_id": str(self.application_id),
            "application_id": str(self.application_id),
            "interaction_metadata": metadata,
        }
        if record.type == 2:
            fields["interaction"] = {
                "id": str(record.id),
                "type": record.type,
                "name": record.name,
                "user": record.user.to_json(),
            }
        return fields

    def _attachment_json(
        self, channel_id: int, upload: UploadedFile, meta: Mapping[str, Any], ephemeral: bool
    ) -> tuple[dict[str, Any], bytes]:
        attachment_id = self.snowflake()
        filename = meta.get("filename") or upload.filename
        url = f"https://{CDN_HOST}/attachments/{channel_id}/{attachment_id}/{filename}"
        self.cdn[url] = upload.data
        data: dict[str, Any] = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url.replace(CDN_HOST, "media.discordapp.net"),
            "content_type": _guess_content_type(filename, upload.content_type),
        }
        if meta.get("description"):
            data["description"] = meta["description"]
        if ephemeral:
            data["ephemeral"] = True
        size = _png_size(upload.data)
        if size:
            data["width"], data["height"] = size
        return data, upload.data

    def _resolve_attachments(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        uploads: list[UploadedFile],
        existing: list[dict[str, Any]],
        existing_files: dict[str, bytes],
        ephemeral: bool,
    ) -> tuple[list[dict[str, Any]], dict[str, bytes]] | None:
        """The attachment list after this request, or None when it leaves them unchanged.

        Discord keeps the attachments named in ``attachments`` (existing ones by snowflake,
        new uploads by the ``files[n]`` index), and with no ``attachments`` key adds uploads.
        """
        by_index = {u.index: u for u in uploads if u.index is not None}
        existing_by_id = {int(a["id"]): a for a in existing}
        if "attachments" not in body or body.get("attachments") is None:
            if not uploads:
                return None
            out, files = list(existing), dict(existing_files)
            for upload in uploads:
                data, raw = self._attachment_json(channel_id, upload, {}, ephemeral)
                out.append(data)
                files[data["filename"]] = raw
            return out, files
        out, files = [], {}
        for meta in body["attachments"]:
            key = int(meta["id"])
            if key in existing_by_id:
                kept = existing_by_id[key]
                out.append(kept)
                files[kept["filename"]] = existing_files.get(kept["filename"], b"")
            elif key in by_index:
                data, raw = self._attachment_json(channel_id, by_index[key], meta, ephemeral)
                out.append(data)
                files[data["filename"]] = raw
            else:
                raise DiscordHTTPError(400, 50035, f"Invalid Form Body: unknown attachment {key}")
        return out, files

    @staticmethod
    def _resolve_embeds(embeds: Iterable[Mapping[str, Any]], attachments: list[dict[str, Any]]):
        """Embeds as Discord returns them: typed, with ``attachment://`` URLs made real."""
        by_name = {a["filename"]: a for a in attachments}
        out = []
        for embed in embeds:
            data = json.loads(json.dumps(embed))
            data.setdefault("type", "rich")
            data["content_scan_version"] = 0
            for key in ("image", "thumbnail"):
                media = data.get(key)
                if media and str(media.get("url", "")).startswith("attachment://"):
                    name = media["url"][len("attachment://") :]
                    if name in by_name:
                        attachment = by_name[name]
                        media.update(
                            url=attachment["url"],
                            proxy_url=attachment["proxy_url"],
                            width=attachment.get("width", 0),
                            height=attachment.get("height", 0),
                            content_type=attachment["content_type"],
                            flags=0,
                        )
            for field_ in data.get("fields") or ():
                field_.setdefault("inline", False)
            out.append(data)
        return out

    @staticmethod
    def _resolve_media(components: list[dict[str, Any]], attachments: list[dict[str, Any]]):
        """Media items as Discord returns them: an ``attachment://`` URL becomes the attached
        file's own URL, with its size and type; a gallery item always says its description
        and spoiler."""
        by_name = {a["filename"]: a for a in attachments}

        def resolve(media: dict[str, Any]) -> None:
            url = str(media.get("url") or "")
            attachment = by_name.get(url[len("attachment://") :])
            if url.startswith("attachment://") and attachment is not None:
                media.update(
                    id=attachment["id"],
                    url=attachment["url"],
                    proxy_url=attachment["proxy_url"],
                    width=attachment.get("width"),
                    height=attachment.get("height"),
                    content_type=attachment["content_type"],
                    attachment_id=attachment["id"],
                )

        def walk(items: Iterable[dict[str, Any]]) -> None:
            for item in items:
                entries = (item.get("items") or []) if item.get("type") == 12 else []
                for entry in entries:
                    entry.setdefault("description", None)
                    entry.setdefault("spoiler", False)
                    resolve(entry["media"])
                for key in ("media", "file"):
                    if item.get("type") in (11, 13) and isinstance(item.get(key), dict):
                        resolve(item[key])
                walk(item.get("components") or ())
                if isinstance(item.get("accessory"), dict):
                    walk([item["accessory"]])

        walk(components)

    @staticmethod
    def _number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Discord gives every component a numeric ``id`` in tree order when none was sent."""
        counter = iter(range(1, 10_000))
        copied = json.loads(json.dumps(components))

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                item.setdefault("id", next(counter))
                for key in ("components",):
                    if isinstance(item.get(key), list):
                        walk(item[key])
                for key in ("accessory", "component"):
                    if isinstance(item.get(key), dict):
                        walk([item[key]])

        walk(copied)
        return copied

    def _mentions(self, content: str, allowed: Mapping[str, Any] | None) -> list[dict[str, Any]]:
        """Users pinged by the content, after allowed_mentions (absent means parse everything)."""
        ids = [int(x) for x in re.findall(r"<@!?(\d+)>", content or "")]
        if allowed is not None:
            parse = allowed.get("parse") or []
            listed = {int(x) for x in allowed.get("users") or []}
            ids = [i for i in ids if "users" in parse or i in listed]
        out, seen = [], set()
        for user_id in ids:
            if user_id in seen:
                continue
            seen.add(user_id)
            try:
                out.append(self._user(user_id).to_json())
            except DiscordHTTPError:
                continue
        return out

    def _apply_body(
        self,
        stored: StoredMessage,
        body: Mapping[str, Any],
        uploads: list[UploadedFile],
    ) -> None:
        """Apply a create/edit body to a stored message the way Discord merges fields."""
        data = stored.data
        flags = body.get("flags") if body.get("flags") is not None else data.get("flags")
        v2 = bool(int(flags or 0) & COMPONENTS_V2)
        if "content" in body or (v2 and "components" in body):
            # With components v2 the mentions Discord parses are those in text displays.
            data["content"] = body.get("content") or ""
            said = "\n".join(components_text(body.get("components") or ())) if v2 else None
            data["mentions"] = self._mentions(
                data["content"] if said is None else said, body.get("allowed_mentions")
            )
            data["mention_everyone"] = False
        attachments = self._resolve_attachments(
            stored.channel_id,
            body,
            uploads,
            data.get("attachments", []),
            stored.files,
            stored.ephemeral,
        )
        if attachments is not None:
            data["attachments"], stored.files = attachments
        if "embeds" in body:
            data["embeds"] = body["embeds"] or []
        if "embeds" in body or attachments is not None:
            data["embeds"] = self._resolve_embeds(data.get("embeds", []), data["attachments"])
        if "components" in body:
            data["components"] = self._number_components(body["components"] or [])
        if "components" in body or attachments is not None:
            self._resolve_media(data.get("components") or [], data.get("attachments") or [])
        if body.get("flags") is not None:
            keep = int(data.get("flags") or 0) & (EPHEMERAL | LOADING)
            data["flags"] = keep | (int(body["flags"]) & ~(EPHEMERAL | LOADING))
        if body.get("poll") is not None:
            data["poll"] = body["poll"]

    def _create(
        self,
        channel_id: int,
        body: Mapping[str, Any] | None,
        uploads: list[UploadedFile],
        *,
        record: InteractionRecord | None = None,
        ephemeral: bool = False,
        loading: bool = False,
        message_type: int = 0,
    ) -> StoredMessage:
        body = body or {}
        channel = self._channel(channel_id)
        flags = int(body.get("flags") or 0)
        if ephemeral:
            flags |= EPHEMERAL
        if loading:
            flags |= LOADING
        data: dict[str, Any] = {
            "id": str(self.snowflake()),
            "channel_id": str(channel_id),
            "type": message_type,
            "author": self._author(),
            "content": "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "flags": 0,
        }
        if record is not None:
            data.update(self._interaction_fields(record))
        visible_to = record.user.id if (record is not None and ephemeral) else None
        if channel.get("type") == 1:
            visible_to = int(channel["recipients"][0]["id"])
        stored = StoredMessage(
            data=data,
            files={},
            ephemeral=ephemeral,
            visible_to=visible_to,
            interaction_token=record.token if record else None,
        )
        self._apply_body(stored, body, uploads)
        data["flags"] = flags
        self.messages[stored.id] = stored
        self.log.append(MessageEvent("create", stored.id, stored.interaction_token))
        if not ephemeral:
            self._gateway_message("MESSAGE_CREATE", stored)
        channel["last_message_id"] = data["id"]
        return stored

    def _edit(
        self,
        stored: StoredMessage,
        body: Mapping[str, Any] | None,
        uploads: list[UploadedFile],
        token: str | None,
    ) -> StoredMessage:
        if stored.deleted:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        was_loading = bool(int(stored.data.get("flags") or 0) & LOADING)
        self._apply_body(stored, body or {}, uploads)
        if was_loading:
            stored.data["flags"] = int(stored.data["flags"]) & ~LOADING
        stored.data["edited_timestamp"] = None if was_loading else _now_iso()
        self.log.append(MessageEvent("edit", stored.id, token))
        if not stored.ephemeral:
            self._gateway_message("MESSAGE_UPDATE", stored)
        return stored

    def _delete(self, stored: StoredMessage, token: str | None) -> None:
        if stored.deleted:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        stored.deleted = True
        self.log.append(MessageEvent("delete", stored.id, token))
        if not stored.ephemeral and self.world is not None:
            payload = {"id": str(stored.id), "channel_id": str(stored.channel_id)}
            if self.channels[stored.channel_id].get("guild_id"):
                payload["guild_id"] = str(self.world.guild_id)
            self.gateway_outbox.append(("MESSAGE_DELETE", payload))

    def _gateway_message(self, event: str, stored: StoredMessage) -> None:
        """Queue the MESSAGE_CREATE/UPDATE Discord would push to the bot for its own message."""
        if self.world is None:
            return
        from .payloads import member_json

        payload = json.loads(json.dumps(stored.data))
        if self.channels[stored.channel_id].get("guild_id"):
            payload["guild_id"] = str(self.world.guild_id)
            member = member_json(self.world, self.bot_user)
            member.pop("user", None)
            payload["member"] = member
        self.gateway_outbox.append((event, payload))

    def _channel_message(self, params: dict[str, str]) -> StoredMessage:
        stored = self.messages.get(int(params["message_id"]))
        if (
            stored is None
            or stored.deleted
            or stored.ephemeral
            or stored.channel_id != int(params["channel_id"])
        ):
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return stored

    def _create_message(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        body = request.json or {}
        if body.get("flags") and int(body["flags"]) & EPHEMERAL:
            raise DiscordHTTPError(400, 50035, "Invalid Form Body: ephemeral outside interactions")
        channel = self._channel(int(params["channel_id"]))
        in_thread = channel.get("type") in (10, 11, 12)
        if channel.get("type") != 1:
            self._require("send_messages_in_threads" if in_thread else "send_messages")
        if in_thread and channel["thread_metadata"].get("archived"):
            # Discord unarchives a thread that is not locked when a message is sent in it.
            if channel["thread_metadata"].get("locked"):
                raise DiscordHTTPError(400, 50083, "Thread is archived")
            channel["thread_metadata"]["archived"] = False
        stored = self._create(int(params["channel_id"]), body, request.files)
        return 200, stored.data

    def _get_message(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        return 200, self._channel_message(params).data

    def _edit_message(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        stored = self._channel_message(params)
        if int(stored.data["author"]["id"]) != self.bot_user.id:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        metadata = self._channel(stored.channel_id).get("thread_metadata") or {}
        if metadata.get("archived"):  # an edit never reopens a thread, locked or not
            raise DiscordHTTPError(400, 50083, "Thread is archived")
        return 200, self._edit(stored, request.json, request.files, None).data

    def _delete_message(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        self._delete(self._channel_message(params), None)
        return 204, None

    def _history(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        channel_id = int(params["channel_id"])
        self._channel(channel_id)
        limit = int(request.query.get("limit", 50))
        found = [
            m.data
            for m in sorted(self.messages.values(), key=lambda m: m.id, reverse=True)
            if m.channel_id == channel_id and not m.ephemeral and not m.deleted
        ]
        if "before" in request.query:
            found = [m for m in found if int(m["id"]) < int(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if int(m["id"]) > int(request.query["after"])]
        return 200, found[:limit]

    def _create_thread(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        parent = self._channel(int(params["channel_id"]))
        if self.world is None or parent.get("type") not in (0, 5):
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        body = request.json or {}
        starter = self._channel_message(params) if params.get("message_id") else None
        thread_id = starter.id if starter else self.snowflake()
        kind = 11 if starter else int(body.get("type") or 12)
        self._require("create_public_threads" if kind == 11 else "create_private_threads")
        if starter is not None and starter.data.get("thread"):
            raise DiscordHTTPError(400, 160004, "A thread was already created for this message")
        channel = Channel(id=thread_id, name=body.get("name", "thread"), type=kind)
        data = channel.to_json(self.world.guild_id, owner_id=self.bot_user.id)
        data["parent_id"] = parent["id"]
        data["thread_metadata"]["auto_archive_duration"] = body.get("auto_archive_duration", 1440)
        self.channels[thread_id] = data
        self.world.channels[thread_id] = Channel(
            id=thread_id, name=channel.name, type=kind, parent_id=int(parent["id"])
        )
        created = dict(data, newly_created=True)
        self.gateway_outbox.append(("THREAD_CREATE", created))
        if starter is not None:  # the starter message now shows its thread
            starter.data["thread"] = data
            starter.data["flags"] = int(starter.data.get("flags") or 0) | 1 << 5  # HAS_THREAD
            self._gateway_message("MESSAGE_UPDATE", starter)
        return 201, data

    # ----------------------------------------------------------------- interaction routes

    def _record(self, token: str) -> InteractionRecord:
        record = self.interactions.get(token)
        if record is None:
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        if record.dead:
            raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
        return record

    def _callback(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record = self.interactions.get(params["interaction_token"])
        if record is None or record.id != int(params["interaction_id"]):
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        request.interaction_token = record.token
        if record.dead:
            raise DiscordHTTPError(401, 50027, "Invalid Webhook Token")
        if record.callback_type is not None:
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        body = request.json or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        allowed = {
            4: (2, 3, 5),
            5: (2, 3, 5),
            6: (3, 5),
            7: (3, 5),
            8: (4,),
            9: (2, 3),
            12: (2, 3, 5),  # LAUNCH_ACTIVITY, for an app with Activities enabled
        }
        if kind not in allowed or record.type not in allowed[kind]:
            raise DiscordHTTPError(400, 40043, f"Callback type {kind} is invalid here")
        if kind in (6, 7) and record.source_message_id is None:
            raise DiscordHTTPError(400, 40043, "No message to update")
        record.callback_type = kind
        record.acked_at = time.monotonic()
        record.dead = record.dies_after_answer
        interaction: dict[str, Any] = {
            "id": str(record.id),
            "type": record.type,
            "response_message_loading": False,
            "response_message_ephemeral": False,
            "channel_id": str(record.channel_id),
        }
        if record.guild_id:
            interaction["guild_id"] = str(record.guild_id)
        result: dict[str, Any] = {"interaction": interaction}
        if kind in (4, 5):
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            stored = self._create(
                record.channel_id,
                data if kind == 4 else {},
                request.files,
                record=record,
                ephemeral=ephemeral,
                loading=kind == 5,
                message_type=20 if record.type == 2 else 0,
            )
            record.original_id = stored.id
            record.loading = kind == 5
            record.deferred_ephemeral = ephemeral
            interaction.update(
                response_message_id=str(stored.id),
                response_message_loading=kind == 5,
                response_message_ephemeral=ephemeral,
            )
            if kind == 4:
                result["resource"] = {"type": 4, "message": stored.data}
        elif kind in (6, 7):
            assert record.source_message_id is not None
            stored = self.stored(record.source_message_id)
            record.original_id = stored.id
            interaction.update(
                response_message_id=str(stored.id),
                response_message_ephemeral=stored.ephemeral,
            )
            if kind == 7:
                self._edit(stored, data, request.files, record.token)
                result["resource"] = {"type": 7, "message": stored.data}
        elif kind == 8:
            record.choices = list(data.get("choices") or [])
        elif kind == 9:
            record.modal = data
        elif kind == 12:
            instance = {"id": f"i-{self.snowflake()}-gc-{record.guild_id}-{record.channel_id}"}
            result["resource"] = {"type": 12, "activity_instance": instance}
        return 200, result

    def _webhook_record(self, params: dict[str, str], request: RecordedRequest):
        if int(params["webhook_id"]) != self.application_id:
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        record = self._record(params["webhook_token"])
        request.interaction_token = record.token
        return record

    def _webhook_message(self, record: InteractionRecord, message_id: str) -> StoredMessage:
        if message_id == "@original":
            if record.original_id is None:
                raise DiscordHTTPError(404, 10008, "Unknown Message")
            return self.stored(record.original_id)
        wanted = int(message_id)
        if wanted not in (record.original_id, *record.followup_ids):
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return self.stored(wanted)

    def _followup(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record = self._webhook_record(params, request)
        if record.callback_type is None:
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        body = request.json or {}
        if record.loading and record.original_id is not None:
            # The first followup after a "thinking" defer replaces the loading message and keeps
            # the defer's ephemerality, whatever flags it carries.
            record.loading = False
            stored = self._edit(self.stored(record.original_id), body, request.files, record.token)
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
            stored = self._create(
                record.channel_id, body, request.files, record=record, ephemeral=ephemeral
            )
            record.followup_ids.append(stored.id)
        if request.query.get("wait") in ("0", "false", "False"):
            return 204, None
        return 200, stored.data

    def _wh_get(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record = self._webhook_record(params, request)
        stored = self._webhook_message(record, params["message_id"])
        if stored.deleted:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return 200, stored.data

    def _wh_edit(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record = self._webhook_record(params, request)
        stored = self._webhook_message(record, params["message_id"])
        if stored.id == record.original_id:
            record.loading = False
        return 200, self._edit(stored, request.json, request.files, record.token).data

    def _wh_del(self, request: RecordedRequest, params: dict[str, str]) -> tuple[int, Any]:
        record = self._webhook_record(params, request)
        stored = self._webhook_message(record, params["message_id"])
        self._delete(stored, record.token)
        if stored.id == record.original_id:
            # Deleting the "thinking…" message ends the defer: later follow-ups are new
            # messages, each as ephemeral as its own flags say.
            record.loading = False
        return 204, None
