"""The drawing kit every game renderer shares: palette, fonts, text fitting, tokens, PNG output.

Everything here is deterministic (same arguments, same pixels) and the costly parts are cached:
fonts by size, and static layers (hearts, card backs, panels) by their hashable arguments. Cached
images are shared: paste them, never draw on them; call ``.copy()`` first to draw.
"""

from __future__ import annotations

import io
import math
import sys
import unicodedata
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from images.lang import tr
from locales import LANGS as CATALOG_LANGS

Color = tuple[int, int, int]
Box = tuple[int, int, int, int]

FONT_DIR = Path(__file__).parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

#: Supersampling factor for anti-aliased shapes (Pillow draws shapes without anti-aliasing).
SS = 4

#: ``png_bytes`` defaults, measured on the 1100x1152 five-player Street Art board (2 cores):
#: RGB level 1: 24 ms, 190 KB; RGB level 6: 34 ms, 172 KB; 256-colour palette then level 3:
#: 4 ms, 70 KB; level 6: 10 ms, 59 KB; level 9: 73 ms, 54 KB. Flat boards lose nothing visible
#: to a palette, so palette + level 1 it is (10-15 % more bytes than level 3, the landscape
#: boards stay under 100 KB, for a third to half less encoding time). The palette is fixed per
#: renderer module (``module_palette``), built once per process: an adaptive palette per board
#: cost 2.5-3 ms a board (octree, then a nearest-colour search for each of its colours); mapping
#: onto a palette image that is reused keeps Pillow's colour cache warm: about 1 ms.
PNG_COMPRESS_LEVEL = 1
PNG_COLORS = 256
#: Blends between every two palette colours that the fixed palette approximates: anti-aliased
#: edges and text are blends of a shape's colour and what lies under it.
BLEND_STEPS = (1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6)


def rgb(hex_colour: str) -> Color:
    """``"#E69F00"`` -> ``(230, 159, 0)``."""
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


# Okabe & Ito (2008), the colour-blind-safe qualitative palette, plus neutrals for a dark table.
BLACK = rgb("#000000")
ORANGE = rgb("#E69F00")
SKY_BLUE = rgb("#56B4E9")
BLUISH_GREEN = rgb("#009E73")
YELLOW = rgb("#F0E442")
BLUE = rgb("#0072B2")
VERMILLION = rgb("#D55E00")
REDDISH_PURPLE = rgb("#CC79A7")
OKABE_ITO: dict[str, Color] = {
    "black": BLACK,
    "orange": ORANGE,
    "sky_blue": SKY_BLUE,
    "bluish_green": BLUISH_GREEN,
    "yellow": YELLOW,
    "blue": BLUE,
    "vermillion": VERMILLION,
    "reddish_purple": REDDISH_PURPLE,
}

WHITE = rgb("#FFFFFF")
GREY = rgb("#9AA0A6")
TABLE = rgb("#14171C")  # image background
PANEL = rgb("#242A33")  # a player's area
PANEL_EDGE = rgb("#3A424E")
INK = rgb("#F5F7FA")  # main text on dark
MUTED = rgb("#C3CAD3")  # secondary text on dark (contrast > 9:1 on PANEL)
PAPER = rgb("#FBF8F1")  # card face
PAPER_INK = rgb("#111111")  # text on cards
HEART = VERMILLION
GAIN = BLUISH_GREEN  # "+n" badges (always with the sign: colour is never the only cue)
LOSS = VERMILLION  # "-n" badges
HIGHLIGHT = YELLOW  # whose turn it is


def luminance(colour: Color) -> float:
    """WCAG relative luminance of ``colour``."""

    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = colour
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: Color, b: Color) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable_on(background: Color) -> Color:
    """Black or white, whichever contrasts more with ``background``."""
    return PAPER_INK if contrast(PAPER_INK, background) >= contrast(WHITE, background) else WHITE


# ------------------------------------------------------------------------------ text records

#: Every text the kit draws while ``recording_texts`` runs: ``(text, font size in px, needed)``.
#: A phone shows a board ``W`` px wide at about 285 CSS px, so a text's size on the phone is
#: ``size * 285 / W``: the board test holds the floors (8 CSS px for what a player needs, 6 for
#: anything) on these records. ``None`` when nobody records (the bot: no cost but a test).
_TEXTS: list[tuple[str, int, bool]] | None = None
#: Whether the text drawn now is decoration a player can do without (``minor_text``).
_MINOR = False


