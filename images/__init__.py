"""Pillow renderers: a game's view -> PNG bytes, one board renderer per game id in
``RENDERERS`` (drawn to be read on a phone), a hand renderer per game in ``HAND_RENDERERS``
(the private panel attaches it), a detail picture in ``DETAIL_RENDERERS`` (the table drawn
larger than the board, for the Board button), second pictures of what does not fit a board in
``EXTRA_PICTURES`` (every board post attaches them; none today), pictures of one turn in
``TURN_EXTRAS`` (a race replayed), and one card's face in ``FACE_RENDERERS`` (the hand page's
cards).

Presentation comes in as arguments, never out of the view: ``names`` (player id -> display
name), ``lang`` (the language of the words drawn) and, for boards, ``last`` (the last turn told
in sentences by ``bot.words``, the one place sentences come from).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from images import artsee, mural, street_art, street_kings
from images.kit import check_lang

View = dict[str, Any]
Names = dict[str, str]
Pictures = list[tuple[str, bytes]]


class BoardRenderer(Protocol):
    def __call__(
        self, view: View, *, names: Names, lang: str = "en", last: Sequence[str] = ()
    ) -> bytes: ...


class HandRenderer(Protocol):
    def __call__(self, view: View, *, names: Names, lang: str = "en") -> bytes | None: ...


class PictureRenderer(Protocol):
    def __call__(self, view: View, *, names: Names, lang: str = "en") -> bytes | None: ...


class FaceRenderer(Protocol):
    def __call__(self, card: str, *, lang: str = "en") -> bytes: ...


class TurnExtras(Protocol):
    def __call__(
        self, view: View, events: list[dict[str, Any]], *, names: Names, lang: str = "en"
    ) -> Pictures: ...


#: game id -> the board renderer. A new game adds its renderer here.
RENDERERS: dict[str, BoardRenderer] = {
    "street-art": street_art.render,
    "artsee": artsee.render,
    "street-art-mural": mural.render,
    "street-kings": street_kings.render,
}

#: game id -> ``render_hand(player's view) -> PNG bytes or None`` (None: nothing in hand).
HAND_RENDERERS: dict[str, HandRenderer] = {
    "street-art": street_art.render_hand,
    "artsee": artsee.render_hand,
    "street-art-mural": mural.render_hand,
    "street-kings": street_kings.render_hand,
}

#: game id -> one card's face alone (``render_face(card) -> PNG``): the hand page draws a card
#: the player may pick as that card, a button, where the game has one.
FACE_RENDERERS: dict[str, FaceRenderer] = {
    "street-art": street_art.render_face,
    "artsee": artsee.render_face,
    "street-kings": street_kings.render_face,
    "street-art-mural": mural.render_face,
}

#: game id -> ((filename, renderer), ...): the parts of the table a board leaves out, each a
#: picture of its own beside the board on every board post; a renderer returns None when it
#: has nothing. None today: every board carries its whole table (a post, one picture).
EXTRA_PICTURES: dict[str, tuple[tuple[str, PictureRenderer], ...]] = {}

#: game id -> the detail picture: the whole table drawn larger than a phone's board shows it
#: (ArtSee's galleries card by card), for the Board button's private answer.
DETAIL_RENDERERS: dict[str, BoardRenderer] = {
    "artsee": artsee.render_detail,
    "street-art-mural": mural.render_detail,
}

#: game id -> pictures that tell a turn better than the board alone (a race step by step),
#: attached to that turn's post only.
TURN_EXTRAS: dict[str, TurnExtras] = {"street-kings": street_kings.turn_extras}


def render(
    game_id: str, view: View, *, names: Names, lang: str = "en", last: Sequence[str] = ()
) -> bytes:
    """The PNG of ``view`` drawn by the renderer of ``game_id`` (KeyError if it has none)."""
    try:
        renderer = RENDERERS[game_id]
    except KeyError:
        raise KeyError(f"no renderer for game {game_id!r}") from None
    return renderer(view, names=names, lang=check_lang(lang), last=last)


def render_hand(game_id: str, view: View, *, names: Names, lang: str = "en") -> bytes | None:
    """The viewer's own hand from their view, or None if the game draws none or it is empty."""
    renderer = HAND_RENDERERS.get(game_id)
    return renderer(view, names=names, lang=check_lang(lang)) if renderer else None


def render_face(game_id: str, card: str, *, lang: str = "en") -> bytes | None:
    """One card's face, or None where the game draws none (``FACE_RENDERERS``)."""
    renderer = FACE_RENDERERS.get(game_id)
    return renderer(card, lang=check_lang(lang)) if renderer else None


def extra_pictures(game_id: str, view: View, *, names: Names, lang: str = "en") -> Pictures:
    """The second pictures of a board post, in order, as ``(filename, PNG bytes)``."""
    out = []
    for filename, renderer in EXTRA_PICTURES.get(game_id, ()):
        png = renderer(view, names=names, lang=check_lang(lang))
        if png is not None:
            out.append((filename, png))
    return out


def turn_extras(
    game_id: str, view: View, events: list[dict[str, Any]], *, names: Names, lang: str = "en"
) -> Pictures:
    """Extra attachments for the post of a turn with ``events``; none for most games and turns."""
    extras = TURN_EXTRAS.get(game_id)
    return extras(view, events, names=names, lang=check_lang(lang)) if extras else []


def render_detail(
    game_id: str, view: View, *, names: Names, lang: str = "en", last: Sequence[str] = ()
) -> bytes | None:
    """The detail picture of ``view`` (``DETAIL_RENDERERS``), or None for a game whose board
    already shows everything."""
    renderer = DETAIL_RENDERERS.get(game_id)
    return renderer(view, names=names, lang=check_lang(lang), last=last) if renderer else None
