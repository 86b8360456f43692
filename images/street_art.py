"""The Street Art board: a view (docs/street-art-contract.md) -> PNG bytes.

Layout, 1200 px wide and at least 1.3 times as wide as tall at every table size (Discord shows
a landscape picture large inline): a header (title, turn, hearts in the middle, draw pile, the
box of hearts lost to the Rain), a status strip (whose turn and what they are doing, or the
final scores; then what just happened), and one tile per player, up to three in a row (name,
visible top card and its name, hearts with the last move's gain or loss, pile, hand). Only the
public parts of the view are drawn: ``hand`` is never read. Yellow marks whose turn it is;
winners are framed white, so that no yellow card melts into a yellow frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from images import kit
from images.kit import Color
from images.lang import N_, tr
from rules.street_art.data import CARDS

WIDTH = 1200
MARGIN = 20
GAP = 18
#: The least size of what a player reads: 8 CSS px when a phone shows the board 285 CSS px wide.
TEXT = 34
#: A small card's corner value, at the 6 CSS px every text keeps on a phone.
CORNER_PX = 26
HEADER_H = 112
STATUS_H = 118
TILE_H = 300
BAND_H = 58
CARD_W, CARD_H = 146, 204
#: Cards to a row in the hand's picture: three keep the names at 8 CSS px on a phone.
HAND_ROW = 3
TILE_CARD = (128, 179)  # the top card on a tile: its name is written out beside it
WINNER = kit.WHITE

PHASE_HINTS = {
    "play": N_("to play a card"),
    "fireworks": N_("is choosing a Fireworks victim"),
    "brass-band": N_("is playing Brass Bands"),
}


# ------------------------------------------------------------------------------- card faces

Painter = Callable[
    [ImageDraw.ImageDraw, Callable[[float, float], tuple[float, float]], float], None
]


@dataclass(frozen=True)
class CardStyle:
    """How a card looks: its colour, its drawn icon, and the mark in its corners."""

    colour: Color
    icon: str
    corner: str  # the value of a Street Star, a symbol for a Special Card


# Each card differs from every other by colour, icon shape and name; Special Cards also have a
# dark face, Street Stars a light one.
STYLES: dict[str, CardStyle] = {
    "breakdancer": CardStyle(kit.ORANGE, "breakdancer", ""),
    "bmx-artist": CardStyle(kit.BLUE, "bmx", ""),
    "juggler": CardStyle(kit.REDDISH_PURPLE, "juggler", ""),
    "fire-breather": CardStyle(kit.VERMILLION, "flame", ""),
    "street-painter": CardStyle(kit.BLUISH_GREEN, "spray", ""),
    "cyr-wheel-acrobat": CardStyle(kit.YELLOW, "wheel", ""),
    "living-statue": CardStyle(kit.GREY, "statue", ""),
    "beatboxer": CardStyle(kit.REDDISH_PURPLE, "mic", "♪"),
    "fireworks": CardStyle(kit.ORANGE, "burst", "✸"),
    "brass-band": CardStyle(kit.YELLOW, "horn", "+1"),
    "rain": CardStyle(kit.SKY_BLUE, "rain", "☂"),
}
UNKNOWN_STYLE = CardStyle(kit.GREY, "unknown", "?")
DARK_FACE = kit.rgb("#1C1F26")
CARTON = kit.rgb("#8C6A43")  # the Rain's carton (the box icon) and its flaps
CARTON_FLAP = kit.rgb("#A98458")


def card_name(card: str, lang: str = "en") -> str:
    """The name of ``card`` in ``lang`` (its id if the data does not know it)."""
    info = CARDS.get(card)
    return tr(lang, info.name) if info else card


def card_corner(card: str) -> str:
    """What a card shows in its corners: the hearts of a Street Star, a symbol for a Special."""
    info = CARDS.get(card)
    if info and info.value is not None:
        return str(info.value)
    return STYLES.get(card, UNKNOWN_STYLE).corner


def is_special(card: str) -> bool:
    info = CARDS.get(card)
    return info is not None and info.kind == "special"


def _stroke(d: ImageDraw.ImageDraw, pts: list[tuple[float, float]], w: float, fill: Color) -> None:
    d.line(pts, fill=fill, width=max(1, round(w)), joint="curve")
    r = w / 2
    for x, y in (pts[0], pts[-1]):
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def _disc(
    d: ImageDraw.ImageDraw,
    c: tuple[float, float],
    r: float,
    fill: Color,
    line: Color | None,
    w: float,
) -> None:
    x, y = c
    d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=line, width=round(w) if line else 0)


def _icon_breakdancer(d, p, u):  # a dancer spinning on their head, legs in a V, arms down
    ink, col = kit.PAPER_INK, kit.ORANGE
    x, y = p(0.5, 0.3)  # a spin line round the legs
    d.arc(
        (x - 0.4 * u, y - 0.1 * u, x + 0.4 * u, y + 0.1 * u),
        10,
        170,
        fill=ink,
        width=round(0.035 * u),
    )
    _stroke(d, [p(0.5, 0.36), p(0.5, 0.66)], 0.16 * u, col)  # body
    _stroke(d, [p(0.5, 0.36), p(0.27, 0.1)], 0.1 * u, ink)  # legs
    _stroke(d, [p(0.5, 0.36), p(0.73, 0.1)], 0.1 * u, ink)
    _stroke(d, [p(0.5, 0.6), p(0.3, 0.84)], 0.08 * u, ink)  # arms to the floor
    _stroke(d, [p(0.5, 0.6), p(0.7, 0.84)], 0.08 * u, ink)
    _disc(d, p(0.5, 0.78), 0.1 * u, col, ink, 0.04 * u)  # head
    _stroke(d, [p(0.12, 0.92), p(0.88, 0.92)], 0.05 * u, ink)  # floor


def _icon_bmx(d, p, u):  # a bicycle: two wheels and a frame
    ink, col = kit.PAPER_INK, kit.BLUE
    for cx in (0.24, 0.76):
        x, y = p(cx, 0.66)
        r = 0.2 * u
        d.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=round(0.06 * u))
        _disc(d, (x, y), 0.04 * u, ink, None, 0)
    frame = [p(0.24, 0.66), p(0.42, 0.4), p(0.5, 0.66), p(0.24, 0.66)]
    _stroke(d, frame, 0.07 * u, col)
    _stroke(d, [p(0.5, 0.66), p(0.7, 0.38), p(0.76, 0.66)], 0.07 * u, col)
    _stroke(d, [p(0.42, 0.4), p(0.68, 0.38)], 0.07 * u, col)
    _stroke(d, [p(0.7, 0.38), p(0.66, 0.22), p(0.8, 0.2)], 0.06 * u, ink)  # handlebar
    _stroke(d, [p(0.36, 0.34), p(0.48, 0.34)], 0.07 * u, ink)  # saddle


def _icon_juggler(d, p, u):  # three balls in an arc over a head and raised arms
    ink, col = kit.PAPER_INK, kit.REDDISH_PURPLE
    x, y = p(0.5, 0.46)
    r = 0.34 * u
    d.arc((x - r, y - r, x + r, y + r), 200, 340, fill=ink, width=round(0.03 * u))
    for bx, by in ((0.2, 0.36), (0.5, 0.12), (0.8, 0.36)):
        _disc(d, p(bx, by), 0.1 * u, col, ink, 0.035 * u)
    _disc(d, p(0.5, 0.58), 0.1 * u, ink, None, 0)  # head
    _stroke(d, [p(0.5, 0.7), p(0.5, 0.95)], 0.14 * u, ink)  # body
    _stroke(d, [p(0.5, 0.74), p(0.24, 0.6), p(0.2, 0.48)], 0.07 * u, ink)  # arms
    _stroke(d, [p(0.5, 0.74), p(0.76, 0.6), p(0.8, 0.48)], 0.07 * u, ink)


def _bezier_path(p, start, curves, steps: int = 12) -> list[tuple[float, float]]:
    """Points along cubic Bezier ``curves`` ((c1, c2, end), ...) from ``start``, via ``p``."""
    pts = [p(*start)]
    x0, y0 = start
    for (x1, y1), (x2, y2), (x3, y3) in curves:
        for i in range(1, steps + 1):
            t = i / steps
            m = 1 - t
            x = m**3 * x0 + 3 * m * m * t * x1 + 3 * m * t * t * x2 + t**3 * x3
            y = m**3 * y0 + 3 * m * m * t * y1 + 3 * m * t * t * y2 + t**3 * y3
            pts.append(p(x, y))
        x0, y0 = x3, y3
    return pts


FLAME_OUTER = (
    (0.5, 0.96),
    [
        ((0.2, 0.96), (0.1, 0.7), (0.2, 0.5)),
        ((0.26, 0.38), (0.34, 0.3), (0.3, 0.14)),
        ((0.42, 0.24), (0.46, 0.32), (0.47, 0.4)),
        ((0.5, 0.26), (0.6, 0.14), (0.56, 0.02)),
        ((0.76, 0.18), (0.92, 0.42), (0.86, 0.66)),
        ((0.82, 0.86), (0.68, 0.96), (0.5, 0.96)),
    ],
)
FLAME_INNER = (
    (0.5, 0.9),
    [
        ((0.32, 0.9), (0.28, 0.72), (0.38, 0.6)),
        ((0.44, 0.52), (0.5, 0.46), (0.52, 0.36)),
        ((0.62, 0.48), (0.74, 0.62), (0.7, 0.76)),
        ((0.67, 0.87), (0.6, 0.9), (0.5, 0.9)),
    ],
)


def _icon_flame(d, p, u):  # a big flame with a yellow core
    d.polygon(
        _bezier_path(p, *FLAME_OUTER),
        fill=kit.VERMILLION,
        outline=kit.PAPER_INK,
        width=round(0.045 * u),
    )
    d.polygon(_bezier_path(p, *FLAME_INNER), fill=kit.YELLOW)


def _icon_spray(d, p, u):  # a spray can with a cloud of paint dots
    ink, col = kit.PAPER_INK, kit.BLUISH_GREEN
    x0, y0 = p(0.18, 0.38)
    x1, y1 = p(0.5, 0.95)
    d.rounded_rectangle(
        (x0, y0, x1, y1), round(0.06 * u), fill=col, outline=ink, width=round(0.04 * u)
    )
    d.rectangle((*p(0.18, 0.55), *p(0.5, 0.7)), fill=kit.PAPER, outline=ink, width=round(0.03 * u))
    d.rectangle((*p(0.25, 0.26), *p(0.43, 0.38)), fill=ink)  # cap
    d.rectangle((*p(0.3, 0.18), *p(0.38, 0.26)), fill=ink)  # nozzle
    for bx, by, r in (
        (0.56, 0.16, 0.05),
        (0.7, 0.08, 0.045),
        (0.72, 0.24, 0.06),
        (0.86, 0.14, 0.05),
        (0.62, 0.3, 0.035),
        (0.88, 0.32, 0.045),
        (0.8, 0.44, 0.035),
    ):
        _disc(d, p(bx, by), r * u, col, ink, 0.02 * u)


def _icon_wheel(d, p, u):  # an acrobat spread like a star inside a big ring
    ink, col = kit.PAPER_INK, kit.YELLOW
    x, y = p(0.5, 0.5)
    r = 0.46 * u
    d.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=round(0.14 * u))
    r2 = r - 0.035 * u
    d.ellipse((x - r2, y - r2, x + r2, y + r2), outline=col, width=round(0.07 * u))
    for end in ((0.2, 0.2), (0.8, 0.2), (0.24, 0.84), (0.76, 0.84)):
        _stroke(d, [p(0.5, 0.5), p(*end)], 0.07 * u, ink)
    _stroke(d, [p(0.5, 0.38), p(0.5, 0.62)], 0.12 * u, ink)
    _disc(d, p(0.5, 0.27), 0.08 * u, ink, None, 0)


def _icon_statue(d, p, u):  # a stiff figure on a plinth
    ink, col = kit.PAPER_INK, kit.GREY
    d.polygon(
        [p(0.2, 0.96), p(0.8, 0.96), p(0.72, 0.8), p(0.28, 0.8)],
        fill=col,
        outline=ink,
        width=round(0.04 * u),
    )
    d.rectangle((*p(0.38, 0.3), *p(0.62, 0.8)), fill=col, outline=ink, width=round(0.04 * u))
    _stroke(d, [p(0.5, 0.3), p(0.5, 0.8)], 0.03 * u, ink)
    _disc(d, p(0.5, 0.18), 0.11 * u, col, ink, 0.04 * u)
    _stroke(d, [p(0.62, 0.36), p(0.8, 0.16)], 0.07 * u, ink)  # one raised arm, frozen


def _icon_mic(d, p, u):  # a microphone with sound waves
    col, ink = kit.REDDISH_PURPLE, kit.WHITE
    d.rounded_rectangle(
        (*p(0.38, 0.1), *p(0.62, 0.5)),
        round(0.12 * u),
        fill=col,
        outline=ink,
        width=round(0.035 * u),
    )
    for yy in (0.22, 0.3, 0.38):
        _stroke(d, [p(0.42, yy), p(0.58, yy)], 0.025 * u, ink)
    x, y = p(0.5, 0.42)
    r = 0.2 * u
    d.arc((x - r, y - r, x + r, y + r), 0, 180, fill=ink, width=round(0.04 * u))
    _stroke(d, [p(0.5, 0.62), p(0.5, 0.84)], 0.06 * u, ink)
    _stroke(d, [p(0.34, 0.88), p(0.66, 0.88)], 0.06 * u, ink)
    x, y = p(0.5, 0.3)
    for r in (0.26, 0.38):
        rr = r * u
        d.arc((x - rr, y - rr, x + rr, y + rr), 320, 40, fill=col, width=round(0.045 * u))
        d.arc((x - rr, y - rr, x + rr, y + rr), 140, 220, fill=col, width=round(0.045 * u))


def _icon_burst(d, p, u):  # a firework: rays with sparks at their ends, and a small second burst
    for cx, cy, r, n, col in ((0.42, 0.44, 0.38, 12, kit.ORANGE), (0.8, 0.8, 0.16, 8, kit.YELLOW)):
        for i in range(n):
            a = 2 * math.pi * i / n
            x0, y0 = cx + 0.3 * r * math.cos(a), cy + 0.3 * r * math.sin(a)
            x1, y1 = cx + r * math.cos(a), cy + r * math.sin(a)
            _stroke(d, [p(x0, y0), p(x1, y1)], 0.045 * u, col)
            _disc(
                d,
                p(cx + (r + 0.05) * math.cos(a), cy + (r + 0.05) * math.sin(a)),
                0.035 * u,
                kit.YELLOW,
                None,
                0,
            )
        _disc(d, p(cx, cy), 0.07 * r / 0.38 * u, kit.WHITE, None, 0)


def _icon_horn(d, p, u):  # a trumpet: mouthpiece, tube with three valves, flared bell
    col, ink = kit.YELLOW, kit.WHITE
    d.polygon(
        [p(0.62, 0.5), p(0.95, 0.24), p(0.95, 0.76)], fill=col, outline=ink, width=round(0.03 * u)
    )
    d.rectangle((*p(0.1, 0.45), *p(0.66, 0.55)), fill=col, outline=ink, width=round(0.025 * u))
    x0, y0 = p(0.22, 0.55)
    x1, y1 = p(0.58, 0.75)
    d.rounded_rectangle((x0, y0, x1, y1), round(0.09 * u), outline=col, width=round(0.06 * u))
    for vx in (0.3, 0.4, 0.5):
        d.rectangle(
            (*p(vx - 0.03, 0.3), *p(vx + 0.03, 0.45)), fill=col, outline=ink, width=round(0.02 * u)
        )
        _disc(d, p(vx, 0.28), 0.045 * u, ink, None, 0)
    d.rectangle((*p(0.04, 0.42), *p(0.1, 0.58)), fill=col, outline=ink, width=round(0.02 * u))


def _icon_rain(d, p, u):  # a cloud with slanted rain drops
    col, ink = kit.SKY_BLUE, kit.WHITE
    for cx, cy, r in ((0.3, 0.4, 0.16), (0.52, 0.3, 0.2), (0.72, 0.42, 0.15)):
        _disc(d, p(cx, cy), r * u + 0.03 * u, ink, None, 0)
    d.rounded_rectangle((*p(0.11, 0.4), *p(0.9, 0.6)), round(0.1 * u), fill=ink)
    for cx, cy, r in ((0.3, 0.4, 0.16), (0.52, 0.3, 0.2), (0.72, 0.42, 0.15)):
        _disc(d, p(cx, cy), r * u, col, None, 0)
    d.rounded_rectangle((*p(0.14, 0.42), *p(0.87, 0.57)), round(0.08 * u), fill=col)
    for x in (0.26, 0.46, 0.66, 0.86):
        _stroke(d, [p(x - 0.02, 0.68), p(x - 0.1, 0.92)], 0.055 * u, col)


def _icon_unknown(d, p, u):
    _disc(d, p(0.5, 0.5), 0.4 * u, kit.GREY, kit.PAPER_INK, 0.04 * u)


ICONS: dict[str, Painter] = {
    "breakdancer": _icon_breakdancer,
    "bmx": _icon_bmx,
    "juggler": _icon_juggler,
    "flame": _icon_flame,
    "spray": _icon_spray,
    "wheel": _icon_wheel,
    "statue": _icon_statue,
    "mic": _icon_mic,
    "burst": _icon_burst,
    "horn": _icon_horn,
    "rain": _icon_rain,
    "unknown": _icon_unknown,
}


@lru_cache(maxsize=64)
def card_face(
    card: str, size: tuple[int, int] = (CARD_W, CARD_H), lang: str = "en", named: bool = True
) -> Image.Image:
    """The face of ``card`` (RGBA, cached): a coloured frame, its value (or symbol) in both top
    corners, its icon, and its name on a band of its colour (left blank when not ``named``: a
    board writes the name beside a small card, larger than the band could). Read-only: paste
    it."""
    style = STYLES.get(card, UNKNOWN_STYLE)
    special = is_special(card)
    face = DARK_FACE if special else kit.PAPER
    w, h = size
    frame = max(4, w // 24)
    band_h = round(h * 0.27)
    corner_r = round(w * 0.15)

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        rad = round(w * 0.09) * s
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), rad, fill=style.colour)
        f = frame * s
        d.rounded_rectangle((f, f, w * s - 1 - f, h * s - 1 - f), rad - f, fill=face)
        d.rectangle((f, (h - band_h) * s, w * s - 1 - f, (h - frame) * s - rad), fill=style.colour)
        d.rounded_rectangle(
            (f, (h - band_h) * s, w * s - 1 - f, h * s - 1 - f), rad - f, fill=style.colour
        )
        for cx in (frame + corner_r + 2, w - frame - corner_r - 2):
            cy = frame + corner_r + 2
            d.ellipse(
                (
                    (cx - corner_r) * s,
                    (cy - corner_r) * s,
                    (cx + corner_r) * s,
                    (cy + corner_r) * s,
                ),
                fill=style.colour,
                outline=kit.WHITE if special else kit.PAPER_INK,
                width=max(2, w // 60) * s,
            )
        icon = round(min(w * 0.66, (h - band_h) - 2 * corner_r - frame))
        ix = (w - icon) / 2
        iy = frame + corner_r * 2 - 2 + ((h - band_h - frame - 2 * corner_r) - icon) / 2

        def point(x: float, y: float) -> tuple[float, float]:
            return ((ix + x * icon) * s, (iy + y * icon) * s)

        ICONS[style.icon](d, point, icon * s)

    im = kit.supersampled(size, paint)
    d = ImageDraw.Draw(im)
    ink = kit.readable_on(style.colour)
    corner = card_corner(card)
    cfont = kit.fit_font(corner, corner_r * 2 - 6, round(corner_r * 1.35), 10, bold=True)
    if not named:  # a board's small card: its value stays readable, filling its corner
        cfont = kit.font(max(cfont.size, CORNER_PX), True)
    with kit.minor_text():  # the card's value, also in its name
        for cx in (frame + corner_r + 2, w - frame - corner_r - 2):
            kit.draw_text(d, (cx, frame + corner_r + 2), corner, cfont, ink, "mm")
    if not named:
        return im
    name = card_name(card, lang)
    longest = max(name.split(), key=len, default=name)
    text_w = w - 2 * frame - 8
    name_font = kit.fit_font(longest, text_w, max(12, round(w * 0.135)), 10, bold=True)
    lines = kit.wrap(name, name_font, text_w, max_lines=2)
    line_h = name_font.size * 1.08
    top = h - band_h / 2 - frame / 2 - line_h * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        kit.draw_text(d, (w / 2, top + i * line_h), line, name_font, ink, "mm")
    return im


@lru_cache(maxsize=16)
def faded_card_face(
    card: str, size: tuple[int, int] = (CARD_W, CARD_H), lang: str = "en", named: bool = True
) -> Image.Image:
    """``card`` at 40% opacity: played by the last move but no longer showing."""
    im = card_face(card, size, lang, named).copy()
    im.putalpha(im.getchannel("A").point(lambda a: a * 2 // 5))
    return im


@lru_cache(maxsize=8)
def empty_slot(size: tuple[int, int] = (CARD_W, CARD_H), lang: str = "en") -> Image.Image:
    """Where a player's pile would be when they have shown no card yet."""
    w, h = size
    im = kit.rounded_card(size, kit.PANEL, kit.PANEL_EDGE, round(w * 0.09), 3).copy()
    empty = tr(lang, "empty")
    with kit.minor_text():  # the tile says "no card showing" in full
        kit.centered_text(ImageDraw.Draw(im), (0, 0, w, h), empty, kit.font(28), kit.MUTED)
    return im


