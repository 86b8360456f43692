"""A persistent button or select whose custom id says all its click needs (a ``DynamicItem``,
as discord.py's ``examples/views/dynamic_counter.py``): rebuilt from the id's named groups
after a restart, its click run under ``flows.guard``. A kind of item (a title's, a
tournament's) then says only its template and what a press does."""

from __future__ import annotations

import re
from typing import Any, Self, TypeVar, cast

import discord

from cogs import flows

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


class Pressed(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """``ids``: the custom id's named groups. The base's template matches nothing: only a
    subclass, with its own, is registered."""

    def __init__(self, item: ItemT, **ids: str) -> None:
        super().__init__(item)
        self.ids = ids

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        # The template matches only the ids this kind gives its own items.
        return cls(cast(ItemT, item), **match.groupdict())

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows.guard(interaction, self.pressed(interaction))

    async def pressed(self, interaction: discord.Interaction) -> None:
        """What a click does (errors become the clicker's ephemeral sentence)."""
        raise NotImplementedError
