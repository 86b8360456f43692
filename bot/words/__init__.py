"""What players read: events, actions and hands put into words, per game.

Engines emit structured events; this is the one place that turns them into sentences (so they
can be translated), shared by the Discord cogs and the offline demo log.
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.i18n import N_, _
from bot.words import artsee, mural, street_art, street_kings
from bot.words.common import name_of


class GameWords(Protocol):
    #: A short summary for `/game rules`.
    RULES: str
    #: How many may play, in words (options included), for the lobby.
    PLAYERS: str
    #: What each game option (``default_options`` key) changes, for `/game rules`.
    OPTIONS: dict[str, str]

    def describe(self, events: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
        """One line per event worth telling (a turn marker may be skipped)."""

    def action_label(self, action: dict[str, Any], names: dict[str, str]) -> str:
        """A label for a legal action, at most 80 characters (a button or select option)."""

    def hand_text(self, view: dict[str, Any]) -> str:
        """The viewer's private holdings from their own view, for an ephemeral message."""

    # Optional: ``view_label(action, names, view) -> str``, a label that says what the action
    # would give, from the viewer's own view (``label_for`` prefers it).

    # Optional: ``question(public view) -> str | None``, the label of a button on the turn post
    # when players are asked something on another player's turn (it opens their choice).

    # Optional: ``confirm(action) -> str | None``, the question a hand panel asks before it
    # applies an action that cannot be taken back (Mural's pass), or None to apply it at once.


WORDS: dict[str, GameWords] = {
    "street-art": street_art,
    "artsee": artsee,
    "street-art-mural": mural,
    "street-kings": street_kings,
}


def label_for(
    game: str, action: dict[str, Any], names: dict[str, str], view: dict[str, Any]
) -> str:
    """A legal action's label for the viewer whose ``view`` this is: the game's ``view_label``
    where it has one (what the action would give), else its ``action_label``."""
    words = WORDS[game]
    in_view = getattr(words, "view_label", None)
    return in_view(action, names, view) if in_view else words.action_label(action, names)


#: Each game's one turn counter, as its board draws it: the view's key and the words around it.
COUNTERS: dict[str, tuple[str, str]] = {
    "street-art": ("turn", N_("Turn {n}")),
    "artsee": ("turn", N_("Turn {n}")),
    "street-art-mural": ("round", N_("Round {n} of 2")),
    "street-kings": ("round", N_("Round {n}")),
}


def counter(game: str, view: dict[str, Any]) -> str:
    """The game's turn counter for a public ``view`` ("Turn 3", "Round 2"), the same words and
    number its board draws, so posts, history and replay count as the board does; empty before
    the view counts (a deal)."""
    key, words = COUNTERS[game]
    number = view.get(key)
    return _(words).format(n=number) if number else ""


def tell(
    game: str, steps: list[tuple[str, list[dict[str, Any]]]], names: dict[str, str]
) -> list[str]:
    """The sentences for a run of ``(player, events)`` steps. Consecutive steps of one player
    are told together, so a card and its follow-up decision (a Fireworks victim chosen later)
    read as one sentence."""
    words = WORDS[game]
    lines: list[str] = []
    run: list[dict[str, Any]] = []
    current: str | None = None
    for player, events in steps:
        if player != current and run:
            lines.extend(words.describe(run, names))
            run = []
        current = player
        run.extend(events)
    if run:
        lines.extend(words.describe(run, names))
    return lines


__all__ = ["WORDS", "GameWords", "counter", "label_for", "name_of", "tell"]
