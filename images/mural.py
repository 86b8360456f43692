"""The Street Art: Mural board: a public view -> PNG bytes.

Layout, 1240 px wide and read top to bottom on a phone: a header (round, whose turn and what
they are choosing, the end warning); the four paint discs in a row with their 8 coloured,
lettered segments, the cubes on them and a mark at each contact (= when the touching segments
match); the paint queue (its 3 board spaces, then the rest); the mural grid with every painted
card (element, points, half-discs on its edges, the painter's colour and initial) and the
element tokens on its border; beside it the techniques and the display with the deck top; then
one panel per player (backpack, grafiteiros, sprays, rotations and techniques used, score).
Colour is never the only cue: paints carry letters, players an initial and a shape.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from images import kit
from images.kit import Color
from rules.mural.data import CARDS, SLOTS, TECHNIQUES

WIDTH = 1240
MARGIN = 24
HEADER_H = 150
DISC_R = 128
DISC_GAP = 36
DISCS_TOP = HEADER_H + 8
QUEUE_TOP = DISCS_TOP + 2 * DISC_R + 36
QUEUE_H = 78
MIDDLE_TOP = QUEUE_TOP + QUEUE_H + 18
CELL = 148
TOKEN_BAND = 40
SIDE_X = 880
PLAYER_H = 194

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
PENDING_WORDS = {
    "rotate": "is rotating",
    "collect": "is collecting a paint",
    "paint": "is painting",
    "order": "is ordering the queue",
    "insert": "is placing paints in the queue",
    "discard": "is discarding down to 5",
    "swap": "is using Swap",
    "copy": "is using Copy",
    "pick": "is using Queue Pick",
    "transfer": "is using Transfer",
}


def ink_on(fill: Color) -> Color:
    return kit.readable_on(fill)


# -- small pieces ------------------------------------------------------------------------------


def cube(d: ImageDraw.ImageDraw, centre: tuple[float, float], size: int, paint: str) -> None:
    """A paint cube: a rounded square of the paint's colour with its letter."""
    x, y = centre
    h = size / 2
    fill = PAINT_FILL[paint]
    d.rounded_rectangle(
        (x - h, y - h, x + h, y + h),
        radius=max(3, size // 6),
        fill=fill,
        outline=kit.BLACK,
        width=2,
    )
    d.text((x, y + 1), paint, font=kit.font(int(size * 0.62), True), fill=ink_on(fill), anchor="mm")


def cube_row(
    d: ImageDraw.ImageDraw, x: int, y: int, paints: list[str], size: int, gap: int = 6
) -> int:
    """Cubes left to right from (x, y) (top-left); returns the x after the last one."""
    for paint in paints:
        cube(d, (x + size / 2, y + size / 2), size, paint)
        x += size + gap
    return x


def player_colours(view: dict[str, Any]) -> dict[str, tuple[Color, str]]:
    """Each player's colour and shape, by seat."""
    return {
        p["id"]: (PLAYER_FILL[p["seat"] % 4], PLAYER_SHAPES[p["seat"] % 4]) for p in view["players"]
    }


# -- discs -------------------------------------------------------------------------------------


def disc_centre(position: int) -> tuple[int, int]:
    span = 4 * 2 * DISC_R + 3 * DISC_GAP
    left = (WIDTH - span) // 2
    return left + DISC_R + position * (2 * DISC_R + DISC_GAP), DISCS_TOP + DISC_R


@lru_cache(maxsize=16)
def disc_body(colours: str) -> Image.Image:
    """A disc side's 8 pie segments in their printed colours, segment s in slot s (drawn
    once per side, anti-aliased; turning it is a cheap image rotation)."""
    size = 2 * DISC_R

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        r = DISC_R * s
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
    letter_font = kit.font(22, True)
    for segment, colour in enumerate(colours):
        slot = (segment + orientation) % SLOTS
        angle = math.radians(slot * 45)
        lx = DISC_R + 0.84 * DISC_R * math.cos(angle)
        ly = DISC_R + 0.84 * DISC_R * math.sin(angle)
        d.text((lx, ly), colour, font=letter_font, fill=ink_on(SEGMENT_FILL[colour]), anchor="mm")
    d.text((DISC_R, DISC_R), label, font=kit.font(30, True), fill=kit.INK, anchor="mm")
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
            x = cx + 0.56 * DISC_R * math.cos(angle)
            y = cy + 0.56 * DISC_R * math.sin(angle)
            cube(d, (x, y), 34, paint)
        caption = f"side {disc['side']}" + (" · turned" if position in turned else "")
        d.text(
            (cx, cy + DISC_R + 8),
            caption,
            font=kit.font(18, position in turned),
            fill=kit.HIGHLIGHT if position in turned else kit.MUTED,
            anchor="ma",
        )
    for contact in view["contacts"]:
        left, _ = disc_centre(contact["contact"])
        x = left + DISC_R + DISC_GAP // 2
        y = DISCS_TOP + DISC_R
        if contact["same"]:
            d.ellipse((x - 20, y - 20, x + 20, y + 20), fill=GOOD, outline=kit.WHITE, width=3)
            d.text((x, y), "=", font=kit.font(30, True), fill=kit.BLACK, anchor="mm")
        else:
            d.ellipse((x - 14, y - 14, x + 14, y + 14), fill=kit.PANEL, outline=kit.GREY, width=2)
            d.text((x, y), "×", font=kit.font(22, True), fill=kit.MUTED, anchor="mm")
    # Compass for reading segment names (N at the top, E where the discs touch).
    d.text((MARGIN, DISCS_TOP + 2), "N↑", font=kit.font(18, True), fill=kit.MUTED)


def draw_queue(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The paint queue: its 3 spaces on the board framed, then the paints beyond them."""
    y = QUEUE_TOP
    d.rounded_rectangle(
        (MARGIN, y, WIDTH - MARGIN, y + QUEUE_H), radius=14, fill=kit.PANEL, outline=kit.PANEL_EDGE
    )
    kit.draw_text(d, (MARGIN + 16, y + QUEUE_H / 2), "Queue ▶", kit.font(26, True), anchor="lm")
    x = MARGIN + 150
    on_board = view["queue_on_board"]
    size = 40
    d.rounded_rectangle(
        (x - 8, y + 10, x + on_board * (size + 8) + 2, y + QUEUE_H - 10),
        radius=10,
        outline=kit.HIGHLIGHT,
        width=3,
    )
    queue = view["queue"]
    for i in range(on_board):
        cx = x + i * (size + 8) + size / 2
        if i < len(queue):
            cube(d, (cx, y + QUEUE_H / 2), size, queue[i])
        else:
            d.rectangle(
                (cx - 12, y + QUEUE_H / 2 - 12, cx + 12, y + QUEUE_H / 2 + 12), outline=kit.GREY
            )
    x += on_board * (size + 8) + 18
    room = (WIDTH - MARGIN - 20 - x) // (size + 6)
    rest = queue[on_board:]
    shown = rest if len(rest) <= room else rest[: room - 1]
    x = cube_row(d, x, int(y + QUEUE_H / 2 - size / 2), shown, size)
    if len(shown) < len(rest):
        kit.draw_text(
            d,
            (x + 4, y + QUEUE_H / 2),
            f"+{len(rest) - len(shown)}",
            kit.font(24, True),
            anchor="lm",
        )
    if not queue:
        kit.draw_text(d, (x + 4, y + QUEUE_H / 2), "empty", kit.font(22), kit.MUTED, anchor="lm")


# -- the mural ---------------------------------------------------------------------------------


def mural_origin(view: dict[str, Any]) -> tuple[int, int]:
    """The top-left of cell A1, the grid centred in the space left of the side column."""
    span = len(view["mural"][0]) * CELL + 2 * TOKEN_BAND
    left = MARGIN + (SIDE_X - 24 - MARGIN - span) // 2
    return left + TOKEN_BAND, MIDDLE_TOP + 44 + TOKEN_BAND


def half_disc(
    d: ImageDraw.ImageDraw, centre: tuple[float, float], side: str, element: str, r: int = 26
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
    d.text(
        (x + dx, y + dy),
        ELEMENT_SHORT[element],
        font=kit.font(13, True),
        fill=kit.BLACK,
        anchor="mm",
    )


def edge_point(x: int, y: int, side: str) -> tuple[float, float]:
    return {
        "N": (x + CELL / 2, y),
        "S": (x + CELL / 2, y + CELL),
        "E": (x + CELL, y + CELL / 2),
        "W": (x, y + CELL / 2),
    }[side]


def draw_mural(d: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str]) -> int:
    """The grid, its cells and the border tokens; returns the bottom y."""
    grid = view["mural"]
    rows, cols = len(grid), len(grid[0])
    ox, oy = mural_origin(view)
    kit.draw_text(d, (MARGIN, MIDDLE_TOP), "Mural", kit.font(30, True))
    d.rounded_rectangle(
        (
            ox - TOKEN_BAND,
            oy - TOKEN_BAND,
            ox + cols * CELL + TOKEN_BAND,
            oy + rows * CELL + TOKEN_BAND,
        ),
        radius=18,
        fill=kit.rgb("#4A4038"),
        outline=kit.PANEL_EDGE,
        width=2,
    )
    colours = player_colours(view)
    fresh = last_painted(view)
    for r in range(rows):
        for c in range(cols):
            x, y = ox + c * CELL, oy + r * CELL
            cell = grid[r][c]
            if cell is None:
                d.rectangle(
                    (x + 3, y + 3, x + CELL - 3, y + CELL - 3),
                    fill=kit.rgb("#5E544B"),
                    outline=kit.rgb("#7A6E63"),
                    width=2,
                )
                d.text(
                    (x + CELL / 2, y + CELL / 2),
                    f"{'ABCDE'[c]}{r + 1}",
                    font=kit.font(30, True),
                    fill=kit.rgb("#B9AEA3"),
                    anchor="mm",
                )
                continue
            draw_painted(d, x, y, cell, colours, names, fresh=(r, c) == fresh)
            bonus = view["bonuses"][r][c]
            if bonus:
                kit.badge(
                    d,
                    (x + CELL - 12, y + CELL - 10),
                    f"+{bonus}",
                    kit.font(20, True),
                    GOOD,
                    kit.BLACK,
                    pad=(7, 1),
                    anchor="rs",
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
        half_disc(d, (ex, ey), opposite, element, r=24)
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
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    cell: dict[str, Any],
    colours: dict[str, tuple[Color, str]],
    names: dict[str, str],
    fresh: bool,
) -> None:
    """A painted card: a frame in the painter's colour, the element band, the points in the
    middle (a flexible card's paints under them), and the painter's shape and initial."""
    card = CARDS[cell["card"]]
    fill, shape = colours.get(cell["painter"], (kit.GREY, "?"))
    if fresh:  # painted by the last move
        d.rectangle((x - 4, y - 4, x + CELL + 4, y + CELL + 4), outline=kit.HIGHLIGHT, width=6)
    d.rectangle((x + 2, y + 2, x + CELL - 2, y + CELL - 2), fill=kit.PAPER, outline=fill, width=9)
    d.rectangle((x + 11, y + 11, x + CELL - 11, y + 42), fill=ELEMENT_FILL[card.element])
    d.text(
        (x + 16, y + 27),
        ELEMENT_SHORT[card.element],
        font=kit.font(22, True),
        fill=kit.BLACK,
        anchor="lm",
    )
    d.text((x + CELL - 16, y + 27), card.id, font=kit.font(16, True), fill=kit.BLACK, anchor="rm")
    if card.flexible:
        paints = [p for p in cell["paints"] if p is not None]
        points = 2 + sum(2 if p == "A" else 1 for p in paints)
        width = len(paints) * 25 - 3
        cube_row(d, int(x + (CELL - width) / 2), int(y + 88), paints, 22, 3)
    else:
        points = card.points or 0
    d.text(
        (x + CELL / 2, y + 68),
        str(points),
        font=kit.font(34, True),
        fill=kit.PAPER_INK,
        anchor="mm",
    )
    initial = names.get(cell["painter"], "?")[:1].upper()
    kit.badge(
        d,
        (int(x + 14), int(y + CELL - 12)),
        f"{shape}{initial}",
        kit.font(18, True),
        fill,
        ink_on(fill),
        pad=(6, 1),
        anchor="ls",
    )


# -- the side column: techniques and display ---------------------------------------------------


TECHNIQUE_H = 118
OFFER_H = 92


def side_height(view: dict[str, Any]) -> int:
    """How tall the side column is, for the layout."""
    hidden = 52 if view["hidden_techniques"] else 0
    offers = len(view["display"]) + (1 if view["deck_top"] else 0)
    return (
        40 + (TECHNIQUE_H + 8) * len(view["techniques"]) + hidden + 50 + offers * (OFFER_H + 8) + 30
    )


def draw_side(d: ImageDraw.ImageDraw, view: dict[str, Any]) -> int:
    """The revealed techniques (who used them this round) and the display with the deck top."""
    x0, y = SIDE_X, MIDDLE_TOP
    width = WIDTH - MARGIN - x0
    kit.draw_text(d, (x0, y), "Techniques", kit.font(28, True))
    y += 40
    colours = player_colours(view)
    for tile in view["techniques"]:
        info = TECHNIQUES[tile]
        used = [p["id"] for p in view["players"] if tile in p["techniques"]]
        edge = kit.HIGHLIGHT if info.main else kit.PANEL_EDGE
        d.rounded_rectangle(
            (x0, y, x0 + width, y + TECHNIQUE_H), radius=12, fill=kit.PANEL, outline=edge, width=2
        )
        name_width = kit.draw_text(d, (x0 + 12, y + 8), info.name, kit.font(24, True))
        if info.main:
            kit.badge(
                d,
                (x0 + 24 + name_width, y + 8),
                "MAIN",
                kit.font(16, True),
                kit.HIGHLIGHT,
                pad=(8, 2),
            )
        effect = info.effect.replace(" (main action)", "")
        effect_font = kit.font(18)
        for k, line in enumerate(kit.wrap(effect, effect_font, width - 24, 3)):
            kit.draw_text(d, (x0 + 12, y + 42 + 24 * k), line, effect_font, kit.MUTED)
        px = x0 + width - 14
        for pid in used:
            fill, shape = colours[pid]
            d.text((px, y + 22), shape, font=kit.font(24, True), fill=fill, anchor="rm")
            px -= 26
        y += TECHNIQUE_H + 8
    if view["hidden_techniques"]:
        d.rounded_rectangle(
            (x0, y, x0 + width, y + 44), radius=12, fill=kit.BLUE, outline=kit.WHITE, width=2
        )
        kit.centered_text(
            d, (x0, y, x0 + width, y + 44), "+1 face down until round 2", kit.font(20, True)
        )
        y += 52
    y += 10
    kit.draw_text(d, (x0, y), "Display", kit.font(28, True))
    kit.draw_text(
        d, (x0 + width, y + 6), f"deck {view['deck_size']}", kit.font(20), kit.MUTED, anchor="ra"
    )
    y += 40
    for card_id in view["display"]:
        y = draw_offer(d, x0, y, width, card_id, top=False)
    if view["deck_top"]:
        kit.draw_text(d, (x0, y), "Deck top (cannot be painted)", kit.font(18, True), kit.MUTED)
        y = draw_offer(d, x0, y + 24, width, view["deck_top"], top=True)
    return y


def draw_offer(d: ImageDraw.ImageDraw, x: int, y: int, width: int, card_id: str, top: bool) -> int:
    """A display card, cost side up: id, element, half-disc edges, cost cubes, points. The deck
    top is drawn as a card back with the same information and "deck top, not for sale"."""
    card = CARDS[card_id]
    h = OFFER_H
    back = kit.BLUE if top else kit.PAPER
    ink = kit.WHITE if top else kit.PAPER_INK
    d.rounded_rectangle(
        (x, y, x + width, y + h), radius=12, fill=back, outline=ELEMENT_FILL[card.element], width=4
    )
    d.text((x + 12, y + 8), card.id, font=kit.font(22, True), fill=ink)
    d.rounded_rectangle((x + 74, y + 8, x + 132, y + 34), radius=8, fill=ELEMENT_FILL[card.element])
    d.text(
        (x + 103, y + 21),
        ELEMENT_SHORT[card.element],
        font=kit.font(18, True),
        fill=kit.BLACK,
        anchor="mm",
    )
    points = "2+" if card.flexible else f"{card.points}"
    d.text((x + width - 12, y + 8), f"{points} pts", font=kit.font(22, True), fill=ink, anchor="ra")
    # The card's sides with a half-disc, drawn as a tiny card with bumps.
    mx, my, m = x + width - 60, y + 44, 36
    d.rectangle((mx, my, mx + m, my + m), outline=ink, width=2)
    for side in card.edges:
        ex, ey = {
            "N": (mx + m / 2, my),
            "S": (mx + m / 2, my + m),
            "E": (mx + m, my + m / 2),
            "W": (mx, my + m / 2),
        }[side]
        d.ellipse(
            (ex - 7, ey - 7, ex + 7, ey + 7), fill=ELEMENT_FILL[card.element], outline=kit.BLACK
        )
    if card.flexible:
        d.text((x + 12, y + 52), f"any {card.spaces} paints", font=kit.font(22, True), fill=ink)
    else:
        cube_row(d, x + 12, y + 46, list(card.cost or ""), 34, 5)
    return y + h + 8


# -- players -----------------------------------------------------------------------------------


def draw_players(
    d: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str], top: int
) -> None:
    colours = player_colours(view)
    outcome = view.get("outcome") or {}
    winners = set(outcome.get("winners", []))
    width = (WIDTH - 2 * MARGIN - 16) // 2
    for i, player in enumerate(view["players"]):
        x = MARGIN + (i % 2) * (width + 16)
        y = top + (i // 2) * (PLAYER_H + 14)
        pid = player["id"]
        fill, shape = colours[pid]
        current = pid == view.get("current")
        d.rounded_rectangle(
            (x, y, x + width, y + PLAYER_H),
            radius=16,
            fill=kit.PANEL,
            outline=kit.HIGHLIGHT if current or pid in winners else kit.PANEL_EDGE,
            width=5 if current or pid in winners else 2,
        )
        d.rounded_rectangle((x, y, x + 14, y + PLAYER_H), radius=6, fill=fill)
        marks = ""
        if pid == view.get("first"):
            marks += " ★1st"
        if pid in winners:
            marks += " 🏆" if kit.has_glyph("🏆") else " WINNER"
        if player["passed"] and not outcome:
            marks += " · passed"
        title = f"{shape} {names[pid]}"
        kit.draw_text(d, (x + 28, y + 12), title, kit.font(30, True), fill, max_width=width - 190)
        score = player["score"]
        kit.draw_text(
            d,
            (x + width - 16, y + 10),
            f"{score['total']} pt{'s' if score['total'] != 1 else ''}",
            kit.font(32, True),
            anchor="ra",
        )
        kit.draw_text(
            d,
            (x + 28, y + 50),
            (("▶ to move" if current else "") + marks).strip(),
            kit.font(20, True),
            kit.HIGHLIGHT if current else kit.MUTED,
            max_width=width - 44,
        )
        pack = player["backpack"]
        kit.draw_text(d, (x + 28, y + 84), "Bag", kit.font(20, True), kit.MUTED)
        end = cube_row(d, x + 78, y + 78, pack, 34, 5)
        if not pack:
            kit.draw_text(d, (end, y + 84), "empty", kit.font(20), kit.MUTED)
        over = len(pack) > 5
        kit.draw_text(
            d,
            (x + width - 16, y + 84),
            f"{len(pack)}/5{' !' if over else ''}",
            kit.font(22, True),
            kit.VERMILLION if over else kit.INK,
            anchor="ra",
        )
        stats = f"Grafiteiros {player['grafiteiros']} · Sprays {player['sprays']}"
        kit.draw_text(d, (x + 28, y + 122), stats, kit.font(26, True), max_width=width - 44)
        detail = (
            f"Big {player['rotations']['big']}/2 · Double {player['rotations']['double']}/2 · "
            f"cards {score['cards']} + discs {score['discs']} + paints {score['paints']}"
        )
        kit.draw_text(d, (x + 28, y + 158), detail, kit.font(20), kit.MUTED, max_width=width - 44)


# -- header ------------------------------------------------------------------------------------


def status_line(view: dict[str, Any], names: dict[str, str]) -> str:
    outcome = view.get("outcome")
    if outcome:
        ranking = outcome["details"]["ranking"]
        scores = outcome["scores"]
        return "Final: " + " · ".join(f"{names[p]} {scores[p]}" for p in ranking)
    current = view.get("current")
    pending = view["turn"]["pending"]
    doing = (
        PENDING_WORDS[pending["do"]]
        if pending
        else ("has taken the main action" if view["turn"]["main"] else "to move")
    )
    return f"▶ {names.get(current, current)} {doing}"


#: How the latest turn's events read in the header, tersely (the post's embed tells it in full).
def _event_note(event: dict[str, Any]) -> str:
    kind = event["type"]
    if kind == "rotated":
        turns = ", ".join(
            f"{d + 1} {'↻' if s > 0 else '↺'}{abs(s)}"
            for d, s in zip(event["discs"], event["steps"], strict=True)
            if s
        )
        return f"turned disc {turns}"
    if kind in ("collected", "copied", "picked"):
        return f"took {event['paint']}"
    if kind == "painted":
        return f"painted {event['card']} in {'ABCDE'[event['cell'][1]]}{event['cell'][0] + 1}"
    if kind == "mixed":
        return f"mixed {'+'.join(event['paints'])}"
    if kind == "technique":
        return TECHNIQUES[event["tile"]].name
    if kind == "swapped":
        return f"swapped {event['give']}→{event['take']}"
    if kind == "transferred":
        return f"moved {event['paint']} to disc {event['to'][0] + 1}"
    if kind == "discarded":
        return f"discarded {' '.join(event['paints'])}"
    if kind == "passed":
        return "passed"
    return ""


def last_turn_text(view: dict[str, Any], names: dict[str, str]) -> str:
    """ "Last turn: Ana — turned disc 2 ↻1 · took R · mixed R+Y" (or the turn so far)."""
    in_progress = bool(view["turn"]["log"])
    events = recent_events(view)
    notes = [note for note in map(_event_note, events) if note]
    if not notes:
        return ""
    who = view.get("current") if in_progress else (view.get("previous") or {}).get("player")
    label = "This turn" if in_progress else "Last turn"
    return f"{label}: {names.get(who, who)} — {' · '.join(notes)}"


def draw_header(d: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str]) -> None:
    kit.draw_text(d, (MARGIN, 14), "Street Art: Mural", kit.font(40, True))
    kit.draw_text(
        d, (WIDTH - MARGIN, 20), f"Round {view['round']} of 2", kit.font(30, True), anchor="ra"
    )
    kit.draw_text(
        d,
        (MARGIN, 66),
        status_line(view, names),
        kit.font(28, True),
        kit.HIGHLIGHT,
        max_width=WIDTH - 2 * MARGIN - 360,
    )
    summary = last_turn_text(view, names)
    if summary:
        kit.draw_text(
            d, (MARGIN, 108), summary, kit.font(24), kit.MUTED, max_width=WIDTH - 2 * MARGIN
        )
    trigger = view.get("trigger")
    if trigger and not view.get("outcome"):
        why = "last spray" if trigger["reason"] == "sprays" else "mural full"
        kit.badge(
            d,
            (WIDTH - MARGIN, 64),
            f"Final lap: {why}",
            kit.font(24, True),
            kit.VERMILLION,
            kit.WHITE,
            anchor="ra",
        )


def board_image(view: dict[str, Any]) -> Image.Image:
    names = kit.display_names(view)
    rows = (len(view["players"]) + 1) // 2
    grid = view["mural"]
    mural_bottom = mural_origin(view)[1] + len(grid) * CELL + TOKEN_BAND
    side_bottom = MIDDLE_TOP + side_height(view)
    players_top = max(mural_bottom, side_bottom) + 20
    height = players_top + rows * (PLAYER_H + 14) + MARGIN
    im = Image.new("RGB", (WIDTH, height), kit.TABLE)
    d = ImageDraw.Draw(im)
    draw_header(d, view, names)
    draw_discs(im, d, view)
    draw_queue(d, view)
    draw_mural(d, view, names)
    draw_side(d, view)
    draw_players(d, view, names, players_top)
    return im


def render(view: dict[str, Any]) -> bytes:
    """The Street Art: Mural board of ``view`` as PNG bytes (public parts only)."""
    return kit.png_bytes(board_image(view))
