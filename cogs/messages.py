"""What the bot posts, built from service records and views: lobby, board, hand panel.

Builders only: nothing here sends anything, so every message shape is in one place and
within Discord's limits by construction (25 options, 5 buttons a row, 100-char ids, embeds).
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, field
from typing import Any

import discord

import images
from bot.service import GameService, Step
from bot.store.base import ABANDONED, ACTIVE, FINISHED, LOBBY, GameRecord
from bot.words import WORDS, tell

ALLOWED_MENTIONS = discord.AllowedMentions(
    everyone=False, roles=False, users=True, replied_user=False
)
EMBED_DESCRIPTION_LIMIT = 4096
SELECT_LIMIT = 25
BUTTON_ROW = 5
BOARD_FILE = "board.png"
COLOURS = {LOBBY: 0x3B82F6, ACTIVE: 0x10B981, FINISHED: 0xF59E0B, ABANDONED: 0x6B7280}


def custom_id(record: GameRecord, verb: str, arg: str | int | None = None) -> str:
    """``g:<game id>:<verb>[:<arg>]:<version>`` (DESIGN.md), at most 100 characters."""
    middle = f"{verb}:{arg}" if arg is not None else verb
    return f"g:{record.id}:{middle}:{record.version}"


def mention(user: str) -> str | None:
    """A user mention for a Discord seat; AI seats are never mentioned."""
    return f"<@{user}>" if user.isdigit() else None


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Post:
    """A message ready to send: keyword arguments for ``send_message``/``followup.send``."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    file: discord.File | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"allowed_mentions": ALLOWED_MENTIONS, **self.extra}
        if self.content is not None:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if self.view is not None:
            out["view"] = self.view
        if self.file is not None:
            out["file"] = self.file
        return out


# -- lobby ---------------------------------------------------------------------------------


def lobby_embed(service: GameService, record: GameRecord) -> discord.Embed:
    game = service.engine(record)
    names = service.names(record)
    seats = "\n".join(
        f"{i}. {names[s.user]}{' 🤖' if s.ai else ''}{' (host)' if s.user == record.host else ''}"
        for i, s in enumerate(record.seats, 1)
    )
    status = {
        LOBBY: f"Waiting for players ({len(record.seats)}/{game.max_players}).",
        ACTIVE: "Started!",
        ABANDONED: "Abandoned.",
        FINISHED: "Finished.",
    }[record.status]
    embed = discord.Embed(
        title=clip(f"{game.title} · game {record.id}", 256),
        description=clip(f"{status}\n\n{seats}", EMBED_DESCRIPTION_LIMIT),
        colour=COLOURS[record.status],
    )
    options = {k: v for k, v in record.options.items() if game.default_options.get(k) != v}
    if options:
        embed.add_field(
            name="Options", value=clip(", ".join(f"{k}={v}" for k, v in options.items()), 1024)
        )
    if record.status == LOBBY:
        embed.set_footer(
            text=f"{WORDS[record.game].PLAYERS}. Join with the button or /game join; "
            "the host starts with Start or /game start."
        )
    return embed


def lobby_view(record: GameRecord) -> discord.ui.View | None:
    from cogs.items import GameButton

    if record.status != LOBBY:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton.make(record, "join", "Join", discord.ButtonStyle.success))
    view.add_item(GameButton.make(record, "leave", "Leave", discord.ButtonStyle.secondary))
    view.add_item(GameButton.make(record, "addai", "Add AI", discord.ButtonStyle.secondary))
    view.add_item(GameButton.make(record, "start", "Start", discord.ButtonStyle.primary))
    return view


def lobby_post(service: GameService, record: GameRecord, note: str | None = None) -> Post:
    return Post(content=note, embed=lobby_embed(service, record), view=lobby_view(record))


# -- the board ------------------------------------------------------------------------------


def narrate(service: GameService, record: GameRecord, steps: list[Step]) -> list[str]:
    return tell(record.game, [(s.player, s.events) for s in steps], service.names(record))


def board_buttons(record: GameRecord) -> discord.ui.View:
    from cogs.items import GameButton

    view = discord.ui.View(timeout=None)
    if record.status == ACTIVE:
        view.add_item(GameButton.make(record, "hand", "My hand", discord.ButtonStyle.primary))
    view.add_item(GameButton.make(record, "board", "Board", discord.ButtonStyle.secondary))
    view.add_item(GameButton.make(record, "rules", "Rules", discord.ButtonStyle.secondary))
    return view


