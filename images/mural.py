"""The Street Art: Mural pictures: a public view -> PNG bytes.

The board a post carries (``render``) is drawn for a phone (see ``PHONE_W``). The detail
picture (``render_detail``, for the Board button) is the table as it lies; its layout, 1200 px
wide and at least 1.3 times as wide as tall (Discord shows a landscape picture
large inline): a header (round, whose turn and what they are choosing, the last turn, the end
warning); the four paint discs in a row with their 8 coloured, lettered segments, the cubes on
them and a mark at each contact (= when the touching segments match), and beside them the paint
queue (its 3 board spaces, then the rest); then the mural grid with every painted card (element,
points, half-discs on its edges, the painter's shape and initial) and the element tokens on its
border, the display with the deck top, and the techniques; then one panel per player in a row
(backpack, grafiteiros, sprays, rotations used, score).
Colour is never the only cue: paints carry letters (the advanced paint a star, so that "A" only
ever names a grid column), players a shape and an initial.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from images import kit
from images.kit import Color
from images.lang import N_, tr, tr_n
from rules.mural.data import CARDS, SLOTS, TECHNIQUES

WIDTH = 1200
MARGIN = 20
HEADER_H = 94
DISC_R = 74
DISC_GAP = 26
DISCS_TOP = HEADER_H + 6
MIDDLE_TOP = DISCS_TOP + 2 * DISC_R + 34
CELL = 80
TOKEN_BAND = 26
DISPLAY_X = 488
DISPLAY_W = 282
SIDE_X = DISPLAY_X + DISPLAY_W + 16
PLAYERS_GAP = 14
PLAYER_H = 230
#: What a cube shows for each paint: basics their initial, the advanced paint a star.
PAINT_MARK = {"R": "R", "Y": "Y", "B": "B", "W": "W", "A": "★"}

PAINT_FILL: dict[str, Color] = {
    "R": kit.rgb("#D7263D"),
    "Y": kit.rgb("#F4D03F"),
    "B": kit.rgb("#1F6FD1"),
    "W": kit.rgb("#F4F4F4"),
    "A": kit.rgb("#5B2A86"),
}
SEGMENT_FILL: dict[str, Color] = {
    "R": kit.rgb("#B3203A"),
    "Y": kit.rgb("#D9B52C"),
    "B": kit.rgb("#1A5BAD"),
    "W": kit.rgb("#DADDE2"),
}
ELEMENT_FILL: dict[str, Color] = {
    "DJ": kit.ORANGE,
    "MC": kit.SKY_BLUE,
    "BRK": kit.BLUISH_GREEN,
    "GRF": kit.REDDISH_PURPLE,
}
ELEMENT_SHORT = {"DJ": "DJ", "MC": "MC", "BRK": "BK", "GRF": "GF"}
PLAYER_FILL: list[Color] = [kit.ORANGE, kit.SKY_BLUE, kit.BLUISH_GREEN, kit.REDDISH_PURPLE]
PLAYER_SHAPES = ["●", "▲", "■", "◆"]
GOOD = kit.rgb("#3DDC84")
#: The wall the mural is painted on: its frame, an unpainted cell, its edge and its label.
WALL = kit.rgb("#4A4038")
WALL_CELL = kit.rgb("#5E544B")
WALL_CELL_EDGE = kit.rgb("#7A6E63")
WALL_CELL_INK = kit.rgb("#B9AEA3")
PENDING_WORDS = {
    "rotate": N_("is rotating"),
    "collect": N_("is collecting a paint"),
    "paint": N_("is painting"),
    "order": N_("is ordering the queue"),
    "insert": N_("is placing paints in the queue"),
    "discard": N_("is discarding down to 5"),
    "swap": N_("is using Swap"),
    "copy": N_("is using Copy"),
    "pick": N_("is using Queue Pick"),
    "transfer": N_("is using Transfer"),
}
#: What a technique's effect says of itself that its MAIN badge already says.
MAIN_ACTION = " (main action)"


def technique_name(tile: str, lang: str) -> str:
    return tr(lang, TECHNIQUES[tile].name)


def technique_effect(tile: str, lang: str) -> str:
    """A technique's effect in ``lang``, without "(main action)" (its badge says it)."""
    return tr(lang, TECHNIQUES[tile].effect.replace(MAIN_ACTION, ""))


def ink_on(fill: Color) -> Color:
    return kit.readable_on(fill)


# -- small pieces ------------------------------------------------------------------------------


def cube(im: Image.Image, centre: tuple[float, float], size: int, paint: str) -> None:
    """A paint cube: a rounded square of the paint's colour with its letter (a star for the
    advanced paint), pasted from a cached picture."""
    x, y = centre
    kit.paste(im, cube_image(paint, size), (round(x - size / 2), round(y - size / 2)))


