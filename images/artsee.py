"""The ArtSee board: a public view (rules/artsee/engine.py ``view``) -> PNG bytes.

Layout, at least 1100 px wide (wider only for very long galleries): a header (title, turn, the
masterpiece supply, both draw piles showing the back of their top card), a status strip (whose
move and what for, or the final scores), then one panel per player: name with their visitor
colour and letter, prestige, visitors in supply, hand as card backs, and the gallery. A gallery
shows column numbers, each column's cards stacked so that every card's art pieces stay visible,
the front card whole (category, arrow, visitors), and the slots between and beside the columns
with their numbers and masterpiece tokens. Every category has a colour AND a letter. Only the
public parts of the view are drawn: ``hand_cards`` and ``chosen`` are never read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from images import kit
from images.kit import Color
from rules.artsee.data import CATEGORIES, CATEGORY_NAMES, EXHIBITS, MASTERPIECES

WIDTH = 1100
MARGIN = 20
HEADER_H = 184
STATUS_H = 64
PANEL_HEAD_H = 78
PANEL_PAD = 14
NUMBER_H = 30  # column numbers above a gallery, slot numbers below
STRIP_H = 34  # the visible band of a covered card: its art pieces
SLOT_W = 40  # the gap between columns, where masterpiece tokens go
CARD_W_MAX, CARD_W_MIN = 118, 96
BACK_W, BACK_H = 44, 60
ARROW_ROW_H = 36  # the bottom row of a front card: its arrow, and its visitors

#: Category colours from the notes (A1: red abstract, green landscape, yellow portrait, grey
#: still life), taken from the Okabe-Ito palette; the letter is always drawn too.
CATEGORY_COLOURS: dict[str, Color] = {
    "AB": kit.VERMILLION,
    "LA": kit.BLUISH_GREEN,
    "PO": kit.YELLOW,
    "SL": kit.GREY,
}
LETTERS = {c: CATEGORY_NAMES[c][0] for c in CATEGORIES}  # A, L, P, S
#: Visitor colours, one per seat, none equal to a category colour.
SEAT_COLOURS: tuple[Color, ...] = (
    kit.ORANGE,
    kit.SKY_BLUE,
    kit.REDDISH_PURPLE,
    kit.rgb("#FFFFFF"),
    kit.BLUE,
)
ARROWS = {"L": "←", "R": "→"}
PHASES = {
    "card": "to choose a card to play",
    "column": "to choose a column for the card",
    "claim": "may claim a masterpiece",
    "slot": "to choose a slot for the masterpiece",
    "draw": "to draw from pile 1 or 2",
}


@dataclass(frozen=True)
class Geometry:
    """Card sizes for one board: every gallery uses the same, so they compare at a glance."""

    card_w: int
    width: int

    @property
    def card_h(self) -> int:
        return round(self.card_w * 1.2)


def seat_letters(view: dict[str, Any], names: dict[str, str]) -> dict[str, str]:
    """Each player's visitor letter: the initial of their name, or their seat number when two
    names share an initial (colour is never the only cue)."""
    initials = {p["id"]: (names[p["id"]][:1] or "?").upper() for p in view["players"]}
    shared = [i for i in initials.values() if list(initials.values()).count(i) > 1]
    return {
        p["id"]: str(p["seat"] + 1) if initials[p["id"]] in shared else initials[p["id"]]
        for p in view["players"]
    }


def geometry(view: dict[str, Any]) -> Geometry:
    """Cards as wide as fit the widest gallery in 1100 px, down to a readable minimum; beyond
    that the image grows wider."""
    widest = max(len(p["columns"]) for p in view["players"])
    inner = WIDTH - 2 * MARGIN - 2 * PANEL_PAD
    card_w = (inner - (widest + 1) * SLOT_W) // widest
    card_w = max(CARD_W_MIN, min(CARD_W_MAX, card_w))
    needed = widest * card_w + (widest + 1) * SLOT_W + 2 * MARGIN + 2 * PANEL_PAD
    return Geometry(card_w=card_w, width=max(WIDTH, needed))


# ------------------------------------------------------------------------------- components


@lru_cache(maxsize=64)
def piece_chip(category: str, size: int) -> Image.Image:
    """An art piece: a chip in its category colour with its letter."""
    colour = CATEGORY_COLOURS[category]
    return kit.chip(size, colour, LETTERS[category], kit.readable_on(colour), kit.PAPER_INK)


@lru_cache(maxsize=256)
def card_face(card: str, width: int, height: int) -> Image.Image:
    """A whole exhibit: its featured colour, the art pieces in the top band (the part that stays
    visible when covered), the featured letter, and the arrow in the bottom row (visitors go in
    its other corner). The header's legend names the letters."""
    info = EXHIBITS[card]
    colour = CATEGORY_COLOURS[info.featured]
    ink = kit.readable_on(colour)
    im = kit.rounded_card((width, height), colour, kit.PAPER_INK, radius=10, outline_width=2).copy()
    d = ImageDraw.Draw(im)
    chip = min(STRIP_H - 8, (width - 12) // 3 - 2)
    for i, piece in enumerate(info.pieces):
        kit.paste(im, piece_chip(piece, chip), (6 + i * (chip + 3), 4))
    body = height - STRIP_H - ARROW_ROW_H  # between the pieces and the arrow row
    letter_font = kit.font(min(body, width // 2), bold=True)
    centre = (width / 2, STRIP_H + body / 2 + 2)
    d.text(centre, LETTERS[info.featured], font=letter_font, fill=ink, anchor="mm")
    arrow_font = kit.font(30, bold=True)
    x = width * (0.2 if info.arrow == "L" else 0.8)
    arrow = ARROWS[info.arrow]
    y = height - ARROW_ROW_H / 2 - 2
    d.text((x, y), arrow, font=arrow_font, fill=ink, anchor="mm", stroke_width=1, stroke_fill=ink)
    return im


@lru_cache(maxsize=64)
def card_back(category: str | None, width: int, height: int) -> Image.Image:
    """A card back shows its featured category: colour and letter; ``None`` is an empty pile."""
    if category is None:
        im = kit.rounded_card((width, height), kit.PANEL, kit.PANEL_EDGE, radius=8).copy()
        d = ImageDraw.Draw(im)
        d.text(
            (width / 2, height / 2), "—", font=kit.font(20, bold=True), fill=kit.MUTED, anchor="mm"
        )
        return im
    colour = CATEGORY_COLOURS[category]
    im = kit.rounded_card((width, height), colour, kit.WHITE, radius=8, outline_width=3).copy()
    d = ImageDraw.Draw(im)
    inset = max(5, width // 8)
    d.rounded_rectangle(
        (inset, inset, width - inset, height - inset), 6, outline=kit.readable_on(colour), width=2
    )
    d.text(
        (width / 2, height / 2),
        LETTERS[category],
        font=kit.font(int(width * 0.5), bold=True),
        fill=kit.readable_on(colour),
        anchor="mm",
    )
    return im


@lru_cache(maxsize=64)
def masterpiece_token(token: str, size: int) -> Image.Image:
    """A masterpiece: a framed square in its category colour with letter and requirement."""
    info = MASTERPIECES[token]
    colour = CATEGORY_COLOURS[info.category]

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, size * s - 1, size * s - 1), 6 * s, fill=kit.rgb("#C9A227"))
        b = 4 * s
        d.rounded_rectangle((b, b, size * s - 1 - b, size * s - 1 - b), 4 * s, fill=colour)

    im = kit.supersampled((size, size), paint)
    d = ImageDraw.Draw(im)
    label = f"{LETTERS[info.category]}{info.requirement}"
    fnt = kit.fit_font(label, size - 8, int(size * 0.45), 10, bold=True)
    d.text((size / 2, size / 2), label, font=fnt, fill=kit.readable_on(colour), anchor="mm")
    return im


def visitor_pawn(colour: Color, letter: str, size: int) -> Image.Image:
    return kit.chip(size, colour, letter, kit.readable_on(colour), kit.PAPER_INK)


# ------------------------------------------------------------------------------- layout


def gallery_height(player: dict[str, Any], geo: Geometry) -> int:
    tallest = max(len(col) for col in player["columns"])
    return NUMBER_H + (tallest - 1) * STRIP_H + geo.card_h + NUMBER_H


def panel_height(player: dict[str, Any], geo: Geometry) -> int:
    return PANEL_HEAD_H + gallery_height(player, geo) + PANEL_PAD


def _draw_header(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], width: int) -> None:
    kit.draw_text(d, (MARGIN, 18), "ArtSee", kit.font(44, bold=True))
    kit.draw_text(d, (MARGIN, 76), f"Turn {view['turn']}", kit.font(26), kit.MUTED)
    # the supply: per category, the requirements still unclaimed
    x0 = 230
    kit.draw_text(d, (x0, 8), "Masterpieces left", kit.font(18), kit.MUTED)
    supply = set(view["supply"])
    x = x0
    for category in CATEGORIES:
        tokens = [t for t in sorted(MASTERPIECES) if MASTERPIECES[t].category == category]
        left = [t for t in tokens if t in supply]
        for k, token in enumerate(left):
            kit.paste(im, masterpiece_token(token, 40), (x + (k % 3) * 43, 34 + (k // 3) * 43))
        if not left:
            kit.draw_text(d, (x + 6, 50), f"no {LETTERS[category]} left", kit.font(18), kit.MUTED)
        x += 3 * 43 + 12
    # the legend: every category's colour and letter, and what an arrow does
    x = MARGIN
    for category in CATEGORIES:
        kit.paste(im, piece_chip(category, 28), (x, 146))
        x += 34 + kit.draw_text(
            d, (x + 34, 160), CATEGORY_NAMES[category], kit.font(20), anchor="lm"
        )
        x += 22
    kit.draw_text(
        d, (x, 160), "· ← → the arrow scores that side", kit.font(20), kit.MUTED, anchor="lm"
    )
    # the draw piles: the back of each top card, and the count
    for i, pile in enumerate(view["piles"]):
        px = width - MARGIN - (2 - i) * 118 + 20
        kit.paste(im, card_back(pile["top"], 76, 100), (px, 12))
        label = f"Pile {i + 1}: {pile['size']}"
        kit.draw_text(d, (px + 38, 132), label, kit.font(20, bold=True), anchor="mm")


def _status_text(view: dict[str, Any], names: dict[str, str]) -> str:
    outcome = view.get("outcome")
    if outcome is not None:
        ranking = sorted(outcome["scores"].items(), key=lambda item: -item[1])
        scores = " · ".join(f"{names.get(p, p)} {s}" for p, s in ranking)
        winners = ", ".join(names.get(p, p) for p in outcome["winners"])
        verb = "wins" if len(outcome["winners"]) == 1 else "share the win"
        return f"Game over — {winners} {verb} · {scores}"
    current = names.get(view["current"], "?")
    if view["phase"] == "welcome":
        played = CATEGORY_NAMES[EXHIBITS[view["played"]].featured]
        asked = ", ".join(names.get(p, p) for p in view["to_move"])
        return f"{played} played by {current}: {asked} may welcome visitors"
    text = f"{current} {PHASES[view['phase']]}"
    if view["played"]:
        played = CATEGORY_NAMES[EXHIBITS[view["played"]].featured]
        text += f" · played {played}, earned {view['earned']}"
    return text


def _draw_status(
    d: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str], width: int
) -> None:
    box = (MARGIN, HEADER_H, width - MARGIN, HEADER_H + STATUS_H - 10)
    d.rounded_rectangle(box, 12, fill=kit.PANEL, outline=kit.HIGHLIGHT, width=3)
    kit.draw_text(
        d,
        (MARGIN + 18, (box[1] + box[3]) / 2),
        _status_text(view, names),
        kit.font(26, bold=True),
        anchor="lm",
        max_width=width - 2 * MARGIN - 36,
    )


def _draw_panel_head(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    player: dict[str, Any],
    top: int,
    names: dict[str, str],
    letters: dict[str, str],
    width: int,
) -> None:
    """Name (with the visitor colour and letter) and status on the left; prestige, visitors in
    supply and the hand's card backs on the right."""
    pid = player["id"]
    colour = SEAT_COLOURS[player["seat"] % len(SEAT_COLOURS)]
    right = width - MARGIN - PANEL_PAD
    hand_x = right - 3 * (BACK_W - 4)
    supply_x = hand_x - 110
    prestige_x = supply_x - 130
    x = MARGIN + PANEL_PAD
    kit.paste(im, visitor_pawn(colour, letters[pid], 44), (x, top + 14))
    x += 56
    kit.draw_text(d, (x, top + 10), names[pid], kit.font(30, bold=True), max_width=prestige_x - x)
    outcome = view.get("outcome")
    if outcome is not None:
        parts = outcome["details"]["breakdown"][pid]
        won = pid in outcome["winners"]
        line = (
            f"{'WINNER · ' if won else ''}total {parts['total']} = {parts['prestige']} "
            f"+ {parts['masterpieces']} tokens + {parts['bonus']} bonus"
        )
        fill = kit.HIGHLIGHT if won else kit.MUTED
        kit.draw_text(d, (x, top + 48), line, kit.font(19, bold=True), fill, max_width=right - x)
    else:
        tags = ["▶ to move"] if pid in view["to_move"] else []
        if pid == view["start"]:
            tags.append("start player")
        tags.append(f"visitors: {player['policy']}")
        text = " · ".join(tags)
        kit.draw_text(d, (x, top + 48), text, kit.font(19), kit.MUTED, max_width=prestige_x - x)
    kit.draw_text(d, (prestige_x, top + 14), f"★ {player['prestige']}", kit.font(32, bold=True))
    kit.paste(im, visitor_pawn(colour, letters[pid], 30), (supply_x, top + 16))
    kit.draw_text(d, (supply_x + 36, top + 16), f"×{player['supply']}", kit.font(26, bold=True))
    kit.draw_text(d, (hand_x, top + 2), "Hand", kit.font(16), kit.MUTED)
    for k, category in enumerate(player["hand"]):
        back = card_back(category, BACK_W - 8, BACK_H - 12)
        kit.paste(im, back, (hand_x + k * (BACK_W - 4), top + 22))


def _draw_gallery(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    player: dict[str, Any],
    top: int,
    geo: Geometry,
    colour: Color,
    letter: str,
    played_here: int | None,
) -> None:
    number_font = kit.font(20, bold=True)
    left = MARGIN + PANEL_PAD
    slots = {m["slot"]: m["token"] for m in player["masterpieces"]}
    columns = player["columns"]
    card_top = top + NUMBER_H
    bottom = card_top + (max(len(c) for c in columns) - 1) * STRIP_H + geo.card_h
    for slot in range(len(columns) + 1):
        sx = left + slot * (geo.card_w + SLOT_W)
        centre = sx + SLOT_W / 2
        if slot in slots:
            size = SLOT_W - 2
            kit.paste(
                im, masterpiece_token(slots[slot], size), (int(centre - size / 2), card_top + 4)
            )
        else:
            d.line((centre, card_top + 8, centre, bottom - 8), fill=kit.PANEL_EDGE, width=2)
        kit.draw_text(
            d, (centre, bottom + NUMBER_H / 2), str(slot), kit.font(16), kit.MUTED, anchor="mm"
        )
    for j, column in enumerate(columns):
        cx = left + SLOT_W + j * (geo.card_w + SLOT_W)
        label_fill = kit.HIGHLIGHT if played_here == j + 1 else kit.INK
        kit.draw_text(
            d,
            (cx + geo.card_w / 2, top + NUMBER_H / 2),
            str(j + 1),
            number_font,
            label_fill,
            anchor="mm",
        )
        for k, card in enumerate(column):
            kit.paste(im, card_face(card, geo.card_w, geo.card_h), (cx, card_top + k * STRIP_H))
        front_top = card_top + (len(column) - 1) * STRIP_H
        if played_here == j + 1:
            d.rounded_rectangle(
                (cx - 3, front_top - 3, cx + geo.card_w + 3, front_top + geo.card_h + 3),
                12,
                outline=kit.HIGHLIGHT,
                width=4,
            )
        visitors = player["visitors"][j]
        if visitors:  # in the arrow row, away from the arrow, with their number
            pawn = ARROW_ROW_H - 4
            arrow_left = EXHIBITS[column[-1]].arrow == "L"
            px = cx + geo.card_w - pawn - 4 if arrow_left else cx + 4
            py = front_top + geo.card_h - pawn - 4
            kit.paste(im, visitor_pawn(colour, letter, pawn), (px, py))
            if visitors > 1:  # a count badge on the pawn's upper corner, towards the card
                bx = px if arrow_left else px + pawn
                kit.badge(
                    d,
                    (bx, py + 2),
                    str(visitors),
                    kit.font(19, bold=True),
                    kit.WHITE,
                    pad=(6, 1),
                    anchor="mm",
                    outline=kit.PAPER_INK,
                )


def board_image(view: dict[str, Any]) -> Image.Image:
    names = kit.display_names(view)
    letters = seat_letters(view, names)
    geo = geometry(view)
    heights = [panel_height(p, geo) for p in view["players"]]
    height = HEADER_H + STATUS_H + sum(h + 14 for h in heights) + MARGIN
    im = Image.new("RGB", (geo.width, height), kit.TABLE)  # a fill is faster than a copy
    d = ImageDraw.Draw(im)
    _draw_header(im, d, view, geo.width)
    _draw_status(d, view, names, geo.width)
    top = HEADER_H + STATUS_H
    for player, panel_h in zip(view["players"], heights, strict=True):
        pid = player["id"]
        moving = pid in view["to_move"]
        d.rounded_rectangle(
            (MARGIN, top, geo.width - MARGIN, top + panel_h),
            14,
            fill=kit.PANEL,
            outline=kit.HIGHLIGHT if moving else kit.PANEL_EDGE,
            width=4 if moving else 2,
        )
        _draw_panel_head(im, d, view, player, top, names, letters, geo.width)
        played_here = view["column"] if pid == view["current"] else None
        colour = SEAT_COLOURS[player["seat"] % len(SEAT_COLOURS)]
        _draw_gallery(im, d, player, top + PANEL_HEAD_H, geo, colour, letters[pid], played_here)
        top += panel_h + 14
    return im


def render(view: dict[str, Any]) -> bytes:
    """The ArtSee board of ``view`` as PNG bytes (public parts only)."""
    return kit.png_bytes(board_image(view))


HAND_GAP = 16
HAND_CAPTION_H = 34


def render_hand(view: dict[str, Any]) -> bytes | None:
    """The viewer's exhibits face up, numbered as the hand text lists them, the card they chose
    to play (if any) framed; None for a spectator or an empty hand."""
    cards = list(view.get("hand_cards") or [])
    if not cards:
        return None
    chosen = cards.index(view["chosen"]) if view.get("chosen") in cards else None
    card_w = CARD_W_MAX
    card_h = Geometry(card_w=card_w, width=WIDTH).card_h
    width = 2 * MARGIN + len(cards) * (card_w + HAND_GAP) - HAND_GAP
    im = Image.new("RGB", (width, 2 * MARGIN + card_h + HAND_CAPTION_H), kit.TABLE)
    d = ImageDraw.Draw(im)
    caption = kit.font(22, bold=True)
    for i, card in enumerate(cards):
        x = MARGIN + i * (card_w + HAND_GAP)
        if i == chosen:
            frame = (x - 6, MARGIN - 6, x + card_w + 6, MARGIN + card_h + 6)
            d.rounded_rectangle(frame, 14, outline=kit.HIGHLIGHT, width=5)
        kit.paste(im, card_face(card, card_w, card_h), (x, MARGIN))
        label = f"{i + 1} · chosen" if i == chosen else str(i + 1)
        centre = (x + card_w / 2, MARGIN + card_h + HAND_CAPTION_H / 2 + 4)
        d.text(centre, label, font=caption, fill=kit.WHITE, anchor="mm")
    return kit.png_bytes(im)
