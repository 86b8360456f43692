"""discord.py extensions: one per game plus the shared table; only this layer talks to Discord."""

EXTENSIONS = (
    "cogs.table",
    "cogs.tournaments",
    "cogs.seasons",
    "cogs.titles",
    "cogs.scheduler",
    "cogs.delivery",
    "cogs.street_art",
    "cogs.steps",
    "cogs.hints",
    "cogs.teaching",
    "cogs.artsee",
    "cogs.mural",
    "cogs.street_kings",
)
