"""`/game forget-me`: a player asks the bot to forget them, and confirms with a button.

The question and the answer are private. The button's custom id names the player who asked
(``forget:<user id>``), so it only ever forgets the one who clicks it, even after a restart;
what forgetting does is ``GameService.forget`` (docs/privacy.md says it in full). Each running
game that loses its player gets a post where it is played, saying an AI took the seat.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.i18n import _, _n
from bot.service import MoveResult
from cogs import flows, messages, threads
from cogs.language import in_public
from cogs.messages import Post

log = logging.getLogger(__name__)

TEMPLATE = r"forget:(?P<user>[0-9]{1,20})"


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    """The confirmation: forget the player whose id the button carries, if they click it."""

    def __init__(self, button: discord.ui.Button, user: int) -> None:
        super().__init__(button)
        self.user = user

    @classmethod
    def make(cls, user: int) -> ForgetButton:
        button: discord.ui.Button = discord.ui.Button(
            label=_("Forget me"), style=messages.DANGER, custom_id=f"forget:{user}"
        )
        return cls(button, user)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ForgetButton:
        assert isinstance(item, discord.ui.Button)  # the template only matches our buttons
        return cls(item, int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await flows.guard(interaction, forget(interaction, self.user))


DYNAMIC_ITEMS = (ForgetButton,)


async def ask(interaction: discord.Interaction) -> None:
    """The question, privately, with the one button that confirms it."""
    text = _(
        "**Forget me?** This cannot be undone. On every server:\n"
        "- finished games keep their moves under “Former player n”, so replays stay exact;\n"
        "- your results and ratings are deleted;\n"
        "- in running games an AI takes your seat, and you leave the lobbies you sit in.\n"
        "Messages already posted in Discord stay; delete those in Discord itself."
    )
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton.make(interaction.user.id))
    await flows.send(interaction, Post(content=text, view=view), ephemeral=True)


async def forget(interaction: discord.Interaction, user: int) -> None:
    """The confirmed request: forget the player, tell the tables that lose them, and say what
    was done."""
    if interaction.user.id != user:
        await flows.reply_error(interaction, _("Only the player who asked can confirm this."))
        return
    await flows.acknowledge(interaction)
    forgotten, moved = await flows.service_of(interaction).forget(str(user))
    for result in moved:
        await tell_table(interaction, result)
    games, results = len(forgotten.seats), forgotten.results
    done = " ".join(
        (
            _n(
                "Done: you are forgotten. {n} game now shows a former player in your place.",
                "Done: you are forgotten. {n} games now show a former player in your place.",
                games,
            ).format(n=games),
            _n(
                "{n} result of yours is deleted.", "{n} results of yours are deleted.", results
            ).format(n=results),
        )
    )
    await flows.update(interaction, content=done, view=None)


async def tell_table(interaction: discord.Interaction, result: MoveResult) -> None:
    """A post where a running game is played: a player left it and an AI took their seat
    (the table would otherwise learn it only from the next board). A post that cannot be
    made is logged: the player is forgotten all the same."""
    if result.record.state is None:
        return
    try:
        async with in_public(interaction):
            headline = _("A player left game `{id}`; an AI plays their seat.").format(
                id=result.record.id
            )
            post = await messages.board_post(result.read, result.told, headline)
            await threads.post(interaction.client, result.record, post)
    except discord.HTTPException:
        log.warning("game %s: could not post that an AI took a seat", result.record.id)
