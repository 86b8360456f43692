"""What players type into slash options, bounded at the source: Discord itself refuses longer
input, so no handler ever sees (or echoes) a 4,000-character "card name"."""

from __future__ import annotations

from discord import app_commands

#: A game id as /game list shows it (six characters; some room for stray spaces).
GameRef = app_commands.Range[str, 1, 32]
#: A move's argument: a card, a cell, a car (autocomplete values are at most 100 characters).
Text = app_commands.Range[str, 1, 100]
#: ``name=value`` pairs for a game's options.
OptionsText = app_commands.Range[str, 1, 400]
#: An IANA time zone name (the longest are about 30 characters).
ZoneText = app_commands.Range[str, 1, 64]
#: Quiet hours, ``22-7`` or ``off``.
QuietText = app_commands.Range[str, 1, 16]
