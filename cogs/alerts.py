"""A player's own alerts, sent (issue 27; the choices and their rules are ``bot.alerts``).

The delivery worker sends each alert row the service wrote with a change (``bot.outbox``
``ALERT``): a direct message that says which game, what is asked and by when, with a link to
the post, or a thread ping that waited for the player's quiet hours to end. Discord refuses a
DM to someone who does not take DMs from the server's members (50007): their alerts then go
back to the thread ping, and the thread says so once.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import alerts
from bot.i18n import _, _n
from bot.read_model import ReadModel
from bot.service import GameService
from bot.store.base import ACTIVE, GameRecord, GameSummary
from cogs import activity, messages, threads, visibility
from cogs.messages import Post
from cogs.retry import retrying

log = logging.getLogger(__name__)

#: Discord's code for "Cannot send messages to this user".
DM_REFUSED = 50007


def service_of(client: discord.Client) -> GameService:
    return client.service  # type: ignore[attr-defined]


def asked(read: ReadModel) -> str:
    """What the game asks of the player it waits for, in a few words."""
    return messages.question_of(read) or _("your move")


def deadline_of(record: GameRecord | GameSummary, user: str) -> float | None:
    """When ``user``'s time for the decision they owe runs out (their seat's clock)."""
    clock = record.clocks.get(user)
    return clock[1] if clock else record.deadline


def lapses(when: float | None) -> str:
    """When a decision lapses, as Discord shows a time to each reader ("in 3 hours"), after
    a separator; nothing without a deadline."""
    return "" if when is None else " · " + _("lapses {when}").format(when=f"<t:{int(when)}:R>")


async def dm_text(client: discord.Client, read: ReadModel, user: str, reminder: bool) -> str:
    """The DM: which game (and server), what is asked, when it lapses, and a link to the
    post where it is played."""
    record = read.record
    found = await service_of(client).message_of(record, threads.LATEST_POST)
    where = threads.message_url(record.guild, *found) if found else f"<#{record.home}>"
    guild = client.get_guild(int(record.guild)) if record.guild.isdigit() else None
    lead = _("⏰ Reminder:") if reminder else "🎲"
    text = _("{lead} **{title}** `{id}` on {server}: {asked}.").format(
        lead=lead,
        title=read.title,
        id=record.id,
        server=guild.name if guild is not None else _("a server"),
        asked=asked(read),
    )
    due = deadline_of(record, user)
    if due is not None:
        text += " " + _("It lapses {when}.").format(when=f"<t:{int(due)}:R>")
    return f"{text}\n" + _("To the game: {link}").format(link=where)


async def thread_ping(client: discord.Client, read: ReadModel, user: str) -> discord.Message:
    """A ping in the game's thread that the player's quiet hours held back."""
    text = _("{mention} 🎲 {title} `{id}`: {asked}.").format(
        mention=messages.mention(user) or user,
        title=read.title,
        id=read.record.id,
        asked=asked(read),
    )
    view = activity.add_play(None, read.record)  # issue 40
    return await threads.post(client, read.record, Post(content=text, pings=[user], view=view))


async def deliver(
    client: discord.Client, read: ReadModel, payload: dict[str, Any]
) -> discord.Message | None:
    """An alert row of the outbox: a daily digest, or one decision's alert (unless it has
    passed)."""
    if payload.get("mode") == alerts.DIGEST:
        return await digest(client, read, payload["user"])
    if alerts.stale(payload, read.record.clocks):
        return None
    return await send(client, read, payload["user"])


#: A DM's length that Discord accepts.
DM_LIMIT = 2000


async def digest(client: discord.Client, anchor: ReadModel, user: str) -> discord.Message | None:
    """The daily digest: every game of theirs waiting for ``user`` that they chose the digest
    for (on every server, in channels they may still view), the least time left first;
    nothing if none waits."""
    service = service_of(client)
    members: dict[str, object] = {}
    lines = []
    for record in await service.digest_of(user, await service.alert_prefs(user)):
        if not await visibility.sees(client, user, record, members):
            continue
        read = service.read(record)
        found = await service.message_of(record, threads.LATEST_POST)
        link = threads.message_url(record.guild, *found) if found else f"<#{record.home}>"
        when = lapses(deadline_of(record, user))
        lines.append(f"- **{read.title}** `{record.id}`: {asked(read)}{when} · {link}")
    if not lines:
        return None
    head = _n(
        "🗞️ Your daily digest: {n} game waits for you.",
        "🗞️ Your daily digest: {n} games wait for you.",
        len(lines),
    ).format(n=len(lines))
    text = messages.clip("\n".join([head, *lines]), DM_LIMIT)
    return await dm(client, anchor, user, text)


async def send(
    client: discord.Client, read: ReadModel, user: str, *, reminder: bool = False
) -> discord.Message | None:
    """Tell ``user`` that ``read``'s game waits for them, as they chose now (a choice made
    since the alert was written counts); nothing if it waits for them no more."""
    record, service = read.record, service_of(client)
    if record.status != ACTIVE or user not in read.to_move:
        return None
    mode = alerts.mode_of(await service.alert_prefs(user), record.id)
    if mode == alerts.THREAD:
        return await thread_ping(client, read, user)
    if mode != alerts.DM:
        return None
    return await dm(client, read, user, await dm_text(client, read, user, reminder))


async def dm(
    client: discord.Client, read: ReadModel, user: str, text: str
) -> discord.Message | None:
    """Send ``user`` a DM about ``read``'s game; if Discord refuses it (50007), their alerts
    go back to the thread ping and that game's thread says so, once."""
    record, service = read.record, service_of(client)
    try:
        person = client.get_user(int(user)) or await client.fetch_user(int(user))
        view = activity.add_play(None, record)  # issue 40: in a DM, Play gives the web link
        return await retrying(
            lambda: person.send(text, view=view, allowed_mentions=messages.NO_PINGS)
        )
    except discord.Forbidden as error:
        if error.code != DM_REFUSED:
            raise
    # No user id in the log: a player's choices are theirs (docs/privacy.md, log lines).
    log.info("game %s: a player takes no DMs; their alerts are back in the thread", record.id)
    if not await service.dm_refused(user):
        return await thread_ping(client, read, user)
    note = _(
        "{mention} I cannot send you direct messages (Discord refused), so your alerts come "
        "here as pings again — `/game notify` to choose again.\n🎲 {title} `{id}`: {asked}."
    ).format(
        mention=messages.mention(user) or user,
        title=read.title,
        id=record.id,
        asked=asked(read),
    )
    return await threads.post(client, record, Post(content=note, pings=[user]))
