"""Where a game's actions sit on its surface: the shared shape each game's module fills.

A ``Spot`` names the place an action is taken at (an area of the surface and a key inside it,
in board order), the short words drawn on it, and, for an action with two parts (a card and
where it goes), the ``source`` to pick first. Each game's module says only this and which
places of the current step to offer dim (``candidates``); the rules decide everything else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Action = dict[str, Any]
View = dict[str, Any]


@dataclass(frozen=True)
class Spot:
    """One place on the surface: ``area`` (an id of the game's ``AREAS``), ``key`` (unique
    in the surface), ``text`` (short, drawn on the button), ``source``: the key of the piece
    to pick first (a hand card to place), or None when a tap here is the whole decision;
    ``face``: the card whose picture the button shows."""

    area: str
    key: str
    text: str
    source: str | None = None
    #: The card drawn on the button (its face, from images), where the game draws faces.
    face: str | None = None


#: A game's places: ``spot(action, view, seat, names)`` (None: a control, drawn by its
#: label); ``names``: player id -> display name.
Locate = Callable[[Action, View, str, dict[str, str]], Spot | None]
#: The actions of this step at every place of the board, legal or not: the dim ones are
#: offered with the engine's refusal.
Candidates = Callable[[View, str, list[Action]], list[Action]]
#: What a source piece is called on its button, from its key.
SourceText = Callable[[str, View], str]


def key_text(key: str, view: View) -> str:
    """A source's key as its words: for a game that has no two-part actions."""
    return key


def no_face(key: str) -> str | None:
    """No source is drawn as a card (a game whose pieces are words)."""
    return None


@dataclass(frozen=True)
class Layout:
    """A game's surface: its areas in board order, ``(id, title)``, and its functions."""

    areas: tuple[tuple[str, str], ...]
    spot: Locate
    candidates: Candidates
    source_text: SourceText = key_text
    #: The card a source is drawn as, from its key (None: drawn as words).
    source_face: Callable[[str], str | None] = no_face


def kinds(legal: list[Action]) -> set[str]:
    """The action types this step offers."""
    return {str(action["type"]) for action in legal}


def me(view: View, seat: str) -> dict[str, Any]:
    """The seat's own entry in a view's ``players``."""
    return next(p for p in view.get("players", []) if p.get("id") == seat)
