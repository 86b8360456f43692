"""What players type into slash options, bounded at the source: Discord itself refuses longer
input, so no handler ever sees (or echoes) a 4,000-character "card name"."""

from __future__ import annotations

import discord
from discord import app_commands

from rules import GAMES

#: A game id as /game list shows it (six characters; some room for stray spaces).
GameRef = app_commands.Range[str, 1, 32]
#: A move's argument: a card, a cell, a car (autocomplete values are at most 100 characters).
Text = app_commands.Range[str, 1, 100]
#: ``name=value`` pairs for a game's options.
OptionsText = app_commands.Range[str, 1, 400]
#: An IANA time zone name (the longest are about 30 characters).
ZoneText = app_commands.Range[str, 1, 64]
#: A tournament id (six characters, as its posts show it).
TournamentRef = app_commands.Range[str, 1, 32]
#: Quiet hours, ``22-7`` or ``off``.
QuietText = app_commands.Range[str, 1, 16]
#: A season as `/game season` lists it: its number, or all time.
SeasonRef = app_commands.Range[str, 1, 32]


def game_id_of(typed: str) -> str | None:
    """The game a `game:` option names, by its id or its title (None: none does)."""
    typed = typed.strip().lower()
    return next((g.id for g in GAMES.values() if typed in (g.id, g.title.lower())), None)


class GameKindTransformer(app_commands.Transformer):
    """Which game (Street Art, ArtSee, …), offered by autocomplete rather than as fixed
    choices: choices count against the 4,000 characters a command may hold, once per option
    that offers them, in every language; autocomplete offers the same list and counts
    nothing. What was typed is checked here: a game's id or its title."""

    @property
    def max_value(self) -> int:
        """The longest a game's title or id may be typed (Discord's ``max_length``)."""
        return 40

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        found = game_id_of(value)
        if found is None:
            raise app_commands.TransformerError(value, discord.AppCommandOptionType.string, self)
        return found

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        typed = value.strip().lower()
        return [
            app_commands.Choice(name=game.title, value=game.id)
            for game in GAMES.values()
            if typed in game.title.lower() or typed in game.id
        ]


#: A game's kind by id, as a slash option with autocomplete (``GameKindTransformer``).
GameKind = app_commands.Transform[str, GameKindTransformer]
