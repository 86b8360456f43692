"""Drives a discord.py bot through the fake Discord: login, gateway events, interactions, answers.

The bot logs in for real (``Client.login``: ``static_login``, application info, ``setup_hook``)
against a ``FakeSession``; its gateway is a real ``DiscordWebSocket`` (HELLO, IDENTIFY) whose
socket is fake, and every event, interactions included, enters through
``DiscordWebSocket.received_message`` as the JSON text Discord would send.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import discord
import discord.http
from discord.gateway import DiscordWebSocket
from discord.utils import MISSING

from . import payloads, validate
from .fake_discord import (
    FakeDiscord,
    FakeGatewaySocket,
    FakeSession,
    InteractionRecord,
    RecordedRequest,
    World,
)
from .models import (
    DEFAULT_MEMBER_PERMISSIONS,
    Channel,
    ComponentInfo,
    SeenMessage,
    User,
    flatten_components,
)
from .payloads import PayloadError
from .settle import BotError, Settler, capture_errors

__all__ = ["BotError", "Harness", "HarnessFactory", "PayloadError", "Response", "make_harness"]


@dataclass
class Response:
    """What the acting user saw because of one interaction.

    ``messages`` holds the final state of every message the interaction created or edited (its
    own response and followups, and public messages posted or edited while it was handled), in
    the order they first changed; deleted ones are left out (see ``deleted_ids``).
    """

    interaction: InteractionRecord
    messages: list[SeenMessage]
    deleted_ids: list[int]
    requests: list[RecordedRequest]
    errors: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def user(self) -> User:
        return self.interaction.user

    @property
    def callback_type(self) -> int | None:
        """4 message, 5 deferred message, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.interaction.callback_type

    @property
    def acknowledged(self) -> bool:
        return self.interaction.callback_type is not None

    @property
    def deferred(self) -> bool:
        return self.interaction.callback_type in (5, 6)

    @property
    def ack_seconds(self) -> float | None:
        if self.interaction.acked_at is None:
            return None
        return self.interaction.acked_at - self.interaction.created_at

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.interaction.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal

    @property
    def ephemeral_messages(self) -> list[SeenMessage]:
        return [m for m in self.messages if m.ephemeral]

    @property
    def public_messages(self) -> list[SeenMessage]:
        """Messages everyone in the channel sees (not ephemeral, not direct messages)."""
        return [m for m in self.messages if not m.ephemeral and m.visible_to is None]

    @property
    def direct_messages(self) -> list[SeenMessage]:
        """Direct messages the bot sent the acting user while handling this interaction."""
        return [m for m in self.messages if not m.ephemeral and m.visible_to is not None]

    @property
    def original(self) -> SeenMessage | None:
        """The interaction's own response message (or the message a component update edited)."""
        wanted = self.interaction.original_id
        return next((m for m in self.messages if m.id == wanted), None)

    @property
    def followups(self) -> list[SeenMessage]:
        ids = self.interaction.followup_ids
        return [m for m in self.messages if m.id in ids]

    @property
    def message(self) -> SeenMessage:
        """The one message this interaction produced; fails if there were none or several."""
        if len(self.messages) != 1:
            raise AssertionError(
                f"expected exactly one message, got {len(self.messages)}: "
                f"{[m.text()[:60] for m in self.messages]}"
            )
        return self.messages[0]

    def ephemeral_text(self) -> str:
        """Everything the user read in messages only they can see."""
        return "\n".join(m.text() for m in self.ephemeral_messages)

    def public_text(self) -> str:
        return "\n".join(m.text() for m in self.public_messages)

    def text(self) -> str:
        return "\n".join(m.text() for m in self.messages)


def _component_type_name(kind: int) -> str:
    return {2: "button", 3: "string select", 5: "user select", 6: "role select"}.get(
        kind, f"component type {kind}"
    )


