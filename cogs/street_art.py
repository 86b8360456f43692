"""`/streetart ...`: Street Art's own commands; the rest of a turn runs on shared components."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.i18n import _
from bot.words import WORDS
from bot.words import street_art as words
from cogs import flows
from cogs.typed import Text
from rules.street_art.data import CARDS

GAME_ID = "street-art"


async def card_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The cards the caller may play right now, from the rules' own legal moves."""
    try:
        read = await flows.my_game(interaction, GAME_ID)
    except ServiceError:
        return []
    user = flows.where(interaction)[2]
    words = WORDS[GAME_ID]
    choices = []
    for action in read.legal(user):
        if action["type"] != "play":
            continue
        label = words.action_label(action, read.names)
        if current.lower() in label.lower():
            choices.append(app_commands.Choice(name=label[:100], value=action["card"]))
    return choices[:25]


class StreetArt(commands.Cog):
    """Street Art: play a card from your hand."""

    streetart = app_commands.Group(
        name="streetart", description="Street Art moves", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @streetart.command(name="play")
    @app_commands.describe(card="A card from your hand")
    @app_commands.autocomplete(card=card_autocomplete)
    async def play(self, interaction: discord.Interaction, card: Text) -> None:
        """Play a card; Fireworks and Brass Band ask their follow-up privately."""

        read = await flows.my_game(interaction, GAME_ID)
        card_id = card.strip().lower().replace(" ", "-")
        if card_id not in CARDS:  # a name typed, in English or in the player's language
            by_name = {
                name.lower(): cid
                for cid, info in CARDS.items()
                for name in (info.name, words.card_name(cid))
            }
            card_id = by_name.get(card.strip().lower(), "")
        if not card_id:
            raise ServiceError(
                _("There is no Street Art card called “{card}” — pick one from the list.").format(
                    card=card[:50]
                )
            )
        await flows.play(interaction, read, {"type": "play", "card": card_id})


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StreetArt(bot))
