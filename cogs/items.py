"""Persistent buttons and selects: all state lives in the custom id, so they survive restarts.

This module owns the custom-id codec, ``g:<game id>:<verb>[:<arg>]:<version>``
(docs/architecture.md, "The Discord layer"), building and parsing it as discord.py's
``dynamic_counter.py`` example does. ``setup_hook`` registers the item classes with
``add_dynamic_items``; discord.py rebuilds them from any message's custom id on a click and they
hand the parsed click to the handler the Discord layer installed (``bind``), so nothing here imports
another cog module.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.i18n import _

GAME_ID = r"(?P<game>[a-z0-9]{4,12})"
BUTTON_VERBS = (
    "join|leave|start|addai|hand|board|rules|act|sure|rematch|undoyes|undono|"
    "stallkick|stallext|stallend|steps|hint|hintmove|whynot|realgame"
)
#: The end screen of a teaching table: a real game of the same kind (``cogs.teaching``).
REAL_GAME = "realgame"
#: A whole step on a hand panel (``bot.steps``): its arg is the step's index there.
STEPS = "steps"
PICK = "pick"
#: A select of whole steps (``bot.steps.layout``): its values are the steps' indices.
STEP_PICK = "steppick"
#: The hand panel's "Why not…?" button, and the select it opens (``cogs.hints``), whose
#: values index the refused places.
WHY_NOT, WHY_PICK = "whynot", "why"
VERSION = r"(?P<version>[0-9]{1,18})"
BUTTON_TEMPLATE = rf"g:{GAME_ID}:(?P<verb>{BUTTON_VERBS})(?::(?P<arg>[0-9]{{1,9}}))?:{VERSION}"
PICK_TEMPLATE = (
    rf"g:{GAME_ID}:(?P<verb>{PICK}|{STEP_PICK}|{WHY_PICK})(?::(?P<arg>[0-9]{{1,9}}))?:{VERSION}"
)
#: The private viewers' buttons (a replay's turns, a history's pages, the GIF of a finished
#: game): a template of their own, taken by ``cogs.replay``'s item rather than GameButton.
VIEWER_VERBS = "rpfirst|rpprev|rpnext|rplast|rpjump|gif|history"
VIEWER_TEMPLATE = rf"g:{GAME_ID}:(?P<verb>{VIEWER_VERBS})(?::(?P<arg>[0-9]{{1,9}}))?:{VERSION}"
TEMPLATES = (re.compile(BUTTON_TEMPLATE), re.compile(PICK_TEMPLATE), re.compile(VIEWER_TEMPLATE))
#: Discord refuses a component whose custom id is longer.
CUSTOM_ID_LIMIT = 100
#: Options in one select menu.
SELECT_LIMIT = 25


@dataclass(frozen=True)
class Click:
    """What a component's custom id says, and the values picked in a select (raw strings:
    the handler converts them inside its error guard, since a client can send anything)."""

    game: str
    verb: str
    version: int
    arg: int | None = None
    values: tuple[str, ...] = ()

    @property
    def custom_id(self) -> str:
        return custom_id(self.game, self.verb, self.version, self.arg)


def custom_id(game: str, verb: str, version: int, arg: int | None = None) -> str:
    """``g:<game id>:<verb>[:<arg>]:<version>``, refused if over Discord's 100 characters."""
    middle = verb if arg is None else f"{verb}:{arg}"
    text = f"g:{game}:{middle}:{version}"
    if len(text) > CUSTOM_ID_LIMIT or parse(text) is None:
        raise ValueError(f"not a valid component id: {text[:120]!r}")
    return text


def _click(match: re.Match[str]) -> Click:
    arg = None if match["arg"] is None else int(match["arg"])
    return Click(match["game"], match["verb"], int(match["version"]), arg)


def parse(text: str) -> Click | None:
    """The click a custom id names, or None if it is none of ours (or a crafted one)."""
    for template in TEMPLATES:
        match = template.fullmatch(text)
        if match is not None:
            return _click(match)
    return None


ClickHandler = Callable[[discord.Interaction, Click], Awaitable[None]]


class _Hooked:
    """The click handler every item forwards to; the Discord layer installs it with ``bind``."""

    handler: ClassVar[ClickHandler | None] = None

    @staticmethod
    async def forward(interaction: discord.Interaction, click: Click) -> None:
        if _Hooked.handler is None:
            raise RuntimeError("cogs.items.bind() was not called: no click handler installed")
        await _Hooked.handler(interaction, click)


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """Every button on lobby, board and panel messages; the verb says what it does."""

    def __init__(self, button: discord.ui.Button, click: Click) -> None:
        super().__init__(button)
        self.click = click

    @classmethod
    def make(
        cls,
        game: str,
        version: int,
        verb: str,
        label: str,
        style: discord.ButtonStyle,
        arg: int | None = None,
    ) -> GameButton:
        click = Click(game, verb, version, arg)
        return cls(discord.ui.Button(label=label, style=style, custom_id=click.custom_id), click)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        assert isinstance(item, discord.ui.Button)  # the template only matches our buttons
        return cls(item, _click(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _Hooked.forward(interaction, self.click)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=PICK_TEMPLATE):
    """A select of legal actions on a hand panel; values are indices into ``legal()`` (verb
    ``pick``), or into the panel's whole steps (verb ``steppick``, ``bot.steps``).

    A decision longer than one select's 25 options is split over several selects (pages);
    the page is in the custom id only to keep ids unique on one message.
    """

    def __init__(self, select: discord.ui.Select, click: Click) -> None:
        super().__init__(select)
        self.click = click

    @classmethod
    def make(
        cls,
        game: str,
        version: int,
        labels: list[str],
        page: int = 0,
        placeholder: str = "",
        verb: str = PICK,
    ) -> PickSelect:
        """The select of ``labels``, the ``page``-th run of 25 of the legal actions (or, with
        ``verb``, of another list the panel offers)."""
        first = page * SELECT_LIMIT
        values = [first + i for i in range(len(labels))]
        return cls.of(Click(game, verb, version, page or None), labels, values, placeholder)

    @classmethod
    def of(
        cls, click: Click, labels: list[str], values: list[int], placeholder: str = ""
    ) -> PickSelect:
        """The select ``click`` names, an option per label sending its value."""
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=click.custom_id,
            placeholder=placeholder or _("Choose your move…"),
            options=[
                discord.SelectOption(label=label, value=str(value))
                for label, value in zip(labels, values, strict=True)
            ],
        )
        return cls(select, click)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        assert isinstance(item, discord.ui.Select)  # the template only matches our selects
        return cls(item, _click(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        click = self.click
        picked = Click(click.game, click.verb, click.version, click.arg, tuple(self.item.values))
        await _Hooked.forward(interaction, picked)


DYNAMIC_ITEMS = (GameButton, PickSelect)


def bind(handler: ClickHandler) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """Install the handler every click is forwarded to; returns the item classes to register
    with ``Client.add_dynamic_items``."""
    _Hooked.handler = handler
    return DYNAMIC_ITEMS