# ----------------------------------------------------------------------------- view helpers


#: Player id -> a drawable name (moved to the kit, which every game's board shares).
display_names = kit.display_names


def heart_changes(events: list[dict[str, Any]]) -> dict[str, int]:
    """Net hearts each player gained (+) or lost (-) in ``events``."""
    delta: dict[str, int] = {}

    def add(player: str, n: int) -> None:
        delta[player] = delta.get(player, 0) + n

    for e in events:
        kind = e.get("type")
        if kind == "took":
            add(e["player"], e["hearts"])
        elif kind == "stole":
            add(e["from"], -e["hearts"])
            add(e["to"], e["hearts"])
        elif kind == "rain":
            for player, n in e.get("losses", {}).items():
                add(player, -n)
    return {p: n for p, n in delta.items() if n}


def last_move_text(last: dict[str, Any] | None, names: dict[str, str], lang: str = "en") -> str:
    """One line saying what the last action did, e.g. "Ana played Fire Breather, stole 4 ♥ from Bo"
    (names shortened so the line keeps its point)."""
    if not last:
        return ""
    name_font = kit.font(28)

    def nm(p: str) -> str:
        return kit.ellipsize(names.get(p, p), name_font, 240)

    parts: list[str] = []
    for e in last.get("events", []):
        kind = e.get("type")
        if kind == "played":
            said = tr(lang, "{who} played {card}")
            parts.append(said.format(who=nm(e["player"]), card=card_name(e["card"], lang)))
        elif kind == "took":
            said = tr(lang, "{who} took {n} ♥ from the middle")
            parts.append(said.format(who=nm(e["player"]), n=e["hearts"]))
        elif kind == "stole":
            said = tr(lang, "{who} stole {n} ♥ from {victim}")
            parts.append(said.format(who=nm(e["to"]), n=e["hearts"], victim=nm(e["from"])))
        elif kind == "rain":
            losses = [f"{nm(p)} −{n}" for p, n in e.get("losses", {}).items() if n]
            parts.append(
                tr(lang, "{losses} ♥ to the box").format(losses=", ".join(losses))
                if losses
                else tr(lang, "nobody lost hearts")
            )
        elif kind == "fizzled":
            parts.append(tr(lang, "{card} fizzled").format(card=card_name(e["card"], lang)))
        elif kind == "reshuffled":
            parts.append(tr(lang, "draw pile reshuffled"))
    if not parts and any(e.get("type") == "turn" for e in last.get("events", [])):
        parts.append(tr(lang, "{who} ended their turn").format(who=nm(last.get("player", ""))))
    # "Ana stole" right after "Ana played" reads better as "stole"
    actor = nm(last.get("player", ""))
    return ", ".join(
        part.removeprefix(f"{actor} ") if i and actor else part for i, part in enumerate(parts)
    )


