"""A game in its own thread (issue 13): opened from the lobby message at the start, every later
post of the game inside it, the lobby message edited in place as the game goes, one result post
in the channel at the end and the thread archived an hour later.

The channel stays readable: it holds the lobby message and the result post of each game, and
the dozens of boards of a game stay in that game's thread. Without the permissions a thread
needs (or in a channel that cannot have threads) the game runs in the channel, as before.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Literal, TypeVar

import discord

from bot.i18n import _
from bot.read_model import ReadModel
from bot.service import GameService
from bot.store.base import ABANDONED, ACTIVE, FINISHED, Clock, GameRecord
from cogs import memory, messages, title_row, web_table
from cogs.language import in_server
from cogs.messages import Post
from cogs.retry import fresh_kwargs, retrying, transient

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The kinds under which a game's messages are remembered: its newest lobby message, and its
#: latest public post (the one a player is sent to).
LOBBY_MESSAGE = "lobby"
LATEST_POST = "board"
#: Discord's limit on a thread's name.
NAME_LIMIT = 100
#: Seconds from a game's end to its thread's archiving.
ARCHIVE_AFTER = 3600.0
#: Discord keeps an idle thread open this long (minutes) before archiving it by itself.
IDLE_ARCHIVE_MINUTES: Literal[10080] = 10080
#: The permissions a game's thread needs (their names as Discord's settings show them in the
#: player's language are Discord's own: kept in English, as Discord's API names them).
NEEDED = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)
#: Discord's code for "Missing Permissions" (with a 403).
MISSING_PERMISSIONS = 50013
#: Discord's answer to a post in an archived thread it will not unarchive by itself.
THREAD_ARCHIVED = 50083
#: Discord's answer to a new thread on a server at its cap of active threads.
TOO_MANY_THREADS = 160006
#: Discord's cap on a server's active threads, and the count of the bot's game threads from
#: which the oldest finished games' threads are archived early (settings of the module, so a
#: test can set them low).
THREAD_CAP = 1000
NEAR_CAP = 950


def thread_name(read: ReadModel) -> str:
    """ "<Game> · <id> · <players>", within Discord's 100 characters."""
    players = ", ".join(read.names.get(s.user, s.user) for s in read.record.seats)
    return messages.clip(f"{read.title} · {read.record.id} · {players}", NAME_LIMIT)


def begins(read: ReadModel) -> str:
    """The first board's headline: the game and who sits at it."""
    seated = ", ".join(read.names[s.user] for s in read.record.seats)
    return _("🎲 **{title}** begins: {players}.").format(title=read.title, players=seated)


def link(record: GameRecord) -> str:
    """A mention of the place the game is played: its thread, else its channel."""
    return f"<#{record.home}>"


def wants_thread(record: GameRecord) -> bool:
    """Whether the game is to get a thread: the host's choice at `/game new`, else the
    server's, recorded in the game's table preferences when it was opened."""
    return bool(record.prefs.get("thread", True))


def cannot_thread(channel: object, permissions: discord.Permissions) -> str | None:
    """Why a game started here stays in the channel, in a line for the host; None: it can
    have its thread. ``permissions``: the bot's in this channel."""
    if not isinstance(channel, discord.TextChannel):
        return _("this channel cannot have threads")
    for attribute, name in NEEDED:
        if not getattr(permissions, attribute):
            return missing(name)
    return None


def missing(permission: str) -> str:
    return _("I am missing the **{permission}** permission here").format(permission=permission)


def stays_here(record: GameRecord, why: str) -> str:
    return _("Game `{id}` is played here in the channel, not in a thread: {why}.").format(
        id=record.id, why=why
    )


async def open_thread(interaction: discord.Interaction, read: ReadModel) -> str | None:
    """Open the game's thread from its lobby message and record it; returns the line for the
    host when the game stays in the channel instead (None when it has its thread, or was not
    meant to have one)."""
    record, service = read.record, service_of(interaction)
    if not wants_thread(record):
        return None
    # The game's channel: a rematch may be started by a click inside the old game's thread.
    channel = interaction.client.get_channel(int(record.channel))
    if str(interaction.channel_id) == record.channel:
        permissions = interaction.app_permissions
    elif isinstance(channel, discord.abc.GuildChannel):
        permissions = channel.permissions_for(channel.guild.me)
    else:
        permissions = discord.Permissions.none()
    return await create_thread(service, read, channel, permissions)


