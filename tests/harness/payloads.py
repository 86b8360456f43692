"""Gateway payloads shaped as Discord (API v10) sends them: READY, GUILD_CREATE, interactions.

Slash command payloads are built from the command JSON the bot uploaded on sync, the way a Discord
client builds them, so an option the bot never registered is a test failure rather than a silent
pass. Option types, choices and ranges are checked the way the client checks them before sending.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from .fake_discord import CDN_HOST, FakeDiscord, InteractionRecord, World
from .models import DEFAULT_BOT_PERMISSIONS, Attachment, Channel, User

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
# What an app may do in a DM with a user (Discord sends this as app_permissions there).
DM_APP_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_external_emojis=True,
    use_application_commands=True,
).value

# Application command option types (Discord docs, "Application Command Option Type").
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)


class PayloadError(AssertionError):
    """A test asked for an interaction a real Discord client could not send."""


def member_json(world: World, user: User) -> dict[str, Any]:
    """A guild member object (without ``permissions``: only interactions carry that)."""
    if user.bot:
        roles = [str(world.bot_role_id)]
    elif user.id in world.member_role_ids:
        roles = [str(world.member_role_ids[user.id])]
    else:
        roles = []
    roles += [str(role) for role in sorted(world.held_roles.get(user.id, ()))]
    return {
        "user": user.to_json(),
        "nick": user.nick,
        "avatar": None,
        "banner": None,
        "roles": roles,
        "joined_at": "2025-01-01T00:00:00.000000+00:00",
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
    }


def permissions_in(world: World, user: User) -> int:
    """The member's effective permissions, as Discord puts them in ``member.permissions``."""
    if user.bot:
        granted = DEFAULT_BOT_PERMISSIONS.value | world.bot_granted
        return (granted | world.everyone_permissions) & ~world.bot_denied
    return user.permissions_value | world.everyone_permissions


def permissions_in_channel(world: World, user: User, channel: Channel) -> int:
    """The member's permissions in ``channel`` (a thread: its parent's), its overwrites
    applied as Discord does: @everyone's, then the member's role's, then the member's own."""
    value = permissions_in(world, user)
    if value & discord.Permissions.administrator.flag:
        return value
    if channel.is_thread and channel.parent_id in world.channels:
        channel = world.channels[channel.parent_id]
    role = world.member_role_ids.get(user.id)
    for target in (world.guild_id, role, user.id):
        for overwrite_id, _kind, allow, deny in channel.overwrites:
            if overwrite_id == target:
                value = (value & ~deny) | allow
    return value


#: The bot's role's position (its highest): it may give only the roles below it.
BOT_ROLE_POSITION = 1


def role_json(role_id: int, name: str, permissions: int, position: int, managed: bool = False):
    role: dict[str, Any] = {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }
    return role


