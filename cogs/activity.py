"""The Play button (issue 40): the game's board as a Discord Activity, or the player's web link.

Board posts, hand panels and the "your turn" notices carry it. Its custom id names only the
game, ``play:<game id>``: Play always opens the game as it is now, so it never goes out of date
and works after a restart (``PlayButton``, a ``DynamicItem`` as in discord.py's
``dynamic_counter.py``). What a press does is ``cogs.launch``, which installs itself here
(``bind``) so that the messages that carry the button need nothing of it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import discord

from bot.i18n import _
from bot.store.base import ACTIVE, Clock, GameRecord, GameSummary
from cogs import web_table

TEMPLATE = r"play:(?P<game>[a-z0-9]{4,12})"
#: Buttons a row holds (Discord's limit).
ROW = 5

PressHandler = Callable[[discord.Interaction, str], Awaitable[None]]


class PlayButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    """Play: opens the game in the Activity where it is played, else gives the web link."""

    handler: ClassVar[PressHandler | None] = None
    #: Whether the Activity is configured (DISCORD_CLIENT_ID and _SECRET): Play launches it.
    launches: ClassVar[bool] = False

    def __init__(self, button: discord.ui.Button, game: str) -> None:
        super().__init__(button)
        self.game = game

    @classmethod
    def make(cls, game: str, label: str | None = None) -> PlayButton:
        button: discord.ui.Button = discord.ui.Button(
            label=label or _("Play"), style=discord.ButtonStyle.success, custom_id=f"play:{game}"
        )
        return cls(button, game)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PlayButton:
        assert isinstance(item, discord.ui.Button)  # the template only matches our buttons
        return cls(item, match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if PlayButton.handler is None:
            raise RuntimeError("cogs.activity.bind() was not called: cogs.launch is not loaded")
        await PlayButton.handler(interaction, self.game)


def bind(handler: PressHandler, launches: bool) -> type[PlayButton]:
    """Install what a press does, and whether it can launch the Activity; returns the item
    class to register."""
    PlayButton.handler = handler
    PlayButton.launches = launches
    return PlayButton


#: What Play may be put on for: a game, a listed game, or a reminder's clock (a running game's).
Playable = GameRecord | GameSummary | Clock


def useful(record: Playable, *, panel: bool = False) -> bool:
    """Whether Play can do something for ``record``: launch the Activity, or else give a web
    link, which a hand panel (``panel``) already carries as "Open on the web"."""
    if getattr(record, "status", ACTIVE) != ACTIVE:
        return False
    if PlayButton.launches:
        return True
    door = web_table.DOOR
    return not panel and door is not None and record.guild not in door.off


def add_play(view: Any, record: Playable, label: str | None = None, *, panel: bool = False) -> Any:
    """``view`` (a View or an ActionRow) with Play for ``record`` when Play is of use there
    (``useful``) and the view has room left; a View is made for it when there is none."""
    if not useful(record, panel=panel):
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    if isinstance(view, discord.ui.ActionRow) and len(view.children) >= ROW:
        return view
    with contextlib.suppress(ValueError):  # every place already taken: the choices come first
        view.add_item(PlayButton.make(record.id, label))
    return view
