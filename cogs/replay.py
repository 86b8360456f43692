"""`/game replay` (issue 15): private viewers of a game's told turns, rebuilt from its log
by ``bot.replay``: its boards turn by turn, its story told 25 lines a page, or its log as JSON
(with a GIF of its boards), chosen with ``view:``.

The viewers are ephemeral and their buttons keep all they need in the custom id
(``cogs.items``' codec: ``g:<game>:<verb>[:<arg>]:<version>``, the turn or page shown as the
argument), so they work after a restart. A click on a viewer of a game that has moved on since
(or was taken back) shows the game as it stands, saying so. Everything shown is public: the
boards are drawn from the public view and a running game is shown up to its last public post.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord

from bot import replay
from bot.i18n import _
from bot.read_model import turn_version
from bot.replay import Replay
from bot.service import GameService
from bot.store.base import GameRecord
from bot.words import counter
from cogs import cooldowns, flows, items, messages
from cogs.items import Click
from cogs.messages import Post

#: Lines of history on one page.
HISTORY_PAGE = 25
BOARD_FILE = messages.BOARD_FILE
FIRST, PREVIOUS, NEXT, LAST, JUMP = "rpfirst", "rpprev", "rpnext", "rplast", "rpjump"
#: Where the jump buttons lead, as fractions of the game: its middle is one tap away.
JUMPS = (0.25, 0.5, 0.75)
GIF, HISTORY = "gif", "history"
#: What `/game replay view:` shows: the viewer (default), the told story, the JSON log.
BOARDS, STORY, LOG = "boards", "story", "log"


def moved_on(record: GameRecord) -> str:
    return _("Game `{id}` has changed since this was shown: here it is as it stands now.").format(
        id=record.id
    )


# -- the replay viewer ----------------------------------------------------------------------


def target_turn(verb: str, shown: int, last: int) -> int:
    """The turn a viewer button leads to from the ``shown`` one (a jump carries its target
    as ``shown``), within the game's turns."""
    wanted = {FIRST: 0, PREVIOUS: shown - 1, NEXT: shown + 1, LAST: last, JUMP: shown}[verb]
    return max(0, min(last, wanted))


def jump_targets(last: int) -> list[int]:
    """The posts the jump buttons lead to: a quarter, half and three quarters of the game,
    each once (a short game has fewer)."""
    return sorted({round(last * share) for share in JUMPS} - {0, last})


def position(replayed: Replay, turn: int) -> str:
    """Which post of the game a viewer shows, counted as the board counts ("Turn 3"), and
    how far along ("post 5 of 46")."""
    counted = counter(replayed.record.game, replayed.view(turn))
    along = _("post {n} of {total}").format(n=turn + 1, total=replayed.last + 1)
    return f"{counted} · {along}" if counted else along


def viewer_buttons(replayed: Replay, turn: int) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ (those leading nowhere greyed out), and for a game that is over, its GIF."""
    record, version = replayed.record, turn_version(replayed.record)
    view = discord.ui.View(timeout=None)
    at_end = turn == replayed.last
    arrows = [(FIRST, "⏮", turn == 0), (PREVIOUS, "◀", turn == 0)]
    arrows += [(NEXT, "▶", at_end), (LAST, "⏭", at_end)]
    for verb, label, nowhere in arrows:
        button = ViewerButton.make(Click(record.id, verb, version, turn), label)
        button.item.disabled = nowhere
        view.add_item(button)
    if replayed.over:
        view.add_item(ViewerButton.make(Click(record.id, GIF, version), _("GIF"), primary=True))
    for target in jump_targets(replayed.last):  # a row of its own: the middle in one tap
        counted = counter(record.game, replayed.view(target)) or _("post {n}").format(n=target + 1)
        jump = ViewerButton.make(Click(record.id, JUMP, version, target), counted)
        jump.item.row = 1
        jump.item.disabled = target == turn
        view.add_item(jump)
    return view


async def viewer_post(
    service: GameService, replayed: Replay, turn: int, note: str | None = None
) -> Post:
    """The viewer at ``turn``: that turn's board and its lines, as its post told them."""
    record = replayed.record
    lines = replayed.lines(turn) or [
        _("The deal: {players}.").format(players=", ".join(replayed.names.values()))
    ]
    budget = messages.EMBED_DESCRIPTION_LIMIT - (len(note) + 2 if note else 0)
    text = messages.last_lines(lines, budget)
    title = _("{title} · game {id}: replay").format(title=replayed.game.title, id=record.id)
    embed = discord.Embed(
        title=messages.clip(title, 256),
        description=f"{note}\n\n{text}" if note else text,
        colour=messages.COLOURS[record.status],
    )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    small = position(replayed, turn)
    if not replayed.over:
        small = _("{position} · up to the last public post; the game goes on").format(
            position=small
        )
    embed.set_footer(text=small)
    png = await replay.board(service.pictures, replayed, turn)
    board = discord.File(io.BytesIO(png), filename=BOARD_FILE)
    return Post(embed=embed, view=viewer_buttons(replayed, turn), files=[board])


