"""Every board read on a phone: Discord shows a post's picture about 285 CSS px wide there, so a
board ``W`` px wide shrinks by ``285 / W``. Every text the kit draws (``kit.recording_texts``),
on every game's board at every table size, early, mid-game and final, in every language, must be
at least 8 CSS px tall there if a player needs it, and 6 CSS px whatever it is; and so on every
hand's picture, which the private panel shows on the same phone."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from PIL import Image

import images
from bench.boards import Snapshot, playout, start
from images import kit
from rules import GAMES
from tests.images.layers import forget_cached_layers

NAMES = {f"p{i}": name for i, name in enumerate(("Ana", "Bo", "Cy", "Dee", "Eli"))}
PHONE_CSS_WIDTH = 285
NEEDED_CSS = 8
ANY_CSS = 6
CASES = [
    (game_id, players)
    for game_id in sorted(GAMES)
    for players in range(GAMES[game_id].min_players, GAMES[game_id].max_players + 1)
]


@cache
def snapshots(game_id: str, players: int) -> list[Snapshot]:
    return playout(game_id, players, seed="floors")


def texts_of(game_id: str, snap: Snapshot, lang: str) -> tuple[int, list[tuple[str, int, bool]]]:
    """The board's width and every text drawn on it."""
    forget_cached_layers()
    with kit.recording_texts() as texts:
        png = images.render(game_id, snap.view, names=snap.names, lang=lang, last=snap.last)
    with Image.open(io.BytesIO(png)) as image:
        return image.width, list(texts)


def under_floor(width: int, texts: list[tuple[str, int, bool]]) -> Iterator[str]:
    """The texts smaller than their floor on a phone, as readable complaints."""
    scale = PHONE_CSS_WIDTH / width
    for text, size, needed in texts:
        floor = NEEDED_CSS if needed else ANY_CSS
        if size * scale < floor:
            yield f"{text!r}: {size} px = {size * scale:.1f} CSS px < {floor}"


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_text_of_every_board_is_readable_on_a_phone(game_id: str, players: int) -> None:
    for snap in snapshots(game_id, players):
        for lang in kit.LANGS:
            width, texts = texts_of(game_id, snap, lang)
            assert texts, (snap.stage, lang)
            small = sorted(set(under_floor(width, texts)))
            assert not small, (snap.stage, lang, width, small[:12])


def test_the_floor_check_catches_a_small_text() -> None:
    """The record sees the kit's texts, cached tokens included, and the check flags a small one."""
    forget_cached_layers()
    with kit.recording_texts() as texts:
        im = Image.new("RGB", (1200, 100))
        from PIL import ImageDraw

        kit.draw_text(ImageDraw.Draw(im), (0, 0), "Ana 12", kit.font(20))
        kit.chip(40, kit.ORANGE, "A")
        with kit.minor_text():
            kit.draw_text(ImageDraw.Draw(im), (0, 50), "tick", kit.font(30))
    assert [t for t, _, _ in texts] == ["Ana 12", "A", "tick"]
    assert texts[2][2] is False
    assert list(under_floor(1200, texts[2:])) == []
    assert len(list(under_floor(1200, texts[:1]))) == 1


def seated_views(game_id: str, players: int) -> list[dict[str, Any]]:
    """Each seat's own view early, mid-game and at the last decision of a seeded playout: what
    the hand's picture draws."""
    game = GAMES[game_id]
    seats = [f"p{i}" for i in range(players)]
    state = start(game, seats, "hands")
    rng = random.Random(f"hands:{game_id}:{players}")
    states = [state]
    while game.to_move(state) and len(states) < 400:
        player = game.to_move(state)[0]
        state, _ = game.play(state, player, rng.choice(game.legal(state, player)))
        states.append(state)
    picks = (states[min(6, len(states) - 1)], states[len(states) // 2], states[-2])
    return [game.view(s, seat) for s in picks for seat in seats]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_hand_picture_is_readable_on_a_phone(game_id: str, players: int) -> None:
    """The hand's picture is read in the private panel, on the same phone: the same floors."""
    drawn = 0
    for view in seated_views(game_id, players):
        for lang in kit.LANGS:
            forget_cached_layers()
            with kit.recording_texts() as texts:
                png = images.render_hand(game_id, view, names=NAMES, lang=lang)
            if png is None:
                continue
            drawn += 1
            with Image.open(io.BytesIO(png)) as image:
                width = image.width
            small = sorted(set(under_floor(width, list(texts))))
            assert not small, (lang, width, small[:12])
    assert drawn


def test_street_kings_draws_its_stat_letters_in_the_boards_language() -> None:
    """Issue 24: in Portuguese the posts said "VE → CO" while the board, the hand and the race
    drew "TS3 AC2 HA2 BR1" (seen drawing a whole game's posts as a phone shows them)."""
    english = re.compile(r"\b(TS|HA|BR)(\d|\+| →|$)")
    snaps = snapshots("street-kings", 3)
    for lang, expect in (("en", True), ("pt_BR", False)):
        drawn: list[str] = []
        for snap in (snaps[len(snaps) // 2], snaps[-1]):
            drawn += [text for text, _px, _needed in texts_of("street-kings", snap, lang)[1]]
        for view in seated_views("street-kings", 3)[3:6]:
            forget_cached_layers()
            with kit.recording_texts() as texts:
                images.render_hand("street-kings", view, names=NAMES, lang=lang)
            drawn += [text for text, _px, _needed in texts]
        found = sorted({t for t in drawn if english.search(t)})
        assert bool(found) == expect, (lang, found[:10])
