"""What players read: events, actions and hands put into words, per game.

Engines emit structured events; this is the one place that turns them into sentences (so they
can be translated), shared by the Discord cogs and the offline demo log.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.words import street_art
from bot.words.common import name_of


class GameWords(Protocol):
    #: A short summary for `/game rules`.
    RULES: str

    def describe(self, events: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
        """One line per event worth telling (a turn marker may be skipped)."""

    def action_label(self, action: dict[str, Any], names: dict[str, str]) -> str:
        """A label for a legal action, at most 80 characters (a button or select option)."""

    def hand_text(self, view: dict[str, Any]) -> str:
        """The viewer's private holdings from their own view, for an ephemeral message."""


WORDS: dict[str, GameWords] = {"street-art": street_art}

__all__ = ["WORDS", "GameWords", "name_of"]
