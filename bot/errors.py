"""Errors the service raises for a player: each message is a sentence saying what to do instead."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import _

if TYPE_CHECKING:
    from bot.store.base import GameRecord


class ServiceError(Exception):
    """A request the service refuses; ``message`` is shown to the player, ephemerally."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleRequest(ServiceError):
    """A click on a message older than the game's current version: never applied to a later turn."""

    def __init__(self, record: GameRecord) -> None:
        super().__init__(_("That board is out of date: here is the current one."))
        self.record = record
