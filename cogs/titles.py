"""Titles in Discord (issue 38, item 3): what the buttons on a finished game's result post do
(``cogs.title_row`` draws them), with which its players give one another a title ("Best
move", "Good sport"). The titles line of `/game stats` is ``cogs.memory``'s; the rules (once a
game, never to oneself) ``bot.titles``'.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot.ai import is_ai_id
from bot.i18n import _
from bot.titles.achievements import GIVEN, NAMES
from bot.titles.service import Titles
from cogs import flows
from cogs.messages import Post
from cogs.pressed import Pressed

GAME_ID = r"(?P<game>[a-z0-9]{4,12})"
TITLE = rf"(?P<title>{'|'.join(GIVEN)})"
BUTTON = rf"ti:{GAME_ID}:{TITLE}"
SELECT = rf"ti:{GAME_ID}:{TITLE}:to"


def titles_of(client: discord.Client) -> Titles:
    return client.titles  # type: ignore[attr-defined, no-any-return]


class TitleButton(Pressed[discord.ui.Button], template=BUTTON):
    """ "Best move" / "Good sport" on a result post: opens, to the clicker, who to give it to."""

    async def pressed(self, interaction: discord.Interaction) -> None:
        await choose(interaction, self.ids["game"], self.ids["title"])


async def choose(interaction: discord.Interaction, game: str, title: str) -> None:
    """Only to the clicker: the other players of the game, to pick whom the title goes to."""
    await flows.acknowledge(interaction, private=True)
    record = await flows.service_of(interaction).get(game)
    me = str(interaction.user.id)
    others = [s for s in record.seats if not is_ai_id(s.user) and s.user != me]
    if record.seat_of(me) is None or not others:
        await flows.send(
            interaction,
            Post(content=_("Only the players of this game can give its titles.")),
            ephemeral=True,
        )
        return
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"ti:{game}:{title}:to",
        placeholder=_("Who gets “{title}”?").format(title=_(NAMES[title])),
        options=[discord.SelectOption(label=s.name[:100] or s.user, value=s.user) for s in others],
    )
    view = discord.ui.View(timeout=None)
    view.add_item(TitleSelect(select, game=game, title=title))
    await flows.send(interaction, Post(view=view), ephemeral=True)


class TitleSelect(Pressed[discord.ui.Select], template=SELECT):
    """Whom the title goes to; the game and the title are in the custom id."""

    async def pressed(self, interaction: discord.Interaction) -> None:
        await give(interaction, self.ids["game"], self.ids["title"], self.item.values)


async def give(interaction: discord.Interaction, game: str, title: str, chosen: list[str]) -> None:
    await flows.acknowledge(interaction, private=True)
    recipient = chosen[0] if chosen else ""
    await titles_of(interaction.client).give(game, str(interaction.user.id), recipient, title)
    said = _("You gave <@{player}> the title “{title}”.").format(
        player=recipient, title=_(NAMES[title])
    )
    await flows.send(interaction, Post(content=said), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    service = getattr(bot, "service", None)
    if service is not None:  # not when only the command tree is built (``sync``)
        bot.titles = Titles(service)  # type: ignore[attr-defined]


#: The persistent items the bot registers (``cogs.app``), so a result post's buttons work
#: after a restart.
DYNAMIC_ITEMS = (TitleButton, TitleSelect)