async def open_viewer(interaction: discord.Interaction, ref: str | None) -> None:
    """`/game replay view:boards`: the viewer at the deal, only to the caller."""
    service = flows.service_of(interaction)
    record = await flows.watched(interaction, ref)
    await flows.acknowledge(interaction, private=True)  # a long log replays for a while
    replayed = await replay.open_replay(service, record)
    await flows.send(interaction, await viewer_post(service, replayed, 0), ephemeral=True)


async def clicked(interaction: discord.Interaction, click: Click) -> tuple[Replay, str | None]:
    """A viewer's click acknowledged (the clicked message is updated), its game replayed as
    it stands, and a note if the game changed since the viewer was shown."""
    service = flows.service_of(interaction)
    await flows.acknowledge(interaction)
    record = await service.get(click.game, flows.where(interaction)[0])
    replayed = await replay.open_replay(service, record)
    return replayed, moved_on(record) if turn_version(record) != click.version else None


async def turn_click(interaction: discord.Interaction, click: Click) -> None:
    """⏮ ◀ ▶ ⏭: the clicked viewer shows another turn."""
    replayed, note = await clicked(interaction, click)
    turn = target_turn(click.verb, click.arg or 0, replayed.last)
    post = await viewer_post(flows.service_of(interaction), replayed, turn, note)
    await flows.update(interaction, embed=post.embed, view=post.view, attachments=post.files)


# -- export ---------------------------------------------------------------------------------


async def export(interaction: discord.Interaction, ref: str | None, gif: bool) -> None:
    """`/game replay view:log`: the log as JSON (the seed only once the game is over), and with
    ``gif`` the animated GIF of a game that is over, only to the caller."""
    cooldowns.check(interaction, cooldowns.EXPORT)
    if gif:
        cooldowns.check(interaction, cooldowns.GIF)
    service = flows.service_of(interaction)
    record = await flows.watched(interaction, ref)
    await flows.acknowledge(interaction, private=True)
    replayed, data = await replay.export_game(service, record)
    files = [discord.File(io.BytesIO(data), filename=f"game-{record.id}.json")]
    if gif:
        files.append(await gif_file(service, replayed))
    if replayed.over:
        text = _(
            "The log of game `{id}` ({title}), with its seed: `python -m bot replay FILE` "
            "draws its boards."
        )
    else:
        text = _(
            "The log of game `{id}` ({title}) up to its last public post. It has no seed "
            "while the game runs (the seed would reveal every hidden card): export it again "
            "once the game is over to replay it."
        )
    content = text.format(id=record.id, title=replayed.game.title)
    await flows.send(interaction, Post(content=content, files=files), ephemeral=True)


async def gif_file(service: GameService, replayed: Replay) -> discord.File:
    data = await replay.gif(service.pictures, replayed)
    return discord.File(io.BytesIO(data), filename=f"game-{replayed.record.id}.gif")


async def gif_click(interaction: discord.Interaction, click: Click) -> None:
    """GIF on a finished game's viewer: the animated GIF, in a private message of its own."""
    cooldowns.check(interaction, cooldowns.GIF)
    service = flows.service_of(interaction)
    await flows.acknowledge(interaction, private=True)  # drawing every board takes a while
    record = await service.get(click.game, flows.where(interaction)[0])
    replayed = await replay.open_replay(service, record)
    text = _("Game `{id}` ({title}), turn by turn.").format(id=record.id, title=replayed.game.title)
    post = Post(content=text, files=[await gif_file(service, replayed)])
    await flows.send(interaction, post, ephemeral=True)


# -- history, 25 lines a page ---------------------------------------------------------------


