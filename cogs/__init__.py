"""discord.py extensions: one per game plus the shared table; only this layer talks to Discord."""

EXTENSIONS = ("cogs.table", "cogs.scheduler", "cogs.street_art", "cogs.street_kings")