def guild_create(world: World, bot_user: User) -> dict[str, Any]:
    """GUILD_CREATE for the harness guild: channels, threads, roles and every member."""
    roles = [role_json(world.guild_id, "@everyone", world.everyone_permissions, 0)]
    granted = DEFAULT_BOT_PERMISSIONS.value | world.bot_granted
    bot_role = role_json(world.bot_role_id, bot_user.name, granted, BOT_ROLE_POSITION, True)
    bot_role["tags"] = {"bot_id": str(bot_user.id)}
    roles.append(bot_role)
    for position, (user_id, role_id) in enumerate(world.member_role_ids.items(), start=2):
        user = world.members[user_id]
        roles.append(role_json(role_id, f"{user.name} role", user.permissions_value, position))
    roles += world.roles.values()
    channels = [
        world.channel_json(c, bot_user.id) for c in world.channels.values() if not c.is_thread
    ]
    threads = [
        world.channel_json(c, bot_user.id) | {"parent_id": str(c.parent_id)}
        for c in world.channels.values()
        if c.is_thread
    ]
    members = [member_json(world, u) for u in world.members.values()]
    members.append(member_json(world, bot_user))
    return {
        "id": str(world.guild_id),
        "name": world.guild_name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(world.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": world.locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "application_id": None,
        "features": [],
        "emojis": [],
        "stickers": [],
        "roles": roles,
        "joined_at": "2025-01-01T00:00:00.000000+00:00",
        "large": False,
        "unavailable": False,
        "lazy": True,
        "member_count": len(members),
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": threads,
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "incidents_data": None,
    }


def ready(fake: FakeDiscord, guild_id: int, session_id: str) -> dict[str, Any]:
    """READY for one shard of one guild (the guild arrives later as GUILD_CREATE)."""
    user = fake.bot_user.to_json()
    user.update(verified=True, mfa_enabled=False, email=None, flags=0)
    return {
        "v": 10,
        "user": user,
        "user_settings": {},
        "session_type": "normal",
        "session_id": session_id,
        "resume_gateway_url": "wss://gateway-us-east1-b.discord.gg",
        "guilds": [{"id": str(guild_id), "unavailable": True}],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": ["us-east"],
        "presences": [],
        "private_channels": [],
        "relationships": [],
        "auth": {},
        "shard": [0, 1],
        "application": {"id": str(fake.application_id), "flags": 1 << 19 | 1 << 23},
        "_trace": ['["gateway-prd-fake",{"micros":0}]'],
    }


def interaction_base(
    fake: FakeDiscord, world: World, record: InteractionRecord, channel: Channel
) -> dict[str, Any]:
    """Fields every guild interaction carries: who, where, what they and the app may do."""
    user = record.user
    member = member_json(world, user)
    member["permissions"] = str(permissions_in_channel(world, user, channel))
    channel_json = dict(fake.channels.get(channel.id) or channel.to_json(world.guild_id))
    channel_json["permissions"] = member["permissions"]
    return {
        "id": str(record.id),
        "application_id": str(fake.application_id),
        "type": record.type,
        "token": record.token,
        "version": 1,
        "guild_id": str(world.guild_id),
        "guild": {"id": str(world.guild_id), "locale": world.locale, "features": []},
        "guild_locale": world.locale,
        "channel_id": str(channel.id),
        "channel": channel_json,
        "member": member,
        "locale": user.locale,
        "app_permissions": str(permissions_in(world, fake.bot_user)),
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(world.guild_id)},
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }


def dm_interaction_base(fake: FakeDiscord, record: InteractionRecord) -> dict[str, Any]:
    """Fields of an interaction from the bot's DM with a user: ``user`` instead of ``member``."""
    return {
        "id": str(record.id),
        "application_id": str(fake.application_id),
        "type": record.type,
        "token": record.token,
        "version": 1,
        "channel_id": str(record.channel_id),
        "channel": fake.channels[record.channel_id],
        "user": record.user.to_json(),
        "locale": record.user.locale,
        "app_permissions": str(DM_APP_PERMISSIONS),
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": "0"},
        "context": 1,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }


# ------------------------------------------------------------------ slash commands


def find_command(
    catalogue: list[dict[str, Any]], path: str
) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """Resolve ``"game new"`` to (top-level command, [group, sub] names, leaf definition)."""
    words = path.split()
    if not words:
        raise PayloadError("empty command path")
    top = next(
        (c for c in catalogue if c["name"] == words[0] and c.get("type", 1) == 1),
        None,
    )
    if top is None:
        names = sorted(c["name"] for c in catalogue if c.get("type", 1) == 1)
        raise PayloadError(f"no slash command /{words[0]}; the bot registered {names}")
    node = top
    for word in words[1:]:
        subs = [
            o for o in node.get("options") or [] if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
        ]
        found = next((o for o in subs if o["name"] == word), None)
        if found is None:
            raise PayloadError(
                f"/{path}: no subcommand {word!r} under {node['name']!r}; "
                f"there are {[o['name'] for o in subs]}"
            )
        node = found
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node.get("options") or []):
        raise PayloadError(f"/{path} is a group; name one of its subcommands")
    return top, words[1:], node


