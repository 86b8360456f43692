"""`/artsee ...`: ArtSee's own commands; every other step of a turn runs on shared components.

Each command is one action (or a compound of two small decisions, like card and column) sent
through ``flows.play``; the rules check it, so a refusal is the rules' own sentence. Choices come
from the caller's legal actions and view (the game's read model), labelled by ``bot.words.artsee``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.i18n import N_, _
from bot.words import artsee as words
from bot.words.common import capitalized
from cogs import flows
from cogs.typed import Text
from rules.artsee.data import EXHIBITS

GAME_ID = "artsee"
NO_CLAIM = "none"
NO_MORE = "none"


async def my_view(interaction: discord.Interaction) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The caller's own view and legal actions (empty ones if they have no ArtSee game here)."""
    try:
        read = await flows.my_game(interaction, GAME_ID)
    except ServiceError:
        return {}, []
    user = flows.where(interaction)[2]
    return read.view(user), read.legal(user)


def matching(
    current: str, choices: list[app_commands.Choice[str]]
) -> list[app_commands.Choice[str]]:
    text = current.lower()
    return [c for c in choices if text in c.name.lower() or text == c.value.lower()][:25]


def my_gallery(view: dict[str, Any]) -> dict[str, Any] | None:
    return next((p for p in view.get("players", []) if p["id"] == view.get("viewer")), None)


# -- autocomplete ---------------------------------------------------------------------------------


async def card_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The cards in the caller's hand while they may choose one."""
    view, legal = await my_view(interaction)
    if view.get("phase") not in ("card", "column") or not any(
        a["type"] in ("card", "place") for a in legal
    ):
        return []
    choices = [
        app_commands.Choice(name=words.card_label(card)[:100], value=card)
        for card in view["hand_cards"]
    ]
    return matching(current, choices)


async def column_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The caller's columns (with the category of their front card) and the two new ends. The
    arrow of the card already picked in ``card`` says which way it will score."""
    view, legal = await my_view(interaction)
    me = my_gallery(view)
    if me is None or not any(a["type"] in ("card", "place") for a in legal):
        return []
    card = EXHIBITS.get(str(getattr(interaction.namespace, "card", "") or ""))
    arrow = " · " + _("arrow {arrow}").format(arrow=words.ARROWS[card.arrow]) if card else ""
    choices = [
        app_commands.Choice(
            name=_("Column {n} (front: {category})").format(
                n=n, category=words.category(EXHIBITS[col[-1]].featured)
            )
            + arrow,
            value=str(n),
        )
        for n, col in enumerate(me["columns"], 1)
    ]
    choices += [
        app_commands.Choice(name=capitalized(words.place_label(side)) + arrow, value=side)
        for side in ("left", "right")
    ]
    return matching(current, choices)


async def legal_choices(
    interaction: discord.Interaction,
    current: str,
    kind: str,
    label: Callable[[Any], str],
    last: app_commands.Choice[str],
) -> list[app_commands.Choice[str]]:
    """The caller's legal actions of ``kind`` as choices (value: the action's own argument),
    then ``last`` (the way to decline), or nothing when they have no such decision now."""
    legal = (await my_view(interaction))[1]
    values = [a[ARGUMENTS[kind]] for a in legal if a["type"] == kind]
    if not values:
        return []
    choices = [app_commands.Choice(name=label(v), value=str(v)) for v in values]
    return matching(current, [*choices, last])


ARGUMENTS = {"claim": "token", "welcome": "column"}


async def token_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The masterpieces the caller may claim now, and claiming none."""
    none = app_commands.Choice(name=_("Claim no masterpiece"), value=NO_CLAIM)
    return await legal_choices(interaction, current, "claim", words.token_label, none)


async def slot_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The free slots of the caller's gallery."""
    view, legal = await my_view(interaction)
    me = my_gallery(view)
    if me is None or not any(a["type"] in ("claim", "slot") for a in legal):
        return []
    taken = {m["slot"] for m in me["masterpieces"]}
    choices = [
        app_commands.Choice(name=capitalized(words.slot_label(s)), value=str(s))
        for s in range(len(me["columns"]) + 1)
        if s not in taken
    ]
    return matching(current, choices)


