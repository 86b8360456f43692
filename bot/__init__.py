"""The application: settings, store, service, AI, demo and the wired Discord bot."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.app import TabletopBot


def create_bot(**overrides: Any) -> TabletopBot:
    """The fully wired ``commands.Bot``, not connected (see ``bot.app.create_bot``)."""
    from bot.app import create_bot as build

    return build(**overrides)


__all__ = ["create_bot"]
