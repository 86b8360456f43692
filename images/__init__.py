"""Pillow renderers: a game's view -> PNG bytes, one renderer per game id in ``RENDERERS``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from images import street_art, street_kings

#: game id -> ``render(view) -> PNG bytes``. A new game adds its renderer here.
RENDERERS: dict[str, Callable[[dict[str, Any]], bytes]] = {
    "street-art": street_art.render,
    "street-kings": street_kings.render,
}

#: game id -> ``extras(public view, the turn's events) -> {filename: bytes}``: more pictures for
#: a turn's public post (an animation of what just happened); a game without one has no entry.
EXTRAS: dict[str, Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, bytes]]] = {
    "street-kings": street_kings.race_gif,
}


def render(game_id: str, view: dict[str, Any]) -> bytes:
    """The PNG of ``view`` drawn by the renderer of ``game_id`` (KeyError if it has none)."""
    try:
        renderer = RENDERERS[game_id]
    except KeyError:
        raise KeyError(f"no renderer for game {game_id!r}") from None
    return renderer(view)


def extras(game_id: str, view: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, bytes]:
    """The extra attachments of a turn's public post (none for most games and turns)."""
    make = EXTRAS.get(game_id)
    return make(view, events) if make else {}
