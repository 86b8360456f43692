"""Pictures in pt-BR: every word drawn stays inside its picture, runs into no other word that
its English did not, and is cut short (ellipsized) only where its English was too.

Each render is watched at the two places text reaches pixels, ``kit.draw_text`` (which fits a
text to its ``max_width``) and ``ImageDraw.text``: the box of every text drawn is measured with
its font, on the picture it is drawn on (a card face, a token, the board), in English and in
Brazilian Portuguese from the same view. A text is known across the two by its line (picture
size, height, anchor, and its order on that line: a longer word before it on the line moves
it along): a longer name may wrap onto a line of its own, which English does not have, and
then nothing excuses it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageDraw

import images
from bench.boards import playout, start
from images import kit, street_kings
from rules import GAMES
from tests.images.layers import forget_cached_layers

CASES = [
    (game_id, players)
    for game_id in sorted(GAMES)
    for players in sorted({GAMES[game_id].min_players, GAMES[game_id].max_players})
]


@dataclass(frozen=True)
class Drawn:
    """One text drawn: on which picture (its id and size), its box, and whether it was cut."""

    picture: int
    size: tuple[int, int]
    at: tuple[int, int, str]
    box: tuple[int, int, int, int]
    text: str
    cut: bool

    line: int = 0

    @property
    def key(self) -> tuple[object, ...]:
        return (self.size, self.at[1], self.at[2], self.line)


@contextmanager
def watching() -> Iterator[list[Drawn]]:
    """Every text drawn inside the block, as ``Drawn``."""
    seen: list[Drawn] = []
    pictures: list[object] = []  # kept alive, so no two pictures share an id
    draw_text, text = kit.draw_text, ImageDraw.ImageDraw.text
    inside = [False]

    def record(draw: ImageDraw.ImageDraw, xy: Any, shown: str, fnt: Any, anchor: str, cut: bool):
        if draw.im.mode == "L" or not shown:  # a glyph mask, sized to its text
            return
        x0, y0, x1, y1 = fnt.getbbox(shown, anchor=anchor or "la")
        box = (round(xy[0] + x0), round(xy[1] + y0), round(xy[0] + x1), round(xy[1] + y1))
        pictures.append(draw.im)
        at = (round(xy[0]), round(xy[1]), anchor or "la")
        line = sum(1 for t in seen if t.picture == id(draw.im) and t.at[1:] == at[1:])
        seen.append(Drawn(id(draw.im), draw.im.size, at, box, shown, cut, line))

    def watched_draw_text(d, xy, txt, fnt, fill=kit.INK, anchor="la", max_width=None, stroke=None):
        shown = kit.ellipsize(txt, fnt, max_width) if max_width is not None else txt
        record(d, xy, shown, fnt, anchor, shown != txt)
        inside[0] = True
        try:
            return draw_text(d, xy, txt, fnt, fill, anchor, max_width, stroke)
        finally:
            inside[0] = False

    def watched_text(self, xy, txt, fill=None, font=None, anchor=None, *args, **kwargs):
        if not inside[0] and font is not None and isinstance(txt, str):
            record(self, xy, txt, font, anchor or "la", False)
        return text(self, xy, txt, fill, font, anchor, *args, **kwargs)

    kit.draw_text = watched_draw_text  # type: ignore[assignment]
    ImageDraw.ImageDraw.text = watched_text  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        kit.draw_text = draw_text  # type: ignore[assignment]
        ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]


def drawn(render: Callable[[str], object], lang: str) -> list[Drawn]:
    forget_cached_layers()
    with watching() as seen:
        render(lang)
    return seen


def overlapping(a: Drawn, b: Drawn, slack: int = 2) -> bool:
    return a.picture == b.picture and (
        min(a.box[2], b.box[2]) - max(a.box[0], b.box[0]) > slack
        and min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > slack
    )


def problems(render: Callable[[str], object]) -> list[str]:
    """What pt-BR does to the texts of one picture that English does not."""
    english = {text.key: text for text in drawn(render, "en")}
    portuguese = drawn(render, "pt_BR")
    found = []
    for i, text in enumerate(portuguese):
        width, height = text.size
        x0, y0, x1, y1 = text.box
        if x0 < -1 or y0 < -1 or x1 > width + 1 or y1 > height + 1:
            found.append(f"{text.text!r} leaves its {width}x{height} picture: {text.box}")
        same = english.get(text.key)
        if text.cut and not (same and same.cut):
            found.append(f"{text.text!r} is cut short (English: {same and same.text!r})")
        for other in portuguese[:i]:
            if not overlapping(text, other):
                continue
            was, was_other = english.get(text.key), english.get(other.key)
            if not (was and was_other and overlapping(was, was_other)):
                found.append(f"{text.text!r} runs into {other.text!r}")
    return found


@cache
def hand_views(game_id: str, players: int) -> list[dict[str, Any]]:
    """Each seat's own view a few decisions into a seeded game."""
    game = GAMES[game_id]
    seats = [f"p{i}" for i in range(players)]
    state, rng = start(game, seats, "fit"), random.Random(game_id)
    for _ in range(8):
        waiting = game.to_move(state)
        if not waiting:
            break
        state, _ = game.play(state, waiting[0], rng.choice(game.legal(state, waiting[0])))
    return [game.view(state, seat) for seat in seats]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_pt_br_words_fit_every_board_and_second_picture(game_id: str, players: int) -> None:
    found = []
    for snap in playout(game_id, players, seed="fit"):

        def board(lang: str, snap=snap) -> object:
            images.render(game_id, snap.view, names=snap.names, lang=lang, last=snap.last)
            return images.extra_pictures(game_id, snap.view, names=snap.names, lang=lang)

        found += [f"{snap.stage}: {p}" for p in problems(board)]
    assert found == []


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_pt_br_words_fit_every_hand(game_id: str, players: int) -> None:
    found = []
    for view in hand_views(game_id, players):
        found += problems(
            lambda lang, view=view: images.render_hand(game_id, view, names={}, lang=lang)
        )
    assert found == []


def race_of(view: dict[str, Any], names: dict[str, str]) -> Callable[[str], object]:
    def race(lang: str) -> object:
        return street_kings.render_race(view, names, lang)

    return race


def test_pt_br_words_fit_a_race_replayed() -> None:
    for snap in playout("street-kings", 4, seed="fit"):
        if snap.view.get("last_race"):
            assert problems(race_of(snap.view, snap.names)) == []
            return
    pytest.fail("no race was run in this playout")


def test_the_watch_sees_a_text_leave_its_picture() -> None:
    """The check can fail: a text drawn past the edge is reported."""

    def too_wide(lang: str) -> None:
        im = Image.new("RGB", (100, 40))
        word = "Portuguese" if lang == "en" else "Português do Brasil, longo demais"
        kit.draw_text(ImageDraw.Draw(im), (4, 4), word, kit.font(20))

    assert any("leaves its 100x40 picture" in p for p in problems(too_wide))