@contextmanager
def recording_texts() -> Iterator[list[tuple[str, int, bool]]]:
    """Record every text drawn inside the block (see ``_TEXTS``). The cached layers (chips,
    pawns, card faces) record only when they are built: clear their caches first to see all."""
    global _TEXTS
    outer, _TEXTS = _TEXTS, []
    try:
        yield _TEXTS
    finally:
        _TEXTS = outer


@contextmanager
def minor_text() -> Iterator[None]:
    """Texts drawn inside the block are decoration (a scale's tick numbers, a title a player
    knows): held to the 6 CSS px floor only, not the 8 of what a player needs."""
    global _MINOR
    outer, _MINOR = _MINOR, True
    try:
        yield
    finally:
        _MINOR = outer


def note_text(text: str, fnt: ImageFont.FreeTypeFont) -> None:
    """Record ``text`` drawn in ``fnt`` if a ``recording_texts`` block runs."""
    if _TEXTS is not None and text.strip():
        _TEXTS.append((text, int(fnt.size), not _MINOR))


def text_on(
    im: Image.Image,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: Color,
    anchor: str = "mm",
) -> None:
    """Pillow's own ``text`` on ``im`` (for a token's label, drawn once into a cached layer),
    recorded like every other text."""
    note_text(text, fnt)
    ImageDraw.Draw(im).text(xy, text, font=fnt, fill=fill, anchor=anchor)


# ---------------------------------------------------------------------------------------- fonts


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The vendored DejaVu Sans at ``size`` px, loaded once per (size, weight)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


def bold(size: int) -> ImageFont.FreeTypeFont:
    """``font(size, bold=True)``."""
    return font(size, True)


#: Boards drawn for a phone (Street Kings, ArtSee, Mural) are this wide; a phone shows a post's
#: picture about 285 CSS px wide, so ``PHONE_TEXT`` px there is 8 CSS px, the least a player
#: reads, and ``PHONE_TINY`` 6 CSS px, the least of any text.
PHONE_WIDTH = 800
PHONE_TEXT = 23
PHONE_TINY = 17


@lru_cache(maxsize=8192)
def text_width(text: str, fnt: ImageFont.FreeTypeFont) -> int:
    """Advance width of ``text`` in pixels (cached: layouts measure the same labels again and
    again, every turn)."""
    return round(fnt.getlength(text))


@lru_cache(maxsize=8)
def _notdef_mask(bold: bool) -> bytes:
    return bytes(font(40, bold).getmask("\U0010fffd"))


@lru_cache(maxsize=4096)
def has_glyph(char: str, bold: bool = False) -> bool:
    """Whether the vendored font draws ``char`` (an emoji or CJK character would be a box)."""
    if unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn"):
        return False
    return bytes(font(40, bold).getmask(char)) != _notdef_mask(bold)


def drawable(text: str, bold: bool = False) -> str:
    """``text`` without the characters the font cannot draw (and the marks, joiners and variation
    selectors attached to them), whitespace collapsed. Never raises."""
    out: list[str] = []
    kept = False
    for char in text:
        if unicodedata.category(char) in ("Mn", "Me", "Cf"):  # attaches to what came before
            if kept:
                out.append(char)
            continue
        kept = char.isspace() or has_glyph(char, bold)
        if kept:
            out.append(" " if char.isspace() else char)
    return " ".join("".join(out).split())


def ellipsize(text: str, fnt: ImageFont.FreeTypeFont, max_width: int, ellipsis: str = "…") -> str:
    """``text`` cut (at a character) and ended by ``ellipsis`` so that it fits ``max_width``."""
    if text_width(text, fnt) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ellipsis, fnt) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ellipsis if lo else ellipsis


def fit_font(
    text: str, max_width: int, max_size: int, min_size: int, bold: bool = False
) -> ImageFont.FreeTypeFont:
    """The largest font in ``[min_size, max_size]`` in which ``text`` fits ``max_width``
    (``min_size`` if none does: ellipsize after that)."""
    size = max_size
    while size > min_size and text_width(text, font(size, bold)) > max_width:
        size -= 2
    return font(max(size, min_size), bold)


