"""`/kings ...`: Street Kings' own commands; a visit's follow-up choices (what to sell, what to
buy for which car, where to place a location card) come on the private panel that follows."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.store.base import GameRecord
from bot.words import WORDS
from cogs import flows

GAME_ID = "street-kings"


async def my_kings_game(interaction: discord.Interaction) -> GameRecord:
    """The caller's game here, which must be Street Kings."""
    service = flows.service_of(interaction)
    guild, channel, user = flows.where(interaction)
    record = await service.resolve(guild, channel, user)
    if record.game != GAME_ID:
        title = service.engine(record).title
        raise ServiceError(f"Your game here is {title}, not Street Kings — use its own commands.")
    return record


#: The action types each command with an option covers.
COMMANDS: dict[str, tuple[str, ...]] = {
    "class": ("class", "finish_line"),
    "show": ("show",),
    "qualify": ("qualify",),
    "race": ("race",),
    "noz": ("noz_policy", "noz"),
}


def option_value(action: dict[str, Any]) -> str:
    """The string an autocomplete offers for an action: its one argument."""
    for key in ("class", "space", "car", "lane", "policy"):
        if key in action:
            return str(action[key])
    return "yes" if action.get("use") else "no"


async def legal_of(interaction: discord.Interaction) -> tuple[GameRecord, list[dict[str, Any]]]:
    record = await my_kings_game(interaction)
    _, _, user = flows.where(interaction)
    return record, flows.service_of(interaction).legal(record, user)


def autocomplete_for(command: str):
    kinds = COMMANDS[command]

    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal moves for this command, labelled as on the panel."""
        try:
            record, legal = await legal_of(interaction)
        except ServiceError:
            return []
        names = flows.service_of(interaction).names(record)
        choices = []
        for action in legal:
            if action["type"] not in kinds:
                continue
            label = WORDS[GAME_ID].action_label(action, names)
            if current.lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=option_value(action)))
        return choices[:25]

    return complete


def action_from(command: str, value: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The action a command and its typed or picked value mean; if it is not among the legal
    moves it is still built (so the rules say precisely why it is refused)."""
    kinds = COMMANDS[command]
    text = value.strip()
    for action in legal:
        if action["type"] in kinds and option_value(action).lower() == text.lower():
            return action
    if command == "class":
        if text.isdigit():
            return {"type": "finish_line", "space": int(text)}
        return {"type": "class", "class": text.upper()}
    if command == "qualify":
        return {"type": "qualify", "lane": int(text) if text.isdigit() else text}
    if command == "noz":
        if text.lower() in ("yes", "no"):
            return {"type": "noz", "use": text.lower() == "yes"}
        return {"type": "noz_policy", "policy": text.lower()}
    car = text.upper()
    return {"type": kinds[0], "car": car}


class StreetKings(commands.Cog):
    """Street Kings: one action per turn, then the race."""

    kings = app_commands.Group(name="kings", description="Street Kings moves", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _play(self, interaction: discord.Interaction, action: dict[str, Any]) -> None:
        async def flow() -> None:
            record = await my_kings_game(interaction)
            await flows.play(interaction, action, ref=record.id)

        await flows.guard(interaction, flow())

    async def _choose(self, interaction: discord.Interaction, command: str, value: str) -> None:
        async def flow() -> None:
            record, legal = await legal_of(interaction)
            await flows.play(interaction, action_from(command, value, legal), ref=record.id)

        await flows.guard(interaction, flow())

    @kings.command(name="class")
    @app_commands.describe(choice="The race class (or, with a custom finish line, its space)")
    @app_commands.autocomplete(choice=autocomplete_for("class"))
    async def race_class(self, interaction: discord.Interaction, choice: str) -> None:
        """First player: choose this round's race class."""
        await self._choose(interaction, "class", choice)

    @kings.command(name="shop")
    async def shop(self, interaction: discord.Interaction) -> None:
        """Go to the shop: sell upgrades, then buy one (choices follow privately)."""
        await self._play(interaction, {"type": "shop"})

    @kings.command(name="dealer")
    async def dealer(self, interaction: discord.Interaction) -> None:
        """Go to the dealership: sell a car, then buy one (choices follow privately)."""
        await self._play(interaction, {"type": "dealer"})

    @kings.command(name="show")
    @app_commands.describe(car="The car to send to the car show")
    @app_commands.autocomplete(car=autocomplete_for("show"))
    async def show(self, interaction: discord.Interaction, car: str) -> None:
        """Send a car to the car show and earn its beauty value."""
        await self._choose(interaction, "show", car)

    @kings.command(name="location")
    async def location(self, interaction: discord.Interaction) -> None:
        """Draw a location card, then place one face down (choice follows privately)."""
        await self._play(interaction, {"type": "location"})

    @kings.command(name="qualify")
    @app_commands.describe(lane="A free lane of the starting grid (1 moves first)")
    @app_commands.autocomplete(lane=autocomplete_for("qualify"))
    async def qualify(self, interaction: discord.Interaction, lane: str) -> None:
        """Qualify for the race in a free lane."""
        await self._choose(interaction, "qualify", lane)

    @kings.command(name="pass")
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Pass: leave the action phase for this round."""
        await self._play(interaction, {"type": "pass"})

    @kings.command(name="race")
    @app_commands.describe(car="Your car for this race (the class or one below)")
    @app_commands.autocomplete(car=autocomplete_for("race"))
    async def race(self, interaction: discord.Interaction, car: str) -> None:
        """Choose the car you race; your crew join it."""
        await self._choose(interaction, "race", car)

    @kings.command(name="noz")
    @app_commands.describe(policy="ask, first chance or never; or yes/no when asked now")
    @app_commands.autocomplete(policy=autocomplete_for("noz"))
    async def noz(self, interaction: discord.Interaction, policy: str) -> None:
        """Set your NOZ policy, or answer the NOZ question in a race."""
        await self._choose(interaction, "noz", policy)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StreetKings(bot))
