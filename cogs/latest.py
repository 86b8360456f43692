"""A game's latest post, and the post it replaces: only the newest keeps its buttons.

A player scrolling a thread on a phone meets many old boards. Each used to keep a live **My
hand** (and a question button, **Board**, **Rules**), so an old post looked as current as the
new one, and every row of buttons took a phone's height for nothing: a click there only ever
led to the current game, which the newest post shows. When a newer post replaces it, the older
one is edited to keep what it told (its text and pictures) and to lose the game's buttons.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.store.base import GameRecord
from cogs.items import parse
from cogs.threads import LATEST_POST, unarchiving

log = logging.getLogger(__name__)

#: The verbs of a board post's buttons (My hand and a question, Board, Rules): an old post
#: loses them.
LIVE_VERBS = frozenset({"hand", "board", "rules"})
ACTION_ROW, BUTTON = 1, 2


def without_live_buttons(components: list[dict[str, Any]]) -> bool:
    """Drop, in place, the buttons that open a move from a message's components (action rows
    left empty go too); whether anything was dropped."""
    dropped = False
    for component in list(components):
        children = component.get("components")
        if component.get("type") == ACTION_ROW and children is not None:
            kept = [c for c in children if not is_live(c)]
            dropped |= len(kept) != len(children)
            component["components"] = kept
            if not kept:
                components.remove(component)
        elif children is not None:
            dropped |= without_live_buttons(children)
    return dropped


def is_live(component: dict[str, Any]) -> bool:
    click = parse(str(component.get("custom_id", ""))) if component.get("type") == BUTTON else None
    return click is not None and click.verb in LIVE_VERBS


def as_attachments(components: list[dict[str, Any]], files: dict[str, str]) -> None:
    """Point each picture of fetched components back at its attachment (Discord answers
    with CDN URLs; an edit names the files it keeps)."""
    for component in components:
        for item in component.get("items") or ():
            media = item.get("media") or {}
            name = files.get(str(media.get("url")))
            if name is not None:
                item["media"] = {"url": f"attachment://{name}"}
        as_attachments(component.get("components") or [], files)


async def retire(client: discord.Client, channel_id: str, message_id: str) -> None:
    """Edit an older post of a game so it keeps what it told and loses the game's buttons. A
    post gone meanwhile, or an edit refused, leaves it as it was (it is only tidier)."""
    http = client.http
    try:
        raw = await http.get_message(int(channel_id), int(message_id))
        components: list[dict[str, Any]] = list(raw.get("components") or [])  # type: ignore[arg-type]
        if not without_live_buttons(components):
            return
        files = {str(a.get("url")): str(a.get("filename")) for a in raw.get("attachments", [])}
        as_attachments(components, files)
        route = discord.http.Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=int(channel_id),
            message_id=int(message_id),
        )
        # The same mentions as it had (an edit notifies nobody; Discord re-reads them).
        pinged = [str(user["id"]) for user in raw.get("mentions", [])]
        payload = {
            "components": components,
            "flags": raw.get("flags", 0),
            "allowed_mentions": {"parse": [], "users": pinged},
        }
        await unarchiving(client, channel_id, lambda: http.request(route, json=payload))
    except discord.HTTPException as error:
        log.info("could not retire the buttons of message %s: %s", message_id, error)


async def retire_latest(client: discord.Client, record: GameRecord) -> None:
    """A new post of the game is about to replace its latest: retire that one's buttons
    first (the new post then reads as the only live one from its first moment)."""
    before = await client.service.message_of(record, LATEST_POST)  # type: ignore[attr-defined]
    if before is not None:
        await retire(client, *before)


async def remember_latest(
    client: discord.Client, record: GameRecord, message: discord.Message | None
) -> None:
    """``message`` is the game's latest post now (the one a player is sent to)."""
    if message is not None:
        await client.service.remember_message(  # type: ignore[attr-defined]
            record, LATEST_POST, str(message.channel.id), str(message.id)
        )
