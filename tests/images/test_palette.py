"""The fixed palette every board is mapped onto before encoding (images.kit.fixed_palette): each
renderer's colour constants kept exactly, the same palette for the same colours, and on real
boards (seeded playouts, bench/boards.py) every large flat area keeps its colour through the
PNG while the picture as a whole stays within a few levels of what was drawn."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageChops

from bench.boards import Snapshot, playout
from images import artsee, kit, mural, street_art, street_kings

#: game id -> (renderer module, its board drawn as RGB before encoding).
BOARDS: dict[str, tuple[Any, Callable[[Snapshot], Image.Image]]] = {
    "artsee": (artsee, lambda s: artsee.board_image(s.view, s.names, s.last)),
    "street-art": (street_art, lambda s: street_art.board_image(s.view, s.names)),
    "street-art-mural": (mural, lambda s: mural.board_image(s.view, s.names)),
    "street-kings": (street_kings, lambda s: street_kings.board_image(s.view, s.names, s.last)),
}
#: A colour covering this many pixels is a flat area (fewer: checking it costs more than it
#: tells).
FLAT = 50


@cache
def snapshots(game_id: str) -> list[Snapshot]:
    return playout(game_id, 3, seed="palette")


def largest_channel(image: Image.Image) -> Image.Image:
    """Per pixel, the largest of an RGB image's three channels (of a difference: how far off)."""
    r, g, b = image.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


def palette_colours(palette: Image.Image) -> list[tuple[int, int, int]]:
    flat = palette.getpalette() or []
    return [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3)]


def test_the_palette_holds_the_given_colours_first_and_exactly() -> None:
    colours = (kit.TABLE, kit.PANEL, kit.ORANGE, kit.SKY_BLUE, kit.PAPER)
    entries = palette_colours(kit.fixed_palette(colours))
    assert entries[: len(colours)] == list(colours)
    assert len(entries) == kit.PNG_COLORS
    halfway = tuple(round((a + b) / 2) for a, b in zip(kit.TABLE, kit.ORANGE, strict=True))
    nearest = min(entries, key=lambda c: sum(abs(x - y) for x, y in zip(c, halfway, strict=True)))
    assert max(abs(x - y) for x, y in zip(nearest, halfway, strict=True)) <= 24


def test_the_same_colours_give_the_same_palette() -> None:
    colours = (kit.INK, kit.BLUE, kit.YELLOW)
    first = kit.fixed_palette(colours).getpalette()
    kit.fixed_palette.cache_clear()
    assert kit.fixed_palette(colours).getpalette() == first


@pytest.mark.parametrize("game_id", sorted(BOARDS))
def test_every_colour_constant_of_a_renderer_is_in_its_palette(game_id: str) -> None:
    module, _ = BOARDS[game_id]
    entries = set(palette_colours(kit.module_palette(module.__name__)))
    for name, value in vars(module).items():
        if name.isupper():
            assert kit.colours_in(value) <= entries, name
    assert {kit.TABLE, kit.PANEL, kit.HIGHLIGHT} <= entries


@pytest.mark.parametrize("game_id", sorted(BOARDS))
def test_a_board_keeps_its_colours_through_the_png(game_id: str) -> None:
    """Every pixel drawn in one of the renderer's colours comes out exactly that colour; the
    blends of edges and text come out close (mean difference in the channel most off under 2
    levels, hardly a pixel in a thousand more than 16 levels off)."""
    module, draw = BOARDS[game_id]
    colours = set(kit.module_colours(vars(module)))
    for snap in snapshots(game_id):
        drawn = draw(snap).convert("RGB")
        png = module.render(snap.view, names=snap.names, last=snap.last)
        with Image.open(io.BytesIO(png)) as image:
            assert image.mode == "P"
            encoded = image.convert("RGB")
        diff = largest_channel(ImageChops.difference(drawn, encoded))
        histogram = diff.histogram()
        pixels = sum(histogram)
        assert sum(level * n for level, n in enumerate(histogram)) / pixels < 2
        assert sum(histogram[17:]) / pixels < 0.002
        off = diff.point(lambda v: 255 if v else 0)
        for count, colour in drawn.getcolors(1 << 20) or []:
            if colour not in colours or count < FLAT:
                continue
            exact = ImageChops.difference(drawn, Image.new("RGB", drawn.size, colour))
            where = largest_channel(exact).point(lambda v: 255 if v == 0 else 0)
            assert ImageChops.multiply(off, where).getbbox() is None, (snap.stage, colour)
