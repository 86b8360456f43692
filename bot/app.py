"""The wired Discord bot: settings, store, service, cogs and persistent components."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.service import GameService
from bot.store import Store, open_store

log = logging.getLogger(__name__)


class TabletopBot(commands.Bot):
    """A ``commands.Bot`` whose ``setup_hook`` opens the store and loads every game's cog.

    Only the default intents are needed: the bot answers interactions and reads no message text.
    """

    def __init__(self, settings: Settings) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
            help_command=None,
        )
        self.settings = settings
        self.store: Store | None = None
        self.service: GameService | None = None

    async def setup_hook(self) -> None:
        from cogs import EXTENSIONS
        from cogs.items import DYNAMIC_ITEMS

        self.store = open_store(self.settings.database_url)
        await self.store.open()
        self.service = GameService(
            self.store,
            remind_after=Settings.hours(self.settings.remind_hours),
            timeout_after=Settings.hours(self.settings.turn_timeout_hours),
            ai_budget=self.settings.ai_budget_seconds,
        )
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        # Registered once: every button on any old message keeps working after a restart.
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.tree.on_error = self.on_app_command_error

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one tree error handler: a checks failure or a crash becomes an ephemeral sentence."""
        from cogs.flows import OOPS, reply_error

        if isinstance(error, app_commands.NoPrivateMessage):
            message = "Games are played in server channels — try this command in a server."
        elif isinstance(error, app_commands.CheckFailure):
            message = str(error) or "You cannot use this command here."
        elif isinstance(error, app_commands.TransformerError):
            message = f"“{error.value}” is not a valid value here — pick one from the list."
        else:
            log.exception("command %s failed", interaction.command, exc_info=error)
            message = OOPS
        try:
            await reply_error(interaction, message)
        except discord.HTTPException:
            log.warning("could not report an error to interaction %s", interaction.id)

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None


def create_bot(**overrides: Any) -> TabletopBot:
    """The fully wired bot, not connected: settings from the environment and ``.env``, with
    keyword overrides (e.g. ``database_url=...``). Its ``setup_hook`` does the rest."""
    return TabletopBot(Settings.load(**{k: str(v) for k, v in overrides.items()}))
