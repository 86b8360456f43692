"""The people, places and messages of the fake Discord, as plain data tests can build and read."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

DISCORD_EPOCH_MS = 1420070400000

# What an ordinary member may do in a text channel: enough to use slash commands and see embeds.
DEFAULT_MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    read_message_history=True,
    use_application_commands=True,
)

# What the bot's managed role grants: posting boards, threads and cleaning up its own messages.
DEFAULT_BOT_PERMISSIONS = DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(
    manage_messages=True,
    manage_threads=True,
    create_private_threads=True,
)


class SnowflakeFactory:
    """Makes increasing snowflakes stamped with the current time.

    Real timestamps matter: discord.py compares snowflake times (e.g. to pick the message-delete
    rate-limit bucket), and ordering by id must follow creation order like on Discord.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0
        self._counter = itertools.count()

    def __call__(self) -> int:
        with self._lock:
            stamp = int(time.time() * 1000) - DISCORD_EPOCH_MS
            value = max((stamp << 22) | (next(self._counter) & 0xFFF), self._last + 1)
            self._last = value
            return value


def _permissions_value(perms: discord.Permissions | int) -> int:
    return perms.value if isinstance(perms, discord.Permissions) else int(perms)


@dataclass(frozen=True)
class User:
    """A guild member who can run commands and click buttons.

    ``permissions`` are the member's permissions in every channel (the harness gives each member
    a role carrying them); they reach the bot as ``member.permissions`` on each interaction.
    """

    id: int
    name: str
    global_name: str | None = None
    permissions: discord.Permissions | int = DEFAULT_MEMBER_PERMISSIONS
    bot: bool = False
    locale: str = "en-US"
    nick: str | None = None

    @property
    def permissions_value(self) -> int:
        """The permission bits; administrators get every bit, as Discord computes it."""
        value = _permissions_value(self.permissions)
        if value & discord.Permissions(administrator=True).value:
            return discord.Permissions.all().value
        return value

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_json(self) -> dict[str, Any]:
        """The user object exactly as Discord's v10 gateway and REST API send it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "flags": 0,
            "collectibles": None,
            "display_name_styles": None,
            "primary_guild": None,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass(frozen=True)
class Channel:
    """A guild channel. ``type`` 0 is a text channel; 11/12 are public/private threads."""

    id: int
    name: str
    type: int = 0
    parent_id: int | None = None
    topic: str | None = None
    position: int = 0
    #: Permission overwrites of a channel: (role or member id, 0 role / 1 member, allow, deny).
    overwrites: tuple[tuple[int, int, int, int], ...] = ()
    #: The members of a private thread (type 12), besides the bot.
    thread_members: tuple[int, ...] = ()

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_json(self, guild_id: int, *, owner_id: int | None = None) -> dict[str, Any]:
        """The channel object as it appears in GUILD_CREATE (threads carry thread metadata)."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(guild_id),
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(owner_id) if owner_id else None,
                member_count=1,
                message_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": "2025-01-01T00:00:00+00:00",
                    "locked": False,
                    "invitable": True,
                    "create_timestamp": "2025-01-01T00:00:00+00:00",
                },
            )
        else:
            data.update(
                position=self.position,
                permission_overwrites=[
                    {"id": str(i), "type": kind, "allow": str(allow), "deny": str(deny)}
                    for i, kind, allow, deny in self.overwrites
                ],
                nsfw=False,
                topic=self.topic,
                default_thread_rate_limit_per_user=0,
            )
        return data


@dataclass(frozen=True)
class Attachment:
    """A file a user attaches to an ATTACHMENT command option."""

    filename: str
    data: bytes
    content_type: str = "application/octet-stream"


@dataclass(frozen=True)
class ComponentInfo:
    """One interactive component (button or select) flattened out of a message's rows."""

    type: int
    custom_id: str | None
    label: str | None = None
    style: int | None = None
    disabled: bool = False
    url: str | None = None
    emoji: str | None = None
    placeholder: str | None = None
    options: tuple[dict[str, Any], ...] = ()
    min_values: int | None = None
    max_values: int | None = None
    row: int = 0

    @property
    def is_button(self) -> bool:
        return self.type == 2

    @property
    def is_select(self) -> bool:
        return self.type in (3, 5, 6, 7, 8)

    @property
    def option_values(self) -> list[str]:
        return [o["value"] for o in self.options]

    @property
    def option_labels(self) -> list[str]:
        return [o["label"] for o in self.options]