class Harness:
    """A logged-in bot wired to a FakeDiscord, and the verbs a test uses to act as users."""

    def __init__(
        self,
        bot: discord.Client,
        fake: FakeDiscord,
        world: World,
        *,
        settle_timeout: float,
        sleep_threshold: float,
        raise_on_error: bool,
        ack_deadline: float,
    ) -> None:
        self.bot = bot
        self.fake = fake
        self.world = world
        self.settler = Settler(timeout=settle_timeout, sleep_threshold=sleep_threshold)
        self.raise_on_error = raise_on_error
        self.ack_deadline = ack_deadline
        self.problems: list[str] = []
        self.catalogue: list[dict[str, Any]] = []
        self.last_response: Response | None = None
        self.session: FakeSession | None = None
        self.ws: DiscordWebSocket | None = None
        self.socket: FakeGatewaySocket | None = None
        self._seq = 0
        self._first_request = len(fake.requests)
        self._tasks_before = set(asyncio.all_tasks())
        self._closed = False

    # ------------------------------------------------------------------ startup

    @classmethod
    async def start(
        cls,
        bot: discord.Client,
        fake: FakeDiscord | None = None,
        *,
        guild_id: int | None = None,
        channels: list[Channel] | None = None,
        members: list[User] | None = None,
        guild_name: str = "Harness Guild",
        guild_locale: str = "en-US",
        everyone_permissions: discord.Permissions = DEFAULT_MEMBER_PERMISSIONS,
        bot_denied: discord.Permissions | None = None,
        bot_granted: discord.Permissions | None = None,
        token: str = "harness.token",
        sync: bool = True,
        settle_timeout: float = 10.0,
        sleep_threshold: float = 1.0,
        raise_on_error: bool = True,
        ack_deadline: float = 3.0,
    ) -> Harness:
        """Log ``bot`` in against ``fake``, connect its gateway, deliver READY and GUILD_CREATE,
        sync its command tree and wait until it is idle. ``bot_denied``: permissions the bot
        is denied in every channel (a channel overwrite for its role), which it then lacks in
        what it is told (GUILD_CREATE, ``app_permissions``) and in what the fake allows it;
        ``bot_granted``: permissions its role has besides the default ones (Manage Roles).

        Without ``channels``/``members`` a FakeDiscord that already has a guild (a previous bot
        instance ran on it) is reused as is: that is how a restart test sees the same world.
        """
        fake = fake or FakeDiscord()
        if channels is None and members is None and fake.world is not None:
            world = fake.world
        else:
            channels = channels or [Channel(id=fake.snowflake(), name="games")]
            members = members or []
            world = World(
                guild_id=guild_id or fake.snowflake(),
                guild_name=guild_name,
                channels={c.id: c for c in channels},
                members={u.id: u for u in members},
                owner_id=fake.application_id + 7,
                everyone_permissions=everyone_permissions.value,
                bot_role_id=fake.snowflake(),
                member_role_ids={u.id: fake.snowflake() for u in members},
                bot_denied=bot_denied.value if bot_denied else 0,
                locale=guild_locale,
                bot_granted=bot_granted.value if bot_granted else 0,
            )
        fake.set_world(world)
        fake.gateway_outbox.clear()
        harness = cls(
            bot,
            fake,
            world,
            settle_timeout=settle_timeout,
            sleep_threshold=sleep_threshold,
            raise_on_error=raise_on_error,
            ack_deadline=ack_deadline,
        )
        try:
            await harness._startup(token, sync)
        except BaseException:
            await harness.close()
            raise
        return harness

    async def _startup(self, token: str, sync: bool) -> None:
        with capture_errors() as log:
            await self._login(token)
            await self._connect()
            state = self.bot._connection
            saved_timeout = state.guild_ready_timeout
            # discord.py waits guild_ready_timeout (2 s) after the last GUILD_CREATE before READY
            # is dispatched; every guild has arrived by then here, so waiting is pointless.
            state.guild_ready_timeout = 0.01
            try:
                await self.dispatch_gateway(
                    "READY", payloads.ready(self.fake, self.world.guild_id, secrets.token_hex(16))
                )
                await self.dispatch_gateway(
                    "GUILD_CREATE",
                    payloads.guild_create(self.world, self.fake.bot_user),
                )
                await asyncio.wait_for(self.bot.wait_until_ready(), self.settler.timeout)
            finally:
                state.guild_ready_timeout = saved_timeout
            task_errors = await self.settler.settle(self._pump)
            if sync and isinstance(
                getattr(self.bot, "tree", None), discord.app_commands.CommandTree
            ):
                await self.sync_commands()
            task_errors += await self.settler.settle(self._pump)
        errors = [log.render()] if log.records else []
        errors += [repr(e) for e in task_errors]
        if errors and self.raise_on_error:
            raise BotError("the bot failed while starting:\n" + "\n".join(errors))
        self.problems += [f"startup: {e}" for e in errors]

    async def _login(self, token: str) -> None:
        """``Client.login`` for real, with the session ``static_login`` creates replaced by ours."""
        http = self.bot.http
        session = self.fake.session()
        self.session = session
        if http.connector is MISSING:
            # static_login would build a real TCPConnector for the real session; ours needs none.
            http.connector = None  # type: ignore[assignment]
        original = http.static_login
        real_session = discord.http.aiohttp.ClientSession

        def session_factory(*args: Any, **kwargs: Any) -> Any:
            if sys._getframe(1).f_locals.get("self") is http:
                return session
            return real_session(*args, **kwargs)

        async def static_login(token: str) -> Any:
            with mock.patch.object(discord.http.aiohttp, "ClientSession", session_factory):
                return await original(token)

        http.static_login = static_login  # type: ignore[method-assign]
        await self.bot.login(token)
        assert http._HTTPClient__session is session, "discord.py did not use the fake session"  # type: ignore[attr-defined]

    async def _connect(self) -> None:
        """A real DiscordWebSocket: it reads HELLO and sends IDENTIFY through the fake socket."""
        assert self.session is not None
        shard_id = getattr(self.bot, "shard_id", None)
        if isinstance(self.bot, discord.AutoShardedClient):
            # What launch_shards would set up, for a single shard holding the harness guild.
            self.bot.shard_count = 1
            self.bot._connection.shard_count = 1
            self.bot._connection.shard_ids = [0]
            shard_id = 0
        self.ws = await DiscordWebSocket.from_client(self.bot, initial=True, shard_id=shard_id)
        self.bot.ws = self.ws  # what Client.connect does with the socket it opened
        self.socket = self.session.sockets[-1]

    @property
    def identify(self) -> dict[str, Any]:
        """The IDENTIFY payload the bot sent (intents, shard)."""
        assert self.socket is not None
        return next(p["d"] for p in self.socket.sent if p.get("op") == 2)

    async def sync_commands(self) -> list[dict[str, Any]]:
        """``tree.sync()`` (global, then the harness guild if it has guild commands)."""
        tree: discord.app_commands.CommandTree = self.bot.tree  # type: ignore[attr-defined]
        await tree.sync()
        guild = discord.Object(self.world.guild_id)
        if tree.get_commands(guild=guild):
            await tree.sync(guild=guild)
        self.catalogue = self.fake.command_catalogue(self.world.guild_id)
        return self.catalogue

    # ------------------------------------------------------------------ gateway

    async def dispatch_gateway(self, event: str, data: Mapping[str, Any]) -> None:
        """Deliver one DISPATCH (op 0) event as the JSON text Discord would send."""
        if self.ws is None:
            raise RuntimeError("the harness has no gateway connection")
        self._seq += 1
        message = json.dumps({"op": 0, "t": event, "s": self._seq, "d": data})
        await self.ws.received_message(message)

    def _intended(self, event: str, data: Mapping[str, Any]) -> bool:
        """Whether Discord would send this event to a bot with the bot's intents."""
        intents = self.bot.intents
        if event.startswith("MESSAGE_"):
            return intents.guild_messages if data.get("guild_id") else intents.dm_messages
        if event.startswith("THREAD_"):
            return intents.guilds
        return True

    async def _pump(self) -> bool:
        """Feed the events the fake queued (echoes of the bot's own messages, threads, chunks)."""
        pumped = False
        while self.fake.gateway_outbox and not self._closed:
            event, data = self.fake.gateway_outbox.pop(0)
            if self._intended(event, data):
                await self.dispatch_gateway(event, data)
                pumped = True
        return pumped

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until the bot is idle; raise if it logged or raised an error meanwhile."""
        with capture_errors() as log:
            task_errors = await self.settler.settle(self._pump, timeout=timeout)
        errors = ([log.render()] if log.records else []) + [repr(e) for e in task_errors]
        if errors and self.raise_on_error:
            raise BotError("\n".join(errors))

    async def member_leave(self, user: User) -> None:
        """GUILD_MEMBER_REMOVE for ``user`` (sent only to bots with the members intent)."""
        if not self.bot.intents.members:
            raise PayloadError("Discord sends GUILD_MEMBER_REMOVE only with the members intent")
        self.world.members.pop(user.id, None)
        data = {"guild_id": str(self.world.guild_id), "user": user.to_json()}
        await self.dispatch_gateway("GUILD_MEMBER_REMOVE", data)
        await self.settle()

    async def add_guild(
        self,
        guild_id: int,
        channels: list[Channel],
        members: list[User],
        *,
        guild_name: str = "Second Guild",
    ) -> World:
        """Another server the bot is on (GUILD_CREATE), for what spans servers (the inbox):
        its members are known to Discord's member look-up, its channels to the channel
        routes; commands are run on the harness guild, in a DM, or on it under
        ``on_server``."""
        world = World(
            guild_id=guild_id,
            guild_name=guild_name,
            channels={c.id: c for c in channels},
            members={u.id: u for u in members},
            owner_id=self.fake.application_id + 7,
            everyone_permissions=self.world.everyone_permissions,
            bot_role_id=self.fake.snowflake(),
            member_role_ids={u.id: self.fake.snowflake() for u in members},
            locale=self.world.locale,
        )
        self.fake.other_worlds[guild_id] = world
        for channel in channels:
            self.fake.channels[channel.id] = world.channel_json(channel, self.fake.bot_user.id)
        created = payloads.guild_create(world, self.fake.bot_user)
        await self.dispatch_gateway("GUILD_CREATE", created)
        await self.settle()
        return world

    @contextmanager
    def on_server(self, world: World) -> Iterator[None]:
        """Run the commands, clicks and look-ups of the block on another server the bot is on
        (``add_guild``'s world): its members act in its channels, as they would there. What
        the bot posts to the harness guild meanwhile is still the harness guild's."""
        home = self.world
        self.world = world
        try:
            yield
        finally:
            self.world = home

    async def dm_slash(
        self, user: User, command: str, *, allow_errors: bool = False, **options: Any
    ) -> Response:
        """Run ``/command`` as ``user`` in their DM with the bot (a command whose contexts
        allow it: the client offers no other there)."""
        top, _, _ = payloads.find_command(self.catalogue, command)
        if 1 not in (top.get("contexts") or [0]):
            raise PayloadError(f"/{top['name']} is not offered in a DM with the bot")
        channel_id = self.fake.dm_channel(user)
        data = payloads.command_data(
            self.fake, self.world, self.catalogue, command, options, channel_id
        )
        record = self.fake.new_interaction(
            type=2, user=user, channel_id=channel_id, guild_id=None, name=command
        )
        payload = payloads.dm_interaction_base(self.fake, record)
        payload["data"] = data
        return await self._interact(record, payload, allow_errors=allow_errors)

    # ------------------------------------------------------------------ lookups

    def channel(self, channel: Channel | int | None = None) -> Channel:
        if channel is None:
            return next(c for c in self.world.channels.values() if not c.is_thread)
        channel_id = channel.id if isinstance(channel, Channel) else int(channel)
        try:
            return self.world.channels[channel_id]
        except KeyError:
            raise PayloadError(f"channel {channel_id} is not in the harness guild") from None

    def _member(self, user: User) -> User:
        if user.id not in self.world.members:
            raise PayloadError(f"{user.name} is not a member of the harness guild")
        return self.world.members[user.id]

    def message(self, message: SeenMessage | int) -> SeenMessage:
        """The current state of a message (snapshots do not follow later edits)."""
        message_id = message.id if isinstance(message, SeenMessage) else int(message)
        return self.fake.stored(message_id).snapshot()

    def channel_messages(self, channel: Channel | int | None = None) -> list[SeenMessage]:
        """Public messages in a channel as anyone sees them now, oldest first."""
        return self.fake.channel_messages(self.channel(channel).id)

    def threads(self, channel: Channel | int | None = None) -> list[Channel]:
        """The threads opened in a channel (by the bot or anyone), oldest first."""
        parent = self.channel(channel).id
        found = [c for c in self.world.channels.values() if c.is_thread and c.parent_id == parent]
        return sorted(found, key=lambda c: c.id)

    def thread(self, channel: Channel | int | None = None) -> Channel:
        """The one thread opened in a channel; fails if there is none or several."""
        found = self.threads(channel)
        if len(found) != 1:
            raise AssertionError(f"expected one thread, found {[c.name for c in found]}")
        return found[0]

    def dm_messages(self, user: User) -> list[SeenMessage]:
        """Messages the bot sent to ``user`` in direct messages."""
        channel_id = self.fake.dm_channels.get(user.id)
        return [] if channel_id is None else self.fake.channel_messages(channel_id)

    # ------------------------------------------------------------------ interactions

    async def slash(
        self,
        user: User,
        command: str,
        *,
        channel: Channel | int | None = None,
        options: Mapping[str, Any] | None = None,
        allow_errors: bool = False,
        **kwargs: Any,
    ) -> Response:
        """Run ``/command`` (``"game new"``: groups and subcommands by space) as ``user``.

        Options come from ``options`` and keyword arguments; they are checked against the
        command JSON the bot synced, as the Discord client does.
        """
        where = self.channel(channel)
        member = self._member(user)
        values = {**(options or {}), **kwargs}
        self._check_can_use(member, command)
        data = payloads.command_data(
            self.fake, self.world, self.catalogue, command, values, where.id
        )
        record = self.fake.new_interaction(
            type=2,
            user=member,
            channel_id=where.id,
            guild_id=self.world.guild_id,
            name=command,
        )
        payload = payloads.interaction_base(self.fake, self.world, record, where)
        payload["data"] = data
        return await self._interact(record, payload, allow_errors=allow_errors)

    async def autocomplete(
        self,
        user: User,
        command: str,
        *,
        focused: str,
        value: str = "",
        channel: Channel | int | None = None,
        options: Mapping[str, Any] | None = None,
        allow_errors: bool = False,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused`` of ``/command``; return the offered choices.

        The full Response is kept in ``harness.last_response``.
        """
        where = self.channel(channel)
        member = self._member(user)
        values = {**(options or {}), **kwargs, focused: value}
        data = payloads.command_data(
            self.fake, self.world, self.catalogue, command, values, where.id, focused=focused
        )
        record = self.fake.new_interaction(
            type=4, user=member, channel_id=where.id, guild_id=self.world.guild_id, name=command
        )
        payload = payloads.interaction_base(self.fake, self.world, record, where)
        payload["data"] = data
        response = await self._interact(record, payload, allow_errors=allow_errors)
        return list(response.choices or [])

    async def click(
        self,
        user: User,
        message: SeenMessage | int,
        custom_id: str | ComponentInfo | None = None,
        *,
        label: str | None = None,
        allow_errors: bool = False,
    ) -> Response:
        """Click a button on a message (public, or ephemeral to ``user``) by custom id or label."""
        stored, component = self._component(user, message, custom_id, label, buttons=True)
        data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": 2}
        if "id" in component:
            data["id"] = component["id"]
        return await self._component_interaction(user, stored, data, allow_errors)

    async def select(
        self,
        user: User,
        message: SeenMessage | int,
        custom_id: str | ComponentInfo | None,
        values: list[str],
        *,
        allow_errors: bool = False,
    ) -> Response:
        """Pick ``values`` in a select menu on a message."""
        stored, component = self._component(user, message, custom_id, None, buttons=False)
        kind = component["type"]
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise PayloadError(f"select {component['custom_id']!r} takes {low}-{high} values")
        data: dict[str, Any] = {
            "custom_id": component["custom_id"],
            "component_type": kind,
            "values": list(values),
        }
        if "id" in component:
            data["id"] = component["id"]
        if kind == 3:
            offered = [o["value"] for o in component.get("options") or []]
            stray = [v for v in values if v not in offered]
            if stray:
                raise PayloadError(f"select offers {offered}, not {stray}")
        elif kind in (5, 6, 7, 8):
            resolved = payloads._Resolved(self.fake, self.world)
            for value in values:
                if kind == 8:
                    resolved.channel(int(value))
                elif kind == 6:
                    resolved.role(int(value))
                elif int(value) in self.world.members:
                    resolved.user(int(value))
                else:
                    resolved.role(int(value))
            data["resolved"] = resolved.data
        return await self._component_interaction(user, stored, data, allow_errors)

    async def raw_component(
        self,
        user: User,
        message: SeenMessage | int,
        data: dict[str, Any],
        *,
        allow_errors: bool = False,
    ) -> Response:
        """A component interaction as a hostile or outdated client may send it: ``data``
        (``custom_id``, ``component_type``, ``values``) goes out as given, whether or not the
        message offers that component or those values."""
        message_id = message.id if isinstance(message, SeenMessage) else int(message)
        return await self._component_interaction(
            user, self.fake.stored(message_id), dict(data), allow_errors
        )

    async def submit_modal(
        self,
        user: User,
        response: Response,
        values: Mapping[str, Any],
        *,
        allow_errors: bool = False,
    ) -> Response:
        """Fill in and submit the modal ``response`` showed (``{custom_id: text}``)."""
        modal = response.modal
        if modal is None:
            raise PayloadError("that interaction did not open a modal")
        if user.id != response.user.id:
            raise PayloadError("only the user who opened a modal can submit it")
        source = response.interaction
        where = self.channel(source.channel_id)
        record = self.fake.new_interaction(
            type=5,
            user=self._member(user),
            channel_id=where.id,
            guild_id=self.world.guild_id,
            source_message_id=source.source_message_id,
        )
        payload = payloads.interaction_base(self.fake, self.world, record, where)
        payload["data"] = {
            "custom_id": modal["custom_id"],
            "components": payloads.modal_submit_components(modal, values),
        }
        if source.source_message_id is not None:
            payload["message"] = self.fake.stored(source.source_message_id).data
        return await self._interact(record, payload, allow_errors=allow_errors)

    def _check_can_use(self, user: User, command: str) -> None:
        """The client hides commands whose default_member_permissions the user lacks."""
        top, _, _ = payloads.find_command(self.catalogue, command)
        required = top.get("default_member_permissions")
        if required is None:
            return
        needed = int(required)
        have = payloads.permissions_in(self.world, user)
        if have & needed != needed:
            raise PayloadError(f"{user.name} lacks the permissions to see /{top['name']}")

    def _component(
        self,
        user: User,
        message: SeenMessage | int,
        custom_id: str | ComponentInfo | None,
        label: str | None,
        *,
        buttons: bool,
    ) -> tuple[Any, dict[str, Any]]:
        """The stored message and the raw component a user can actually operate on it now."""
        message_id = message.id if isinstance(message, SeenMessage) else int(message)
        stored = self.fake.stored(message_id)
        if stored.deleted:
            raise PayloadError(f"message {message_id} was deleted")
        if stored.visible_to is not None and stored.visible_to != user.id:
            raise PayloadError(f"{user.name} cannot see message {message_id}")
        if isinstance(custom_id, ComponentInfo):
            custom_id = custom_id.custom_id
        kinds = (2,) if buttons else (3, 5, 6, 7, 8)
        found = [
            c
            for c in _raw_components(stored.data.get("components") or [])
            if c.get("type") in kinds
            and (custom_id is None or c.get("custom_id") == custom_id)
            and (label is None or c.get("label") == label)
        ]
        if len(found) != 1:
            have = [(c.label, c.custom_id) for c in flatten_components(stored.data["components"])]
            what = "button" if buttons else "select"
            raise PayloadError(
                f"{len(found)} {what}(s) match custom_id={custom_id!r} label={label!r} on "
                f"message {message_id}; it has {have}"
            )
        component = found[0]
        if component.get("disabled"):
            raise PayloadError(f"{_component_type_name(component['type'])} is disabled")
        if component.get("style") == 5:
            raise PayloadError("link buttons open a URL; they send no interaction")
        return stored, component

    async def _component_interaction(
        self, user: User, stored: Any, data: dict[str, Any], allow_errors: bool
    ) -> Response:
        member = self._member(user)
        if stored.channel_id in self.world.channels:
            where = self.world.channels[stored.channel_id]
            record = self.fake.new_interaction(
                type=3,
                user=member,
                channel_id=where.id,
                guild_id=self.world.guild_id,
                source_message_id=stored.id,
            )
            payload = payloads.interaction_base(self.fake, self.world, record, where)
        elif self.fake.dm_channels.get(user.id) == stored.channel_id:
            record = self.fake.new_interaction(
                type=3,
                user=member,
                channel_id=stored.channel_id,
                guild_id=None,
                source_message_id=stored.id,
            )
            payload = payloads.dm_interaction_base(self.fake, record)
        else:
            raise PayloadError(f"{user.name} cannot reach channel {stored.channel_id}")
        payload["message"] = json.loads(json.dumps(stored.data))
        payload["data"] = data
        return await self._interact(record, payload, allow_errors=allow_errors)

    async def _interact(
        self, record: InteractionRecord, payload: dict[str, Any], *, allow_errors: bool
    ) -> Response:
        """Deliver INTERACTION_CREATE, wait until the bot is idle, and read what the user saw."""
        log_mark = len(self.fake.log)
        request_mark = len(self.fake.requests)
        with capture_errors() as log:
            await self.dispatch_gateway("INTERACTION_CREATE", payload)
            task_errors = await self.settler.settle(self._pump)
        events = self.fake.log[log_mark:]
        order: list[int] = []
        for event in events:
            stored = self.fake.messages[event.message_id]
            # Ephemeral messages are the acting user's only through this interaction's token.
            seen = stored.visible_to in (None, record.user.id)
            mine = event.token == record.token or (not stored.ephemeral and seen)
            if mine and event.message_id not in order:
                order.append(event.message_id)
        snapshots = [self.fake.stored(i).snapshot() for i in order]
        response = Response(
            interaction=record,
            messages=[m for m in snapshots if not m.deleted],
            deleted_ids=[m.id for m in snapshots if m.deleted],
            requests=self.fake.requests[request_mark:],
            errors=([log.render()] if log.records else []) + [repr(e) for e in task_errors],
        )
        response.problems = self._interaction_problems(response)
        self.problems += response.problems
        self.last_response = response
        if self.raise_on_error and not allow_errors and (response.errors or response.problems):
            detail = "\n".join(response.errors + response.problems)
            raise BotError(f"{self._describe(record)} went wrong:\n{detail}")
        return response

    def _describe(self, record: InteractionRecord) -> str:
        kinds = {2: "/" + str(record.name), 3: "component", 4: "autocomplete", 5: "modal submit"}
        return f"{kinds.get(record.type, record.type)} by {record.user.name}"

    def _interaction_problems(self, response: Response) -> list[str]:
        """Protocol faults a user would notice: no answer, a late answer, endless thinking."""
        record = response.interaction
        what = self._describe(record)
        problems = []
        if record.callback_type is None:
            problems.append(f"{what} was never acknowledged: the user sees 'interaction failed'")
        elif response.ack_seconds is not None and response.ack_seconds > self.ack_deadline:
            problems.append(
                f"{what} acknowledged after {response.ack_seconds:.2f}s "
                f"(Discord gives {self.ack_deadline:g}s)"
            )
        if record.original_id is not None:
            original = self.fake.stored(record.original_id).snapshot()
            if original.loading and not original.deleted:
                problems.append(f"{what} deferred but never followed up: endless 'thinking'")
        return problems

    # ------------------------------------------------------------------ validation

    def take_problems(self) -> list[str]:
        """Every problem so far (invalid payloads, protocol faults), then forget them.

        For tests that provoke a problem on purpose and then carry on.
        """
        found = [issue for _, issue in self._collect()]
        self.problems.clear()
        for request in self.fake.requests[self._first_request :]:
            request.issues = []
        return found

    def _collect(self) -> list[tuple[Any, str]]:
        found: list[tuple[Any, str]] = [(None, p) for p in self.problems]
        for request in self.fake.requests[self._first_request :]:
            found += [(request, issue) for issue in request.issues]
        return found

    def assert_all_valid(self) -> None:
        """Raise a readable report if anything the bot sent broke a limit, the spec or policy."""
        found = self._collect()
        if found:
            raise AssertionError(validate.report(found))

    # ------------------------------------------------------------------ teardown

    async def close(self) -> None:
        """Close the bot (extensions unloaded, gateway and session closed), cancel its leftovers."""
        if self._closed:
            return
        self._closed = True
        try:
            await self.bot.close()
            if self.ws is not None and self.ws.open:  # AutoShardedClient closes only its Shards
                await self.ws.close(code=1000)
        finally:
            me = asyncio.current_task()
            leftovers = [
                t
                for t in asyncio.all_tasks()
                if t is not me and t not in self._tasks_before and not t.done()
            ]
            for task in leftovers:
                task.cancel()
            await asyncio.gather(*leftovers, return_exceptions=True)


def _raw_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for item in components:
        out.append(item)
        if isinstance(item.get("components"), list):
            out += _raw_components(item["components"])
        for key in ("accessory", "component"):
            if isinstance(item.get(key), dict):
                out += _raw_components([item[key]])
    return out


HarnessFactory = Callable[..., Awaitable[Harness]]


@asynccontextmanager
async def make_harness(
    bot: discord.Client, fake: FakeDiscord | None = None, **options: Any
) -> AsyncIterator[Harness]:
    """Start a harness; on the way out close the bot and assert every payload was valid.

    The validity check is skipped when the body raised, so the original failure is what shows.
    """
    harness = await Harness.start(bot, fake or FakeDiscord(), **options)
    try:
        yield harness
    except BaseException:
        await harness.close()
        raise
    await harness.close()
    harness.assert_all_valid()