@lru_cache(maxsize=64)
def cube_image(paint: str, size: int) -> Image.Image:
    fill = PAINT_FILL[paint]
    im = Image.new("RGBA", (size + 1, size + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(
        (0, 0, size, size), radius=max(3, size // 6), fill=fill, outline=kit.BLACK, width=2
    )
    mark = PAINT_MARK.get(paint, paint)
    kit.draw_text(
        d, (size / 2, size / 2 + 1), mark, kit.font(int(size * 0.62), True), ink_on(fill), "mm"
    )
    return im


def cube_row(im: Image.Image, x: int, y: int, paints: list[str], size: int, gap: int = 6) -> int:
    """Cubes left to right from (x, y) (top-left); returns the x after the last one."""
    for paint in paints:
        cube(im, (x + size / 2, y + size / 2), size, paint)
        x += size + gap
    return x


def player_colours(view: dict[str, Any]) -> dict[str, tuple[Color, str]]:
    """Each player's colour and shape, by seat."""
    return {
        p["id"]: (PLAYER_FILL[p["seat"] % 4], PLAYER_SHAPES[p["seat"] % 4]) for p in view["players"]
    }


# -- discs -------------------------------------------------------------------------------------


def disc_centre(position: int) -> tuple[int, int]:
    return MARGIN + DISC_R + position * (2 * DISC_R + DISC_GAP), DISCS_TOP + DISC_R


@lru_cache(maxsize=16)
def disc_body(colours: str, radius: int = DISC_R) -> Image.Image:
    """A disc side's 8 pie segments in their printed colours, segment s in slot s (drawn
    once per side and size, anti-aliased; turning it is a cheap image rotation)."""
    size = 2 * radius

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        r = radius * s
        d.ellipse((0, 0, 2 * r - 1, 2 * r - 1), fill=kit.BLACK)
        for slot, colour in enumerate(colours):
            start = slot * 45 - 22.5
            d.pieslice(
                (4 * s, 4 * s, 2 * r - 4 * s, 2 * r - 4 * s),
                start,
                start + 45,
                fill=SEGMENT_FILL[colour],
                outline=kit.BLACK,
                width=3 * s,
            )
        hub = 0.28 * r
        d.ellipse(
            (r - hub, r - hub, r + hub, r + hub), fill=kit.PANEL, outline=kit.INK, width=3 * s
        )

    return kit.supersampled((size, size), paint)


@lru_cache(maxsize=256)
def disc_face(colours: str, orientation: int, label: str) -> Image.Image:
    """A disc turned by ``orientation`` clockwise steps, each segment's colour letter upright
    on the rim, and a hub with the disc's number."""
    im = disc_body(colours).rotate(-45 * orientation, resample=Image.Resampling.BICUBIC)
    d = ImageDraw.Draw(im)
    letter_font = kit.font(17, True)
    for segment, colour in enumerate(colours):
        slot = (segment + orientation) % SLOTS
        angle = math.radians(slot * 45)
        lx = DISC_R + 0.82 * DISC_R * math.cos(angle)
        ly = DISC_R + 0.82 * DISC_R * math.sin(angle)
        kit.draw_text(d, (lx, ly), colour, letter_font, ink_on(SEGMENT_FILL[colour]), "mm")
    kit.draw_text(d, (DISC_R, DISC_R), label, kit.font(26, True), kit.INK, "mm")
    return im


def draw_discs(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    turned = turned_discs(view)
    for position, disc in enumerate(view["discs"]):
        cx, cy = disc_centre(position)
        if position in turned:  # turned by the latest turn: a ring and a label
            r = DISC_R + 7
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=kit.HIGHLIGHT, width=6)
        face = disc_face(disc["colours"], disc["orientation"], str(position + 1))
        kit.paste(im, face, (cx - DISC_R, cy - DISC_R))
        for segment, paint in enumerate(disc["cubes"]):
            if paint is None:
                continue
            slot = (segment + disc["orientation"]) % SLOTS
            angle = math.radians(slot * 45)
            x = cx + 0.54 * DISC_R * math.cos(angle)
            y = cy + 0.54 * DISC_R * math.sin(angle)
            cube(im, (x, y), 24, paint)
        if position in turned:
            kit.draw_text(
                d, (cx, cy + DISC_R + 6), "turned", kit.font(22, True), kit.HIGHLIGHT, "ma"
            )
    for contact in view["contacts"]:
        left, _ = disc_centre(contact["contact"])
        x = left + DISC_R + DISC_GAP // 2
        y = DISCS_TOP + DISC_R
        if contact["same"]:
            d.ellipse((x - 16, y - 16, x + 16, y + 16), fill=GOOD, outline=kit.WHITE, width=3)
            kit.draw_text(d, (x, y), "=", kit.font(26, True), kit.BLACK, "mm")
        else:
            d.ellipse((x - 12, y - 12, x + 12, y + 12), fill=kit.PANEL, outline=kit.GREY, width=2)
            kit.draw_text(d, (x, y), "×", kit.font(20, True), kit.MUTED, "mm")


QUEUE_X = disc_centre(3)[0] + DISC_R + 28
QUEUE_H = 70


def draw_queue(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], lang: str) -> None:
    """The paint queue beside the discs: its 3 spaces on the board framed, then the rest; under
    it, the disc side in play and what the marks mean."""
    x0, y, x1 = QUEUE_X, DISCS_TOP, WIDTH - MARGIN
    kit.rounded_box(im, (x0, y, x1, y + QUEUE_H), 14, kit.PANEL, kit.PANEL_EDGE)
    cy = y + QUEUE_H // 2
    queue_label = tr(lang, "Queue") + " ▶"
    x = x0 + 20 + kit.draw_text(d, (x0 + 12, cy), queue_label, kit.font(26, True), anchor="lm")
    size, gap = 36, 6
    on_board = view["queue_on_board"]
    d.rounded_rectangle(
        (x - 5, cy - size / 2 - 5, x + on_board * (size + gap) - gap + 5, cy + size / 2 + 5),
        radius=8,
        outline=kit.HIGHLIGHT,
        width=3,
    )
    queue = view["queue"]
    for i in range(on_board):
        cx = x + i * (size + gap) + size / 2
        if i < len(queue):
            cube(im, (cx, cy), size, queue[i])
        else:
            d.rectangle((cx - 10, cy - 10, cx + 10, cy + 10), outline=kit.GREY)
    x += on_board * (size + gap) + 12
    room = (x1 - 12 - x) // (size + gap)
    rest = queue[on_board:]
    shown = rest if len(rest) <= room else rest[: room - 1]
    x = cube_row(im, x, int(cy - size / 2), shown, size, gap)
    if len(shown) < len(rest):
        kit.draw_text(d, (x + 2, cy), f"+{len(rest) - len(shown)}", kit.font(24, True), anchor="lm")
    if not queue:
        kit.draw_text(d, (x + 4, cy), tr(lang, "empty"), kit.font(22), kit.MUTED, anchor="lm")
    sides = sorted({disc["side"] for disc in view["discs"]})
    legend = [
        tr(lang, "Discs: side {sides}").format(sides="/".join(sides)),
        "★ = " + tr(lang, "advanced paint"),
        "= : " + tr(lang, "contact matches"),
    ]
    for k, line in enumerate(legend):
        kit.draw_text(
            d,
            (x0 + 4, y + QUEUE_H + 12 + 28 * k),
            line,
            kit.font(22),
            kit.MUTED,
            max_width=x1 - x0 - 8,
        )


# -- the mural ---------------------------------------------------------------------------------


def mural_origin(view: dict[str, Any]) -> tuple[int, int]:
    """The top-left of cell A1, the grid centred left of the display."""
    span = len(view["mural"][0]) * CELL + 2 * TOKEN_BAND
    left = MARGIN + (DISPLAY_X - 16 - MARGIN - span) // 2
    return left + TOKEN_BAND, MIDDLE_TOP + TOKEN_BAND


def half_disc(
    d: ImageDraw.ImageDraw, centre: tuple[float, float], side: str, element: str, r: int = 14
) -> None:
    """A half-disc on an edge, its flat side on the edge, bulging into the cell it belongs to
    (``side`` is the edge it sits on, seen from that cell)."""
    x, y = centre
    start = {"N": 0, "S": 180, "E": 90, "W": 270}[side]
    fill = ELEMENT_FILL[element]
    d.pieslice(
        (x - r, y - r, x + r, y + r), start, start + 180, fill=fill, outline=kit.BLACK, width=2
    )
    dx, dy = {"N": (0, r * 0.45), "S": (0, -r * 0.45), "E": (-r * 0.45, 0), "W": (r * 0.45, 0)}[
        side
    ]
    kit.draw_text(d, (x + dx, y + dy), ELEMENT_SHORT[element], kit.font(10, True), kit.BLACK, "mm")


def edge_point(x: int, y: int, side: str, cell: int = CELL) -> tuple[float, float]:
    """The middle of a cell's ``side``, the cell's top-left at (x, y)."""
    return {
        "N": (x + cell / 2, y),
        "S": (x + cell / 2, y + cell),
        "E": (x + cell, y + cell / 2),
        "W": (x, y + cell / 2),
    }[side]


@lru_cache(maxsize=8)
def wall_layer(rows: int, cols: int) -> Image.Image:
    """The empty wall on the table, every cell unpainted and labelled (A1, B1...): built once
    per grid size and pasted; a painted card covers its cell's whole square. Drawing the empty
    cells one by one cost a rectangle and a label each, twenty of them early in a game."""
    span = (cols * CELL + 2 * TOKEN_BAND, rows * CELL + 2 * TOKEN_BAND)
    im = Image.new("RGB", (span[0] + 1, span[1] + 1), kit.TABLE)
    kit.rounded_box(im, (0, 0, *span), 18, WALL, kit.PANEL_EDGE, 2)
    d = ImageDraw.Draw(im)
    for r in range(rows):
        for c in range(cols):
            x, y = TOKEN_BAND + c * CELL, TOKEN_BAND + r * CELL
            empty_cell(d, (x, y), CELL, (r, c), kit.font(24, True))
    return im


def empty_cell(
    d: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    cell: int,
    at: tuple[int, int],
    fnt: kit.ImageFont.FreeTypeFont,
) -> None:
    """An unpainted cell of the wall at ``xy``, named by its column letter and row number."""
    x, y = xy
    r, c = at
    box = (x + 2, y + 2, x + cell - 2, y + cell - 2)
    d.rectangle(box, fill=WALL_CELL, outline=WALL_CELL_EDGE, width=2)
    label = f"{'ABCDE'[c]}{r + 1}"
    kit.draw_text(d, (x + cell / 2, y + cell / 2), label, fnt, WALL_CELL_INK, "mm")


def draw_mural(
    im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str]
) -> int:
    """The grid, its cells and the border tokens; returns the bottom y."""
    grid = view["mural"]
    rows, cols = len(grid), len(grid[0])
    ox, oy = mural_origin(view)
    im.paste(wall_layer(rows, cols), (ox - TOKEN_BAND, oy - TOKEN_BAND))
    colours = player_colours(view)
    fresh = last_painted(view)
    for r in range(rows):
        for c in range(cols):
            x, y = ox + c * CELL, oy + r * CELL
            cell = grid[r][c]
            if cell is None:
                continue
            draw_painted(im, d, x, y, cell, colours, names, fresh=(r, c) == fresh)
            bonus = view["bonuses"][r][c]
            if bonus:
                kit.badge(
                    d,
                    (x + CELL - 8, y + 16),
                    f"+{bonus}",
                    kit.font(16, True),
                    GOOD,
                    kit.BLACK,
                    pad=(4, 0),
                    anchor="rm",
                )
    for r in range(rows):
        for c in range(cols):
            cell = grid[r][c]
            if cell is None:
                continue
            card = CARDS[cell["card"]]
            for side in card.edges:
                ex, ey = edge_point(ox + c * CELL, oy + r * CELL, side)
                half_disc(d, (ex, ey), side, card.element)
    for side, (r, c) in view["token_cells"].items():
        element = view["tokens"][side]
        ex, ey = edge_point(ox + c * CELL, oy + r * CELL, side)
        # The token sits on the border and bulges outward, away from the cell it faces.
        opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}[side]
        half_disc(d, (ex, ey), opposite, element, r=16)
    return oy + rows * CELL + TOKEN_BAND