# -------------------------------------------------------------------------------- drawing


@kit.static_layer(maxsize=8)
def background(height: int) -> Image.Image:
    """The empty table of ``height`` (a fresh copy per call)."""
    return Image.new("RGB", (WIDTH, height), kit.TABLE)


def columns(count: int) -> int:
    """Tiles in a row: all in one row up to three players, then two rows."""
    return count if count <= 3 else (count + 1) // 2


def tile_width(count: int) -> int:
    cols = columns(count)
    return (WIDTH - 2 * MARGIN - (cols - 1) * GAP) // cols


def _tile_xy(index: int, count: int) -> tuple[int, int]:
    cols = columns(count)
    row, col = divmod(index, cols)
    w = tile_width(count)
    in_row = min(cols, count - row * cols)
    left = (WIDTH - in_row * w - (in_row - 1) * GAP) // 2  # a short last row is centred
    return left + col * (w + GAP), MARGIN + HEADER_H + STATUS_H + row * (TILE_H + GAP)


def _draw_header(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], lang: str) -> None:
    kit.draw_text(d, (MARGIN, MARGIN + 2), "STREET ART", kit.font(40, True), kit.INK, "la")
    turn = view.get("turn")
    if turn:
        turn_text = tr(lang, "Turn {n}").format(n=turn)
        kit.draw_text(d, (MARGIN + 2, MARGIN + 56), turn_text, kit.font(TEXT), kit.MUTED, "la")
    stats = [
        (kit.heart(54), str(view.get("middle", 0)), tr(lang, "middle")),
        (kit.card_back((40, 54)), str(view.get("draw_pile", 0)), tr(lang, "draw pile")),
        (_box_icon(54), str(view.get("box", 0)), tr(lang, "lost to Rain")),
    ]
    x = WIDTH - MARGIN
    num_font, cap_font = kit.font(46, True), kit.font(TEXT)
    for icon, number, caption in reversed(stats):
        w = max(kit.text_width(number, num_font), kit.text_width(caption, cap_font))
        x -= w
        kit.draw_text(d, (x + w / 2, MARGIN + 30), number, num_font, kit.INK, "mm")
        kit.draw_text(d, (x + w / 2, MARGIN + 78), caption, cap_font, kit.MUTED, "mm")
        x -= icon.width + 10
        kit.paste(im, icon, (x, MARGIN + 2 + (54 - icon.height) // 2))
        x -= 28


@lru_cache(maxsize=8)
def _box_icon(size: int) -> Image.Image:
    """The box, where hearts lost to the Rain go: an open carton with the Rain's umbrella."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        u = size * s
        w = max(2, size // 18) * s
        d.polygon(
            [
                (0.08 * u, 0.35 * u),
                (0.92 * u, 0.35 * u),
                (0.86 * u, 0.95 * u),
                (0.14 * u, 0.95 * u),
            ],
            fill=CARTON,
            outline=kit.WHITE,
            width=w,
        )
        d.polygon(
            [(0.08 * u, 0.35 * u), (0.0, 0.12 * u), (0.38 * u, 0.12 * u), (0.5 * u, 0.35 * u)],
            fill=CARTON_FLAP,
            outline=kit.WHITE,
            width=w,
        )
        d.polygon(
            [(0.92 * u, 0.35 * u), (u - 1, 0.12 * u), (0.62 * u, 0.12 * u), (0.5 * u, 0.35 * u)],
            fill=CARTON_FLAP,
            outline=kit.WHITE,
            width=w,
        )

    im = kit.supersampled((size, size), paint)
    # The Rain card's umbrella on the carton: this is where the Rain's hearts go.
    with kit.minor_text():  # an icon: the caption under it says what it counts
        kit.text_on(im, (size / 2, size * 0.66), "☂", kit.font(size * 11 // 20, True), kit.SKY_BLUE)
    return im


def _draw_status(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: dict[str, str],
    lang: str,
) -> None:
    top = MARGIN + HEADER_H
    x0, x1 = MARGIN, WIDTH - MARGIN
    outcome = view.get("outcome")
    line1 = (x0, top, x1, top + 60)
    if outcome:
        fnt = kit.font(34, True)
        winners = [names.get(w, w) for w in outcome.get("winners", [])]
        scores = outcome.get("scores", {})
        best = max(scores.values()) if scores else None
        kit.rounded_box(im, line1, 14, kit.HIGHLIGHT)
        left = (
            x0
            + 20
            + kit.draw_text(
                d, (x0 + 20, top + 30), tr(lang, "GAME OVER ·"), fnt, kit.PAPER_INK, "lm"
            )
        )
        right = x1 - 20
        if best is not None:
            right -= kit.draw_text(d, (right, top + 30), f"{best} ♥", fnt, kit.PAPER_INK, "rm") + 16
        suffix = " " + (tr(lang, "wins") if len(winners) == 1 else tr(lang, "win (tie)"))
        room = right - left - 14 - kit.text_width(suffix, fnt)
        each = (room - kit.text_width(" & ", fnt) * (len(winners) - 1)) // max(1, len(winners))
        who = " & ".join(kit.ellipsize(w, fnt, max(60, each)) for w in winners)
        kit.draw_text(
            d,
            (left + 14, top + 30),
            who + suffix,
            fnt,
            kit.PAPER_INK,
            "lm",
            max_width=right - left - 14,
        )
    elif view.get("current"):
        cur = view["current"]
        kit.rounded_box(im, line1, 14, kit.PANEL, kit.HIGHLIGHT, 4)
        box = kit.badge(
            d,
            (x0 + 12, top + 30),
            "▶ " + tr(lang, "TURN"),
            kit.font(TEXT, True),
            kit.HIGHLIGHT,
            anchor="lm",
        )
        phase = view.get("phase", "")
        hint = tr(lang, PHASE_HINTS[phase]) if phase in PHASE_HINTS else ""
        said = f"{names.get(cur, cur)} {hint}"
        fnt = kit.fit_font(said, x1 - box[2] - 32, 36, TEXT, True)
        name = kit.ellipsize(names.get(cur, cur), fnt, 460)
        kit.draw_text(
            d,
            (box[2] + 16, top + 30),
            f"{name} {hint}",
            fnt,
            kit.INK,
            "lm",
            max_width=x1 - box[2] - 32,
        )
    text = last_move_text(view.get("last"), names, lang)
    if text:
        label = tr(lang, "Last:") + " "
        lw = kit.draw_text(d, (x0 + 4, top + 88), label, kit.font(TEXT, True), kit.MUTED, "lm")
        room = x1 - x0 - lw - 8
        fnt = kit.font(TEXT)
        kit.draw_text(d, (x0 + 4 + lw, top + 88), text, fnt, kit.INK, "lm", max_width=room)


def _draw_tile(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    box: kit.Box,
    player: dict[str, Any],
    name: str,
    *,
    is_turn: bool,
    played: str | None,
    change: int,
    winner: bool,
    rank: int | None,
    is_viewer: bool,
    lang: str,
) -> None:
    x, y, x1, y1 = box
    frame = kit.HIGHLIGHT if is_turn else WINNER if winner else kit.PANEL_EDGE
    frame_w = 7 if (is_turn or winner) else 2
    kit.rounded_box(im, box, 18, kit.PANEL, frame, frame_w)

    # name band: yellow with a "▶ ... TURN" when it is their turn, white for a WINNER
    band = (x + frame_w, y + frame_w, x1 - frame_w, y + BAND_H)
    tag = ""
    if is_turn or winner:
        d.rounded_rectangle(band, 12, fill=frame)
        ink = kit.PAPER_INK
        prefix, tag = ("▶ ", tr(lang, "TURN")) if is_turn else ("♛ ", tr(lang, "WINNER"))
    else:
        ink, prefix = kit.INK, ""
    played_tag = tr(lang, "PLAYED")
    if rank is not None and not winner:
        tag = f"#{rank}"
    elif played and not tag:
        tag = played_tag
    if is_viewer:
        you = tr(lang, "YOU")
        tag = f"{tag} · {you}" if tag else you
    tag_font = kit.font(TEXT, True)
    tag_w = kit.text_width(tag, tag_font) + 16 if tag else 0
    if tag:
        tag_ink = kit.WHITE if tag == played_tag else ink
        kit.draw_text(d, (band[2] - 12, (band[1] + band[3]) / 2), tag, tag_font, tag_ink, "rm")
    kit.draw_text(
        d,
        (band[0] + 12, (band[1] + band[3]) / 2),
        prefix + name,
        kit.font(36, True),
        ink,
        "lm",
        max_width=band[2] - band[0] - 24 - tag_w,
    )

    # the visible top card; a card just played and already gone (Rain) shows faded
    cw, ch = TILE_CARD
    cx, cy = x + 18, y + BAND_H + 12
    top = player.get("top")
    if played:  # a ring round the card just played
        d.rounded_rectangle(
            (cx - 6, cy - 6, cx + cw + 6, cy + ch + 6), 16, outline=kit.WHITE, width=5
        )
    if top:
        kit.paste(im, card_face(top, TILE_CARD, lang, False), (cx, cy))
    elif played:
        kit.paste(im, faded_card_face(played, TILE_CARD, lang, False), (cx, cy))
    else:
        kit.paste(im, empty_slot(TILE_CARD, lang), (cx, cy))
    if top:
        top_name = card_name(top, lang)
    elif played:
        top_name = tr(lang, "played {card}").format(card=card_name(played, lang))
    else:
        top_name = tr(lang, "no card showing")
    room = x1 - cx - 14
    name_font = kit.font(TEXT, True)
    if kit.text_width(top_name, name_font) > room:  # the regular face is narrower
        name_font = kit.font(TEXT)
    kit.draw_text(d, (cx - 2, y1 - 26), top_name, name_font, kit.INK, "lm", max_width=room)

    # hearts, and what the last move changed
    sx = cx + cw + 22
    hy = cy + 30
    kit.paste(im, kit.heart(52), (sx, hy - 26))
    hw = kit.draw_text(
        d, (sx + 62, hy), str(player.get("hearts", 0)), kit.font(60, True), anchor="lm"
    )
    if change:
        sign = "+" if change > 0 else "−"
        badge_x = sx + 62 + hw + 12
        right = x1 - 14
        fnt = kit.font(34, True)
        if badge_x + kit.text_width(f"{sign}{abs(change)}", fnt) + 24 > right:  # below, if narrow
            badge_x, badge_y = sx, hy + 50
        else:
            badge_y = hy
        kit.badge(
            d,
            (badge_x, badge_y),
            f"{sign}{abs(change)}",
            fnt,
            kit.GAIN if change > 0 else kit.LOSS,
            kit.PAPER_INK,
            (12, 3),
            "lm",
            outline=kit.WHITE,
        )

    # pile and hand, in the ink of what a player needs to read
    small = kit.font(TEXT)  # the words say pile and hand: no room for icons beside them
    room = x1 - sx - 10
    in_pile = tr(lang, "{n} in pile").format(n=player.get("pile", 0))
    kit.draw_text(d, (sx, cy + 128), in_pile, small, kit.INK, "lm", max_width=room)
    in_hand = tr(lang, "{n} in hand").format(n=int(player.get("hand_size", 0)))
    kit.draw_text(d, (sx, cy + 170), in_hand, small, kit.INK, "lm", max_width=room)


def board_image(view: dict[str, Any], names: dict[str, str], lang: str = "en") -> Image.Image:
    """The board of ``view`` as an RGB image."""
    players = view["players"]
    names = display_names(view, names, lang)
    rows = -(-len(players) // columns(len(players)))
    height = MARGIN + HEADER_H + STATUS_H + rows * (TILE_H + GAP) - GAP + MARGIN
    im = background(height)
    d = ImageDraw.Draw(im)
    _draw_header(im, d, view, lang)
    _draw_status(im, d, view, names, lang)

    last = view.get("last") or {}
    changes = heart_changes(last.get("events", []))
    played = {e["player"]: e["card"] for e in last.get("events", []) if e.get("type") == "played"}
    outcome = view.get("outcome") or {}
    winners = set(outcome.get("winners", []))
    scores = outcome.get("scores", {})
    ranks = {p: 1 + sum(other > s for other in scores.values()) for p, s in scores.items()}
    w = tile_width(len(players))
    for i, player in enumerate(players):
        pid = player["id"]
        x, y = _tile_xy(i, len(players))
        _draw_tile(
            im,
            d,
            (x, y, x + w, y + TILE_H),
            player,
            names[pid],
            is_turn=not outcome and pid == view.get("current"),
            played=played.get(pid),
            change=changes.get(pid, 0),
            winner=pid in winners,
            rank=ranks.get(pid),
            is_viewer=pid == view.get("viewer"),
            lang=lang,
        )
    return im


def render(
    view: dict[str, Any], *, names: dict[str, str], lang: str = "en", last: Sequence[str] = ()
) -> bytes:
    """The Street Art board of ``view`` as PNG bytes (public parts only; ``hand`` is ignored).
    The view carries the last move's events, which the board tells itself, with the heart
    changes on the tiles; ``last`` is for boards whose view does not."""
    return kit.png_bytes(board_image(view, names, lang), kit.module_palette(__name__))


def render_face(card: str, *, lang: str = "en") -> bytes:
    """One card's face alone, as the hand draws it: a card the hand page makes a button of."""
    im = Image.new("RGB", (CARD_W, CARD_H), kit.TABLE)
    face = card_face(card, lang=lang)
    im.paste(face, (0, 0), face)
    return kit.png_bytes(im, kit.module_palette(__name__))


def render_hand(view: dict[str, Any], *, names: dict[str, str], lang: str = "en") -> bytes | None:
    """The viewer's hand as card faces, ``HAND_ROW`` to a row (a narrower picture: a phone
    shows the card names larger), for their private panel; None when empty."""
    hand = view.get("hand") or []
    if not hand:
        return None
    per_row = min(HAND_ROW, len(hand))
    rows = -(-len(hand) // per_row)
    width = MARGIN + per_row * (CARD_W + GAP) - GAP + MARGIN
    im = Image.new("RGB", (width, 2 * MARGIN + rows * (CARD_H + GAP) - GAP), kit.TABLE)
    for i, card in enumerate(hand):
        face = card_face(card, lang=lang)
        row, col = divmod(i, per_row)
        im.paste(face, (MARGIN + col * (CARD_W + GAP), MARGIN + row * (CARD_H + GAP)), face)
    return kit.png_bytes(im, kit.module_palette(__name__))
