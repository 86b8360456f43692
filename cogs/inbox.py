"""The inbox (issue 13): `/game mine` (every game you sit in, on every server you share with
the bot, in a DM with it too (issue 27): your moves first, the least time left first, then the
games that wait for others; what is asked, when it lapses, a link to its latest post) and
`/game list` (this channel's games, or the server's), answered privately, 25 games a page,
with buttons to page on.

A page button holds only its scope and page in its custom id, ``i:<scope>:<page>``, and reads
the list again when clicked, so it works after a restart and shows the games as they are. A
`/game list` page is read by a key, not an offset (page 40 costs what page 1 does): its buttons
also hold the key of the game they page from, ``i:<scope>:<page>:<a|b>:<updated>:<id>`` (``a``:
the games after it, for Next; ``b``: the games before it, for Previous).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import visibility
from bot.errors import ServiceError
from bot.i18n import N_, _
from bot.service import GameService
from bot.store.base import ACTIVE, LOBBY, GameRecord, GameSummary, PageKey, page_key
from bot.words import WORDS
from cogs import activity, flows, messages
from cogs.alerts import deadline_of, lapses
from cogs.messages import Post
from cogs.threads import LATEST_POST, LOBBY_MESSAGE

log = logging.getLogger(__name__)

#: Games on one page: a select's or an embed's comfortable count.
PAGE_SIZE = 25
#: Play buttons a `/game mine` page carries at most: the first games waiting for your move.
PLAY_BUTTONS = 3
#: A line of a list, link included; 25 of them stay within an embed's 4096 characters.
LINE_LIMIT = 160
MINE, HERE, SERVER = "mine", "here", "server"
PAGE_TEMPLATE = (
    rf"i:(?P<scope>{MINE}|{HERE}|{SERVER}):(?P<page>[0-9]{{1,4}})"
    r"(?::(?P<side>[ab]):(?P<at>[0-9.e+-]{1,32}):(?P<id>[^:]{1,40}))?"
)
#: Where a list page starts: after (``a``) or before (``b``) a game's ``page_key``.
Cursor = tuple[str, PageKey]
TITLES = {
    MINE: N_("Your games"),
    HERE: N_("Games in this channel"),
    SERVER: N_("Games on this server"),
}
EMPTY = {
    MINE: N_("You sit in no game — open one with `/game new` on a server."),
    HERE: N_("No games in this channel yet — open one with `/game new`."),
    SERVER: N_("No games on this server yet — open one with `/game new`."),
}


NEEDS_ATTENTION = N_("⚠️ needs attention: its saved state does not load")


def waited(seconds: float) -> str:
    """A rough age: 4m, 3h, 2d."""
    minutes = max(0, int(seconds // 60))
    if minutes < 60:
        return _("{n}m").format(n=minutes)
    hours = minutes // 60
    return _("{n}h").format(n=hours) if hours < 48 else _("{n}d").format(n=hours // 24)


def jump_url(guild: str, channel: str, message: str) -> str:
    return f"https://discord.com/channels/{guild}/{channel}/{message}"


def whose_move(listed: GameSummary, seats: int) -> str:
    """Who the game waits for, in a few words (``seats``: the most a lobby seats), from the
    stored seats to move: no state is loaded to list a game."""
    if listed.status != ACTIVE:
        return _("lobby, {seated}/{seats} seated").format(seated=len(listed.seats), seats=seats)
    names_of = {seat.user: seat.name or seat.user for seat in listed.seats}
    names = ", ".join(names_of.get(p, p) for p in listed.to_move[:3])
    return _("waiting for {names}").format(names=names) if names else _("AI seats at work")


def readable(service: GameService, listed: GameSummary) -> tuple[str, str]:
    """(its title, what a line says of it) for a list; a game of a type this bot does not
    know is listed with what can be said of it, and never stops the list."""
    try:
        return service.title(listed), whose_move(listed, service.seat_range(listed)[1])
    except ServiceError:
        return service.title(listed), messages.status_word(listed.status)


def line_of(record: GameSummary, post: tuple[str, str] | None, words: str, tail: str = "") -> str:
    """A list's line: the id linking the latest post (where the game is played), ``words``
    cut to fit, then ``tail``; never a cut link or time, which a cut would break."""
    if post:
        head = f"[`{record.id}`]({jump_url(record.guild, *post)})"
    else:
        head = f"`{record.id}` · <#{record.home}>"
    return head + messages.clip(words, max(1, LINE_LIMIT - len(head) - len(tail))) + tail


def inbox_line(service: GameService, listed: GameSummary, post: tuple[str, str] | None) -> str:
    """One game of a list: id, title, where it is played, whose move, how long it has waited
    and a link to its latest post."""
    title, state = readable(service, listed)
    age = waited(time.time() - listed.updated_at)
    return line_of(listed, post, f" · {title} · {state} · {age}")


def my_move(service: GameService, listed: GameSummary, user: str) -> bool:
    """Whether the game waits for ``user``'s decision (the stored seats to move), in a game
    this bot can play."""
    return listed.status == ACTIVE and user in listed.to_move and listed.game in service.games


def mine_rank(service: GameService, listed: GameSummary, user: str) -> tuple[int, float]:
    """Where a game sorts in `/game mine`: the player's own moves first, the least time left
    first; then the games waiting for others, the longest waiting first; then the lobbies."""
    if my_move(service, listed, user):
        due = deadline_of(listed, user)
        return (0, due if due is not None else float("inf"))
    return (1 if listed.status == ACTIVE else 2, listed.updated_at)


def asked_of(service: GameService, record: GameRecord | None) -> str:
    """What a game waiting for its reader asks, in bold: its question if its words name one,
    else "your move"; a game that does not load says so, and never stops the list."""
    if record is None:
        return f"**{_('your move')}**"
    try:
        return f"**{messages.question_of(service.read(record)) or _('your move')}**"
    except Exception as error:
        log.warning("game %s: its snapshot does not load (%r); listed as such", record.id, error)
        return _(NEEDS_ATTENTION)


def mine_line(
    service: GameService,
    listed: GameSummary,
    post: tuple[str, str] | None,
    user: str,
    record: GameRecord | None = None,
) -> str:
    """One game of `/game mine`: what is asked and when it lapses. ``record``: the game read
    whole, for a game waiting for ``user`` whose words may ask a question."""
    title, state = readable(service, listed)
    mine = my_move(service, listed, user)
    if mine:
        state = asked_of(service, record)
    due = deadline_of(listed, user) if mine else listed.deadline
    tail = lapses(due if listed.status == ACTIVE else None)
    return line_of(listed, post, f" · {title} · {state}", tail)


def asks(listed: GameSummary) -> bool:
    """Whether a game's words may ask a question of the player to move (its line then needs
    the game's state; a plain "your move" needs nothing more than the listing)."""
    return getattr(WORDS.get(listed.game), "question", None) is not None


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_TEMPLATE):
    """◀ / ▶ on a list: shows page ``page`` of ``scope`` in place of the clicked one."""

    def __init__(
        self, button: discord.ui.Button, scope: str, page: int, cursor: Cursor | None = None
    ) -> None:
        super().__init__(button)
        self.scope, self.page, self.cursor = scope, page, cursor

    @classmethod
    def make(cls, scope: str, page: int, label: str, cursor: Cursor | None = None) -> PageButton:
        custom_id = f"i:{scope}:{page}"
        if cursor is not None:
            side, (at, game_id) = cursor
            custom_id += f":{side}:{at!r}:{game_id}"
        button: discord.ui.Button = discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id
        )
        return cls(button, scope, page, cursor)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        assert isinstance(item, discord.ui.Button)  # the template only matches our buttons
        cursor = None
        if match["side"]:
            try:
                cursor = (match["side"], (float(match["at"]), match["id"]))
            except ValueError:  # not a number after all: the list from its start
                cursor = None
        return cls(item, match["scope"], int(match["page"]), cursor)

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows.guard(interaction, show(interaction, self.scope, self.page, self.cursor))