def _emoji_text(emoji: Mapping[str, Any] | None) -> str | None:
    if not emoji:
        return None
    return emoji.get("name") or (str(emoji["id"]) if emoji.get("id") else None)


def flatten_components(components: Iterable[Mapping[str, Any]]) -> list[ComponentInfo]:
    """Every button and select in a component tree (action rows, sections, containers, labels)."""
    found: list[ComponentInfo] = []

    def walk(items: Iterable[Mapping[str, Any]], row: int | None) -> None:
        for index, item in enumerate(items):
            here = index if row is None else row
            kind = item.get("type")
            if kind == 2:
                found.append(
                    ComponentInfo(
                        type=2,
                        custom_id=item.get("custom_id"),
                        label=item.get("label"),
                        style=item.get("style"),
                        disabled=bool(item.get("disabled", False)),
                        url=item.get("url"),
                        emoji=_emoji_text(item.get("emoji")),
                        row=here,
                    )
                )
            elif kind in (3, 5, 6, 7, 8):
                found.append(
                    ComponentInfo(
                        type=kind,
                        custom_id=item.get("custom_id"),
                        disabled=bool(item.get("disabled", False)),
                        placeholder=item.get("placeholder"),
                        options=tuple(item.get("options") or ()),
                        min_values=item.get("min_values"),
                        max_values=item.get("max_values"),
                        row=here,
                    )
                )
            if item.get("components"):
                walk(item["components"], here)
            if item.get("accessory"):
                walk([item["accessory"]], here)
            if item.get("component"):
                walk([item["component"]], here)

    walk(components, None)
    return found


def embed_text(embed: Mapping[str, Any]) -> str:
    """All words a reader sees in one embed, in reading order."""
    parts: list[str] = []
    if embed.get("author", {}).get("name"):
        parts.append(embed["author"]["name"])
    for key in ("title", "description"):
        if embed.get(key):
            parts.append(embed[key])
    for f in embed.get("fields") or ():
        parts.extend([f.get("name", ""), f.get("value", "")])
    if embed.get("footer", {}).get("text"):
        parts.append(embed["footer"]["text"])
    return "\n".join(parts)


def components_text(components: Iterable[Mapping[str, Any]]) -> list[str]:
    """Text of components-v2 text displays, which a reader sees like content, in tree order
    (inside containers and sections too)."""
    parts: list[str] = []
    for item in components:
        if item.get("type") == 10 and item.get("content"):
            parts.append(item["content"])
        if item.get("components"):
            parts.extend(components_text(item["components"]))
    return parts


