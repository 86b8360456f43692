"""The kit's cached shortcuts draw what Pillow draws: a large layer pasted as an opaque middle
plus blended bands, a panel pasted from a cached rounded rectangle, outlined text from cached
masks, ArtSee's covered cards pasted only as far as they show. Each is compared pixel for pixel
with the plain drawing it replaces."""

from __future__ import annotations

import random

from PIL import Image, ImageChops, ImageDraw

from images import artsee, kit


def noisy(size: tuple[int, int], seed: int = 1) -> Image.Image:
    """A base that is not flat anywhere, so a paste that skipped blending would show."""
    return Image.frombytes("RGB", size, random.Random(seed).randbytes(3 * size[0] * size[1]))


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def test_a_large_layer_pastes_as_pillow_blends_it() -> None:
    card = kit.rounded_card((281, 190), kit.PANEL, kit.HIGHLIGHT, 16, 5)
    assert card.width * card.height >= kit.PLAN_AREA
    plan = kit.paste_plan(card)
    assert [blend for _, _, blend in plan] == [False, True, True, True, True]
    ours, pillows = noisy((320, 230)), noisy((320, 230))
    kit.paste(ours, card, (17, 11))
    pillows.paste(card, (17, 11), card)
    assert same(ours, pillows)
    assert kit.paste_plan(card) is plan  # worked out once per layer


def test_a_layer_with_no_opaque_middle_is_blended_whole() -> None:
    glass = Image.new("RGBA", (200, 200), (*kit.SKY_BLUE, 128))
    assert kit.paste_plan(glass) == [(glass, (0, 0), True)]
    ours, pillows = noisy((220, 220), 2), noisy((220, 220), 2)
    kit.paste(ours, glass, (5, 7))
    pillows.paste(glass, (5, 7), glass)
    assert same(ours, pillows)


def test_a_panel_on_the_table_is_pillows_rounded_rectangle() -> None:
    box = (30, 40, 330, 270)
    ours = Image.new("RGB", (400, 320), kit.TABLE)
    pillows = ours.copy()
    kit.rounded_box(ours, box, 16, kit.PANEL, kit.HIGHLIGHT, 5)
    ImageDraw.Draw(pillows).rounded_rectangle(
        box, 16, fill=kit.PANEL, outline=kit.HIGHLIGHT, width=5
    )
    assert same(ours, pillows)


def test_outlined_text_is_pillows_stroked_text() -> None:
    fnt = kit.font(24, True)
    ours = Image.new("RGB", (300, 80), kit.PANEL)
    pillows = ours.copy()
    kit.draw_text(
        ImageDraw.Draw(ours), (150, 40), "from Dee", fnt, kit.WHITE, "mm", stroke=(3, kit.BLUE)
    )
    ImageDraw.Draw(pillows).text(
        (150, 40),
        "from Dee",
        font=fnt,
        fill=kit.WHITE,
        anchor="mm",
        stroke_width=3,
        stroke_fill=kit.BLUE,
    )
    assert same(ours, pillows)


def test_artsee_columns_look_the_same_with_covered_cards_pasted_in_part() -> None:
    """A covered exhibit is pasted only as far as it shows; the column is the same picture."""
    cards = sorted(artsee.EXHIBITS)[:5]
    for width, height in ((44, 53), (76, 91), (100, 120)):
        strip = artsee.strip_h(width)
        whole, parts = (
            Image.new("RGB", (140, 400), kit.PANEL),
            Image.new("RGB", (140, 400), kit.PANEL),
        )
        for k, card in enumerate(cards):
            face = artsee.card_face(card, width, height)
            kit.paste(whole, face, (10, 10 + k * strip))
            shown = face if k == len(cards) - 1 else artsee.covered_face(card, width, height, strip)
            assert shown.height <= height
            kit.paste(parts, shown, (10, 10 + k * strip))
        assert same(whole, parts)
        assert artsee.covered_face(cards[0], width, height, strip).height < height
