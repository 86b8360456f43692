"""Pillow renderers: a game's view -> PNG bytes, one renderer per game id in ``RENDERERS``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from images import mural, street_art

#: game id -> ``render(view) -> PNG bytes``. A new game adds its renderer here.
RENDERERS: dict[str, Callable[[dict[str, Any]], bytes]] = {
    "street-art": street_art.render,
    "street-art-mural": mural.render,
}


def render(game_id: str, view: dict[str, Any]) -> bytes:
    """The PNG of ``view`` drawn by the renderer of ``game_id`` (KeyError if it has none)."""
    try:
        renderer = RENDERERS[game_id]
    except KeyError:
        raise KeyError(f"no renderer for game {game_id!r}") from None
    return renderer(view)