def counted_lines(replayed: Replay) -> list[str]:
    """Every told line, a turn's first one led by the game's turn counter (the board's own
    "Turn 3", "Round 2") when it moves on: the history counts as the board does."""
    lines: list[str] = []
    shown = ""
    for turn in range(1, len(replayed.turns)):
        told = replayed.lines(turn)
        counted = counter(replayed.record.game, replayed.view(turn - 1))
        if told and counted and counted != shown:
            told = [f"*{counted}* · {told[0]}", *told[1:]]
            shown = counted
        lines.extend(told)
    return lines


def history_post(replayed: Replay, page: int | None, note: str | None = None) -> Post:
    """One page of the game's told lines (``None``: the last page, the latest moves), with
    ◀ ▶ to the pages beside it."""
    record = replayed.record
    lines = counted_lines(replayed)
    pages = max(1, -(-len(lines) // HISTORY_PAGE))
    page = pages - 1 if page is None else max(0, min(pages - 1, page))
    shown = lines[page * HISTORY_PAGE : (page + 1) * HISTORY_PAGE]
    text = "\n".join(shown) or _("Nothing has happened yet.")
    if note:
        text = f"{note}\n\n{text}"
    title = _("{title} · game {id}: history").format(title=replayed.game.title, id=record.id)
    embed = discord.Embed(
        title=messages.clip(title, 256),
        description=messages.clip(text, messages.EMBED_DESCRIPTION_LIMIT),
        colour=messages.COLOURS[record.status],
    )
    first = page * HISTORY_PAGE + 1
    embed.set_footer(
        text=_("Lines {first}–{last} of {count} · page {page} of {pages}").format(
            first=min(first, len(lines)),
            last=page * HISTORY_PAGE + len(shown),
            count=len(lines),
            page=page + 1,
            pages=pages,
        )
    )
    view = discord.ui.View(timeout=None)
    version = turn_version(record)
    for target, label in ((page - 1, _("◀ Earlier")), (page + 1, _("Later ▶"))):
        if 0 <= target < pages:
            view.add_item(ViewerButton.make(Click(record.id, HISTORY, version, target), label))
    return Post(embed=embed, view=view if view.children else None)


async def history(interaction: discord.Interaction, ref: str | None) -> None:
    """`/game replay view:story`: the latest page of what the public posts told, only to
    the caller."""
    service = flows.service_of(interaction)
    record = await flows.watched(interaction, ref)
    await flows.acknowledge(interaction, private=True)  # a long game's replay takes a while
    if record.state is None:  # a lobby: nothing has happened yet
        title = _("{title} · game {id}: history").format(
            title=service.engine(record).title, id=record.id
        )
        nothing = _("Nothing has happened yet.")
        empty = discord.Embed(title=messages.clip(title, 256), description=nothing)
        await flows.send(interaction, Post(embed=empty), ephemeral=True)
        return
    post = history_post(await replay.open_replay(service, record), None)
    await flows.send(interaction, post, ephemeral=True)


async def page_click(interaction: discord.Interaction, click: Click) -> None:
    """◀ ▶ on a history: the clicked message shows another page."""
    replayed, note = await clicked(interaction, click)
    post = history_post(replayed, click.arg or 0, note)
    await flows.update(interaction, embed=post.embed, view=post.view)


# -- the buttons ------------------------------------------------------------------------------

HANDLERS = {
    FIRST: turn_click,
    PREVIOUS: turn_click,
    NEXT: turn_click,
    LAST: turn_click,
    JUMP: turn_click,
    GIF: gif_click,
    HISTORY: page_click,
}


class ViewerButton(discord.ui.DynamicItem[discord.ui.Button], template=items.VIEWER_TEMPLATE):
    """Every button of the private viewers; the verb says what it shows."""

    def __init__(self, button: discord.ui.Button, click: Click) -> None:
        super().__init__(button)
        self.click = click

    @classmethod
    def make(cls, click: Click, label: str, *, primary: bool = False) -> ViewerButton:
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        return cls(discord.ui.Button(label=label, style=style, custom_id=click.custom_id), click)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ViewerButton:
        assert isinstance(item, discord.ui.Button)  # the template only matches our buttons
        click = items.parse(match.string)
        assert click is not None  # the template is one of the codec's
        return cls(item, click)

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows.guard(interaction, HANDLERS[self.click.verb](interaction, self.click))


DYNAMIC_ITEMS = (ViewerButton,)
