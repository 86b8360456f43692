"""Pillow renderers: a game's view -> PNG bytes, one board renderer per game id in
``RENDERERS``, and for games whose hands are better seen than read, a hand renderer in
``HAND_RENDERERS`` (the private panel attaches it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from images import artsee, mural, street_art, street_kings

#: game id -> ``render(view) -> PNG bytes``. A new game adds its renderer here.
RENDERERS: dict[str, Callable[[dict[str, Any]], bytes]] = {
    "street-art": street_art.render,
    "artsee": artsee.render,
    "street-art-mural": mural.render,
    "street-kings": street_kings.render,
}


#: game id -> ``render_hand(player's view) -> PNG bytes or None`` (None: nothing in hand).
HAND_RENDERERS: dict[str, Callable[[dict[str, Any]], bytes | None]] = {
    "street-art": street_art.render_hand,
    "artsee": artsee.render_hand,
}


#: game id -> ``turn_extras(public view, the turn's events) -> [(filename, bytes)]``: pictures
#: that tell a turn better than the board alone (a race step by step), attached to that turn's
#: post only.
TURN_EXTRAS: dict[
    str, Callable[[dict[str, Any], list[dict[str, Any]]], list[tuple[str, bytes]]]
] = {"street-kings": street_kings.turn_extras}


def turn_extras(
    game_id: str, view: dict[str, Any], events: list[dict[str, Any]]
) -> list[tuple[str, bytes]]:
    """Extra attachments for the post of a turn with ``events``; none for most games and turns."""
    extras = TURN_EXTRAS.get(game_id)
    return extras(view, events) if extras else []


def render_hand(game_id: str, view: dict[str, Any]) -> bytes | None:
    """The viewer's own hand from their view, or None if the game draws none or it is empty."""
    renderer = HAND_RENDERERS.get(game_id)
    return renderer(view) if renderer else None


def render(game_id: str, view: dict[str, Any]) -> bytes:
    """The PNG of ``view`` drawn by the renderer of ``game_id`` (KeyError if it has none)."""
    try:
        renderer = RENDERERS[game_id]
    except KeyError:
        raise KeyError(f"no renderer for game {game_id!r}") from None
    return renderer(view)
