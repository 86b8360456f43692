"""The ArtSee pictures: a public view (rules/artsee/engine.py ``view``) -> PNG bytes.

The board a post carries (``render``) is drawn for a phone, 800 px wide with every word at 8
CSS px when a phone shows it 285 CSS px wide: each gallery is a table (see ``PHONE_W``).

The detail picture (``render_detail``, for the Board button) draws the cards themselves,
1200 px wide or wider: a header (title, turn, the masterpiece supply, both draw piles showing
the back of their top card), a status strip (whose move and what for, or the final scores),
the last turn in words, then the galleries, two in a row: name with the visitor colour and
letter, prestige (the final score once the game is over), visitors in supply, hand as card
backs, and the gallery. A gallery shows column numbers, each column's cards stacked so that
every card's art pieces stay visible, the front card whole (category, arrow, visitors), and
the slots between and beside the columns with their numbers and masterpiece tokens. Cards
shrink to fit the widest gallery and the tallest column. Every category has a colour AND a
letter. Only the public parts of the view are drawn: ``hand_cards`` and ``chosen`` are never
read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from images import kit
from images.kit import Color
from images.lang import N_, tr, tr_n
from rules.artsee.data import CATEGORIES, CATEGORY_NAMES, EXHIBITS, MASTERPIECES

WIDTH = 1200
MARGIN = 20
HEADER_H = 108
STATUS_H = 56
LAST_H = 40
TOP_H = HEADER_H + STATUS_H + LAST_H
PANEL_GAP = 14
PANEL_HEAD_H = 78
PANEL_PAD = 12
NUMBER_H = 26  # column numbers above a gallery, slot numbers below
CARD_W_MAX, CARD_W_MIN = 100, 44
#: The board's height at most: 1.3 times narrower than the board is wide.
MAX_HEIGHT = round(WIDTH / 1.3)
#: Galleries the detail picture's card sizes are fitted to, two to a row (a fifth makes it taller).
ON_BOARD = 4
#: The old second picture's name, while the posts still name it (every gallery is on the board).
MORE_GALLERIES_FILE = "galleries.png"
BACK_W, BACK_H = 34, 46

#: Category colours from the notes (A1: red abstract, green landscape, yellow portrait, grey
#: still life), taken from the Okabe-Ito palette; the letter is always drawn too.
CATEGORY_COLOURS: dict[str, Color] = {
    "AB": kit.VERMILLION,
    "LA": kit.BLUISH_GREEN,
    "PO": kit.YELLOW,
    "SL": kit.GREY,
}
LETTERS: dict[str, str] = {c: CATEGORY_NAMES[c][0] for c in CATEGORIES}  # A, L, P, S
#: Visitor colours, one per seat, none equal to a category colour.
SEAT_COLOURS: tuple[Color, ...] = (
    kit.ORANGE,
    kit.SKY_BLUE,
    kit.REDDISH_PURPLE,
    kit.rgb("#FFFFFF"),
    kit.BLUE,
)
ARROWS = {"L": "←", "R": "→"}
MASTERPIECE_FRAME = kit.rgb("#C9A227")  # a masterpiece token's gold frame
#: A standing answer about visitors, as the panel tags it.
POLICIES = {"always": N_("always"), "never": N_("never"), "ask": N_("ask")}
PHASES = {
    "card": N_("to choose a card to play"),
    "column": N_("to choose a column for the card"),
    "claim": N_("may claim a masterpiece"),
    "slot": N_("to choose a slot for the masterpiece"),
    "draw": N_("to draw from pile 1 or 2"),
}


def letter(category: str, lang: str) -> str:
    """A category's letter on cards and chips: the initial of its name in ``lang`` (A, L, P, S
    in English; the four initials differ in each language the bot speaks)."""
    return tr(lang, CATEGORY_NAMES[category])[:1] or LETTERS[category]


@dataclass(frozen=True)
class Geometry:
    """Card sizes for one board: every gallery uses the same, so they compare at a glance."""

    card_w: int
    width: int
    per_row: int

    @property
    def card_h(self) -> int:
        return round(self.card_w * 1.2)

    @property
    def strip(self) -> int:
        return strip_h(self.card_w)

    @property
    def slot_w(self) -> int:
        """The gap between columns, where masterpiece tokens go."""
        return max(18, round(self.card_w * 0.36))

    @property
    def panel_w(self) -> int:
        return (self.width - 2 * MARGIN - (self.per_row - 1) * PANEL_GAP) // self.per_row


def seat_letters(view: dict[str, Any], names: dict[str, str]) -> dict[str, str]:
    """Each player's visitor letter: the initial of their name, or their seat number when two
    names share an initial (colour is never the only cue)."""
    initials = {p["id"]: (names[p["id"]][:1] or "?").upper() for p in view["players"]}
    shared = [i for i in initials.values() if list(initials.values()).count(i) > 1]
    return {
        p["id"]: str(p["seat"] + 1) if initials[p["id"]] in shared else initials[p["id"]]
        for p in view["players"]
    }


def _gallery_w(columns: int, card_w: int) -> int:
    probe = Geometry(card_w, WIDTH, 1)
    return columns * card_w + (columns + 1) * probe.slot_w


def geometry(view: dict[str, Any]) -> Geometry:
    """Cards as big as fit the widest gallery in its panel and the tallest column in the
    board's height, down to a readable minimum; beyond that the image grows wider."""
    players = view["players"]
    per_row = 1 if len(players) <= 2 else 2
    rows = -(-min(len(players), ON_BOARD) // per_row)
    widest = max(len(p["columns"]) for p in players)
    tallest = max(len(col) for p in players for col in p["columns"])
    panel_w = (WIDTH - 2 * MARGIN - (per_row - 1) * PANEL_GAP) // per_row
    room_w = panel_w - 2 * PANEL_PAD
    card_w = CARD_W_MAX
    while card_w > CARD_W_MIN and _gallery_w(widest, card_w) > room_w:
        card_w -= 2
    panel_room = (MAX_HEIGHT - TOP_H - MARGIN - (rows - 1) * PANEL_GAP) // rows
    gallery_room = panel_room - PANEL_HEAD_H - PANEL_PAD - 2 * NUMBER_H
    while card_w > CARD_W_MIN and (
        Geometry(card_w, WIDTH, per_row).card_h
        + (tallest - 1) * Geometry(card_w, WIDTH, per_row).strip
        > gallery_room
    ):
        card_w -= 2
    needed = per_row * (_gallery_w(widest, card_w) + 2 * PANEL_PAD) + 2 * MARGIN
    needed += (per_row - 1) * PANEL_GAP
    return Geometry(card_w=card_w, width=max(WIDTH, needed), per_row=per_row)


# ------------------------------------------------------------------------------- components


@lru_cache(maxsize=64)
def piece_chip(category: str, size: int, lang: str = "en") -> Image.Image:
    """An art piece: a chip in its category colour with its letter."""
    colour = CATEGORY_COLOURS[category]
    return kit.chip(size, colour, letter(category, lang), kit.readable_on(colour), kit.PAPER_INK)


def strip_h(card_w: int) -> int:
    """The band of a card that stays visible when covered (its art pieces), and its arrow row."""
    return max(16, round(card_w * 0.3))


#: 80 exhibits at the ten or so card sizes the layouts use (20 KB a face), per language: a
#: process serving many tables keeps them all rather than redrawing faces as tables come and go.
@lru_cache(maxsize=1024)
def card_face(card: str, width: int, height: int, lang: str = "en") -> Image.Image:
    """A whole exhibit: its featured colour, the art pieces in the top band (the part that stays
    visible when covered), the featured letter, and the arrow in the bottom row (visitors go in
    its other corner). The header's legend names the letters."""
    info = EXHIBITS[card]
    colour = CATEGORY_COLOURS[info.featured]
    ink = kit.readable_on(colour)
    im = kit.rounded_card((width, height), colour, kit.PAPER_INK, radius=8, outline_width=2).copy()
    d = ImageDraw.Draw(im)
    strip = arrow_row = strip_h(width)
    chip = min(strip - 4, (width - 8) // 3 - 2)
    for i, piece in enumerate(info.pieces):
        kit.paste(im, piece_chip(piece, chip, lang), (4 + i * (chip + 2), 2))
    body = height - strip - arrow_row  # between the pieces and the arrow row
    letter_font = kit.font(max(12, min(body + 4, width // 2)), bold=True)
    centre = (width / 2, strip + body / 2 + 1)
    kit.draw_text(d, centre, letter(info.featured, lang), letter_font, ink, "mm")
    arrow_font = kit.font(max(14, round(width * 0.28)), bold=True)
    x = width * (0.2 if info.arrow == "L" else 0.8)
    arrow = ARROWS[info.arrow]
    y = height - arrow_row / 2 - 2
    kit.draw_text(d, (x, y), arrow, arrow_font, ink, "mm", stroke=(1, ink))
    return im


@lru_cache(maxsize=1024)
def covered_face(card: str, width: int, height: int, strip: int, lang: str = "en") -> Image.Image:
    """The part of a card face that shows under the next card of its column (``strip`` px
    lower): its strip and the rows the next card's rounded corners leave open. The rest is
    hidden, and pasting it cost a blend of the whole face for every covered card."""
    face = card_face(card, width, height, lang)
    alpha = face.getchannel("A")
    # The next card covers this one's rows from ``strip`` down with its own rows from 0: only
    # where that card is wholly opaque (below its corners, and the soft rims of its chips).
    see_through = [
        y
        for y in range(height - strip)
        if alpha.crop((0, y, width, y + 1)).getextrema() != (255, 255)
    ]
    shown = strip + (max(see_through) + 1 if see_through else 0)
    return face if shown >= height else face.crop((0, 0, width, shown))


@lru_cache(maxsize=64)
def card_back(category: str | None, width: int, height: int, lang: str = "en") -> Image.Image:
    """A card back shows its featured category: colour and letter; ``None`` is an empty pile."""
    if category is None:
        im = kit.rounded_card((width, height), kit.PANEL, kit.PANEL_EDGE, radius=8).copy()
        d = ImageDraw.Draw(im)
        kit.draw_text(d, (width / 2, height / 2), "—", kit.font(20, bold=True), kit.MUTED, "mm")
        return im
    colour = CATEGORY_COLOURS[category]
    im = kit.rounded_card((width, height), colour, kit.WHITE, radius=8, outline_width=3).copy()
    d = ImageDraw.Draw(im)
    inset = max(5, width // 8)
    d.rounded_rectangle(
        (inset, inset, width - inset, height - inset), 6, outline=kit.readable_on(colour), width=2
    )
    kit.draw_text(
        d,
        (width / 2, height / 2),
        letter(category, lang),
        kit.font(int(width * 0.5), bold=True),
        kit.readable_on(colour),
        "mm",
    )
    return im


@lru_cache(maxsize=256)  # every token at each size the header's room gives it
def masterpiece_token(token: str, size: int, lang: str = "en") -> Image.Image:
    """A masterpiece: a framed square in its category colour with letter and requirement."""
    info = MASTERPIECES[token]
    colour = CATEGORY_COLOURS[info.category]

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, size * s - 1, size * s - 1), 6 * s, fill=MASTERPIECE_FRAME)
        b = 4 * s
        d.rounded_rectangle((b, b, size * s - 1 - b, size * s - 1 - b), 4 * s, fill=colour)

    im = kit.supersampled((size, size), paint)
    d = ImageDraw.Draw(im)
    label = f"{letter(info.category, lang)}{info.requirement}"
    fnt = kit.fit_font(label, size - 8, int(size * 0.45), 10, bold=True)
    kit.draw_text(d, (size / 2, size / 2), label, fnt, kit.readable_on(colour), "mm")
    return im


def visitor_pawn(colour: Color, letter: str, size: int) -> Image.Image:
    return kit.chip(size, colour, letter, kit.readable_on(colour), kit.PAPER_INK)


# ------------------------------------------------------------------------------- layout


def gallery_height(player: dict[str, Any], geo: Geometry) -> int:
    tallest = max(len(col) for col in player["columns"])
    return NUMBER_H + (tallest - 1) * geo.strip + geo.card_h + NUMBER_H


def panel_height(player: dict[str, Any], geo: Geometry) -> int:
    return PANEL_HEAD_H + gallery_height(player, geo) + PANEL_PAD


def _draw_header(
    im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], width: int, lang: str
) -> None:
    kit.draw_text(d, (MARGIN, 10), "ArtSee", kit.font(42, bold=True))
    turn = tr(lang, "Turn {n}").format(n=view["turn"])
    kit.draw_text(d, (MARGIN, 62), turn, kit.font(28), kit.MUTED, max_width=200 - MARGIN - 8)
    # the supply: per category, the requirements still unclaimed
    x = 200
    kit.draw_text(d, (x, 8), tr(lang, "Masterpieces left"), kit.font(22), kit.MUTED)
    supply = set(view["supply"])
    groups = [
        [t for t in sorted(MASTERPIECES) if MASTERPIECES[t].category == c and t in supply]
        for c in CATEGORIES
    ]
    room = width - MARGIN - 2 * 136 - 12 - x - 3 * 14
    size = max(22, min(38, room // max(1, sum(max(3, len(g)) for g in groups)) - 3))
    for category in CATEGORIES:
        tokens = [t for t in sorted(MASTERPIECES) if MASTERPIECES[t].category == category]
        left = [t for t in tokens if t in supply]
        for k, token in enumerate(left):
            kit.paste(im, masterpiece_token(token, size, lang), (x + k * (size + 3), 40))
        if not left:
            none = tr(lang, "no {letter}").format(letter=letter(category, lang))
            kit.draw_text(d, (x, 46), none, kit.font(22), kit.MUTED)
        x += max(3, len(left)) * (size + 3) + 14
    # the draw piles: the back of each top card, and the count
    for i, pile in enumerate(view["piles"]):
        px = width - MARGIN - (2 - i) * 136
        kit.paste(im, card_back(pile["top"], 44, 60, lang), (px, 8))
        fnt = kit.font(24, bold=True)
        pile_label = tr(lang, "Pile {n}").format(n=i + 1)
        fnt = kit.fit_font(pile_label, 136 - 50 - 6, 24, 16, bold=True)  # clear of the next pile
        kit.draw_text(d, (px + 50, 10), pile_label, fnt)
        kit.draw_text(d, (px + 50, 40), str(pile["size"]), kit.font(28, bold=True))


def _status_text(view: dict[str, Any], names: dict[str, str], lang: str) -> str:
    outcome = view.get("outcome")
    if outcome is not None:
        ranking = sorted(outcome["scores"].items(), key=lambda item: -item[1])
        scores = " · ".join(f"{names.get(p, p)} {s}" for p, s in ranking)
        winners = ", ".join(names.get(p, p) for p in outcome["winners"])
        over = tr_n(
            lang,
            "Game over — {winners} wins · {scores}",
            "Game over — {winners} share the win · {scores}",
            len(outcome["winners"]),
        )
        return over.format(winners=winners, scores=scores)
    current = names.get(view["current"], "?")
    if view["phase"] == "welcome":
        played = tr(lang, CATEGORY_NAMES[EXHIBITS[view["played"]].featured])
        asked = ", ".join(names.get(p, p) for p in view["to_move"])
        return tr(lang, "{category} played by {who}: {asked} may welcome visitors").format(
            category=played, who=current, asked=asked
        )
    text = f"{current} {tr(lang, PHASES[view['phase']])}"
    if view["played"]:
        played = tr(lang, CATEGORY_NAMES[EXHIBITS[view["played"]].featured])
        earned = tr(lang, "played {category}, earned {n}")
        text += " · " + earned.format(category=played, n=view["earned"])
    return text


def _draw_status(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: dict[str, str],
    width: int,
    last: Sequence[str],
    lang: str,
) -> None:
    box = (MARGIN, HEADER_H, width - MARGIN, HEADER_H + STATUS_H - 8)
    kit.rounded_box(im, box, 12, kit.PANEL, kit.HIGHLIGHT, 3)
    prefix = "" if view.get("outcome") else "▶ "
    kit.draw_text(
        d,
        (MARGIN + 16, (box[1] + box[3]) / 2),
        prefix + _status_text(view, names, lang),
        kit.font(28, bold=True),
        anchor="lm",
        max_width=width - 2 * MARGIN - 32,
    )
    told = kit.last_line(last)
    if told:
        y = HEADER_H + STATUS_H + LAST_H / 2 - 4
        label = tr(lang, "Last:") + " "
        lw = kit.draw_text(d, (MARGIN + 4, y), label, kit.font(26, True), kit.MUTED, "lm")
        kit.draw_text(
            d,
            (MARGIN + 4 + lw, y),
            told,
            kit.font(26),
            kit.INK,
            "lm",
            max_width=width - 2 * MARGIN - lw - 8,
        )


def _draw_panel_head(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    player: dict[str, Any],
    xy: tuple[int, int],
    names: dict[str, str],
    letters: dict[str, str],
    width: int,
    lang: str,
) -> None:
    """Name (with the visitor colour and letter) and status on the left; the score (prestige,
    or the final total once the game is over), visitors in supply and the hand's card backs on
    the right."""
    left, top = xy
    pid = player["id"]
    colour = SEAT_COLOURS[player["seat"] % len(SEAT_COLOURS)]
    right = left + width - PANEL_PAD
    outcome = view.get("outcome")
    hand_x = right - max(3, len(player["hand"])) * (BACK_W - 6) - 6
    supply_x = hand_x - 96
    score = (
        tr(lang, "{n} pts").format(n=outcome["details"]["breakdown"][pid]["total"])
        if outcome is not None
        else f"★ {player['prestige']}"
    )
    score_font = kit.font(32, bold=True)
    score_x = supply_x - 16 - kit.text_width(score, score_font)
    x = left + PANEL_PAD
    kit.paste(im, visitor_pawn(colour, letters[pid], 40), (x, top + 12))
    x += 50
    kit.draw_text(d, (x, top + 10), names[pid], kit.font(30, bold=True), max_width=score_x - x - 8)
    if outcome is not None:
        parts = outcome["details"]["breakdown"][pid]
        won = pid in outcome["winners"]
        line = tr(lang, "★ {prestige} + {tokens} tokens + {bonus} bonus").format(
            prestige=parts["prestige"], tokens=parts["masterpieces"], bonus=parts["bonus"]
        )
        if won:
            line = "♛ " + tr(lang, "WINNER") + " · " + line
        fill = kit.HIGHLIGHT if won else kit.MUTED
        kit.draw_text(d, (x, top + 48), line, kit.font(22, bold=True), fill, max_width=right - x)
    else:
        tags = ["▶ " + tr(lang, "to move")] if pid in view["to_move"] else []
        if pid == view["start"]:
            tags.append(tr(lang, "start player"))
        policy = tr(lang, POLICIES[player["policy"]]) if player["policy"] in POLICIES else ""
        tags.append(tr(lang, "visitors: {policy}").format(policy=policy or player["policy"]))
        kit.draw_text(
            d,
            (x, top + 48),
            " · ".join(tags),
            kit.font(22),
            kit.HIGHLIGHT if tags[0][0] == "▶" else kit.MUTED,
            max_width=right - x,
        )
    kit.draw_text(d, (score_x, top + 8), score, score_font)
    kit.paste(im, visitor_pawn(colour, letters[pid], 30), (supply_x, top + 10))
    kit.draw_text(d, (supply_x + 34, top + 10), f"×{player['supply']}", kit.font(26, bold=True))
    for k, category in enumerate(player["hand"]):
        back = card_back(category, BACK_W - 8, BACK_H - 12, lang)
        kit.paste(im, back, (hand_x + k * (BACK_W - 6), top + 8))


def _draw_gallery(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    player: dict[str, Any],
    xy: tuple[int, int],
    geo: Geometry,
    colour: Color,
    letter: str,
    played_here: int | None,
    lang: str,
) -> None:
    left, top = xy
    number_font = kit.font(22, bold=True)
    slots = {m["slot"]: m["token"] for m in player["masterpieces"]}
    columns = player["columns"]
    card_top = top + NUMBER_H
    bottom = card_top + (max(len(c) for c in columns) - 1) * geo.strip + geo.card_h
    slot_w = geo.slot_w
    for slot in range(len(columns) + 1):
        sx = left + slot * (geo.card_w + slot_w)
        centre = sx + slot_w / 2
        if slot in slots:
            size = slot_w - 2
            kit.paste(
                im,
                masterpiece_token(slots[slot], size, lang),
                (int(centre - size / 2), card_top + 4),
            )
        else:
            d.line((centre, card_top + 8, centre, bottom - 8), fill=kit.PANEL_EDGE, width=2)
        kit.draw_text(
            d, (centre, bottom + NUMBER_H / 2), str(slot), kit.font(18), kit.MUTED, anchor="mm"
        )
    for j, column in enumerate(columns):
        cx = left + slot_w + j * (geo.card_w + slot_w)
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
            face = (
                card_face(card, geo.card_w, geo.card_h, lang)
                if k == len(column) - 1
                else covered_face(card, geo.card_w, geo.card_h, geo.strip, lang)
            )
            kit.paste(im, face, (cx, card_top + k * geo.strip))
        front_top = card_top + (len(column) - 1) * geo.strip
        if played_here == j + 1:
            d.rounded_rectangle(
                (cx - 3, front_top - 3, cx + geo.card_w + 3, front_top + geo.card_h + 3),
                10,
                outline=kit.HIGHLIGHT,
                width=4,
            )
        visitors = player["visitors"][j]
        if visitors:  # in the arrow row, away from the arrow, with their number
            pawn = max(16, geo.strip - 2)
            arrow_left = EXHIBITS[column[-1]].arrow == "L"
            px = cx + geo.card_w - pawn - 3 if arrow_left else cx + 3
            py = front_top + geo.card_h - pawn - 3
            kit.paste(im, visitor_pawn(colour, letter, pawn), (px, py))
            if visitors > 1:  # a count badge on the pawn's upper corner, towards the card
                bx = px if arrow_left else px + pawn
                kit.badge(
                    d,
                    (bx, py + 2),
                    str(visitors),
                    kit.font(20, bold=True),
                    kit.WHITE,
                    pad=(5, 0),
                    anchor="mm",
                    outline=kit.PAPER_INK,
                )


def _draw_panels(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    players: list[dict[str, Any]],
    top: int,
    geo: Geometry,
    names: dict[str, str],
    lang: str,
) -> int:
    """``players``' galleries, ``geo.per_row`` to a row, from ``top``; returns the bottom."""
    letters = seat_letters(view, names)
    for r in range(0, len(players), geo.per_row):
        row = players[r : r + geo.per_row]
        panel_h = max(panel_height(p, geo) for p in row)
        for i, player in enumerate(row):
            x = MARGIN + i * (geo.panel_w + PANEL_GAP)
            pid = player["id"]
            moving = pid in view["to_move"]
            kit.rounded_box(
                im,
                (x, top, x + geo.panel_w, top + panel_h),
                14,
                kit.PANEL,
                kit.HIGHLIGHT if moving else kit.PANEL_EDGE,
                4 if moving else 2,
            )
            _draw_panel_head(im, d, view, player, (x, top), names, letters, geo.panel_w, lang)
            played_here = view["column"] if pid == view["current"] else None
            colour = SEAT_COLOURS[player["seat"] % len(SEAT_COLOURS)]
            _draw_gallery(
                im,
                d,
                player,
                (x + PANEL_PAD, top + PANEL_HEAD_H),
                geo,
                colour,
                letters[pid],
                played_here,
                lang,
            )
        top += panel_h + PANEL_GAP
    return top - PANEL_GAP


def detail_image(
    view: dict[str, Any], names: dict[str, str], last: Sequence[str], lang: str = "en"
) -> Image.Image:
    """The whole table with every card, stacked as it lies: the detail picture."""
    names = kit.display_names(view, names, lang)
    geo = geometry(view)
    shown = view["players"]
    rows = [shown[i : i + geo.per_row] for i in range(0, len(shown), geo.per_row)]
    panels_h = sum(max(panel_height(p, geo) for p in row) + PANEL_GAP for row in rows)
    height = TOP_H + panels_h - PANEL_GAP + MARGIN
    im = Image.new("RGB", (geo.width, height), kit.TABLE)  # a fill is faster than a copy
    d = ImageDraw.Draw(im)
    _draw_header(im, d, view, geo.width, lang)
    _draw_status(im, d, view, names, geo.width, last, lang)
    _draw_panels(im, d, view, shown, TOP_H, geo, names, lang)
    return im


def render_detail(
    view: dict[str, Any], *, names: dict[str, str], lang: str = "en", last: Sequence[str] = ()
) -> bytes:
    """The detail picture behind the Board button: every gallery with its cards stacked as
    they lie (the art pieces of each, the visitors on the front cards, the masterpieces in
    their slots), for a player who wants to look closer than the post's board shows."""
    return kit.png_bytes(detail_image(view, names, last, lang), kit.module_palette(__name__))


HAND_GAP = 16
HAND_CAPTION_H = 34


def render_face(card: str, *, lang: str = "en") -> bytes:
    """One exhibit's face alone, as the hand draws it: a card the hand page makes a button of."""
    card_h = Geometry(card_w=CARD_W_MAX, width=WIDTH, per_row=1).card_h
    im = Image.new("RGB", (CARD_W_MAX, card_h), kit.TABLE)
    kit.paste(im, card_face(card, CARD_W_MAX, card_h, lang), (0, 0))
    return kit.png_bytes(im, kit.module_palette(__name__))


def render_hand(view: dict[str, Any], *, names: dict[str, str], lang: str = "en") -> bytes | None:
    """The viewer's exhibits face up, numbered as the hand text lists them, the card they chose
    to play (if any) framed; None for a spectator or an empty hand."""
    cards = list(view.get("hand_cards") or [])
    if not cards:
        return None
    chosen = cards.index(view["chosen"]) if view.get("chosen") in cards else None
    card_w = CARD_W_MAX
    card_h = Geometry(card_w=card_w, width=WIDTH, per_row=1).card_h
    width = 2 * MARGIN + len(cards) * (card_w + HAND_GAP) - HAND_GAP
    im = Image.new("RGB", (width, 2 * MARGIN + card_h + HAND_CAPTION_H), kit.TABLE)
    d = ImageDraw.Draw(im)
    caption = kit.font(22, bold=True)
    for i, card in enumerate(cards):
        x = MARGIN + i * (card_w + HAND_GAP)
        if i == chosen:
            frame = (x - 6, MARGIN - 6, x + card_w + 6, MARGIN + card_h + 6)
            d.rounded_rectangle(frame, 14, outline=kit.HIGHLIGHT, width=5)
        kit.paste(im, card_face(card, card_w, card_h, lang), (x, MARGIN))
        label = f"{i + 1} · " + tr(lang, "chosen") if i == chosen else str(i + 1)
        centre = (x + card_w / 2, MARGIN + card_h + HAND_CAPTION_H / 2 + 4)
        kit.draw_text(d, centre, label, caption, kit.WHITE, "mm")
    return kit.png_bytes(im, kit.module_palette(__name__))


# ------------------------------------------------------------------------------ the phone board

#: The board a post carries is drawn for a phone: Discord shows it about 285 CSS px wide there,
#: so at ``PHONE_W`` px every word is at least ``TEXT`` px (8 CSS px). A gallery is a table:
#: a cell per column with its number, its front card (category letter, arrow, visitors), then
#: a row per category counting the art pieces the column shows, and the masterpieces on the
#: edges between columns. The cards themselves, stacked, are the detail picture
#: (``render_detail``), where a player can look closer.
PHONE_W = kit.PHONE_WIDTH
PAD = 16
TEXT = kit.PHONE_TEXT
LINE = 27
#: A gallery's table (column numbers and the counts under them) is the board's densest part:
#: its figures are larger than the rest (10 CSS px at a phone's 285), on rows of ``CELL_LINE``.
CELL_TEXT = 28
CELL_LINE = 33
ROW_LABEL_W = 44
GAP = 12


def _pill(
    d: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, category: str, anchor: str = "la"
) -> kit.Box:
    """``text`` on a pill of ``category``'s colour (its letter is in the text: colour is never
    alone)."""
    fill = CATEGORY_COLOURS[category]
    return kit.badge(d, xy, text, kit.bold(TEXT), fill, kit.readable_on(fill), (6, 0), anchor)


def column_pieces(column: list[str]) -> dict[str, int]:
    """Art pieces a column shows, per category: every card's pieces stay visible."""
    counts: dict[str, int] = dict.fromkeys(CATEGORIES, 0)
    for card in column:
        for piece in EXHIBITS[card].pieces:
            counts[piece] += 1
    return counts


def _phone_header(d: ImageDraw.ImageDraw, view: dict[str, Any], lang: str) -> int:
    """Turn and the piles on one line, the masterpieces left per category under it; returns
    the y under them."""
    y = PAD
    kit.draw_text(d, (PAD, y), tr(lang, "Turn {n}").format(n=view["turn"]), kit.bold(28))
    x = PHONE_W - PAD
    for i, pile in reversed(list(enumerate(view["piles"]))):
        if pile["top"]:
            box = _pill(d, (x, y + 2), letter(pile["top"], lang), pile["top"], "ra")
            x = box[0] - 6
        label = tr(lang, "Pile {n}").format(n=i + 1) + f": {pile['size']}"
        x -= kit.draw_text(d, (x, y + 3), label, kit.bold(TEXT), kit.INK, "ra") + 22
    y += 40
    if view.get("outcome") is not None:  # nothing left to claim: the scores say it all
        return y
    x = PAD + kit.draw_text(d, (PAD, y), tr(lang, "Masterpieces left"), kit.font(TEXT), kit.MUTED)
    supply = set(view["supply"])
    for category in CATEGORIES:
        left = [
            str(MASTERPIECES[t].requirement)
            for t in sorted(MASTERPIECES)
            if MASTERPIECES[t].category == category and t in supply
        ]
        # the category's pill, then its requirements in ink on the table (figures on a
        # colour read poorly), each apart: "5 6 7" close together reads as "567"
        text = "·".join(left) if left else "—"
        pill = kit.text_width(letter(category, lang), kit.bold(TEXT)) + 12
        w = pill + 6 + kit.text_width(text, kit.bold(TEXT))
        if x + 18 + w > PHONE_W - PAD:
            x, y = PAD - 18, y + LINE + 2
        _pill(d, (x + 18, y), letter(category, lang), category)
        kit.draw_text(d, (x + 18 + pill + 6, y), text, kit.bold(TEXT))
        x += 18 + w
    return y + LINE + 8


def _phone_status(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: dict[str, str],
    last: Sequence[str],
    y: int,
    lang: str,
) -> int:
    """Whose move and what for (or the final scores), then the last turn in words."""
    prefix = "" if view.get("outcome") else "▶ "
    status = prefix + _status_text(view, names, lang)
    y = kit.draw_lines(d, (PAD, y), status, kit.bold(26), kit.HIGHLIGHT, PHONE_W - 2 * PAD, 2, 34)
    told = kit.last_line(last)
    if told:
        text = tr(lang, "Last:") + " " + told
        y = kit.draw_lines(d, (PAD, y), text, kit.font(TEXT), kit.INK, PHONE_W - 2 * PAD, 3, LINE)
    return y + 8


def _shown_categories(player: dict[str, Any]) -> list[str]:
    """The categories with an art piece in some column or a masterpiece: the table's rows."""
    shown = {c for column in player["columns"] for c, n in column_pieces(column).items() if n}
    shown |= {MASTERPIECES[m["token"]].category for m in player["masterpieces"]}
    return [c for c in CATEGORIES if c in shown]


def _phone_tags(view: dict[str, Any], player: dict[str, Any], lang: str) -> str:
    """The line under a gallery's name: the final breakdown, or to move, start player and a
    visitor policy other than the default ("always"); "" when there is nothing to say."""
    pid = player["id"]
    outcome = view.get("outcome")
    if outcome is not None:
        parts = outcome["details"]["breakdown"][pid]
        line = tr(lang, "★ {prestige} + {tokens} tokens + {bonus} bonus").format(
            prestige=parts["prestige"], tokens=parts["masterpieces"], bonus=parts["bonus"]
        )
        return "♛ " + tr(lang, "WINNER") + " · " + line if pid in outcome["winners"] else line
    tags = ["▶ " + tr(lang, "to move")] if pid in view["to_move"] else []
    if pid == view["start"]:
        tags.append(tr(lang, "start player"))
    if player["policy"] != "always":
        policy = tr(lang, POLICIES[player["policy"]]) if player["policy"] in POLICIES else ""
        tags.append(tr(lang, "visitors: {policy}").format(policy=policy or player["policy"]))
    return " · ".join(tags)


def _phone_panel_height(view: dict[str, Any], player: dict[str, Any]) -> int:
    visitors = any(player["visitors"])
    masterpieces = bool(player["masterpieces"])
    rows = len(_shown_categories(player))
    tags = LINE + 4 if _phone_tags(view, player, "en") else 0
    head = 10 + 48 + LINE + 4 + tags
    if view.get("outcome") is not None:
        return head + 4
    tokens = 36 if masterpieces else 0
    table = CELL_LINE + 2 + 40 + rows * CELL_LINE + (CELL_LINE if visitors else 0)
    return head + table + tokens + 6


def _phone_panel(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    player: dict[str, Any],
    box: kit.Box,
    names: dict[str, str],
    letters: dict[str, str],
    lang: str,
) -> None:
    """One gallery in ``box``: name and score; visitors in supply and the hand's categories;
    what the player is doing; then the gallery as a table (see ``PHONE_W``)."""
    pid = player["id"]
    moving = pid in view["to_move"]
    edge = kit.HIGHLIGHT if moving else kit.PANEL_EDGE
    kit.rounded_box(im, box, 14, kit.PANEL, edge, 4 if moving else 2)
    x0, y, x1 = box[0] + 12, box[1] + 10, box[2] - 12
    colour = SEAT_COLOURS[player["seat"] % len(SEAT_COLOURS)]
    kit.paste(im, visitor_pawn(colour, letters[pid], 42), (x0, y))
    outcome = view.get("outcome")
    score = (
        tr(lang, "{n} pts").format(n=outcome["details"]["breakdown"][pid]["total"])
        if outcome is not None
        else f"★ {player['prestige']}"
    )
    score_w = kit.draw_text(d, (x1, y + 4), score, kit.bold(30), kit.INK, "ra")
    kit.draw_text(
        d, (x0 + 52, y + 6), names[pid], kit.bold(28), kit.INK, max_width=x1 - score_w - x0 - 66
    )
    y += 48
    text = f"{letters[pid]}×{player['supply']}"  # visitors in supply, then the hand's backs
    x = kit.badge(d, (x0, y), text, kit.bold(TEXT), colour, kit.readable_on(colour), (6, 0))[2] + 14
    for category in player["hand"]:
        x = _pill(d, (x, y), letter(category, lang), category)[2] + 4
    y += LINE + 4
    line = _phone_tags(view, player, lang)
    if line:
        won = outcome is not None and pid in outcome["winners"]
        fill = kit.HIGHLIGHT if moving or won else kit.MUTED
        kit.draw_text(d, (x0, y), line, kit.font(TEXT), fill, max_width=x1 - x0)
        y += LINE + 4
    if outcome is None:  # at the end the scores say it all; the detail picture has the rest
        _phone_gallery(d, view, player, (x0 + ROW_LABEL_W, y, x1), colour, lang)


def _phone_gallery(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    player: dict[str, Any],
    span: tuple[int, int, int],
    colour: Color,
    lang: str,
) -> None:
    """The gallery's table from ``span`` (left, top, right): column numbers, front cards'
    categories, a row per category of the pieces each column shows, visitors, and the
    masterpieces on the column edges (slot n: between columns n and n + 1, 0 the left end)."""
    left, y, right = span
    columns = player["columns"]
    cell = (right - left) // max(1, len(columns))  # a long gallery: narrower cells
    played_here = view["column"] if player["id"] == view["current"] else None
    figures = kit.bold(CELL_TEXT)
    for j in range(len(columns)):
        cx = left + j * cell + cell // 2
        ink = kit.HIGHLIGHT if j == played_here else kit.MUTED
        kit.draw_text(d, (cx, y), str(j + 1), figures, ink, "ma")
    y += CELL_LINE + 2
    for j, column in enumerate(columns):
        front = EXHIBITS[column[-1]]
        fill = CATEGORY_COLOURS[front.featured]
        box = (left + j * cell + 4, y, left + (j + 1) * cell - 4, y + 34)
        outline = kit.HIGHLIGHT if j == played_here else kit.PAPER_INK
        d.rounded_rectangle(box, 6, fill=fill, outline=outline, width=3)
        # its category, which visitors answer to (its arrow counted when it was played)
        kit.centered_text(
            d, box, letter(front.featured, lang), kit.bold(TEXT), kit.readable_on(fill)
        )
    y += 40
    for category in _shown_categories(player):
        _pill(d, (left - ROW_LABEL_W, y + 3), letter(category, lang), category)
        for j, column in enumerate(columns):
            n = column_pieces(column)[category]
            if n:
                cx = left + j * cell + cell // 2
                kit.draw_text(d, (cx, y), str(n), figures, kit.INK, "ma")
        y += CELL_LINE
    if any(player["visitors"]):
        for j, count in enumerate(player["visitors"]):
            if count:
                cx = left + j * cell + cell // 2
                text = f"×{count}"  # a gallery holds its owner's visitors: their colour
                kit.badge(
                    d, (cx, y), text, kit.bold(TEXT), colour, kit.readable_on(colour), (6, 0), "ma"
                )
        y += CELL_LINE
    for masterpiece in player["masterpieces"]:
        info = MASTERPIECES[masterpiece["token"]]
        edge = left + masterpiece["slot"] * cell
        text = f"{letter(info.category, lang)}{info.requirement}"
        box = _pill(d, (edge, y + 4), text, info.category, "ma")
        d.rounded_rectangle(box, (box[3] - box[1]) // 2, outline=MASTERPIECE_FRAME, width=3)
        d.line((edge, y - 6, edge, y + 4), fill=MASTERPIECE_FRAME, width=3)


def board_image(
    view: dict[str, Any], names: dict[str, str], last: Sequence[str], lang: str = "en"
) -> Image.Image:
    """The phone board of ``view``: header, status, then every gallery as a table."""
    names = kit.display_names(view, names, lang)
    letters = seat_letters(view, names)
    players = view["players"]
    per_row = 2 if len(players) > 2 and max(len(p["columns"]) for p in players) <= 7 else 1
    panels = sum(
        max(_phone_panel_height(view, p) for p in players[row : row + per_row]) + 10
        for row in range(0, len(players), per_row)
    )
    # as tall as the board can get: the header and status at their tallest, then the panels
    im = Image.new("RGB", (PHONE_W, 320 + panels), kit.TABLE)
    d = ImageDraw.Draw(im)
    y = _phone_header(d, view, lang)
    y = _phone_status(d, view, names, last, y, lang)
    width = (PHONE_W - 2 * PAD - (per_row - 1) * GAP) // per_row
    for row in range(0, len(players), per_row):
        pair = players[row : row + per_row]
        height = max(_phone_panel_height(view, p) for p in pair)
        for i, player in enumerate(pair):
            x = PAD + i * (width + GAP)
            box = (x, y, x + width, y + height)
            _phone_panel(im, d, view, player, box, names, letters, lang)
        y += height + 10
    return im.crop((0, 0, im.width, y + PAD - 10))


def render(
    view: dict[str, Any], *, names: dict[str, str], lang: str = "en", last: Sequence[str] = ()
) -> bytes:
    """The ArtSee board a post carries (``board_image``) as PNG bytes, public parts only."""
    return kit.png_bytes(board_image(view, names, last, lang), kit.module_palette(__name__))