async def create_thread(
    service: GameService, read: ReadModel, channel: object, permissions: discord.Permissions
) -> str | None:
    """Open the game's thread in ``channel`` (the bot's ``permissions`` there) and record
    it; the line for the host when the game stays in the channel. A 5xx or a 429 is tried
    again (``cogs.retry``); only a permission error keeps the game in the channel, so a
    start is whole: a thread, or the channel because a thread may not be."""
    record = read.record
    why = cannot_thread(channel, permissions)
    if why is None and isinstance(channel, discord.TextChannel):
        why = await make_room(service, channel)
    if why is not None:
        log.info("game %s stays in its channel: %s", record.id, why)
        return stays_here(record, why)
    assert isinstance(channel, discord.TextChannel)
    found = await service.message_of(record, LOBBY_MESSAGE)
    starter = discord.Object(int(found[1])) if found and found[0] == record.channel else None
    name = thread_name(read)

    async def create() -> discord.Thread:
        # Public, as one opened from a lobby message is: with no message (a tournament's
        # table, a deleted lobby), discord.py would open a private thread, which only those
        # pinged in it could see.
        public = discord.ChannelType.public_thread
        try:
            return await channel.create_thread(
                name=name, message=starter, type=public, auto_archive_duration=IDLE_ARCHIVE_MINUTES
            )
        except discord.NotFound:  # the lobby message was deleted: a thread of its own
            return await channel.create_thread(
                name=name, type=public, auto_archive_duration=IDLE_ARCHIVE_MINUTES
            )

    try:
        thread = await retrying(create)
    except discord.Forbidden as error:
        if error.code != MISSING_PERMISSIONS:
            raise
        log.info("game %s stays in its channel: creating its thread was refused", record.id)
        return stays_here(record, missing(NEEDED[0][1]))
    except discord.HTTPException as error:
        if error.code != TOO_MANY_THREADS:
            raise
        log.info("game %s stays in its channel: the server is at its thread cap", record.id)
        return stays_here(record, at_cap())
    web_table.opened(thread)
    await service.set_thread(record, str(thread.id))
    log.info("game %s: plays in thread %s", record.id, thread.id)
    return None


def at_cap() -> str:
    return _("this server has reached Discord's cap of {cap} active threads").format(
        cap=f"{THREAD_CAP:,}"
    )


async def make_room(service: GameService, channel: discord.TextChannel) -> str | None:
    """Keep the server's game threads within Discord's cap before a new one opens: from
    ``NEAR_CAP`` on, the threads of the oldest finished games are archived now rather than an
    hour after their end, and the admins are told once (in ``channel``); at ``THREAD_CAP`` the
    line saying why the new game stays in the channel (None: there is room)."""
    guild = str(channel.guild.id)
    held = await service.count_threads(guild)
    if held < NEAR_CAP:
        return None
    archived = 0
    for record in await service.finished_threads(guild, held - NEAR_CAP + 1):
        try:
            await archive(channel.guild, record)
        except discord.HTTPException:  # gone or out of reach: it is no longer ours to count
            log.info("game %s: could not archive its thread early", record.id)
        await service.archived(record)
        archived += 1
    held -= archived
    settings = await service.guild_settings(guild)
    if not settings.threads_warned:
        await service.configure(guild, threads_warned=True)
        text = _(
            "⚠️ Admins: this server's games hold {held} active threads, near Discord's cap of "
            "{cap}. I archive the threads of finished games early; at the cap, new games are "
            "played in their channel."
        ).format(held=held, cap=f"{THREAD_CAP:,}")
        await retrying(lambda: channel.send(text, allowed_mentions=messages.NO_PINGS))
    return at_cap() if held >= THREAD_CAP else None


def service_of(interaction: discord.Interaction) -> GameService:
    return interaction.client.service  # type: ignore[attr-defined]


# -- the lobby message and the result post ------------------------------------------------------


def message_url(guild: str, channel: str, message: str) -> str:
    """A link that jumps to one message."""
    return f"https://discord.com/channels/{guild}/{channel}/{message}"


def lobby_embed(read: ReadModel, result: str | None = None) -> discord.Embed:
    """The lobby message once the game has started: the seats, then where it is played, then
    a link to its result post (``result``: its URL), which alone tells the end."""
    record = read.record
    embed = messages.lobby_embed(read)
    where = link(record)
    the_game = _("The game: {place}").format(place=where)
    if record.status == ACTIVE:
        value = (
            _("In progress in {place}.").format(place=where)
            if record.thread
            else _("In progress here, below.")
        )
    elif record.status == FINISHED and result:
        value = _("Over: [the result]({url}) · the game: {place}").format(url=result, place=where)
    elif record.status == FINISHED:
        value = messages.outcome_line(read) + (f"\n{the_game}" if record.thread else "")
    elif record.status == ABANDONED and record.state is not None:
        value = _("Abandoned.") + (f" {the_game}" if record.thread else "")
    else:
        return embed
    embed.add_field(name=_("Game"), value=messages.clip(value, 1024), inline=False)
    return embed