DYNAMIC_ITEMS = (PageButton,)


async def show(
    interaction: discord.Interaction, scope: str, page: int = 0, cursor: Cursor | None = None
) -> None:
    """Answer a list command privately, or put the next page in place of a clicked one."""
    guild, channel, user = flows.where(interaction)
    clicked = interaction.type == discord.InteractionType.component
    # A click updates its own private message; a command thinks privately.
    await flows.acknowledge(interaction, private=not clicked)
    service = flows.service_of(interaction)
    post = await inbox_post(service, guild, channel, user, scope, page, cursor)
    if scope == HERE and page == 0:
        warnings = await set_aside(service, guild, channel, user)
        post.content = "\n".join([*warnings, post.content or ""]).strip() or None
    if clicked:
        await flows.update(interaction, content=post.content, embed=post.embed, view=post.view)
    else:
        await flows.send(interaction, post, ephemeral=True)


async def set_aside(service: GameService, guild: str, channel: str, host: str) -> list[str]:
    """A line for each game of this channel hosted by ``host`` that could not be loaded and is
    set aside (its row or log is damaged), so the host learns of it and what to do."""
    lines = []
    for found in await service.store.needing_attention(guild, channel):
        if found.host != host:
            continue
        title = service.games[found.game].title if found.game in service.games else found.game
        lines.append(
            _(
                "⚠️ Game `{id}` ({title}) could not be loaded and is set aside ({reason}). An "
                "admin can restore a backup (README, Backups); the other games here go on."
            ).format(
                id=found.id,
                title=messages.clip(title, 40),
                reason=messages.clip(found.reason, 120),
            )
        )
    return lines


#: Games read from the store at a time while looking for the ones a member may see.
CHUNK = 100


async def visible_slice(
    fetch: Callable[[int, int], Awaitable[list[GameSummary]]], start: int, count: int
) -> list[GameSummary]:
    """``count`` games from the ``start``-th on, counting only those the asker may see
    (``bot.visibility``): pages, numbers and the Next button never count a hidden game."""
    seen: list[GameSummary] = []
    raw = 0
    while len(seen) < start + count:
        batch = await fetch(CHUNK, raw)
        seen += await visibility.visible(batch)
        raw += len(batch)
        if len(batch) < CHUNK:
            break
    return seen[start : start + count]