class _Resolved:
    """Collects the ``data.resolved`` map Discord sends for user/channel/role/attachment options."""

    def __init__(self, fake: FakeDiscord, world: World) -> None:
        self.fake = fake
        self.world = world
        self.data: dict[str, dict[str, Any]] = {}

    def user(self, user_id: int) -> None:
        user = self.world.members.get(user_id)
        if user is None and user_id == self.fake.bot_user.id:
            user = self.fake.bot_user
        if user is None:
            raise PayloadError(f"user {user_id} is not a member of the harness guild")
        self.data.setdefault("users", {})[str(user_id)] = user.to_json()
        member = member_json(self.world, user)
        member.pop("user")
        member["permissions"] = str(permissions_in(self.world, user))
        self.data.setdefault("members", {})[str(user_id)] = member

    def channel(self, channel_id: int) -> None:
        raw = self.fake.channels.get(channel_id)
        if raw is None:
            raise PayloadError(f"channel {channel_id} does not exist")
        keys = ("id", "name", "type", "parent_id", "thread_metadata", "flags")
        data = {k: raw[k] for k in keys if k in raw}
        data["permissions"] = str(permissions_in(self.world, self.fake.bot_user))
        self.data.setdefault("channels", {})[str(channel_id)] = data

    def role(self, role_id: int) -> None:
        role = role_json(role_id, "role", 0, 1)
        self.data.setdefault("roles", {})[str(role_id)] = role

    def attachment(self, attachment: Attachment, channel_id: int) -> str:
        attachment_id = self.fake.snowflake()
        url = f"https://{CDN_HOST}/ephemeral-attachments/{channel_id}/{attachment_id}/"
        url += attachment.filename
        self.fake.cdn[url] = attachment.data
        self.data.setdefault("attachments", {})[str(attachment_id)] = {
            "id": str(attachment_id),
            "filename": attachment.filename,
            "size": len(attachment.data),
            "url": url,
            "proxy_url": url,
            "content_type": attachment.content_type,
            "ephemeral": True,
        }
        return str(attachment_id)


def _snowflake_of(value: Any) -> int:
    if hasattr(value, "id"):
        return int(value.id)
    return int(value)


def _check_choice_and_range(path: str, spec: Mapping[str, Any], value: Any) -> None:
    name = spec["name"]
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        listed = [c["value"] for c in choices]
        raise PayloadError(f"/{path}: {name}={value!r} is not one of the choices {listed}")
    if spec["type"] in (INTEGER, NUMBER):
        if spec.get("min_value") is not None and value < spec["min_value"]:
            raise PayloadError(f"/{path}: {name}={value} is below min_value {spec['min_value']}")
        if spec.get("max_value") is not None and value > spec["max_value"]:
            raise PayloadError(f"/{path}: {name}={value} is above max_value {spec['max_value']}")
    if spec["type"] == STRING:
        if spec.get("min_length") is not None and len(value) < spec["min_length"]:
            raise PayloadError(f"/{path}: {name} is shorter than {spec['min_length']}")
        if spec.get("max_length") is not None and len(value) > spec["max_length"]:
            raise PayloadError(f"/{path}: {name} is longer than {spec['max_length']}")


def option_value(
    path: str,
    spec: Mapping[str, Any],
    value: Any,
    resolved: _Resolved,
    channel_id: int,
) -> Any:
    """Convert a test's Python value to the JSON value Discord sends for this option type."""
    kind = spec["type"]
    name = spec["name"]
    if kind == STRING:
        if not isinstance(value, str):
            raise PayloadError(f"/{path}: option {name} is a string, got {value!r}")
        _check_choice_and_range(path, spec, value)
        return value
    if kind == INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise PayloadError(f"/{path}: option {name} is an integer, got {value!r}")
        _check_choice_and_range(path, spec, value)
        return value
    if kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise PayloadError(f"/{path}: option {name} is a number, got {value!r}")
        _check_choice_and_range(path, spec, value)
        return value
    if kind == BOOLEAN:
        if not isinstance(value, bool):
            raise PayloadError(f"/{path}: option {name} is a boolean, got {value!r}")
        return value
    if kind == USER:
        resolved.user(_snowflake_of(value))
        return str(_snowflake_of(value))
    if kind == CHANNEL:
        channel = _snowflake_of(value)
        resolved.channel(channel)
        types = spec.get("channel_types")
        actual = resolved.fake.channels[channel]["type"]
        if types and actual not in types:
            raise PayloadError(f"/{path}: {name} accepts channel types {types}, not {actual}")
        return str(channel)
    if kind == ROLE:
        resolved.role(_snowflake_of(value))
        return str(_snowflake_of(value))
    if kind == MENTIONABLE:
        target = _snowflake_of(value)
        if target in resolved.world.members:
            resolved.user(target)
        else:
            resolved.role(target)
        return str(target)
    if kind == ATTACHMENT:
        if not isinstance(value, Attachment):
            raise PayloadError(f"/{path}: option {name} takes a harness Attachment")
        return resolved.attachment(value, channel_id)
    raise PayloadError(f"/{path}: option type {kind} is not supported by the harness")