def wrap(text: str, fnt: ImageFont.FreeTypeFont, max_width: int, max_lines: int = 2) -> list[str]:
    """Words of ``text`` in at most ``max_lines`` lines of ``max_width``; the last is ellipsized."""
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < max_lines:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}", fnt) <= max_width:
            line = f"{line} {words.pop(0)}"
        lines.append(line)
    if words:
        lines[-1] = ellipsize(f"{lines[-1]} {' '.join(words)}", fnt, max_width)
    return [ellipsize(line, fnt, max_width) for line in lines]


def draw_lines(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: Color,
    max_width: int,
    max_lines: int,
    step: int,
) -> int:
    """``text`` wrapped to ``max_width`` on up to ``max_lines`` lines ``step`` px apart from
    ``xy`` (a phone board's status and last turn: wrapped, not shrunk); returns the y under
    the last line."""
    x, y = xy
    for line in wrap(text, fnt, max_width, max_lines):
        draw_text(draw, (x, y), line, fnt, fill)
        y += step
    return y


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: Color = INK,
    anchor: str = "la",
    max_width: int | None = None,
    stroke: tuple[int, Color] | None = None,
) -> int:
    """Draw ``text`` (ellipsized to ``max_width`` if given) at ``xy`` with a Pillow ``anchor``
    (``"la"`` left-ascender, ``"mm"`` centred, ``"rm"`` right-middle...); returns its width."""
    if max_width is not None:
        text = ellipsize(text, fnt, max_width)
    if not text:
        return 0
    note_text(text, fnt)
    x, y = round(xy[0]), round(xy[1])
    if stroke:  # as Pillow strokes: the outline in its colour, then the letters over it
        sw, sf = stroke
        mask, (dx, dy) = text_mask(text, fnt, anchor, sw)
        draw.bitmap((x + dx, y + dy), mask, fill=sf)
    mask, (dx, dy) = text_mask(text, fnt, anchor)
    draw.bitmap((x + dx, y + dy), mask, fill=fill)
    return text_width(text, fnt)


@lru_cache(maxsize=4096)
def text_mask(
    text: str, fnt: ImageFont.FreeTypeFont, anchor: str, stroke_width: int = 0
) -> tuple[Image.Image, tuple[int, int]]:
    """``text`` in ``fnt`` (thickened by ``stroke_width`` px all round: an outline) as a cached
    anti-aliased mask and its offset from the anchor point: laying out and rasterising a label
    costs more than pasting it, and boards repeat labels from turn to turn."""
    box = fnt.getbbox(text, anchor=anchor, stroke_width=stroke_width)
    x0, y0, x1, y1 = (round(edge) for edge in box)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text(
        (-x0, -y0),
        text,
        font=fnt,
        fill=255,
        anchor=anchor,
        stroke_width=stroke_width,
        stroke_fill=255,
    )
    return mask, (x0, y0)


def centered_text(
    draw: ImageDraw.ImageDraw,
    box: Box,
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: Color = INK,
) -> None:
    """Draw ``text`` centred in ``box`` (ellipsized to its width)."""
    x0, y0, x1, y1 = box
    draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), text, fnt, fill, "mm", max_width=x1 - x0)


# ------------------------------------------------------------------------------ shapes & tokens


def supersampled(
    size: tuple[int, int], paint: Callable[[ImageDraw.ImageDraw, int], None]
) -> Image.Image:
    """An anti-aliased RGBA image of ``size``: ``paint(draw, scale)`` draws at ``scale`` times the
    size (multiply every coordinate by ``scale``), then it is downsampled."""
    w, h = size
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SS)
    return big.resize((w, h), Image.Resampling.LANCZOS)


def paste(base: Image.Image, layer: Image.Image, xy: tuple[int, int]) -> None:
    """Alpha-composite ``layer`` (RGBA) onto ``base`` at ``xy`` (top-left). A large layer's
    opaque middle is copied, and only its rim blended (``paste_plan``): the same pixels, and
    blending a whole 281 x 330 highlighted tile cost 650 us (Street Kings), copying it 30."""
    if layer.mode != "RGBA":
        base.paste(layer, xy)
        return
    if layer.width * layer.height < PLAN_AREA:
        base.paste(layer, xy, layer)
        return
    x, y = xy
    for part, (dx, dy), blend in paste_plan(layer):
        base.paste(part, (x + dx, y + dy), part if blend else None)


#: Below this many pixels a layer is blended whole: the plan's extra pastes cost as much as
#: they save (measured: neutral for ArtSee's card faces, 44 x 53 to 100 x 120).
PLAN_AREA = 16384
_PLANS: dict[int, tuple[weakref.ref[Image.Image], list[tuple[Image.Image, tuple[int, int], bool]]]]
_PLANS = {}


