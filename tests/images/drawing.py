"""How the render tests call a renderer: the tests keep a table's display names beside its view
(``view["names"]``) for brevity, and hand them to the renderer as the argument it takes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import images


def names_of(view: dict[str, Any]) -> dict[str, str]:
    return dict(view.get("names") or {})


def draw(render: Callable[..., bytes], view: dict[str, Any], **kwargs: Any) -> bytes:
    """``render(view)`` with the view's test names as ``names=``."""
    return render(view, names=names_of(view), **kwargs)


def draw_game(game_id: str, view: dict[str, Any], **kwargs: Any) -> bytes:
    """``images.render`` of ``game_id`` with the view's test names as ``names=``."""
    return images.render(game_id, view, names=names_of(view), **kwargs)