def recent_events(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The turn in progress so far, or the whole last turn once it is over: what the board
    highlights (the card painted, the discs turned)."""
    log = view["turn"]["log"]
    if log:
        return log
    return (view.get("previous") or {}).get("events", [])


def last_painted(view: dict[str, Any]) -> tuple[int, int] | None:
    """The cell the latest turn painted, to frame it."""
    for event in recent_events(view):
        if event["type"] == "painted":
            return tuple(event["cell"])  # type: ignore[return-value]
    return None


def turned_discs(view: dict[str, Any]) -> set[int]:
    return {d for e in recent_events(view) if e["type"] == "rotated" for d in e["discs"]}


def draw_painted(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    cell: dict[str, Any],
    colours: dict[str, tuple[Color, str]],
    names: dict[str, str],
    fresh: bool,
) -> None:
    """A painted card: a frame in the painter's colour, the element band, the points in the
    middle (a flexible card's paints above them), the painter's shape and initial in a corner."""
    card = CARDS[cell["card"]]
    fill, shape = colours.get(cell["painter"], (kit.GREY, "?"))
    if fresh:  # painted by the last move
        d.rectangle((x - 3, y - 3, x + CELL + 3, y + CELL + 3), outline=kit.HIGHLIGHT, width=5)
    d.rectangle((x + 1, y + 1, x + CELL - 1, y + CELL - 1), fill=kit.PAPER, outline=fill, width=6)
    d.rectangle((x + 7, y + 7, x + CELL - 7, y + 25), fill=ELEMENT_FILL[card.element])
    kit.draw_text(
        d, (x + 9, y + 16), ELEMENT_SHORT[card.element], kit.font(16, True), kit.BLACK, "lm"
    )
    initial = names.get(cell["painter"], "?")[:1].upper()
    kit.badge(
        d,
        (int(x + 5), int(y + CELL - 5)),
        f"{shape}{initial}",
        kit.font(15, True),
        fill,
        ink_on(fill),
        pad=(3, 0),
        anchor="ls",
        outline=kit.PAPER_INK,
    )
    if card.flexible:
        paints = [p for p in cell["paints"] if p is not None]
        points = 2 + sum(2 if p == "A" else 1 for p in paints)
        width = len(paints) * 15 - 2
        cube_row(im, int(x + (CELL - width) / 2), int(y + 28), paints, 13, 2)
        centre = (x + CELL / 2 + 6, y + 54)
    else:
        points = card.points or 0
        centre = (x + CELL / 2 + 6, y + 47)
    kit.draw_text(d, centre, str(points), kit.font(28, True), kit.PAPER_INK, "mm")


# -- the side column: techniques and display ---------------------------------------------------


OFFER_H = 60


def draw_techniques(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: dict[str, str],
    lang: str,
) -> None:
    """The revealed techniques: name, MAIN if it is a main action, the effect, and under it who
    used it this round (shape and initial, never colour alone)."""
    x0, y = SIDE_X, MIDDLE_TOP - 4
    width = WIDTH - MARGIN - x0
    kit.draw_text(d, (x0, y), tr(lang, "Techniques"), kit.font(26, True), max_width=width)
    y += 36
    colours = player_colours(view)
    effect_font = kit.font(22)
    for tile in view["techniques"]:
        info = TECHNIQUES[tile]
        used = [p["id"] for p in view["players"] if tile in p["techniques"]]
        effect = kit.wrap(technique_effect(tile, lang), effect_font, width - 24, 3)
        height = 44 + 26 * len(effect) + (34 if used else 0)
        edge = kit.HIGHLIGHT if info.main else kit.PANEL_EDGE
        kit.rounded_box(im, (x0, y, x0 + width, y + height), 12, kit.PANEL, edge, 2)
        main = tr(lang, "MAIN")
        main_w = kit.text_width(main, kit.font(18, True)) + 22 if info.main else 0
        name_w = kit.draw_text(
            d,
            (x0 + 12, y + 8),
            technique_name(tile, lang),
            kit.font(26, True),
            max_width=width - 36 - main_w,
        )
        if info.main:
            kit.badge(
                d, (x0 + 22 + name_w, y + 10), main, kit.font(18, True), kit.HIGHLIGHT, pad=(6, 2)
            )
        for k, line in enumerate(effect):
            kit.draw_text(d, (x0 + 12, y + 42 + 26 * k), line, effect_font, kit.MUTED)
        px = x0 + 12
        for pid in used:
            fill, shape = colours[pid]
            label = f"{shape}{names.get(pid, '?')[:1].upper()}"
            box = kit.badge(
                d,
                (px, y + height - 8),
                label,
                kit.font(20, True),
                fill,
                ink_on(fill),
                (6, 1),
                "ls",
            )
            px = box[2] + 6
        y += height + 8
    if view["hidden_techniques"]:
        kit.rounded_box(im, (x0, y, x0 + width, y + 40), 12, kit.BLUE, kit.WHITE, 2)
        kit.centered_text(
            d,
            (x0, y, x0 + width, y + 40),
            tr(lang, "+1 face down until round 2"),
            kit.font(22, True),
        )


def draw_display(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], lang: str) -> None:
    """The display, cost side up, and the deck top under it."""
    x0, y = DISPLAY_X, MIDDLE_TOP - 4
    deck = tr(lang, "deck {n}").format(n=view["deck_size"])
    deck_w = kit.draw_text(d, (x0 + DISPLAY_W, y + 4), deck, kit.font(22), kit.MUTED, "ra")
    title = tr(lang, "Display")
    kit.draw_text(d, (x0, y), title, kit.font(26, True), max_width=DISPLAY_W - deck_w - 8)
    y += 36
    for card_id in view["display"]:
        y = draw_offer(im, d, x0, y, DISPLAY_W, card_id, top=False, lang=lang)
    if view["deck_top"]:
        draw_offer(im, d, x0, y, DISPLAY_W, view["deck_top"], top=True, lang=lang)


def edge_diagram(
    d: ImageDraw.ImageDraw, xy: tuple[int, int], m: int, card: Any, ink: Color
) -> None:
    """A card's sides with a half-disc, drawn as a tiny ``m`` px card with bumps."""
    mx, my = xy
    d.rectangle((mx, my, mx + m, my + m), outline=ink, width=2)
    r = m // 4
    for side in card.edges:
        ex, ey = {
            "N": (mx + m / 2, my),
            "S": (mx + m / 2, my + m),
            "E": (mx + m, my + m / 2),
            "W": (mx, my + m / 2),
        }[side]
        fill = ELEMENT_FILL[card.element]
        d.ellipse((ex - r, ey - r, ex + r, ey + r), fill=fill, outline=kit.BLACK)


def draw_offer(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    card_id: str,
    top: bool,
    lang: str = "en",
) -> int:
    """A display card, cost side up: id, element, half-disc edges, cost cubes, points. The deck
    top is a card back with the same information, marked "deck top" (it cannot be painted)."""
    card = CARDS[card_id]
    h = OFFER_H
    back = kit.BLUE if top else kit.PAPER
    ink = kit.WHITE if top else kit.PAPER_INK
    kit.rounded_box(im, (x, y, x + width, y + h), 10, back, ELEMENT_FILL[card.element], 4)
    label = f"{card.id} · " + tr(lang, "deck top") if top else card.id
    kit.draw_text(d, (x + 10, y + 6), label, kit.font(20, True), ink)
    if not top:
        d.rounded_rectangle(
            (x + 66, y + 6, x + 112, y + 30), radius=7, fill=ELEMENT_FILL[card.element]
        )
        kit.draw_text(
            d, (x + 89, y + 18), ELEMENT_SHORT[card.element], kit.font(18, True), kit.BLACK, "mm"
        )
    points = "2+" if card.flexible else f"{card.points}"
    points = tr(lang, "{n} pts").format(n=points)
    kit.draw_text(d, (x + width - 10, y + 4), points, kit.font(24, True), ink, "ra")
    edge_diagram(d, (x + width - 40, y + 32), 26, card, ink)
    if card.flexible:
        any_paints = tr(lang, "any {n} paints").format(n=card.spaces)
        kit.draw_text(
            d, (x + 10, y + 34), any_paints, kit.font(22, True), ink, max_width=width - 56
        )
    else:
        cube_row(im, x + 10, y + 34, list(card.cost or ""), 24, 4)
    return y + h + 6


# -- players -----------------------------------------------------------------------------------


def draw_players(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: dict[str, str],
    top: int,
    lang: str,
) -> None:
    """One panel per player, all in one row."""
    colours = player_colours(view)
    outcome = view.get("outcome") or {}
    winners = set(outcome.get("winners", []))
    count = len(view["players"])
    width = (WIDTH - 2 * MARGIN - (count - 1) * PLAYERS_GAP) // count
    for i, player in enumerate(view["players"]):
        x = MARGIN + i * (width + PLAYERS_GAP)
        y = top
        pid = player["id"]
        fill, shape = colours[pid]
        current = pid == view.get("current") and not outcome
        kit.rounded_box(
            im,
            (x, y, x + width, y + PLAYER_H),
            16,
            kit.PANEL,
            kit.HIGHLIGHT if current else kit.WHITE if pid in winners else kit.PANEL_EDGE,
            5 if current or pid in winners else 2,
        )
        d.rounded_rectangle((x, y, x + 12, y + PLAYER_H), radius=6, fill=fill)
        score = player["score"]
        total = score["total"]
        points = tr_n(lang, "{n} pt", "{n} pts", total).format(n=total)
        points_w = kit.draw_text(
            d, (x + width - 12, y + 8), points, kit.font(30, True), anchor="ra"
        )
        kit.draw_text(
            d,
            (x + 24, y + 10),
            f"{shape} {names[pid]}",
            kit.font(28, True),
            fill,
            max_width=width - 48 - points_w,
        )
        marks = ["▶ " + tr(lang, "to move")] if current else []
        if pid in winners:
            marks.append("♛ " + tr(lang, "WINNER"))
        if pid == view.get("first"):
            marks.append("★" + tr(lang, "1st"))
        if player["passed"] and not outcome:
            marks.append(tr(lang, "passed"))
        kit.draw_text(
            d,
            (x + 24, y + 48),
            " · ".join(marks),
            kit.font(22, True),
            kit.HIGHLIGHT if current else kit.INK if pid in winners else kit.MUTED,
            max_width=width - 36,
        )
        pack = player["backpack"]
        over = len(pack) > 5
        count_w = kit.draw_text(
            d,
            (x + width - 12, y + 96),
            f"{len(pack)}/5{' !' if over else ''}",
            kit.font(24, True),
            kit.VERMILLION if over else kit.INK,
            "rm",
        )
        size = min(30, (width - 40 - count_w - 12) // max(5, len(pack)) - 4)
        end = cube_row(im, x + 24, y + 96 - size // 2, pack, size, 4)
        if not pack:
            empty = tr(lang, "bag empty")
            room_left = width - (end - x) - 12
            kit.draw_text(d, (end, y + 96), empty, kit.font(22), kit.MUTED, "lm", room_left)
        room = width - 36
        breakdown = tr(lang, "cards {cards} + discs {discs} + paints {paints}").format(
            cards=score["cards"], discs=score["discs"], paints=score["paints"]
        )
        rotations = tr(lang, "Big {big}/2 · Double {double}/2").format(
            big=player["rotations"]["big"], double=player["rotations"]["double"]
        )
        rows = [
            (tr(lang, "Sprays {n}").format(n=player["sprays"]), kit.font(24, True), kit.INK),
            (
                tr(lang, "Grafiteiros {n}").format(n=player["grafiteiros"]),
                kit.font(24, True),
                kit.INK,
            ),
            (rotations, kit.fit_font(rotations, room, 22, 16), kit.INK),
            (
                breakdown,
                kit.fit_font(breakdown, room, 20, 14),  # a longer language may need 14 px
                kit.MUTED,
            ),
        ]
        for k, (text, fnt, ink) in enumerate(rows):
            kit.draw_text(d, (x + 24, y + 118 + 28 * k), text, fnt, ink, max_width=room)


# -- header ------------------------------------------------------------------------------------


def status_line(view: dict[str, Any], names: dict[str, str], lang: str) -> str:
    outcome = view.get("outcome")
    if outcome:
        ranking = outcome["details"]["ranking"]
        scores = outcome["scores"]
        final = " · ".join(f"{names[p]} {scores[p]}" for p in ranking)
        return tr(lang, "Final: {scores}").format(scores=final)
    current = view.get("current")
    pending = view["turn"]["pending"]
    if pending:
        doing = tr(lang, PENDING_WORDS[pending["do"]])
    elif view["turn"]["main"]:
        doing = tr(lang, "has taken the main action")
    else:
        doing = tr(lang, "to move")
    return f"▶ {names.get(str(current), current)} {doing}"


#: How the latest turn's events read in the header, tersely (the post's embed tells it in full).
def _event_note(event: dict[str, Any], lang: str) -> str:
    kind = event["type"]
    if kind == "rotated":
        turns = ", ".join(
            f"{d + 1} {'↻' if s > 0 else '↺'}{abs(s)}"
            for d, s in zip(event["discs"], event["steps"], strict=True)
            if s
        )
        return tr(lang, "turned disc {turns}").format(turns=turns)
    if kind in ("collected", "copied", "picked"):
        return tr(lang, "took {paint}").format(paint=event["paint"])
    if kind == "painted":
        cell = f"{'ABCDE'[event['cell'][1]]}{event['cell'][0] + 1}"
        return tr(lang, "painted {card} in {cell}").format(card=event["card"], cell=cell)
    if kind == "mixed":
        return tr(lang, "mixed {paints}").format(paints="+".join(event["paints"]))
    if kind == "technique":
        return technique_name(event["tile"], lang)
    if kind == "swapped":
        return tr(lang, "swapped {give}→{take}").format(give=event["give"], take=event["take"])
    if kind == "transferred":
        return tr(lang, "moved {paint} to disc {n}").format(
            paint=event["paint"], n=event["to"][0] + 1
        )
    if kind == "discarded":
        return tr(lang, "discarded {paints}").format(paints=" ".join(event["paints"]))
    if kind == "passed":
        return tr(lang, "passed")
    return ""


def last_turn_text(view: dict[str, Any], names: dict[str, str], lang: str = "en") -> str:
    """ "Last turn: Ana — turned disc 2 ↻1 · took R · mixed R+Y" (or the turn so far)."""
    in_progress = bool(view["turn"]["log"])
    events = recent_events(view)
    notes = [note for note in (_event_note(e, lang) for e in events) if note]
    if not notes:
        return ""
    who = view.get("current") if in_progress else (view.get("previous") or {}).get("player")
    label = tr(lang, "This turn") if in_progress else tr(lang, "Last turn")
    return f"{label}: {names.get(str(who), who)} — {' · '.join(notes)}"


def draw_header(
    d: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str], lang: str
) -> None:
    title_w = kit.draw_text(d, (MARGIN, 10), "Street Art: Mural", kit.font(36, True))
    round_of = tr(lang, "Round {n} of 2").format(n=view["round"])
    round_w = kit.draw_text(d, (WIDTH - MARGIN, 14), round_of, kit.font(28, True), anchor="ra")
    kit.draw_text(
        d,
        (MARGIN + title_w + 24, 16),
        status_line(view, names, lang),
        kit.font(28, True),
        kit.HIGHLIGHT,
        max_width=WIDTH - 2 * MARGIN - title_w - round_w - 48,
    )
    trigger = view.get("trigger")
    badge_w = 0
    if trigger and not view.get("outcome"):
        why = tr(lang, "last spray") if trigger["reason"] == "sprays" else tr(lang, "mural full")
        box = kit.badge(
            d,
            (WIDTH - MARGIN, 56),
            tr(lang, "Final lap: {why}").format(why=why),
            kit.font(24, True),
            kit.VERMILLION,
            kit.WHITE,
            (12, 3),
            "ra",
        )
        badge_w = box[2] - box[0] + 16
    summary = last_turn_text(view, names, lang)
    if summary:
        kit.draw_text(
            d,
            (MARGIN, 60),
            summary,
            kit.font(26),
            kit.MUTED,
            max_width=WIDTH - 2 * MARGIN - badge_w,
        )


def detail_image(view: dict[str, Any], names: dict[str, str], lang: str = "en") -> Image.Image:
    """The 1200 px board, every piece in place as on the table: the detail picture."""
    names = kit.display_names(view, names, lang)
    grid = view["mural"]
    mural_bottom = mural_origin(view)[1] + len(grid) * CELL + TOKEN_BAND
    players_top = max(mural_bottom, MIDDLE_TOP + middle_height(view)) + 14
    height = players_top + PLAYER_H + MARGIN
    im = Image.new("RGB", (WIDTH, height), kit.TABLE)
    d = ImageDraw.Draw(im)
    draw_header(d, view, names, lang)
    draw_discs(im, d, view)
    draw_queue(im, d, view, lang)
    draw_mural(im, d, view, names)
    draw_display(im, d, view, lang)
    draw_techniques(im, d, view, names, lang)
    draw_players(im, d, view, names, players_top, lang)
    return im


def middle_height(view: dict[str, Any]) -> int:
    """How tall the display column is (the techniques fit beside it)."""
    offers = len(view["display"]) + (1 if view["deck_top"] else 0)
    return 32 + offers * (OFFER_H + 6)


def render_detail(
    view: dict[str, Any], *, names: dict[str, str], lang: str = "en", last: Sequence[str] = ()
) -> bytes:
    """The detail picture behind the Board button: the 1200 px board with the discs, the
    mural, the display and the techniques as on the table, for a closer look."""
    return kit.png_bytes(detail_image(view, names, lang), kit.module_palette(__name__))


# -- the phone board ---------------------------------------------------------------------------

#: The board a post carries is drawn for a phone: Discord shows it about 285 CSS px wide there,
#: so at ``PHONE_W`` px every word a player reads is ``TEXT`` px or more (8 CSS px): the
#: discs, then the queue, the mural across the whole width, the display and the techniques two
#: to a row, the players two to a row. The 1200 px board is the detail picture
#: (``render_detail``).
PHONE_W = kit.PHONE_WIDTH
PAD = 16
TEXT = kit.PHONE_TEXT
LINE = 27
HALF = (PHONE_W - 2 * PAD - 12) // 2
P_DISC_R = 87
P_CUBE = 34
P_BAND = 30
P_CELL_MAX = 96
P_HALF_R = 28
#: A display card's id, which the panel's choices name: 10 CSS px at a phone's 285.
ID_TEXT = 28


#: A flexible card's space on the phone board: any paint goes there.
ANY_PAINT = "?"
ANY_PAINT_FILL = kit.GREY


@lru_cache(maxsize=64)
def phone_cube(paint: str, size: int) -> Image.Image:
    """A cube for the phone board: its letter at ``TEXT`` px, the most a cube this size holds
    (``ANY_PAINT``: a blank one, "?")."""
    fill = PAINT_FILL.get(paint, ANY_PAINT_FILL)
    im = Image.new("RGBA", (size + 1, size + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, size, size), radius=6, fill=fill, outline=kit.BLACK, width=2)
    mark = PAINT_MARK.get(paint, paint)
    kit.draw_text(d, (size / 2, size / 2 + 1), mark, kit.bold(TEXT), ink_on(fill), "mm")
    return im


def phone_cubes(im: Image.Image, x: int, y: int, paints: list[str], size: int = P_CUBE) -> int:
    """Cubes left to right from (x, y) (top-left); returns the x after the last one."""
    for paint in paints:
        kit.paste(im, phone_cube(paint, size), (x, y))
        x += size + 4
    return x


@lru_cache(maxsize=256)
def phone_disc(colours: str, orientation: int, label: str) -> Image.Image:
    """A disc of ``P_DISC_R`` turned by ``orientation`` steps: each segment's letter upright on
    the rim, the disc's number on the hub."""
    body = disc_body(colours, P_DISC_R)
    im = body.rotate(-45 * orientation, resample=Image.Resampling.BICUBIC)
    d = ImageDraw.Draw(im)
    for segment, colour in enumerate(colours):
        angle = math.radians(((segment + orientation) % SLOTS) * 45)
        lx = P_DISC_R + 0.83 * P_DISC_R * math.cos(angle)
        ly = P_DISC_R + 0.83 * P_DISC_R * math.sin(angle)
        kit.draw_text(d, (lx, ly), colour, kit.bold(TEXT), ink_on(SEGMENT_FILL[colour]), "mm")
    kit.draw_text(d, (P_DISC_R, P_DISC_R), label, kit.bold(26), kit.INK, "mm")
    return im


def _phone_discs(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    """The four discs in a row, the cubes on their segments, a mark on each contact (= when
    the touching segments match), a ring round a disc the latest turn turned (the last turn's
    line says how)."""
    gap = (PHONE_W - 2 * PAD - 8 * P_DISC_R) // 3
    turned = turned_discs(view)
    cy = y + P_DISC_R + 6
    for position, disc in enumerate(view["discs"]):
        cx = PAD + P_DISC_R + position * (2 * P_DISC_R + gap)
        if position in turned:
            r = P_DISC_R + 5
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=kit.HIGHLIGHT, width=5)
        face = phone_disc(disc["colours"], disc["orientation"], str(position + 1))
        kit.paste(im, face, (cx - P_DISC_R, cy - P_DISC_R))
        for segment, paint in enumerate(disc["cubes"]):
            if paint is None:
                continue
            angle = math.radians(((segment + disc["orientation"]) % SLOTS) * 45)
            x = cx + 0.5 * P_DISC_R * math.cos(angle) - P_CUBE / 2
            y0 = cy + 0.5 * P_DISC_R * math.sin(angle) - P_CUBE / 2
            kit.paste(im, phone_cube(paint, P_CUBE), (round(x), round(y0)))
    for contact in view["contacts"]:
        x = PAD + (contact["contact"] + 1) * (2 * P_DISC_R + gap) - gap // 2
        my = cy
        if contact["same"]:
            d.ellipse((x - 17, my - 17, x + 17, my + 17), fill=GOOD, outline=kit.WHITE, width=3)
            kit.draw_text(d, (x, my), "=", kit.bold(TEXT), kit.BLACK, "mm")
        else:
            d.ellipse((x - 15, my - 15, x + 15, my + 15), fill=kit.PANEL, outline=kit.GREY, width=2)
            kit.draw_text(d, (x, my), "×", kit.bold(TEXT), kit.MUTED, "mm")
    return cy + P_DISC_R + 14


def _phone_queue(
    im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int, lang: str
) -> int:
    """The queue on one line: its board spaces framed, then the rest (counted past the room);
    the disc side and the marks' meaning under it."""
    x = PAD + kit.draw_text(d, (PAD, y + 4), tr(lang, "Queue") + " ▶", kit.bold(TEXT)) + 12
    on_board = view["queue_on_board"]
    queue = view["queue"]
    d.rounded_rectangle(
        (x - 4, y - 4, x + on_board * (P_CUBE + 4) + 0, y + P_CUBE + 4),
        8,
        outline=kit.HIGHLIGHT,
        width=3,
    )
    for i in range(on_board):
        if i < len(queue):
            kit.paste(im, phone_cube(queue[i], P_CUBE), (x + i * (P_CUBE + 4), y))
    x += on_board * (P_CUBE + 4) + 14
    rest = queue[on_board:]
    room = (PHONE_W - PAD - 60 - x) // (P_CUBE + 4)
    shown = rest[:room]
    x = phone_cubes(im, x, y, shown)
    if len(shown) < len(rest):
        kit.draw_text(d, (x + 2, y + 4), f"+{len(rest) - len(shown)}", kit.bold(TEXT))
    if not queue:
        kit.draw_text(d, (x, y + 4), tr(lang, "empty"), kit.font(TEXT), kit.MUTED)
    y += P_CUBE + 10
    sides = "/".join(sorted({disc["side"] for disc in view["discs"]}))
    legend = " · ".join(
        (
            tr(lang, "Discs: side {sides}").format(sides=sides),
            "★ = " + tr(lang, "advanced paint"),
            "= : " + tr(lang, "contact matches"),
        )
    )
    return (
        kit.draw_lines(d, (PAD, y), legend, kit.font(TEXT), kit.MUTED, PHONE_W - 2 * PAD, 2, LINE)
        + 6
    )


def _phone_half_disc(
    d: ImageDraw.ImageDraw, centre: tuple[float, float], side: str, element: str
) -> None:
    """A half-disc on an edge, flat side on it, bulging into the cell it belongs to (``side``:
    the edge, seen from that cell), its element written in it."""
    x, y = centre
    r = P_HALF_R
    start = {"N": 0, "S": 180, "E": 90, "W": 270}[side]
    d.pieslice(
        (x - r, y - r, x + r, y + r),
        start,
        start + 180,
        fill=ELEMENT_FILL[element],
        outline=kit.BLACK,
        width=2,
    )
    dx, dy = {"N": (0, 0.42), "S": (0, -0.42), "E": (-0.4, 0), "W": (0.4, 0)}[side]
    short = ELEMENT_SHORT[element]
    if side in "NS":
        kit.draw_text(d, (x + dx * r, y + dy * r), short, kit.bold(TEXT), kit.BLACK, "mm")
        return
    for k, char in enumerate(short):  # upright letters, one over the other, in the bulge
        kit.draw_text(d, (x + dx * r, y + (k - 0.5) * 21), char, kit.bold(TEXT), kit.BLACK, "mm")


def _phone_mural(
    im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int, names: dict[str, str]
) -> int:
    """The mural across the board: cells named (A1...), painted cards (element, points, the
    painter's shape and initial, a flexible card's paints), half-discs on their edges and the
    element tokens on the border."""
    grid = view["mural"]
    rows, cols = len(grid), len(grid[0])
    cell = min(P_CELL_MAX, (PHONE_W - 2 * PAD - 2 * P_BAND) // cols)
    span = cols * cell + 2 * P_BAND
    ox = (PHONE_W - span) // 2 + P_BAND
    oy = y + P_BAND
    kit.rounded_box(
        im,
        (ox - P_BAND, y, ox - P_BAND + span, y + rows * cell + 2 * P_BAND),
        18,
        WALL,
        kit.PANEL_EDGE,
        2,
    )
    colours = player_colours(view)
    fresh = last_painted(view)

    def edge(r: int, c: int, side: str) -> tuple[float, float]:
        return edge_point(ox + c * cell, oy + r * cell, side, cell)

    for r in range(rows):
        for c in range(cols):
            x, top = ox + c * cell, oy + r * cell
            painted = grid[r][c]
            if painted is None:
                empty_cell(d, (x, top), cell, (r, c), kit.bold(TEXT))
                continue
            card = CARDS[painted["card"]]
            fill, shape = colours.get(painted["painter"], (kit.GREY, "?"))
            if (r, c) == fresh:
                d.rectangle(
                    (x - 3, top - 3, x + cell + 3, top + cell + 3), outline=kit.HIGHLIGHT, width=5
                )
            d.rectangle(
                (x + 1, top + 1, x + cell - 1, top + cell - 1),
                fill=kit.PAPER,
                outline=fill,
                width=6,
            )
            if card.flexible:
                paints = [p for p in painted["paints"] if p is not None]
                points = 2 + sum(2 if p == "A" else 1 for p in paints)
            else:
                points = card.points or 0
            kit.draw_text(
                d, (x + cell / 2, top + cell / 2), str(points), kit.bold(30), kit.PAPER_INK, "mm"
            )
            # the painter: the frame's colour and their shape in the corner the half-discs
            # leave free (the players' panels pair each shape with a name)
            corner = (x + 16, top + 16)
            kit.draw_text(d, corner, shape, kit.bold(TEXT), fill, "mm", stroke=(2, kit.PAPER_INK))
            bonus = view["bonuses"][r][c]
            if bonus:
                kit.badge(
                    d,
                    (x + cell - 8, top + 10),
                    f"+{bonus}",
                    kit.bold(TEXT),
                    GOOD,
                    kit.BLACK,
                    (4, 0),
                    "ra",
                )
    for r in range(rows):
        for c in range(cols):
            painted = grid[r][c]
            if painted is not None:
                card = CARDS[painted["card"]]
                for side in card.edges:
                    _phone_half_disc(d, edge(r, c, side), side, card.element)
    for side, (r, c) in view["token_cells"].items():
        opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}[side]
        _phone_half_disc(d, edge(r, c, side), opposite, view["tokens"][side])
    return y + rows * cell + 2 * P_BAND + 12


def _phone_offer(
    im: Image.Image, d: ImageDraw.ImageDraw, box: kit.Box, card_id: str, top: bool, lang: str
) -> None:
    """A display card on one row: id, element, cost (or "any n paints"), points and its sides
    with a half-disc as a small card with bumps; the deck top on blue, marked."""
    x, y, x1, y1 = box
    card = CARDS[card_id]
    back = kit.BLUE if top else kit.PAPER
    ink = kit.WHITE if top else kit.PAPER_INK
    kit.rounded_box(im, box, 10, back, ELEMENT_FILL[card.element], 4)
    mid = (y + y1) // 2
    m = 30
    mx = x1 - m - 12
    edge_diagram(d, (mx, mid - m // 2), m, card, ink)
    points = tr(lang, "{n} pts").format(n="2+" if card.flexible else card.points)
    right = mx - 10 - kit.draw_text(d, (mx - 10, mid), points, kit.bold(TEXT), ink, "rm")
    # the id a panel's choice names, larger than the rest ("G" and "6" alike at 8 CSS px)
    x += 8 + kit.draw_text(d, (x + 8, mid), card.id, kit.bold(ID_TEXT), ink, "lm")
    pill = kit.badge(
        d,
        (x + 6, mid),
        ELEMENT_SHORT[card.element],
        kit.bold(TEXT),
        ELEMENT_FILL[card.element],
        kit.BLACK,
        (5, 0),
        "lm",
    )
    x = pill[2] + 8
    if top:
        kit.draw_text(
            d, (x, mid), tr(lang, "deck top"), kit.bold(TEXT), ink, "lm", max_width=right - x - 6
        )
    elif card.flexible:  # any paints: as many blank cubes as it has spaces
        phone_cubes(im, x, mid - 15, [ANY_PAINT] * card.spaces, 30)
    else:
        phone_cubes(im, x, mid - P_CUBE // 2, list(card.cost or ""), 30)


def render_face(card: str, *, lang: str = "en") -> bytes:
    """One display card alone, as the board draws it: a card the hand page makes a button of."""
    im = Image.new("RGB", (HALF + 1, 47), kit.TABLE)
    _phone_offer(im, ImageDraw.Draw(im), (0, 0, HALF, 46), card, False, lang)
    return kit.png_bytes(im, kit.module_palette(__name__))


def _phone_display(
    im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int, lang: str
) -> int:
    """The display, two cards to a row, the deck top last."""
    kit.draw_text(d, (PAD, y), tr(lang, "Display"), kit.bold(TEXT))
    deck = tr(lang, "deck {n}").format(n=view["deck_size"])
    kit.draw_text(d, (PHONE_W - PAD, y), deck, kit.font(TEXT), kit.MUTED, "ra")
    y += LINE + 4
    offers = [(c, False) for c in view["display"]] + (
        [(view["deck_top"], True)] if view["deck_top"] else []
    )
    for i, (card_id, top) in enumerate(offers):
        x = PAD + (i % 2) * (HALF + 12)
        row_y = y + (i // 2) * 52
        _phone_offer(im, d, (x, row_y, x + HALF, row_y + 46), card_id, top, lang)
    return y + -(-len(offers) // 2) * 52 + 8


def _phone_techniques(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    y: int,
    names: dict[str, str],
    lang: str,
) -> int:
    """The revealed techniques side by side: name and MAIN when it is a main action, then who
    used it this round (shape and initial) on a second line when anyone has. Their effects,
    rules text that holds all game, are in the detail picture and the panel's choices."""
    kit.draw_text(d, (PAD, y), tr(lang, "Techniques"), kit.bold(TEXT))
    y += LINE + 4
    colours = player_colours(view)
    tiles: list[str | None] = list(view["techniques"])
    if view["hidden_techniques"]:
        tiles.append(None)
    used = {t: [p["id"] for p in view["players"] if t in p["techniques"]] for t in tiles if t}
    tall = 42 + (LINE + 4 if any(used.values()) else 0)  # who used it, on a line of its own
    for i, tile in enumerate(tiles):
        x = PAD + (i % 2) * (HALF + 12)
        top = y + (i // 2) * (tall + 6)
        box = (x, top, x + HALF, top + tall)
        if tile is None:
            kit.rounded_box(im, box, 12, kit.BLUE, kit.WHITE, 2)
            hidden = tr(lang, "+1 face down until round 2")
            kit.centered_text(d, box, hidden, kit.bold(TEXT), kit.WHITE)
            continue
        info = TECHNIQUES[tile]
        edge = kit.HIGHLIGHT if info.main else kit.PANEL_EDGE
        kit.rounded_box(im, box, 12, kit.PANEL, edge, 2)
        right = x + HALF - 8
        if info.main:
            main = tr(lang, "MAIN")
            badge = kit.badge(
                d, (right, top + 6), main, kit.bold(TEXT), kit.HIGHLIGHT, pad=(6, 0), anchor="ra"
            )
            right = badge[0] - 4
        name = technique_name(tile, lang)
        kit.draw_text(d, (x + 10, top + 7), name, kit.bold(TEXT), max_width=right - x - 16)
        px = x + 10
        for pid in used[tile]:
            fill, shape = colours[pid]
            label = f"{shape}{names.get(pid, '?')[:1].upper()}"
            px = (
                kit.badge(d, (px, top + 40), label, kit.bold(TEXT), fill, ink_on(fill), (5, 0))[2]
                + 4
            )
    return y + -(-len(tiles) // 2) * (tall + 6) + 4


def _phone_marks(view: dict[str, Any], player: dict[str, Any], lang: str) -> str:
    """Whose move, the winner, the first player, passed: "" when none applies."""
    outcome = view.get("outcome") or {}
    pid = player["id"]
    marks = ["▶ " + tr(lang, "to move")] if pid == view.get("current") and not outcome else []
    if pid in outcome.get("winners", []):
        marks.append("♛ " + tr(lang, "WINNER"))
    if pid == view.get("first"):
        marks.append("★" + tr(lang, "1st"))
    if player["passed"] and not outcome:
        marks.append(tr(lang, "passed"))
    return " · ".join(marks)


def _phone_players(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    y: int,
    names: dict[str, str],
    lang: str,
) -> int:
    """The players two to a row: shape, name and points; whose move, 1st, passed; the backpack;
    sprays and grafiteiros; rotations used; at the end, how the points add up."""
    colours = player_colours(view)
    outcome = view.get("outcome") or {}
    winners = set(outcome.get("winners", []))
    players = view["players"]
    for row in range(0, len(players), 2):
        pair = players[row : row + 2]
        marked = any(_phone_marks(view, p, "en") for p in pair)
        sums = 2 * LINE if outcome else 0  # how the points add up, once they are final
        height = 12 + 34 + (LINE + 2 if marked else 0) + 42 + 2 * LINE + sums + 2
        for i, player in enumerate(pair):
            x = PAD + i * (HALF + 12)
            x1 = x + HALF
            pid = player["id"]
            fill, shape = colours[pid]
            current = pid == view.get("current") and not outcome
            edge = kit.HIGHLIGHT if current else kit.WHITE if pid in winners else kit.PANEL_EDGE
            box = (x, y, x1, y + height)
            kit.rounded_box(im, box, 14, kit.PANEL, edge, 5 if current or pid in winners else 2)
            d.rounded_rectangle((x, y, x + 10, y + height), radius=5, fill=fill)
            total = player["score"]["total"]
            points = tr_n(lang, "{n} pt", "{n} pts", total).format(n=total)
            points_w = kit.draw_text(d, (x1 - 12, y + 10), points, kit.bold(28), anchor="ra")
            name = f"{shape} {names[pid]}"
            kit.draw_text(
                d, (x + 20, y + 10), name, kit.bold(26), fill, max_width=HALF - 44 - points_w
            )
            ty = y + 12 + 34
            if marked:
                ink = kit.HIGHLIGHT if current else kit.INK if pid in winners else kit.MUTED
                marks = _phone_marks(view, player, lang)
                kit.draw_text(d, (x + 20, ty), marks, kit.bold(TEXT), ink, max_width=HALF - 32)
                ty += LINE + 2
            pack = player["backpack"]
            over = len(pack) > 5
            count = f"{len(pack)}/5{' !' if over else ''}"
            ink = kit.VERMILLION if over else kit.INK
            count_w = kit.draw_text(d, (x1 - 12, ty + 4), count, kit.bold(TEXT), ink, "ra")
            size = min(P_CUBE, (HALF - 40 - count_w) // max(5, len(pack)) - 4)
            end = phone_cubes(im, x + 20, ty, pack, size)
            if not pack:
                room = x1 - end - count_w - 20
                kit.draw_text(
                    d,
                    (end, ty + 4),
                    tr(lang, "bag empty"),
                    kit.font(TEXT),
                    kit.MUTED,
                    max_width=room,
                )
            ty += 42
            sprays = tr(lang, "Sprays {n}").format(n=player["sprays"])
            crew = tr(lang, "Grafiteiros {n}").format(n=player["grafiteiros"])
            rotations = tr(lang, "Big {big}/2 · Double {double}/2").format(**player["rotations"])
            breakdown = tr(lang, "cards {cards} + discs {discs} + paints {paints}").format(
                **{k: player["score"][k] for k in ("cards", "discs", "paints")}
            )
            lines = (f"{sprays} · {crew}", rotations)
            for text in lines:
                kit.draw_text(d, (x + 20, ty), text, kit.font(TEXT), kit.INK, max_width=HALF - 32)
                ty += LINE
            if outcome:
                kit.draw_lines(
                    d, (x + 20, ty), breakdown, kit.font(TEXT), kit.MUTED, HALF - 32, 2, LINE
                )
        y += height + 10
    return y


def _phone_header(
    d: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str], lang: str
) -> int:
    """Round and the final-lap warning, whose move, the latest turn in short."""
    y = PAD
    kit.draw_text(d, (PAD, y), tr(lang, "Round {n} of 2").format(n=view["round"]), kit.bold(28))
    trigger = view.get("trigger")
    if trigger and not view.get("outcome"):
        why = tr(lang, "last spray") if trigger["reason"] == "sprays" else tr(lang, "mural full")
        warning = tr(lang, "Final lap: {why}").format(why=why)
        kit.badge(
            d, (PHONE_W - PAD, y), warning, kit.bold(TEXT), kit.VERMILLION, kit.WHITE, (10, 2), "ra"
        )
    y += 42
    y = kit.draw_lines(
        d,
        (PAD, y),
        status_line(view, names, lang),
        kit.bold(26),
        kit.HIGHLIGHT,
        PHONE_W - 2 * PAD,
        2,
        34,
    )
    summary = last_turn_text(view, names, lang)
    if summary:
        y = kit.draw_lines(
            d, (PAD, y), summary, kit.font(TEXT), kit.INK, PHONE_W - 2 * PAD, 2, LINE
        )
    return y + 8


def board_image(view: dict[str, Any], names: dict[str, str], lang: str = "en") -> Image.Image:
    """The phone board of ``view`` (see ``PHONE_W``)."""
    names = kit.display_names(view, names, lang)
    # as tall as the board can get: every part at its tallest (a fill of rows never drawn
    # costs 1-2 ms)
    rows = len(view["mural"])
    bound = 1400 + rows * P_CELL_MAX + -(-len(view["players"]) // 2) * 240
    im = Image.new("RGB", (PHONE_W, bound), kit.TABLE)
    d = ImageDraw.Draw(im)
    y = _phone_header(d, view, names, lang)
    y = _phone_discs(im, d, view, y)
    y = _phone_queue(im, d, view, y, lang)
    y = _phone_mural(im, d, view, y, names)
    if not view.get("outcome"):  # at the end the scores say it all
        y = _phone_display(im, d, view, y, lang)
        y = _phone_techniques(im, d, view, y, names, lang)
    y = _phone_players(im, d, view, y, names, lang)
    return im.crop((0, 0, PHONE_W, y + PAD))


def render(
    view: dict[str, Any], *, names: dict[str, str], lang: str = "en", last: Sequence[str] = ()
) -> bytes:
    """The Street Art: Mural board a post carries, drawn for a phone, as PNG bytes (public parts
    only). The view carries the turn so far and the last turn, which the board tells tersely;
    ``last`` is for boards whose view does not."""
    return kit.png_bytes(board_image(view, names, lang), kit.module_palette(__name__))


# -- the hand ----------------------------------------------------------------------------------

HAND_CUBE = 64


def render_hand(view: dict[str, Any], *, names: dict[str, str], lang: str = "en") -> bytes | None:
    """The viewer's backpack as big lettered cubes, their sprays and grafiteiros as counted
    icons, and the techniques they used this round; None for a spectator."""
    me = next((p for p in view["players"] if p["id"] == view.get("viewer")), None)
    if me is None:
        return None
    pack = me["backpack"]
    width = max(760, 2 * MARGIN + 200 + max(5, len(pack)) * (HAND_CUBE + 10))
    im = Image.new("RGB", (width, MARGIN + HAND_CUBE + 30 + 130 + MARGIN), kit.TABLE)
    d = ImageDraw.Draw(im)
    head = kit.font(28, True)
    backpack = tr(lang, "Backpack")
    kit.draw_text(d, (MARGIN, MARGIN + HAND_CUBE // 2), backpack, head, anchor="lm", max_width=150)
    x = MARGIN + 160
    for i in range(max(5, len(pack))):
        cx = x + i * (HAND_CUBE + 10) + HAND_CUBE / 2
        cy = MARGIN + HAND_CUBE / 2
        if i < len(pack):
            cube(im, (cx, cy), HAND_CUBE, pack[i])
        else:  # the room left in a backpack of 5
            h = HAND_CUBE / 2
            d.rounded_rectangle(
                (cx - h, cy - h, cx + h, cy + h), 10, outline=kit.PANEL_EDGE, width=3
            )
    over = len(pack) > 5
    kit.draw_text(
        d,
        (x + max(5, len(pack)) * (HAND_CUBE + 10), MARGIN + HAND_CUBE // 2),
        f"{len(pack)}/5" + (" — " + tr(lang, "discard to 5") if over else ""),
        kit.font(28, True),
        kit.VERMILLION if over else kit.INK,
        "lm",
    )
    y = MARGIN + HAND_CUBE + 30
    fill, shape = player_colours(view)[me["id"]]
    items = [(f"{shape} Sprays", me["sprays"]), ("Grafiteiros", me["grafiteiros"])]
    x = MARGIN
    for label, count in items:
        w = kit.draw_text(d, (x, y + 18), f"{label} ×{count}", head, fill, "lm")
        x += w + 40
    used = ", ".join(technique_name(t, lang) for t in me["techniques"]) or tr(lang, "none")
    kit.draw_text(
        d,
        (MARGIN, y + 66),
        tr(lang, "Techniques used this round: {techniques}").format(techniques=used),
        kit.font(26),
        kit.MUTED,
        max_width=width - 2 * MARGIN,
    )
    score = me["score"]
    kit.draw_text(
        d,
        (MARGIN, y + 106),
        tr(lang, "Score {total}: cards {cards} + discs {discs} + paints {paints}").format(
            total=score["total"], cards=score["cards"], discs=score["discs"], paints=score["paints"]
        ),
        kit.font(26, True),
        max_width=width - 2 * MARGIN,
    )
    return kit.png_bytes(im, kit.module_palette(__name__))