#: The most games `/game mine` reads for one player (over every server): its order needs
#: each game's seats to move and clocks, so their summaries are sorted in memory; far above
#: what the seat limits let one hold.
MINE_MOST = 250


async def latest_of(service: GameService, shown: list[GameSummary]) -> dict[str, tuple[str, str]]:
    """The post each game's line links: its latest board, else its lobby message."""
    lobbies = await service.latest_posts([r for r in shown if r.status == LOBBY], LOBBY_MESSAGE)
    return {**lobbies, **await service.latest_posts(shown, LATEST_POST)}


async def visible_after(
    service: GameService, guild: str, channel: str | None, key: PageKey | None, count: int
) -> list[GameSummary]:
    """The first ``count`` open games after ``key`` (``Store.games_in_guild``'s order) that the
    asker may see, read ``count`` at a time by key (one read, unless some are hidden from
    them): a hidden game is never counted."""
    seen: list[GameSummary] = []
    while len(seen) < count:
        batch = await service.games_in_guild(guild, channel, limit=count, after=key)
        seen += await visibility.visible(batch)
        if len(batch) < count:
            break
        key = page_key(batch[-1])
    return seen[:count]


async def visible_before(
    service: GameService, guild: str, channel: str | None, key: PageKey | None, count: int
) -> list[GameSummary]:
    """The last ``count`` open games before ``key`` that the asker may see, in list order."""
    seen: list[GameSummary] = []
    while len(seen) < count:
        batch = await service.games_in_guild(guild, channel, limit=count, before=key)
        seen = await visibility.visible(batch) + seen
        if len(batch) < count:
            break
        key = page_key(batch[0])
    return seen[-count:]


async def inbox_post(
    service: GameService,
    guild: str,
    channel: str,
    user: str,
    scope: str,
    page: int,
    cursor: Cursor | None = None,
) -> Post:
    """One page of a list, with buttons to the pages beside it."""
    if scope != MINE and cursor is None:
        page = 0  # a list page is found by its key: without one (an old button), the first
    offset = page * PAGE_SIZE
    playable: list[GameSummary] = []  # issue 40: Play on the first games waiting for you
    if scope == MINE:

        async def fetch(limit: int, start: int) -> list[GameSummary]:
            # every server's: the visibility gate keeps what they may see
            return await service.games_of_player(None, user, limit=limit, offset=start)

        # sorted by whose move each is and its clock (summaries), then cut into pages; only
        # a shown game waiting for them whose words may ask a question is read whole
        every = await visible_slice(fetch, 0, MINE_MOST)
        ranked = sorted(every, key=lambda listed: mine_rank(service, listed, user))
        page_of = ranked[offset : offset + PAGE_SIZE]
        posts = await latest_of(service, page_of)
        lines = []
        for listed in page_of:
            whole = None
            if my_move(service, listed, user) and asks(listed):
                whole = await service.store.get_game(listed.id)
                if whole is not None:  # a snapshot its engine refuses is rebuilt, as for play;
                    whole = await service.playable(whole) or whole  # set aside: its line says so
            lines.append(mine_line(service, listed, posts.get(listed.id), user, whole))
            if my_move(service, listed, user) and len(playable) < PLAY_BUTTONS:
                playable.append(listed)
        shown: list[GameSummary] = []
        shown_count, more = len(lines), len(ranked) > offset + PAGE_SIZE
    else:
        where = channel if scope == HERE else None
        side, key = cursor if cursor is not None else ("a", None)
        if side == "b":  # Previous: the page before this one, which was there
            shown, more = await visible_before(service, guild, where, key, PAGE_SIZE), True
        else:
            found = await visible_after(service, guild, where, key, PAGE_SIZE + 1)
            shown, more = found[:PAGE_SIZE], len(found) > PAGE_SIZE
        posts = await latest_of(service, shown)
        lines = [inbox_line(service, r, posts.get(r.id)) for r in shown]
        shown_count = len(shown)
    if not lines and page == 0:
        return Post(content=_(EMPTY[scope]))
    first = offset + 1
    embed = discord.Embed(
        title=_(TITLES[scope]),
        description="\n".join(lines) or _("No more games."),
        colour=messages.COLOURS[ACTIVE],
    )
    footer = _("Games {first}–{last} · page {page}").format(
        first=first, last=offset + shown_count, page=page + 1
    )
    embed.set_footer(text=footer)
    view = discord.ui.View(timeout=None)
    keyed = scope != MINE and shown
    if page > 0:
        back = ("b", page_key(shown[0])) if keyed else None
        view.add_item(PageButton.make(scope, page - 1, _("◀ Previous"), back))
    if more:
        on = ("a", page_key(shown[-1])) if keyed else None
        view.add_item(PageButton.make(scope, page + 1, _("Next ▶"), on))
    for listed in playable:
        view = activity.add_play(view, listed, _("Play {id}").format(id=listed.id))
    return Post(embed=embed, view=view if view.children else None)