def paste_plan(layer: Image.Image) -> list[tuple[Image.Image, tuple[int, int], bool]]:
    """How ``paste`` lays ``layer`` down, worked out once per layer (the static layers live for
    the process): the largest inset rectangle whose pixels are all opaque, as RGB to copy, and
    the four bands round it to blend; or the whole layer to blend if none is opaque."""
    key = id(layer)
    known = _PLANS.get(key)
    if known is not None and known[0]() is layer:
        return known[1]
    w, h = layer.size
    alpha = layer.getchannel("A")
    inset = next(
        (
            k
            for k in range(min(w, h) // 2)
            if alpha.crop((k, k, w - k, h - k)).getextrema() == (255, 255)
        ),
        None,
    )
    plan: list[tuple[Image.Image, tuple[int, int], bool]]
    if inset is None:
        plan = [(layer, (0, 0), True)]
    else:
        k = inset
        plan = [(layer.crop((k, k, w - k, h - k)).convert("RGB"), (k, k), False)]
        bands = ((0, 0, w, k), (0, h - k, w, h), (0, k, k, h - k), (w - k, k, w, h - k))
        plan += [(layer.crop(b), (b[0], b[1]), True) for b in bands if b[2] > b[0] and b[3] > b[1]]

    plans = _PLANS  # held here: at exit the module's names are cleared before layers die

    def forget(_: weakref.ref[Image.Image]) -> None:  # a layer gone, its id may come again
        plans.pop(key, None)

    plans[key] = (weakref.ref(layer, forget), plan)
    return plan


@lru_cache(maxsize=256)
def rounded_card(
    size: tuple[int, int],
    fill: Color,
    outline: Color | None = None,
    radius: int = 16,
    outline_width: int = 3,
) -> Image.Image:
    """A cached anti-aliased rounded rectangle (RGBA) - a card body, a panel, a pill."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        w, h = size
        d.rounded_rectangle(
            (0, 0, w * s - 1, h * s - 1),
            radius * s,
            fill=fill,
            outline=outline,
            width=outline_width * s if outline else 0,
        )

    return supersampled(size, paint)


@lru_cache(maxsize=256)
def flat_box(
    size: tuple[int, int],
    radius: int,
    fill: Color | None,
    outline: Color | None,
    width: int,
    under: Color,
) -> Image.Image:
    """Pillow's own rounded rectangle of ``size`` (as ``rounded_box`` draws it), opaque on
    ``under``: cached, since its corner arcs cost 100-350 us a panel where a paste costs 5-30."""
    w, h = size
    im = Image.new("RGB", (w + 1, h + 1), under)
    ImageDraw.Draw(im).rounded_rectangle(
        (0, 0, w, h), radius, fill=fill, outline=outline, width=width
    )
    return im


def rounded_box(
    im: Image.Image,
    box: Box,
    radius: int,
    fill: Color | None,
    outline: Color | None = None,
    width: int = 1,
    under: Color = TABLE,
) -> None:
    """``ImageDraw.rounded_rectangle(box, ...)`` on a part of ``im`` that is plain ``under``
    (a panel on the table), pixel for pixel, pasted from ``flat_box``."""
    x0, y0, x1, y1 = (int(v) for v in box)
    im.paste(flat_box((x1 - x0, y1 - y0), radius, fill, outline, width, under), (x0, y0))


def heart_polygon(cx: float, cy: float, r: float, steps: int = 48) -> list[tuple[float, float]]:
    """Points of a heart centred on ``(cx, cy)`` with half-width ``r`` (the classic parametric
    curve, scaled to fit a ``2r`` square)."""
    pts = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((cx + x * r / 17, cy - (y + 2.5) * r / 17))
    return pts


@lru_cache(maxsize=64)
def heart(size: int, fill: Color = HEART, outline: Color | None = WHITE) -> Image.Image:
    """A cached heart icon (RGBA, ``size`` square) - the audience chip of Street Art."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        c = size * s / 2
        pts = heart_polygon(c, c, size * s * 0.47)
        if outline:
            d.polygon(pts, fill=outline)
            pts = heart_polygon(c, c, size * s * 0.47 - max(2, size // 14) * s)
        d.polygon(pts, fill=fill)

    return supersampled((size, size), paint)


@lru_cache(maxsize=256)
def chip(
    size: int, fill: Color, label: str = "", label_fill: Color = PAPER_INK, ring: Color = WHITE
) -> Image.Image:
    """A cached round token with a ring and an optional centred label."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.ellipse((0, 0, size * s - 1, size * s - 1), fill=ring)
        inset = max(2, size // 12) * s
        d.ellipse((inset, inset, size * s - 1 - inset, size * s - 1 - inset), fill=fill)

    im = supersampled((size, size), paint)
    if label:
        fnt = fit_font(label, int(size * 0.7), int(size * 0.55), 10, bold=True)
        text_on(im, (size / 2, size / 2), label, fnt, label_fill)
    return im


@lru_cache(maxsize=32)
def card_back(size: tuple[int, int]) -> Image.Image:
    """A cached face-down card: a dark body with a diagonal stripe pattern and a light border."""
    w, h = size

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        r = max(3, w // 8) * s
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), r, fill=WHITE)
        b = max(2, w // 14) * s
        d.rounded_rectangle((b, b, w * s - 1 - b, h * s - 1 - b), r - b, fill=BLUE)
        step = max(4, w // 4) * s
        for k in range(-h * s, w * s, step):
            d.line((k + b, h * s - b, k + h * s, b), fill=SKY_BLUE, width=max(1, w // 16) * s)
        # re-frame so the stripes stay inside the border
        d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), r, outline=WHITE, width=b)

    return supersampled(size, paint)


@lru_cache(maxsize=4096)
def _badge_text_size(text: str, fnt: ImageFont.FreeTypeFont) -> tuple[int, int]:
    left, _, right, _ = fnt.getbbox(text, anchor="ls")
    ascent, descent = fnt.getmetrics()
    return round(right - left), ascent + descent


def badge(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: Color,
    text_fill: Color = PAPER_INK,
    pad: tuple[int, int] = (14, 6),
    anchor: str = "la",
    outline: Color | None = None,
) -> Box:
    """A pill with ``text``; ``anchor`` places the pill as Pillow places text (``"la"`` top-left,
    ``"ra"`` top-right, ``"lm"`` left-middle, ``"mm"`` centre...). Returns the pill's box."""
    tw, th = _badge_text_size(text, fnt)
    w, h = tw + 2 * pad[0], th + 2 * pad[1]
    x, y = xy
    x -= {"l": 0, "m": w // 2, "r": w}[anchor[0]]
    y -= {"a": 0, "t": 0, "m": h // 2, "s": h, "b": h, "d": h}[anchor[1]]
    draw.rounded_rectangle(
        (x, y, x + w, y + h), h // 2, fill=fill, outline=outline, width=3 if outline else 0
    )
    draw_text(draw, (x + w / 2, y + h / 2), text, fnt, text_fill, "mm")
    return (x, y, x + w, y + h)


# -------------------------------------------------------------------------------------- names


def display_names(view: dict[str, Any], names: dict[str, str], lang: str = "en") -> dict[str, str]:
    """Player id -> a name the font can draw: ``names`` (the caller's display names) if given,
    else the id; a name with nothing drawable left (all emoji, say) becomes "Player <seat>"."""
    out = {}
    for i, player in enumerate(view["players"]):
        pid = player["id"]
        name = drawable(str(names.get(pid) or pid), bold=True)
        out[pid] = name or tr(lang, "Player {n}").format(n=player.get("seat", i) + 1)
    return out


#: The languages the boards draw their words in: every language of the catalogs.
LANGS = CATALOG_LANGS


def check_lang(lang: str) -> str:
    """``lang`` if the boards can draw it (ValueError otherwise: no silent English)."""
    if lang not in LANGS:
        raise ValueError(f"no board words for language {lang!r}; have {', '.join(LANGS)}")
    return lang


def plain(sentence: str) -> str:
    """A sentence of ``bot.words`` (Discord markdown) as drawable text: no ``**`` or backticks,
    and only the characters the font draws."""
    return drawable(sentence.replace("**", "").replace("`", ""))


def last_line(last: Sequence[str]) -> str:
    """The last turn's sentences as one line for a board's "Last:" strip."""
    return " ".join(text for text in (plain(s) for s in last) if text)


# ------------------------------------------------------------------------------------- output


def png_bytes(
    image: Image.Image,
    palette: Image.Image | None,
    compress_level: int = PNG_COMPRESS_LEVEL,
) -> bytes:
    """``image`` as PNG bytes, tuned for speed (``optimize=False``) and deterministic (no
    metadata). With ``palette`` (a ``fixed_palette``) the image is first mapped onto it (nearest
    colour, no dither): smaller and faster to encode for flat drawings; ``None`` keeps RGB."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=compress_level)
    return out.getvalue()


def _is_colour(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 3
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    )


def colours_in(value: object, depth: int = 3) -> set[Color]:
    """The colours in a constant: a colour itself, or those in a dict's values, a list, a tuple
    or a named tuple (a card style), ``depth`` levels down."""
    if _is_colour(value):
        return {value}  # type: ignore[arg-type]
    if depth == 0:
        return set()
    items: Sequence[object]
    if isinstance(value, dict):
        items = list(value.values())
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return set()
    return set().union(*(colours_in(item, depth - 1) for item in items))


def module_colours(namespace: dict[str, object]) -> tuple[Color, ...]:
    """Every colour constant of a renderer module and of this kit, sorted: the flat colours of
    its pictures. Collected from the namespaces so that a new colour constant joins the palette
    without a second list to keep in step (a test checks every large flat area stays exact)."""
    found: set[Color] = set()
    for names in (globals(), namespace):
        for name, value in names.items():
            if name.isupper():
                found |= colours_in(value)
    return tuple(sorted(found))


#: Pillow maps a colour onto a palette through a cache of 4x4x4-level cells, each holding the
#: entry nearest the cell's corner, so a colour lands up to 3 levels per channel off itself. A
#: blend entry at least this many levels (in some channel) from every palette colour can never
#: be nearer such a corner than the colour itself: flat areas keep their exact colour.
EXACT_CLEARANCE = 10


def mix(a: Color, b: Color, t: float) -> Color:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return (r, g, bl)


def _apart(a: Color, b: Color) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) >= EXACT_CLEARANCE


@lru_cache(maxsize=16)
def fixed_palette(colours: tuple[Color, ...]) -> Image.Image:
    """A palette image for ``png_bytes``: ``colours`` exactly (flat areas keep their colour),
    then, in the slots left of 256, an octree summary of the blends of every two of them
    (``BLEND_STEPS``; those within ``EXACT_CLEARANCE`` of a colour left out), which is what
    anti-aliased edges and text are made of. Built once per colour set; reusing the same
    palette image keeps Pillow's nearest-colour cache warm, so mapping a board costs about 1 ms.
    Deterministic: the same colours, the same palette."""
    exact = list(dict.fromkeys(colours))[:PNG_COLORS]
    blends = {
        blend
        for i, a in enumerate(exact)
        for b in exact[i + 1 :]
        for blend in (mix(a, b, t) for t in BLEND_STEPS)
        if all(_apart(blend, colour) for colour in exact)
    }
    flat = [c for colour in exact for c in colour]
    room = PNG_COLORS - len(exact)
    if blends and room:
        ordered = sorted(blends)
        strip = Image.new("RGB", (len(ordered), 1))
        strip.putdata(ordered)  # type: ignore[arg-type]
        summary = strip.quantize(
            colors=min(room, len(ordered)),
            method=Image.Quantize.FASTOCTREE,
            dither=Image.Dither.NONE,
        )
        flat += (summary.getpalette() or [])[: 3 * min(room, len(ordered))]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + [0] * (3 * PNG_COLORS - len(flat)))
    return palette


@lru_cache(maxsize=16)
def module_palette(module: str) -> Image.Image:
    """The fixed palette of the pictures of the renderer module named ``module`` (its
    ``module_colours``), built on first use: call it from a render, after the module has
    defined its constants."""
    return fixed_palette(module_colours(vars(sys.modules[module])))


def static_layer(
    maxsize: int = 32,
) -> Callable[[Callable[..., Image.Image]], Callable[..., Image.Image]]:
    """Decorator for a builder of a static layer (a background, a board) that callers draw on:
    the layer is built once per hashable argument tuple and each call returns a fresh copy."""

    def wrap_builder(build: Callable[..., Image.Image]) -> Callable[..., Image.Image]:
        cached = lru_cache(maxsize=maxsize)(build)

        def copy_of(*args: object) -> Image.Image:
            return cached(*args).copy()

        copy_of.__name__ = build.__name__
        copy_of.__doc__ = build.__doc__
        copy_of.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        return copy_of

    return wrap_builder