def command_data(
    fake: FakeDiscord,
    world: World,
    catalogue: list[dict[str, Any]],
    path: str,
    options: Mapping[str, Any],
    channel_id: int,
    *,
    focused: str | None = None,
) -> dict[str, Any]:
    """``data`` of an APPLICATION_COMMAND (or, with ``focused``, AUTOCOMPLETE) interaction."""
    top, subpath, leaf = find_command(catalogue, path)
    specs = {o["name"]: o for o in leaf.get("options") or []}
    unknown = sorted(set(options) - set(specs))
    if unknown:
        raise PayloadError(f"/{path} has no option(s) {unknown}; it has {sorted(specs)}")
    if focused is not None:
        if focused not in specs:
            raise PayloadError(f"/{path} has no option {focused!r} to autocomplete")
        if not specs[focused].get("autocomplete"):
            raise PayloadError(f"/{path}: option {focused!r} has no autocomplete")
    else:
        missing = [n for n, s in specs.items() if s.get("required") and n not in options]
        if missing:
            raise PayloadError(f"/{path} is missing required option(s) {missing}")
    resolved = _Resolved(fake, world)
    leaf_options: list[dict[str, Any]] = []
    # Discord sends options in the order the command declares them, not the order typed.
    for name, spec in specs.items():
        if name not in options:
            continue
        value = options[name]
        if name == focused:
            entry = {"type": spec["type"], "name": name, "value": str(value), "focused": True}
        else:
            entry = {
                "type": spec["type"],
                "name": name,
                "value": option_value(path, spec, value, resolved, channel_id),
            }
        leaf_options.append(entry)
    nested: list[dict[str, Any]] = leaf_options
    node = top
    chain = []
    for word in subpath:
        node = next(o for o in node["options"] if o["name"] == word)
        chain.append(node)
    for node in reversed(chain):
        nested = [{"type": node["type"], "name": node["name"], "options": nested}]
    data: dict[str, Any] = {
        "id": str(top["id"]),
        "name": top["name"],
        "type": 1,
        "options": nested,
    }
    if top.get("guild_id"):
        data["guild_id"] = str(top["guild_id"])
    if resolved.data:
        data["resolved"] = resolved.data
    return data


# ------------------------------------------------------------------ modals


def modal_submit_components(modal: Mapping[str, Any], values: Mapping[str, Any]) -> list[Any]:
    """The ``data.components`` of a MODAL_SUBMIT: the modal's inputs, filled in.

    Mirrors the nesting the bot sent (action rows or labels), which is how Discord answers.
    """
    unused = set(values)

    def fill(component: Mapping[str, Any]) -> dict[str, Any] | None:
        kind = component.get("type")
        if kind == 1:
            inner = [fill(c) for c in component.get("components", [])]
            return {"type": 1, "components": [c for c in inner if c is not None]}
        if kind == 18:
            inner_component = fill(component["component"])
            if inner_component is None:
                return None
            return {"type": 18, "id": component.get("id", 0), "component": inner_component}
        if kind == 10:
            return {"type": 10, "id": component.get("id", 0)}
        custom_id = component.get("custom_id")
        if custom_id is None:
            return None
        unused.discard(custom_id)
        value = values.get(custom_id)
        out: dict[str, Any] = {"type": kind, "id": component.get("id", 0), "custom_id": custom_id}
        if kind == 4:
            if value is None and component.get("required", True):
                raise PayloadError(f"modal input {custom_id!r} is required")
            out["value"] = value if value is not None else ""
        else:
            out["values"] = list(value or [])
        return out

    filled = [fill(c) for c in modal.get("components", [])]
    if unused:
        raise PayloadError(f"modal has no inputs {sorted(unused)}")
    return [c for c in filled if c is not None]