def media_urls(components: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every picture or file a components-v2 tree shows, in reading order: media gallery
    items, section thumbnails and file components."""
    urls: list[str] = []
    for item in components:
        kind = item.get("type")
        if kind == 12:
            urls.extend(str(entry["media"]["url"]) for entry in item.get("items") or ())
        elif kind in (11, 13):
            urls.append(str((item.get("media") or item.get("file") or {}).get("url") or ""))
        if item.get("components"):
            urls.extend(media_urls(item["components"]))
        if item.get("accessory"):
            urls.extend(media_urls([item["accessory"]]))
    return urls


@dataclass(frozen=True)
class SeenMessage:
    """A snapshot of one message as a user sees it: text, embeds, buttons and attached files.

    Snapshots do not change; ask the harness (``harness.message(id)``) for the current state.
    ``files`` maps each attachment's filename to its bytes.
    """

    id: int
    channel_id: int
    ephemeral: bool
    content: str
    embeds: tuple[dict[str, Any], ...]
    components: tuple[dict[str, Any], ...]
    files: dict[str, bytes]
    flags: int
    raw: dict[str, Any] = field(repr=False)
    deleted: bool = False
    loading: bool = False
    visible_to: int | None = None

    @property
    def buttons(self) -> list[ComponentInfo]:
        return [c for c in flatten_components(self.components) if c.is_button]

    @property
    def selects(self) -> list[ComponentInfo]:
        return [c for c in flatten_components(self.components) if c.is_select]

    @property
    def mentions(self) -> list[int]:
        """Ids of the users this message pinged (after allowed_mentions)."""
        return [int(u["id"]) for u in self.raw.get("mentions", [])]

    @property
    def attachment_names(self) -> list[str]:
        return list(self.files)

    @property
    def alt_text(self) -> str:
        """What a screen reader reads for the message's attached pictures: each one's
        description (alt text), joined by newlines."""
        found = [str(a.get("description") or "") for a in self.raw.get("attachments", [])]
        return "\n".join(text for text in found if text)

    def text(self) -> str:
        """Content, components-v2 text and every embed's text, joined by newlines."""
        parts = [self.content] if self.content else []
        parts.extend(components_text(self.components))
        parts.extend(embed_text(e) for e in self.embeds)
        return "\n".join(p for p in parts if p)

    def button(self, label: str | None = None, *, custom_id: str | None = None) -> ComponentInfo:
        return find_button(self, label=label, custom_id=custom_id)

    def select(self, custom_id: str | None = None) -> ComponentInfo:
        return find_select(self, custom_id=custom_id)

    @property
    def heading(self) -> str:
        """The title a reader sees first: the first embed's title, or a components-v2
        message's first line, without its markdown heading marks."""
        if self.embeds:
            return str(self.embeds[0].get("title") or "")
        texts = components_text(self.components)
        return texts[0].split("\n", 1)[0].lstrip("#").strip() if texts else ""

    def _file_at(self, url: str) -> str | None:
        """The attached filename a media URL shows (an ``attachment://`` reference or the
        attachment's CDN URL, as Discord returns it)."""
        for attachment in self.raw.get("attachments", []):
            if url in (attachment.get("url"), f"attachment://{attachment['filename']}"):
                return str(attachment["filename"])
        return None

    @property
    def gallery(self) -> list[str | None]:
        """The attached files a components-v2 message shows, in order (its media galleries,
        thumbnails and file components); a URL to no attached file shows as ``None``."""
        return [self._file_at(url) for url in media_urls(self.components)]

    def image(self, index: int = 0) -> bytes | None:
        """The bytes of the ``index``-th picture the message shows: an embed's image, or a
        components-v2 message's ``index``-th gallery picture."""
        if self.embeds:
            return self.embed_image(index)
        shown = self.gallery
        name = shown[index] if index < len(shown) else None
        return self.files.get(name) if name else None

    def embed_image(self, index: int = 0) -> bytes | None:
        """The bytes behind embed ``index``'s image, resolved through the message's attachments."""
        if index >= len(self.embeds):
            return None
        url = (self.embeds[index].get("image") or {}).get("url")
        name = self._file_at(url) if url else None
        return self.files.get(name) if name else None


def _match_prefix(value: str | None, wanted: str | None) -> bool:
    if wanted is None:
        return True
    return value == wanted or (wanted.endswith("*") and (value or "").startswith(wanted[:-1]))


def find_button(
    message: SeenMessage, label: str | None = None, *, custom_id: str | None = None
) -> ComponentInfo:
    """The one button with this label (and/or custom id; a trailing ``*`` matches a prefix).

    Raises ``LookupError`` listing what the message does have, so a failing test says why.
    """
    matches = [
        b
        for b in message.buttons
        if (label is None or b.label == label) and _match_prefix(b.custom_id, custom_id)
    ]
    if len(matches) != 1:
        have = [(b.label, b.custom_id) for b in message.buttons]
        raise LookupError(
            f"{len(matches)} buttons match label={label!r} custom_id={custom_id!r}; "
            f"message {message.id} has {have}"
        )
    return matches[0]


def find_select(message: SeenMessage, custom_id: str | None = None) -> ComponentInfo:
    """The one select menu (optionally with this custom id or ``prefix*``) on the message."""
    matches = [s for s in message.selects if _match_prefix(s.custom_id, custom_id)]
    if len(matches) != 1:
        have = [s.custom_id for s in message.selects]
        raise LookupError(f"{len(matches)} selects match {custom_id!r}; message has {have}")
    return matches[0]