async def welcome_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The columns the caller may welcome a visitor on now, and stopping."""
    stop = app_commands.Choice(name=_("No more visitors this turn"), value=NO_MORE)
    return await legal_choices(
        interaction,
        current,
        "welcome",
        lambda c: _("Welcome a visitor on column {n}").format(n=c),
        stop,
    )


# -- parsing what was typed ---------------------------------------------------------------------


def whole_number(text: str, refusal: str) -> int:
    """``text`` as a number, or the ``refusal`` sentence (an ``N_`` id with a ``{text}``)."""
    try:
        return int(text.strip())
    except ValueError:
        raise ServiceError(_(refusal).format(text=text[:30])) from None


NOT_A_COLUMN = N_("“{text}” is not a column number — pick one from the list.")
NOT_A_SLOT = N_("“{text}” is not a slot number — pick one from the list.")


def column_value(text: str) -> int | str:
    text = text.strip().lower()
    return text if text in ("left", "right") else whole_number(text, NOT_A_COLUMN)


# -- the commands ---------------------------------------------------------------------------------


class ArtSee(commands.Cog):
    """ArtSee: play exhibits, claim masterpieces, draw, and welcome visitors."""

    artsee = app_commands.Group(name="artsee", description="ArtSee moves", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _play(self, interaction: discord.Interaction, action: dict[str, Any]) -> None:
        await flows.play(interaction, await flows.my_game(interaction, GAME_ID), action)

    @artsee.command(name="play")
    @app_commands.describe(
        card="An exhibit from your hand", column="A column number, or left/right for a new one"
    )
    @app_commands.autocomplete(card=card_autocomplete, column=column_autocomplete)
    async def play(self, interaction: discord.Interaction, card: Text, column: Text) -> None:
        """Play an exhibit from your hand onto a column, or into a new column at an end."""
        target = column_value(column)
        await self._play(interaction, {"type": "play", "card": card.strip(), "column": target})

    @artsee.command(name="claim")
    @app_commands.describe(
        token="A masterpiece you can claim now (or none)",
        slot="Where it goes: 0 is the left end, k is right of column k",
    )
    @app_commands.autocomplete(token=token_autocomplete, slot=slot_autocomplete)
    async def claim(
        self, interaction: discord.Interaction, token: Text, slot: Text | None = None
    ) -> None:
        """Claim a masterpiece after playing an exhibit (or claim none)."""
        token = token.strip().upper()
        if token == NO_CLAIM.upper():
            await self._play(interaction, {"type": "pass"})
            return
        action: dict[str, Any] = {"type": "claim", "token": token}
        if slot is not None:
            action["slot"] = whole_number(slot, NOT_A_SLOT)
        await self._play(interaction, action)

    @artsee.command(name="draw")
    @app_commands.describe(pile="The draw pile to take the top card of")
    @app_commands.choices(
        pile=[
            app_commands.Choice(name="Pile 1", value=1),
            app_commands.Choice(name="Pile 2", value=2),
        ]
    )
    async def draw(self, interaction: discord.Interaction, pile: int) -> None:
        """Draw the top card of draw pile 1 or 2 (you see their backs on the board)."""
        await self._play(interaction, {"type": "draw", "pile": pile})

    @artsee.command(name="welcome")
    @app_commands.describe(column="Your column with a matching front card (or none)")
    @app_commands.autocomplete(column=welcome_autocomplete)
    async def welcome(self, interaction: discord.Interaction, column: Text) -> None:
        """Welcome a visitor on one of your matching front cards, when you are asked."""
        if column.strip().lower() == NO_MORE:
            await self._play(interaction, {"type": "enough"})
            return
        await self._play(
            interaction, {"type": "welcome", "column": whole_number(column, NOT_A_COLUMN)}
        )

    @artsee.command(name="visitors")
    @app_commands.describe(policy="always (the default), never, or ask me each time")
    @app_commands.choices(
        policy=[
            app_commands.Choice(name="always welcome visitors", value="always"),
            app_commands.Choice(name="never welcome visitors", value="never"),
            app_commands.Choice(name="ask me each time", value="ask"),
        ]
    )
    async def visitors(self, interaction: discord.Interaction, policy: str) -> None:
        """Your standing answer when an opponent's card matches your front cards."""
        await self._play(interaction, {"type": "policy", "policy": policy})


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ArtSee(bot))
