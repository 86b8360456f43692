"""Persistent buttons and selects: all state lives in the custom id, so they survive restarts.

``g:<game id>:<verb>[:<arg>]:<version>`` (DESIGN.md). ``setup_hook`` registers these classes
with ``add_dynamic_items``; discord.py rebuilds them from any message's custom id on a click.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.store.base import GameRecord
from cogs import flows

GAME_ID = r"(?P<game>[a-z0-9]{4,12})"
BUTTON_VERBS = "join|leave|start|addai|hand|board|rules|act"


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"g:{GAME_ID}:(?P<verb>{BUTTON_VERBS})(?::(?P<arg>[0-9]+))?:(?P<version>[0-9]+)",
):
    """Every button on lobby, board and panel messages; the verb says what it does."""

    def __init__(
        self, button: discord.ui.Button, game: str, verb: str, arg: str | None, version: int
    ):
        super().__init__(button)
        self.game, self.verb, self.arg, self.version = game, verb, arg, version

    @classmethod
    def make(
        cls,
        record: GameRecord,
        verb: str,
        label: str,
        style: discord.ButtonStyle,
        arg: int | None = None,
    ) -> GameButton:
        from cogs.messages import custom_id

        button = discord.ui.Button(label=label, style=style, custom_id=custom_id(record, verb, arg))
        return cls(button, record.id, verb, None if arg is None else str(arg), record.version)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> GameButton:
        return cls(item, match["game"], match["verb"], match["arg"], int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows.on_button(interaction, self.game, self.verb, self.arg, self.version)


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"g:{GAME_ID}:pick(?::(?P<page>[0-9]+))?:(?P<version>[0-9]+)",
):
    """A select of legal actions on a hand panel; values are indices into ``legal()``.

    A decision longer than one select's 25 options is split over several selects (pages);
    the page is in the custom id only to keep ids unique on one message.
    """

    def __init__(self, select: discord.ui.Select, game: str, version: int):
        super().__init__(select)
        self.game, self.version = game, version

    @classmethod
    def make(
        cls, record: GameRecord, labels: list[str], page: int = 0, placeholder: str = ""
    ) -> PickSelect:
        """The select of ``labels``, the ``page``-th run of 25 of the legal actions."""
        from cogs.messages import SELECT_LIMIT, custom_id

        first = page * SELECT_LIMIT
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id(record, "pick", page or None),
            placeholder=placeholder or "Choose your move…",
            options=[
                discord.SelectOption(label=label, value=str(first + i))
                for i, label in enumerate(labels)
            ],
        )
        return cls(select, record.id, record.version)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> PickSelect:
        return cls(item, match["game"], int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        await flows.on_pick(interaction, self.game, int(values[0]) if values else -1, self.version)


DYNAMIC_ITEMS = (GameButton, PickSelect)
