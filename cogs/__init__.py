"""discord.py extensions: one per game plus the shared table; only this layer talks to Discord."""

EXTENSIONS = ("cogs.table", "cogs.street_art")
