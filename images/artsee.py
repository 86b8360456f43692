"""The ArtSee board: a public view (rules/artsee/engine.py ``view``) -> PNG bytes.

Layout, 1200 px wide and at least 1.3 times as wide as tall (Discord shows a landscape picture
large inline): a header (title, turn, the masterpiece supply, both draw piles showing the back
of their top card), a status strip (whose move and what for, or the final scores), the last
turn in words, then the galleries, two in a row: name with the visitor colour and letter,
prestige (the final score once the game is over), visitors in supply, hand as card backs, and
the gallery. A gallery shows column numbers, each column's cards stacked so that every card's
art pieces stay visible, the front card whole (category, arrow, visitors), and the slots between
and beside the columns with their numbers and masterpiece tokens. Cards shrink to fit the widest
gallery and the tallest column. Four galleries fit the board; a fifth player's gallery is a
second picture (``render_more_galleries``). Every category has a colour AND a letter. Only the
public parts of the view are drawn: ``hand_cards`` and ``chosen`` are never read.
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
#: Galleries on the board; the rest are a second picture.
ON_BOARD = 4
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


def board_image(
    view: dict[str, Any], names: dict[str, str], last: Sequence[str], lang: str = "en"
) -> Image.Image:
    names = kit.display_names(view, names, lang)
    geo = geometry(view)
    shown = view["players"][:ON_BOARD]
    rows = [shown[i : i + geo.per_row] for i in range(0, len(shown), geo.per_row)]
    panels_h = sum(max(panel_height(p, geo) for p in row) + PANEL_GAP for row in rows)
    height = TOP_H + panels_h - PANEL_GAP + MARGIN
    im = Image.new("RGB", (geo.width, height), kit.TABLE)  # a fill is faster than a copy
    d = ImageDraw.Draw(im)
    _draw_header(im, d, view, geo.width, lang)
    _draw_status(im, d, view, names, geo.width, last, lang)
    _draw_panels(im, d, view, shown, TOP_H, geo, names, lang)
    return im


def render(
    view: dict[str, Any], *, names: dict[str, str], lang: str = "en", last: Sequence[str] = ()
) -> bytes:
    """The ArtSee board of ``view`` as PNG bytes (public parts only), with the last turn's
    sentences ``last`` on its "Last:" line."""
    return kit.png_bytes(board_image(view, names, last, lang), kit.module_palette(__name__))


def render_more_galleries(
    view: dict[str, Any], *, names: dict[str, str], lang: str = "en"
) -> bytes | None:
    """The galleries beyond the board's first four (a fifth player's), drawn as on the board;
    None when the board shows every gallery."""
    more = view["players"][ON_BOARD:]
    if not more:
        return None
    names = kit.display_names(view, names, lang)
    geo = geometry(view)
    height = MARGIN + max(panel_height(p, geo) for p in more) + MARGIN
    cols = min(len(more), geo.per_row)
    width = 2 * MARGIN + cols * geo.panel_w + (cols - 1) * PANEL_GAP
    im = Image.new("RGB", (width, height), kit.TABLE)
    d = ImageDraw.Draw(im)
    _draw_panels(im, d, view, more, MARGIN, geo, names, lang)
    return kit.png_bytes(im, kit.module_palette(__name__))


HAND_GAP = 16
HAND_CAPTION_H = 34


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