async def edit_lobby(
    client: discord.Client, read: ReadModel, note: str | None = None, result: str | None = None
) -> str | None:
    """Edit the game's newest lobby message in place to show where the game stands (its
    buttons only while it is a lobby: it never acts on the game it became); ``note``: a line
    above it; ``result``: the URL of the result post it links. Returns the lobby message's
    URL, or None when there is none left to edit."""
    record = read.record
    found = await client.service.message_of(record, LOBBY_MESSAGE)  # type: ignore[attr-defined]
    if found is None:
        return None
    channel_id, message_id = found
    channel = client.get_partial_messageable(int(channel_id), guild_id=_guild_id(record))
    try:
        await unarchiving(
            client,
            channel_id,
            lambda: channel.get_partial_message(int(message_id)).edit(
                content=note,
                embed=lobby_embed(read, result),
                view=messages.lobby_view(read),  # the lobby's buttons while it is one, then none
                allowed_mentions=messages.NO_PINGS,
            ),
        )
    except discord.HTTPException as error:
        if transient(error):  # Discord's bad moment: the caller's delivery tries again
            raise
        log.info("game %s: its lobby message %s is gone", record.id, message_id)
        return None
    return message_url(record.guild, channel_id, message_id)


def result_post(read: ReadModel, ratings: str = "") -> Post:
    """The one post a game leaves in its channel at the end: "Game over", the scores and
    winners, the rating changes, the way to the thread (whose last post shows the final
    board: not drawn twice), the buttons (Rematch among them)."""
    record = read.record
    container: discord.ui.Container = discord.ui.Container(
        accent_colour=messages.COLOURS[record.status]
    )
    whole = _("The whole game: {place}").format(place=link(record))
    title = f"### {messages.clip(messages.title_of(read), 256)}"
    lines = [title, messages.outcome_line(read, lead=True), ratings, whole]
    container.add_item(discord.ui.TextDisplay("\n".join(line for line in lines if line)))
    container.add_item(messages.board_buttons(read))
    if (give := title_row.give_row(read)) is not None:  # issue 38: players give titles
        container.add_item(give)
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(container)
    return Post(view=layout)


async def pinging_now(client: discord.Client, game_id: str, content: Post) -> Post:
    """``content`` pinging only those of its players who want a thread ping now (their
    alerts and quiet hours, ``GameService.pings_now``): the others' names stay, unpinged."""
    if not content.pings:
        return content
    keep = await service_of_client(client).pings_now(game_id, content.pings)
    return content if keep == content.pings else dataclasses.replace(content, pings=keep)


def service_of_client(client: discord.Client) -> GameService:
    return client.service  # type: ignore[attr-defined]


async def post(
    client: discord.Client, record: GameRecord | Clock, content: Post
) -> discord.Message:
    """Send a post where the game is played (its thread, else its channel), not as an answer
    to an interaction."""
    content = await pinging_now(client, record.id, content)
    channel = client.get_partial_messageable(int(record.home), guild_id=_guild_id(record))
    again = fresh_kwargs(content)  # Discord's bad moments are tried again (``cogs.retry``)
    return await unarchiving(client, record.home, lambda: channel.send(**again()))


async def unarchiving(
    client: discord.Client, channel_id: str | int, call: Callable[[], Awaitable[T]]
) -> T:
    """``call()`` (a post or an edit in channel ``channel_id``), tried again through Discord's
    bad moments; refused because the channel is an archived thread (50083: Discord reopens
    a thread for a post only when it is not locked, and never for an edit), the thread is
    reopened and ``call()`` made again. So an old post in an archived thread loses its live
    buttons too, instead of keeping them for good."""
    try:
        return await retrying(call)
    except discord.HTTPException as error:
        if error.code != THREAD_ARCHIVED:
            raise
    log.info("unarchiving thread %s to post or edit in it", channel_id)
    await retrying(lambda: client.http.edit_channel(int(channel_id), archived=False))
    return await retrying(call)


async def finish(client: discord.Client, read: ReadModel) -> None:
    """After the final board: for a game played in a thread, the channel gets the result post
    and the lobby message links it; the thread is archived an hour later. Both are public: in
    the server's language."""
    record, service = read.record, client.service  # type: ignore[attr-defined]
    async with in_server(client, record.guild):
        result = None
        if record.thread is not None and record.status == FINISHED:
            channel = client.get_partial_messageable(
                int(record.channel), guild_id=_guild_id(record)
            )
            ratings = memory.rating_line(await service.results.of_game(record.id), read.names)
            again = fresh_kwargs(result_post(read, ratings))
            sent = await retrying(lambda: channel.send(**again()))
            result = message_url(record.guild, record.channel, str(sent.id))
        await edit_lobby(client, read, result=result)
        if record.thread is None:
            return
    await service.archive_later(record, ARCHIVE_AFTER)


async def archive(where: discord.Client | discord.Guild, record: GameRecord) -> None:
    """Archive a finished game's thread (the scheduler's job, an hour after the end; earlier
    near the server's thread cap, ``make_room``)."""
    assert record.thread is not None
    found = (
        where.get_channel_or_thread(int(record.thread))
        if isinstance(where, discord.Guild)
        else where.get_channel(int(record.thread))
    )
    thread = found if found is not None else await where.fetch_channel(int(record.thread))
    if isinstance(thread, discord.Thread) and not thread.archived:
        await thread.edit(archived=True)
    log.info("game %s: archived its thread %s", record.id, record.thread)


def _guild_id(record: GameRecord | Clock) -> int | None:
    return int(record.guild) if record.guild.isdigit() else None