async def render_board(service: GameService, record: GameRecord) -> discord.File:
    """The public board as an attachment, rendered off the event loop."""
    view = service.view(record, None)
    png = await asyncio.to_thread(images.render, record.game, view)
    return discord.File(io.BytesIO(png), filename=BOARD_FILE)


def next_up(service: GameService, record: GameRecord) -> tuple[str, str]:
    """(content with mentions of the humans to move, the line for the embed)."""
    names = service.names(record)
    waiting = service.to_move(record)
    mentions = [m for m in (mention(p) for p in waiting if not p.startswith("ai:")) if m]
    who = ", ".join(f"**{names.get(p, p)}**" for p in waiting)
    if record.status == FINISHED:
        return "🏁 Game over!", ""
    if not waiting:
        return "", ""
    content = f"{' '.join(mentions)} — your turn!" if mentions else ""
    return content, f"**Next:** {who}"


def outcome_line(service: GameService, record: GameRecord) -> str:
    outcome = service.outcome(record)
    if outcome is None:
        return ""
    names = service.names(record)
    ranking = sorted(outcome.scores.items(), key=lambda item: -item[1])
    scores = " · ".join(f"{names.get(p, p)} {s}" for p, s in ranking)
    winners = ", ".join(f"**{names.get(p, p)}**" for p in outcome.winners)
    plural = "s" if len(outcome.winners) > 1 else ""
    return f"**Final scores:** {scores}\n**Winner{plural}:** {winners}"


async def board_post(
    service: GameService,
    record: GameRecord,
    steps: list[Step],
    headline: str | None = None,
) -> Post:
    """The public turn post: what happened, whose turn, the board image, the buttons."""
    game = service.engine(record)
    lines = ([headline] if headline else []) + narrate(service, record, steps)
    content, next_line = next_up(service, record)
    tail = outcome_line(service, record) if record.status == FINISHED else next_line
    description = "\n".join(lines)
    budget = EMBED_DESCRIPTION_LIMIT - len(tail) - 4
    if len(description) > budget:  # keep the latest lines: they lead to the board shown
        description = "…" + description[-(budget - 1) :]
    embed = discord.Embed(
        title=clip(f"{game.title} · game {record.id}", 256),
        description="\n\n".join(part for part in (description, tail) if part) or None,
        colour=COLOURS[record.status],
    )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    embed.set_footer(text=f"Move {record.version} · /game hand shows your cards")
    board = await render_board(service, record)
    extra = await render_extras(service, record, steps)
    return Post(
        content=content or None,
        embed=embed,
        file=None if extra else board,
        view=board_buttons(record),
        extra={"files": [board, *extra]} if extra else {},
    )


async def render_extras(
    service: GameService, record: GameRecord, steps: list[Step]
) -> list[discord.File]:
    """Extra pictures of the turn (``images.EXTRAS``, e.g. an animated race), off the loop."""
    events = [event for step in steps for event in step.events]
    if not events:
        return []
    view = service.view(record, None)
    made = await asyncio.to_thread(images.extras, record.game, view, events)
    return [discord.File(io.BytesIO(data), filename=name) for name, data in made.items()]


# -- the private hand panel -------------------------------------------------------------------


def hand_panel(service: GameService, record: GameRecord, user: str, note: str = "") -> Post:
    """The ephemeral panel: the player's hand and their legal actions as a select or buttons.

    Options are indices into ``legal()`` at this version: the version in the custom id makes an
    index from an older panel refused rather than applied to a different list.
    """
    from cogs.items import GameButton, PickSelect

    words = WORDS[record.game]
    names = service.names(record)
    view_data = service.view(record, user)
    legal = service.legal(record, user)
    lines = [note] if note else []
    lines.append(words.hand_text(view_data))
    view: discord.ui.View | None = None
    if legal:
        mid_turn = bool(record.journal)
        lines.append("**Your move:** choose below." if not mid_turn else "**Your move continues:**")
        view = discord.ui.View(timeout=None)
        labels = [clip(words.action_label(a, names), 80) for a in legal]
        if mid_turn and len(legal) <= BUTTON_ROW:
            for index, label in enumerate(labels):
                view.add_item(
                    GameButton.make(record, "act", label, discord.ButtonStyle.primary, index)
                )
        else:
            view.add_item(PickSelect.make(record, labels[:SELECT_LIMIT]))
            if len(labels) > SELECT_LIMIT:  # never hide a move silently: say where the rest are
                hidden = len(labels) - SELECT_LIMIT
                lines.append(f"({hidden} more moves than fit here: use the game's slash commands.)")
    elif record.status == ACTIVE:
        lines.append(service.turn_message(record))
    return Post(content=clip("\n".join(lines), 2000), view=view)
