"""The Street Kings board and race: a public view (rules/street_kings/views.py) -> PNG, and the
last race -> an animated GIF.

Board, 1200 px wide, top to bottom: a header (round, class raced, championship, whose turn), the
track (the grid, spaces 1 to 24, the four class finish lines, the pawns, and the places during a
race), the two location spots and the car show, the dealership by class, the shop, and a tile per
player (credits, trophies, cars with their upgrades or a count of hidden ones, crew). Only the
public parts of the view are drawn: ``hand`` is never read, a face-down location is a card back.

Colour is never the only cue: each stat has its letters (TS, AC, HA, BR), each trophy its letter
(G, S, B, 4), each player a pawn shape and an initial, each class its letter.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from images import kit
from images.kit import Color
from images.lang import N_, tr, tr_n
from rules.street_kings.data import (
    CARS,
    CLASSES,
    CREDIT_UNIT,
    FINISH_LINE,
    LOCATIONS,
    PLACE_NAMES,
    STAT_NAMES,
    TRACK_LENGTH,
    upgrade_of,
)

GAP = 16

STAT_COLOURS: dict[str, Color] = {
    "TS": kit.VERMILLION,
    "AC": kit.YELLOW,
    "HA": kit.BLUE,
    "BR": kit.BLUISH_GREEN,
    "NOZ": kit.REDDISH_PURPLE,
}
TROPHY_STYLE: dict[str, tuple[Color, str, str]] = {
    "gold": (kit.rgb("#E8B923"), "G", N_("GOLD")),
    "silver": (kit.rgb("#C9CED6"), "S", N_("SILVER")),
    "bronze": (kit.rgb("#C7793A"), "B", N_("BRONZE")),
    "fourth": (kit.rgb("#7D8FA3"), "4", ""),
}
#: Pawn fill and shape per seat: a player is told apart by shape and initial, not colour alone.
PAWN_COLOURS = (kit.ORANGE, kit.SKY_BLUE, kit.REDDISH_PURPLE, kit.rgb("#E4E4E4"))
PAWN_SHAPES = ("circle", "square", "diamond", "hexagon")
CLASS_COLOUR = kit.rgb("#3B4656")
FINISH_COLOUR = kit.YELLOW
LANE_COLOUR = kit.rgb("#2B313B")
LANE_EDGE = kit.rgb("#4A5361")

PHASE_HINTS = {
    "class": N_("is choosing the race class"),
    "action": N_("to take an action"),
    "shop-sell": N_("is at the shop, selling"),
    "shop-buy": N_("is at the shop, buying"),
    "dealer-sell": N_("is at the dealership, selling"),
    "dealer-buy": N_("is at the dealership, buying"),
    "place-location": N_("is placing a location card"),
    "race-car": N_("is choosing a car to race"),
    "noz": N_("may fire a NOZ"),
}


def place_name(place: int, lang: str) -> str:
    """ "1st" to "4th" in ``lang``."""
    return tr(lang, PLACE_NAMES[place])


def stat_name(stat: str, lang: str) -> str:
    return tr(lang, STAT_NAMES[stat]) if stat in STAT_NAMES else stat


def letters(stat: str, lang: str) -> str:
    """A stat's letters in ``lang`` ("TS" is "VE" in Portuguese), as the posts write them: a
    stat key is the rules' English, never drawn as it is."""
    return tr(lang, stat) if stat in STAT_NAMES else stat


# ------------------------------------------------------------------------------ view helpers


@dataclass(frozen=True)
class Pawn:
    """How one player is drawn everywhere: colour, shape and a one- or two-letter label."""

    colour: Color
    shape: str
    label: str


def pawns_of(view: dict[str, Any], names: dict[str, str]) -> dict[str, Pawn]:
    """A pawn per player by seat; the label is the name's initial, with the seat number added
    when two names share an initial."""
    ids = [p["id"] for p in view["players"]]
    initials = {pid: (names[pid][:1] or "?").upper() for pid in ids}
    out = {}
    for seat, pid in enumerate(ids):
        label = initials[pid]
        if list(initials.values()).count(label) > 1:
            label = f"{label}{seat + 1}"
        out[pid] = Pawn(PAWN_COLOURS[seat % 4], PAWN_SHAPES[seat % 4], label)
    return out


def money(k: int) -> str:
    """Credits are counted in thousands: 12 -> "12k"."""
    return f"{k}{CREDIT_UNIT}"


def car_stars(car: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Per stat: the car's printed stars and what its visible parts add."""
    base = CARS[car["id"]].stars
    extra = dict.fromkeys(base, 0)
    for card in car.get("upgrades") or []:
        info = upgrade_of(card)
        if info.kind == "part" and info.stat in extra:
            extra[info.stat] += info.stars
    return {stat: (base[stat], extra[stat]) for stat in base}


def upgrade_short(card: str, lang: str) -> tuple[str, str]:
    """(stat key for the colour, short label) of an upgrade card: ("TS", "TS+2"), ("NOZ", ...)."""
    info = upgrade_of(card)
    if info.kind == "noz":
        return "NOZ", "NOZ"
    assert info.stat is not None
    return info.stat, f"{letters(info.stat, lang)}+{info.stars}"


def status_line(view: dict[str, Any], names: dict[str, str], lang: str = "en") -> str:
    """Whose turn and what they are doing, or the winners when the game is over."""
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners", [])
        golds = outcome.get("scores", {})
        who = " & ".join(names.get(p, p) for p in winners)
        best = max(golds.values()) if golds else 0
        over = tr_n(
            lang,
            "Game over: {who} is the STREET KING ({n} gold)",
            "Game over: {who} are STREET KINGS ({n} gold)",
            len(winners),
        )
        return over.format(who=who, n=best)
    movers = view.get("to_move") or []
    if not movers:
        return ""
    who = ", ".join(names.get(p, p) for p in movers)
    phase = view.get("phase", "")
    doing = tr(lang, PHASE_HINTS[phase]) if phase in PHASE_HINTS else tr(lang, "to move")
    return f"{who} {doing}"


# ------------------------------------------------------------------------------ small shapes


@lru_cache(maxsize=64)
def pawn_image(pawn: Pawn, size: int, ring: Color = kit.PAPER_INK) -> Image.Image:
    """A pawn token: its shape in its colour with a dark ring and its label."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        n = size * s
        w = max(2, size // 14) * s
        box = (0, 0, n - 1, n - 1)
        inner = (w, w, n - 1 - w, n - 1 - w)
        if pawn.shape == "circle":
            d.ellipse(box, fill=ring)
            d.ellipse(inner, fill=pawn.colour)
        elif pawn.shape == "square":
            d.rounded_rectangle(box, n // 6, fill=ring)
            d.rounded_rectangle(inner, n // 6 - w, fill=pawn.colour)
        elif pawn.shape == "diamond":
            c = n / 2
            d.polygon([(c, 0), (n, c), (c, n), (0, c)], fill=ring)
            k = w * 1.5
            d.polygon([(c, k), (n - k, c), (c, n - k), (k, c)], fill=pawn.colour)
        else:
            d.regular_polygon((n / 2, n / 2, n / 2), 6, fill=ring)
            d.regular_polygon((n / 2, n / 2, n / 2 - w * 1.2), 6, fill=pawn.colour)

    im = kit.supersampled((size, size), paint)
    fnt = kit.fit_font(pawn.label, int(size * 0.62), int(size * 0.55), 10, bold=True)
    kit.text_on(im, (size / 2, size / 2), pawn.label, fnt, kit.PAPER_INK)
    return im


@lru_cache(maxsize=32)
def trophy_image(kind: str, size: int) -> Image.Image:
    """A cup in the trophy's colour with its letter (G, S, B, 4) on it."""
    colour, letter, _ = TROPHY_STYLE[kind]

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        n = size * s
        d.ellipse((n * 0.02, n * 0.08, n * 0.34, n * 0.46), outline=colour, width=max(2, n // 14))
        d.ellipse((n * 0.66, n * 0.08, n * 0.98, n * 0.46), outline=colour, width=max(2, n // 14))
        d.pieslice((n * 0.14, -n * 0.52, n * 0.86, n * 0.72), 0, 180, fill=colour)
        d.rectangle((n * 0.44, n * 0.68, n * 0.56, n * 0.84), fill=colour)
        d.rounded_rectangle((n * 0.24, n * 0.82, n * 0.76, n * 0.98), n // 20, fill=colour)

    im = kit.supersampled((size, size), paint)
    fnt = kit.font(int(size * 0.36), bold=True)
    kit.text_on(im, (size / 2, size * 0.36), letter, fnt, kit.PAPER_INK)
    return im


def stat_badge(
    d: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    stat: str,
    lang: str,
    size: int = 22,
    anchor: str = "la",
) -> kit.Box:
    """A pill in the stat's colour with its letters (colour never alone)."""
    fill = STAT_COLOURS.get(stat, kit.GREY)
    text = letters(stat, lang)
    return kit.badge(d, xy, text, kit.font(size, True), fill, kit.readable_on(fill), (8, 2), anchor)


# ------------------------------------------------------------------------------------- track


@dataclass(frozen=True)
class TrackGeometry:
    """Where the track sits: lanes as rows, space ``n`` as column ``n`` (0 is the grid), and
    a column of places on the right."""

    x: int
    y: int
    label_w: int
    grid_w: int
    cell_w: int
    lane_h: int
    lanes: int
    length: int
    places_w: int
    label_px: int = 26
    badge_px: int = 20
    ruler_px: int = 18
    ruler_step: int = 2

    def cell_x(self, space: int) -> int:
        """Centre x of ``space`` (0 = the grid)."""
        if space <= 0:
            return self.x + self.label_w + self.grid_w // 2
        space = min(space, self.length)
        return self.x + self.label_w + self.grid_w + (space - 1) * self.cell_w + self.cell_w // 2

    def line_x(self, space: int) -> int:
        """x of the finish line after ``space``."""
        return self.x + self.label_w + self.grid_w + space * self.cell_w

    def lane_y(self, row: int) -> int:
        """Centre y of lane row ``row`` (0-based)."""
        return self.y + row * self.lane_h + self.lane_h // 2

    @property
    def places_x(self) -> int:
        return self.line_x(self.length) + 16

    @property
    def bottom(self) -> int:
        return self.y + self.lanes * self.lane_h


def draw_track_base(
    d: ImageDraw.ImageDraw,
    g: TrackGeometry,
    lane_labels: list[str],
    finish_line: int | None,
    race_class: str | None,
    all_classes: bool,
    lang: str = "en",
) -> None:
    """Lanes, spaces, class finish lines (the raced one thick and checkered) and empty places."""
    label_font = kit.font(g.label_px, True)
    right = g.line_x(g.length)
    for row in range(g.lanes):
        top = g.y + row * g.lane_h
        d.rectangle((g.x + g.label_w, top + 3, right, top + g.lane_h - 3), fill=LANE_COLOUR)
        d.rectangle(
            (g.x + g.label_w, top + 3, g.x + g.label_w + g.grid_w, top + g.lane_h - 3),
            fill=kit.PANEL_EDGE,  # the starting grid at a lane's head
            outline=LANE_EDGE,
            width=2,
        )
        kit.draw_text(
            d,
            (g.x + g.label_w - 10, g.lane_y(row)),
            lane_labels[row],
            label_font if len(lane_labels[row]) < 3 else kit.font(g.badge_px, True),
            kit.INK,
            "rm",
            max_width=g.label_w - 12,
        )
        for space in range(1, g.length):
            x = g.line_x(space)
            d.line((x, top + 8, x, top + g.lane_h - 8), fill=LANE_EDGE, width=1)
    lines = {cls: FINISH_LINE[cls] for cls in CLASSES if FINISH_LINE[cls] <= g.length}
    small = kit.font(g.badge_px, True)
    finish: tuple[str, int, str] | None = None
    taken: list[tuple[int, int]] = []  # spans of the labels drawn: a label clear of them only
    if finish_line is not None:
        label = tr(lang, "FINISH") + f" {race_class or ''}"
        if FINISH_LINE.get(race_class or "") != finish_line:
            label += " " + tr(lang, "at {n} (custom)").format(n=finish_line)
        fx = g.line_x(min(finish_line, g.length)) + 4
        finish = (label, fx, _line_anchor(finish_line, g))
        taken.append(_label_span(label, small, fx, finish[2], 8))
    for cls, space in lines.items():
        if not all_classes and space != finish_line:
            continue
        x = g.line_x(space)
        if cls == race_class and space == finish_line:
            continue
        d.line((x, g.y, x, g.bottom), fill=kit.MUTED, width=3)
        text, anchor = f"{cls} {space}", _line_anchor(space, g)
        left, right = _label_span(text, small, x, anchor, 6)
        if all(right + 4 < l0 or left > r0 + 4 for l0, r0 in taken):
            taken.append((left, right))
            kit.badge(d, (x, g.y - 4), text, small, CLASS_COLOUR, kit.INK, (6, 1), anchor)
    if finish is not None:
        label, fx, anchor = finish
        _checkered_line(d, fx - 4, g.y, g.bottom)
        kit.badge(d, (fx, g.y - 4), label, small, FINISH_COLOUR, kit.PAPER_INK, (8, 1), anchor)
    ruler = kit.font(g.ruler_px)
    with kit.minor_text():  # the spaces' numbers: the pawns' places matter, not their count
        for space in range(g.ruler_step, g.length + 1, g.ruler_step):
            kit.draw_text(d, (g.cell_x(space), g.bottom + 4), str(space), ruler, kit.MUTED, "ma")
        kit.draw_text(d, (g.cell_x(0), g.bottom + 4), tr(lang, "grid"), ruler, kit.MUTED, "ma")
    if g.places_w:
        for row in range(min(4, g.lanes)):
            _place_slot(d, g, row + 1, lang)


def _label_span(
    text: str, fnt: kit.ImageFont.FreeTypeFont, x: int, anchor: str, pad: int
) -> tuple[int, int]:
    """Left and right x of a line's label pill (``kit.badge`` at ``x`` with ``anchor``)."""
    w = kit.text_width(text, fnt) + 2 * pad
    return (x - w, x) if anchor[0] == "r" else (x - w // 2, x + w // 2)


def _line_anchor(space: int, g: TrackGeometry) -> str:
    """A line's label is centred on it, or ends on it at the end of the track (clear of the
    places)."""
    return "rs" if space >= g.length else "ms"


def _checkered_line(d: ImageDraw.ImageDraw, x: int, top: int, bottom: int) -> None:
    square = 6
    for i, y in enumerate(range(top, bottom, square)):
        for j in range(2):
            fill = kit.PAPER_INK if (i + j) % 2 else kit.WHITE
            d.rectangle((x - square + j * square, y, x - 1 + j * square, y + square - 1), fill=fill)


def _place_slot(d: ImageDraw.ImageDraw, g: TrackGeometry, place: int, lang: str) -> None:
    """An empty trophy place: "1st" framed in its trophy's colour (the pawn lands on its right
    half)."""
    kind = ("gold", "silver", "bronze", "fourth")[place - 1]
    colour, _, _ = TROPHY_STYLE[kind]
    top = g.y + (place - 1) * g.lane_h + 3
    box = (g.places_x, top, g.places_x + g.places_w, top + g.lane_h - 6)
    d.rounded_rectangle(box, 10, fill=kit.PANEL, outline=colour, width=3)
    kit.draw_text(
        d,
        (box[0] + 10, (box[1] + box[3]) // 2),
        place_name(place, lang),
        kit.font(max(24, g.label_px), True),
        colour,
        "lm",
        max_width=g.places_w - 20,
    )


def place_pawn(im: Image.Image, g: TrackGeometry, place: int, pawn: Pawn, size: int) -> None:
    x = g.places_x + g.places_w - size - 8
    y = g.y + (place - 1) * g.lane_h + (g.lane_h - size) // 2
    kit.paste(im, pawn_image(pawn, size), (x, y))


def lane_pawn(
    im: Image.Image, g: TrackGeometry, row: int, space: int, pawn: Pawn, size: int
) -> None:
    x = g.cell_x(space) - size // 2
    y = g.lane_y(row) - size // 2
    kit.paste(im, pawn_image(pawn, size), (x, y))


# ------------------------------------------------------------------------------------- cards


# --------------------------------------------------------------------------------- the board

#: The board is drawn for a phone: Discord shows it about 285 CSS px wide there, so at
#: ``BOARD_W`` px every text a player needs is at least ``TEXT`` px (8 CSS px on the phone) and
#: nothing at all under ``TINY`` (6 CSS px). One picture carries the whole table, market
#: included: a row of big words per car beats a card face whose words a phone cannot show.
BOARD_W = kit.PHONE_WIDTH
PAD = 16
TEXT = kit.PHONE_TEXT
TINY = kit.PHONE_TINY
LINE = 27
COLUMN_W = (BOARD_W - 2 * PAD - GAP) // 2

#: The board's track: 24 narrow spaces (the pawns stand out of them), the places on the right.
BOARD_TRACK = TrackGeometry(PAD, 0, 30, 40, 22, 44, 4, TRACK_LENGTH, 120, TEXT, TEXT, TINY, 4)
BOARD_TRACK_TOP = 34  # room above the lanes for the finish lines' labels
BOARD_PAWN = 42  # its letter is TEXT px


def _header(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    names: dict[str, str],
    last: Sequence[str],
    lang: str,
) -> int:
    """Round and tags, whose turn, then the last turn (or the race in progress) in words, on
    up to two lines; returns the y under it."""
    y = PAD
    right = BOARD_W - PAD
    x = PAD + kit.draw_text(
        d, (PAD, y), tr(lang, "Round {n}").format(n=view["round"]), kit.bold(30)
    )
    x += 14
    tags: list[tuple[str, Color]] = []
    if view.get("race_class"):
        tags.append((tr(lang, "CLASS {cls} RACE").format(cls=view["race_class"]), FINISH_COLOUR))
    if view.get("championship"):
        tags.append(("★ " + tr(lang, "CHAMPIONSHIP"), kit.ORANGE))
    elif view.get("championship_next"):
        tags.append(("★ " + tr(lang, "championship next"), kit.ORANGE))
    tags.append((tr(lang, "{n} gold wins").format(n=view.get("golds_to_win", 7)), kit.PANEL_EDGE))
    for text, fill in tags:
        if x + kit.text_width(text, kit.bold(TEXT)) + 20 > right:
            break
        box = kit.badge(d, (x, y + 2), text, kit.bold(TEXT), fill, kit.readable_on(fill), (10, 2))
        x = box[2] + 8
    y += 44
    status = status_line(view, names, lang)
    if status:
        prefix = "" if view.get("outcome") else "▶ "
        y = kit.draw_lines(
            d, (PAD, y), prefix + status, kit.bold(28), kit.HIGHLIGHT, right - PAD, 2, 36
        )
    told = _race_on(view, lang) or kit.last_line(last)
    if told:
        label = "" if view.get("race") else tr(lang, "Last:") + " "
        y = kit.draw_lines(d, (PAD, y), label + told, kit.font(TEXT), kit.INK, right - PAD, 3, LINE)
    return y + 6


def _race_on(view: dict[str, Any], lang: str) -> str:
    """The race in progress: lap, stat, how many finished ("" when no race is on)."""
    race = view.get("race")
    if not race or not race["log"]:
        return ""
    step = race["log"][-1]["step"]
    stretches = 2 * sum(1 for spot in view["spots"] if spot["filled"]) or 1
    stat = race["log"][-1]["stat"]
    return tr(lang, "Race on: lap {lap}, {stat}, {done} of {racers} finished").format(
        lap=step // stretches + 1,
        stat=stat_name(stat, lang),
        done=len(race["finished"]),
        racers=len(race["order"]),
    )


@kit.static_layer(maxsize=16)
def board_track_layer(
    finish_line: int | None, race_class: str | None, lang: str = "en"
) -> Image.Image:
    """The empty board track for one finish line (a fresh copy per call)."""
    g = dataclasses.replace(BOARD_TRACK, y=BOARD_TRACK_TOP)
    im = Image.new("RGB", (BOARD_W, g.bottom + 30), kit.TABLE)
    draw_track_base(
        ImageDraw.Draw(im), g, ["1", "2", "3", "4"], finish_line, race_class, True, lang
    )
    return im


def _board_track(
    im: Image.Image, view: dict[str, Any], y: int, pawns: dict[str, Pawn], lang: str
) -> int:
    """The track at ``y`` with the pawns on the grid (qualified) or racing, places filled;
    returns the y under it."""
    layer = board_track_layer(view.get("finish_line"), view.get("race_class"), lang)
    im.paste(layer, (0, y))
    g = dataclasses.replace(BOARD_TRACK, y=y + BOARD_TRACK_TOP)
    race = view.get("race")
    lane_of = {p["id"]: p.get("lane") for p in view["players"]}
    size = BOARD_PAWN
    if race:
        for pid in race["order"]:
            lane = lane_of.get(pid)
            if pid in race["finished"]:
                place_pawn(im, g, race["finished"].index(pid) + 1, pawns[pid], size)
            elif lane:
                lane_pawn(im, g, lane - 1, race["pos"].get(pid, 0), pawns[pid], size)
    elif view.get("outcome") and view.get("last_race"):  # the deciding race's places stay
        for place in view["last_race"]["places"]:
            place_pawn(im, g, place["place"], pawns[place["player"]], size)
    else:
        for pid, lane in lane_of.items():
            if lane:
                lane_pawn(im, g, lane - 1, 0, pawns[pid], size)
    return y + layer.height


def _spot(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    box: kit.Box,
    index: int,
    spot: dict[str, Any],
    names: dict[str, str],
    lang: str,
) -> None:
    """One location spot: whose card lies face down, or the revealed location's name, its two
    stats in order, the red penalty and the prizes, 1st to 4th (dimmed on the first spot,
    whose prizes are not used)."""
    x, y, x1, _ = box
    prizes_count = index == 1
    kit.rounded_box(im, box, 12, kit.PANEL, kit.PANEL_EDGE, 2)
    prizes = tr(lang, "PRIZES") if prizes_count else tr(lang, "no prizes")
    title = tr(lang, "Spot {n}").format(n=index + 1) + " · " + prizes
    kit.draw_text(d, (x + 10, y + 8), title, kit.bold(TEXT), kit.MUTED, max_width=x1 - x - 20)
    y += 8 + LINE
    card = spot.get("card")
    if not card:
        if spot.get("filled"):
            who = names.get(spot["by"], "?") if spot.get("by") else tr(lang, "the deck")
            text = tr(lang, "face down") + " · " + tr(lang, "from {who}").format(who=who)
        else:
            text = tr(lang, "empty")
        kit.draw_text(d, (x + 10, y), text, kit.font(TEXT), kit.INK, max_width=x1 - x - 20)
        return
    _location_lines(d, (x + 10, y, x1 - 10), card, prizes_count, lang)


def _location_lines(
    d: ImageDraw.ImageDraw, span: tuple[int, int, int], card: str, prizes_count: bool, lang: str
) -> None:
    """A location card in lines from ``span`` (left, top, right): name, its two stats in order,
    the red penalty (where its prizes count), the prizes 1st to 4th (dimmed where they do
    not count)."""
    x, y, x1 = span
    x -= 10
    x1 += 10
    info = LOCATIONS[card]
    kit.draw_text(d, (x + 10, y), info.name, kit.bold(TEXT), kit.INK, max_width=x1 - x - 20)
    y += LINE
    sx = x + 10
    for i, stat in enumerate((info.first, info.second)):
        pill = stat_badge(d, (sx, y), stat, lang, TEXT)
        sx = pill[2] + 6
        if i == 0:
            sx += 6 + kit.draw_text(d, (sx, y + 1), "→", kit.bold(TEXT), kit.INK)
    y += LINE + 4
    if info.red and prizes_count:  # only the second card's red icon is a penalty
        label = "! " + tr(lang, "winner loses {stat} part").format(stat=letters(info.red, lang))
        kit.draw_text(d, (x + 10, y), label, kit.bold(TEXT), kit.VERMILLION, max_width=x1 - x - 20)
        y += LINE
    ink = kit.INK if prizes_count else kit.MUTED
    cell = (x1 - x - 20) // 4
    for i, prize in enumerate(reversed(info.prizes)):  # the card lists 4th to 1st
        cx = x + 10 + i * cell
        kit.draw_text(d, (cx, y), place_name(i + 1, lang), kit.font(TEXT), ink, max_width=cell)
        kit.draw_text(d, (cx, y + LINE), money(prize), kit.bold(TEXT), ink, max_width=cell)


def _spot_height(index: int, spot: dict[str, Any]) -> int:
    """A spot's height: its title and one line for a face-down card, or the revealed card's
    name, stats, penalty (second spot only) and prizes."""
    card = spot.get("card")
    if not card:
        return 8 + 2 * LINE + 10
    red = LOCATIONS[card].red and index == 1
    return 8 + LINE + LINE + LINE + 4 + (LINE if red else 0) + 2 * LINE + 10


def _spots_and_show(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    y: int,
    names: dict[str, str],
    pawns: dict[str, Pawn],
    lang: str,
) -> int:
    """The two location spots side by side, then the car show on one line per slot; returns
    the y under them."""
    spot_h = max(_spot_height(i, spot) for i, spot in enumerate(view["spots"]))
    for i, spot in enumerate(view["spots"]):
        x = PAD + i * (COLUMN_W + GAP)
        _spot(im, d, (x, y, x + COLUMN_W, y + spot_h), i, spot, names, lang)
    y += spot_h + 10
    decks = view.get("decks", {})
    kit.draw_text(d, (PAD, y), tr(lang, "CAR SHOW"), kit.bold(TEXT))
    deck = tr(lang, "location deck {n}").format(n=decks.get("locations", 0))
    kit.draw_text(d, (BOARD_W - PAD, y), deck, kit.font(TEXT), kit.MUTED, "ra")
    y += LINE + 2
    slots = view.get("show") or []
    slot_w = (BOARD_W - 2 * PAD - (len(slots) - 1) * GAP) // max(1, len(slots))
    for i, slot in enumerate(slots):
        x = PAD + i * (slot_w + GAP)
        if not slot:
            kit.draw_text(d, (x, y + 8), tr(lang, "open"), kit.font(TEXT), kit.MUTED)
            continue
        info = CARS[slot["car"]]
        kit.paste(im, pawn_image(pawns[slot["player"]], BOARD_PAWN), (x, y))
        pill = _class_pill(d, (x + 48, y + 7), info.cls)
        kit.draw_text(
            d,
            (pill[2] + 6, y + 8),
            info.name,
            kit.bold(TEXT),
            kit.INK,
            max_width=x + slot_w - pill[2] - 6,
        )
    return y + BOARD_PAWN + 10


def _show_badge(
    d: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    fnt: kit.ImageFont.FreeTypeFont,
    pad: tuple[int, int],
    lang: str,
) -> int:
    """ "SHOW" ending at ``xy`` on a car parked at the car show; returns the room it takes."""
    box = kit.badge(d, xy, tr(lang, "SHOW"), fnt, kit.ORANGE, kit.PAPER_INK, pad, "ra")
    return box[2] - box[0] + 6


def _class_pill(d: ImageDraw.ImageDraw, xy: tuple[int, int], cls: str) -> kit.Box:
    return kit.badge(d, xy, cls, kit.bold(TEXT), CLASS_COLOUR, kit.WHITE, (7, 0))


def _stat_line(
    d: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    stars: dict[str, tuple[int, int]],
    right: int,
    lang: str,
) -> int:
    """A car's stats as "TS3 AC2+1 HA2 BR1" (what its parts add after a plus, brighter);
    returns the x after the last."""
    x, y = xy
    for stat, (base, extra) in stars.items():
        text = f"{letters(stat, lang)}{base}" + (f"+{extra}" if extra else "")
        x += 12 + kit.draw_text(
            d, (x, y), text, kit.bold(TEXT), kit.INK if extra else kit.MUTED, max_width=right - x
        )
    return x


def _tile_tags(player: dict[str, Any], view: dict[str, Any], lang: str) -> list[str]:
    """A tile's lines under the name: turn, 1st player, lane or passed, cards in hand, on one
    line, or two when one is too narrow for them in any language (so that a board is laid out
    the same in every language, and a longer word never cuts what its English did not)."""
    tags = _tags_in(player, view, lang)
    room = COLUMN_W - 24
    if all(
        kit.text_width(" · ".join(_tags_in(player, view, other)), kit.bold(TEXT)) <= room
        for other in kit.LANGS
    ):
        return [" · ".join(tags)]
    return [" · ".join(tags[:-1]), tags[-1]]


def _tags_in(player: dict[str, Any], view: dict[str, Any], lang: str) -> list[str]:
    pid = player["id"]
    tags = []
    if pid in (view.get("to_move") or []) and not view.get("outcome"):
        tags.append("▶ " + tr(lang, "TURN"))
    if pid in ((view.get("outcome") or {}).get("winners") or []):
        tags.append("♛ " + tr(lang, "KING"))
    if view.get("first") == pid:
        tags.append(tr(lang, "1st player"))
    if player.get("lane"):
        tags.append(tr(lang, "lane {n}").format(n=player["lane"]))
    elif player.get("passed"):
        tags.append(tr(lang, "passed"))
    tags.append(tr(lang, "{n} in hand").format(n=player["hand_size"]))
    return tags


def _tile_height(player: dict[str, Any], view: dict[str, Any], lang: str) -> int:
    cars = min(TILE_CARS, max(1, len(player["cars"])))
    extra = len(player["cars"]) > TILE_CARS or bool(player["crew"])
    tags = len(_tile_tags(player, view, lang))
    return 52 + (tags + 1) * LINE + 6 + cars * 2 * LINE + (LINE if extra else 0) + 10


#: Cars a tile lists; more are counted ("+1 more car").
TILE_CARS = 3


def _draw_tile(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    box: kit.Box,
    player: dict[str, Any],
    view: dict[str, Any],
    name: str,
    pawn: Pawn,
    lang: str,
) -> None:
    """A player: pawn, name, credits; turn and lane; trophies; cars with their stats."""
    x, y, x1, y1 = box
    w = x1 - x
    pid = player["id"]
    turn = pid in (view.get("to_move") or []) and not view.get("outcome")
    winner = pid in ((view.get("outcome") or {}).get("winners") or [])
    edge = kit.HIGHLIGHT if turn else kit.WHITE if winner else kit.PANEL_EDGE
    kit.paste(
        im, kit.rounded_card((w, y1 - y), kit.PANEL, edge, 14, 5 if turn or winner else 2), (x, y)
    )
    kit.paste(im, pawn_image(pawn, BOARD_PAWN), (x + 8, y + 6))
    credits = money(player["credits"])
    credits_w = kit.draw_text(d, (x1 - 12, y + 27), credits, kit.bold(28), kit.INK, "rm")
    kit.draw_text(
        d, (x + 58, y + 27), name, kit.bold(26), kit.INK, "lm", max_width=w - 82 - credits_w
    )
    y += 52
    ink = kit.HIGHLIGHT if turn or winner else kit.MUTED
    for line in _tile_tags(player, view, lang):
        kit.draw_text(d, (x + 12, y), line, kit.bold(TEXT), ink, max_width=w - 24)
        y += LINE
    y += 2
    tx, step = x + 12, (w - 24) // 4
    for place, kind in enumerate(TROPHY_STYLE, start=1):  # 1st is gold: the places' colours
        count = f"{place_name(place, lang)}×{player['trophies'].get(kind, 0)}"
        kit.draw_text(d, (tx, y), count, kit.bold(TEXT), TROPHY_STYLE[kind][0], max_width=step - 4)
        tx += step
    y += LINE + 4
    if not player["cars"]:
        kit.draw_text(d, (x + 12, y), tr(lang, "no cars"), kit.font(TEXT), kit.MUTED)
    for car in player["cars"][:TILE_CARS]:
        _tile_car(d, (x + 8, y, x1 - 8), car, lang)
        y += 2 * LINE
    notes = []
    if len(player["cars"]) > TILE_CARS:
        more = len(player["cars"]) - TILE_CARS
        notes.append(tr_n(lang, "+{n} more car", "+{n} more cars", more).format(n=more))
    if player["crew"]:
        crew = ", ".join(f"+1 {letters(str(upgrade_of(c).stat), lang)}" for c in player["crew"])
        notes.append(tr(lang, "Crew: {crew}").format(crew=crew))
    if notes:
        kit.draw_text(
            d, (x + 12, y + 2), " · ".join(notes), kit.bold(TEXT), kit.MUTED, max_width=w - 24
        )


def _tile_car(
    d: ImageDraw.ImageDraw, span: tuple[int, int, int], car: dict[str, Any], lang: str
) -> None:
    """A player's car on two lines: class, name, "SHOW" if parked at the car show; then its
    stats and its upgrades (their count when hidden or when they do not fit)."""
    x, y, right = span
    info = CARS[car["id"]]
    d.rounded_rectangle((x, y, right, y + 2 * LINE - 4), 8, fill=LANE_COLOUR)
    pill = _class_pill(d, (x + 4, y + 2), info.cls)
    show_w = 0
    if car.get("at_show"):
        show_w = _show_badge(d, (right - 4, y + 2), kit.bold(TEXT), (6, 0), lang)
    kit.draw_text(
        d,
        (pill[2] + 6, y + 3),
        info.name,
        kit.bold(TEXT),
        kit.INK,
        max_width=right - pill[2] - 12 - show_w,
    )
    sx = _stat_line(d, (x + 6, y + LINE), car_stars(car), right, lang)
    upgrades = car.get("upgrades")
    count = len(upgrades) if upgrades is not None else car.get("hidden_upgrades", 0)
    if count:
        word = tr(lang, "{n} upgr.") if upgrades is not None else tr(lang, "{n} hidden")
        text = word.format(n=count)
        if sx + kit.text_width(text, kit.font(TEXT)) <= right - 4:
            kit.draw_text(d, (sx, y + LINE), text, kit.font(TEXT), kit.MUTED)


def _market(
    im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int, lang: str
) -> int:
    """The dealership, a row per car on sale (class, name, price, stats, car-show value; a
    class with none on sale in one short line); returns the y under it."""
    right = BOARD_W - PAD
    kit.draw_text(d, (PAD, y), tr(lang, "DEALERSHIP"), kit.bold(TEXT))
    y += LINE + 2
    closed: list[str] = []
    for cls in (c for c in CLASSES if c != "D"):
        row = view["dealership"].get(cls) or []
        if not row:
            closed.append(cls)
            continue
        for car_id in row:
            info = CARS[car_id]
            _class_pill(d, (PAD, y), info.cls)
            kit.draw_text(d, (PAD + 40, y + 1), info.name, kit.bold(TEXT), kit.INK, max_width=220)
            kit.draw_text(d, (PAD + 318, y + 1), money(info.price), kit.bold(TEXT), kit.INK, "ra")
            sx = _stat_line(
                d, (PAD + 334, y + 1), {s: (n, 0) for s, n in info.stars.items()}, right, lang
            )
            show = tr(lang, "show +{credits}").format(credits=money(info.beauty))
            kit.draw_text(
                d, (right, y + 1), show, kit.font(TEXT), kit.MUTED, "ra", max_width=right - sx
            )
            y += LINE + 2
    if closed:
        x = PAD
        for cls in closed:
            pill = _class_pill(d, (x, y), cls)
            gone = tr(lang, "not shown") if cls != "C" else tr(lang, "sold out")
            x = (
                pill[2]
                + 8
                + kit.draw_text(d, (pill[2] + 8, y + 1), gone, kit.font(TEXT), kit.MUTED)
            )
            x += 24
        y += LINE + 2
    return y


#: Height of one shop card's two lines.
SHOP_ITEM_H = 2 * LINE + 6


def _shop_height(view: dict[str, Any], columns: int) -> int:
    rows = max(1, -(-len(view.get("shop") or []) // columns))
    return LINE + 2 + rows * SHOP_ITEM_H


def _shop(
    d: ImageDraw.ImageDraw, view: dict[str, Any], x: int, y: int, columns: int, lang: str
) -> int:
    """The shop from ``(x, y)`` in ``columns`` columns: a card per two lines, its stat and
    stars (or CREW, NOZ) and name, then its price and car-show value or effect; returns the y
    under it."""
    right = x + columns * COLUMN_W + (columns - 1) * GAP
    kit.draw_text(d, (x, y), tr(lang, "SHOP"), kit.bold(TEXT))
    deck = tr(lang, "upgrade deck {n}").format(n=view.get("decks", {}).get("upgrades", 0))
    kit.draw_text(d, (right, y), deck, kit.font(TEXT), kit.MUTED, "ra")
    y += LINE + 2
    shop = view.get("shop") or []
    if not shop:
        kit.draw_text(d, (x, y), tr(lang, "empty"), kit.font(TEXT), kit.MUTED)
    for i, card in enumerate(shop):
        info = upgrade_of(card)
        if info.kind == "crew":
            band, tag = kit.GREY, tr(lang, "CREW")
            name = info.name.removeprefix("Crew: ")
            stat = letters(str(info.stat), lang)
            effect = tr(lang, "+{n} {stat} when racing").format(n=info.stars, stat=stat)
        elif info.kind == "noz":
            band, tag = STAT_COLOURS["NOZ"], "NOZ"
            name, effect = tr(lang, "Nitrous (NOZ)"), tr(lang, "+3 spaces, once")
        else:
            assert info.stat is not None
            band, tag = STAT_COLOURS[info.stat], upgrade_short(card, lang)[1]
            name, effect = info.name, ""
        cx = x + (i % columns) * (COLUMN_W + GAP)
        cy = y + (i // columns) * SHOP_ITEM_H
        pill = kit.badge(d, (cx, cy), tag, kit.bold(TEXT), band, kit.readable_on(band), (7, 0))
        room = cx + COLUMN_W - pill[2] - 8
        # a part's car-show value, or what a crew or NOZ card does (their show value is nil)
        worth = effect or tr(lang, "show +{credits}").format(credits=money(info.beauty))
        line = f"{money(info.price)} · {worth}"
        kit.draw_text(d, (pill[2] + 8, cy + 1), name, kit.bold(TEXT), kit.INK, max_width=room)
        kit.draw_text(
            d, (cx + 4, cy + LINE), line, kit.font(TEXT), kit.MUTED, max_width=COLUMN_W - 4
        )
    return y + _shop_height(view, columns) - LINE - 2


def board_image(
    view: dict[str, Any], names: dict[str, str], last: Sequence[str], lang: str = "en"
) -> Image.Image:
    """The board of ``view`` as an RGB image, drawn for a phone: the header, the track, the
    spots and the car show, the players two to a row, then the market."""
    names = kit.display_names(view, names, lang)
    pawns = pawns_of(view, names)
    players = view["players"]
    # as tall as the board can get (a fill of rows never drawn costs 1-2 ms): the header, the
    # track, the spots and the show at their tallest, the tiles, nine cars and the shop
    tiles = sum(
        max(_tile_height(p, view, lang) for p in players[row : row + 2]) + 10
        for row in range(0, len(players), 2)
    )
    bound = 800 + tiles + 12 * (LINE + 4) + _shop_height(view, 1)
    im = Image.new("RGB", (BOARD_W, bound), kit.TABLE)
    d = ImageDraw.Draw(im)
    y = _header(d, view, names, last, lang)
    y = _board_track(im, view, y, pawns, lang)
    over = bool(view.get("outcome"))
    if not over:  # at the end, no spot, show or market decides anything
        y = _spots_and_show(im, d, view, y, names, pawns, lang)
    for row in range(0, len(players), 2):
        pair = players[row : row + 2]
        tile_h = max(_tile_height(p, view, lang) for p in pair)
        lone = len(pair) == 1 and not over  # the shop takes the place beside the last tile
        if lone:
            tile_h = max(tile_h, _shop_height(view, 1))
        for i, player in enumerate(pair):
            x = PAD + i * (COLUMN_W + GAP)
            box = (x, y, x + COLUMN_W, y + tile_h)
            _draw_tile(im, d, box, player, view, names[player["id"]], pawns[player["id"]], lang)
        if lone:
            _shop(d, view, PAD + COLUMN_W + GAP, y, 1, lang)
        y += tile_h + 10
    if not over:
        y = _market(im, d, view, y + 6, lang)
        if len(players) % 2 == 0:
            y = _shop(d, view, PAD, y + 8, 2, lang)
    return im.crop((0, 0, BOARD_W, y + PAD))


def render(
    view: dict[str, Any], *, names: dict[str, str], lang: str = "en", last: Sequence[str] = ()
) -> bytes:
    """The Street Kings board of ``view`` as PNG bytes (public parts only), with the last
    turn's sentences ``last`` under the status."""
    return kit.png_bytes(board_image(view, names, last, lang), kit.module_palette(__name__))


#: The market's old picture name, while the posts still name it (the market is in the board).
MARKET_FILE = "market.png"


def _location_height(card: str) -> int:
    return 3 * LINE + 4 + (LINE if LOCATIONS[card].red else 0) + 2 * LINE + 16


def _location_card(im: Image.Image, x: int, y: int, height: int, card: str, lang: str) -> None:
    """A location card face up, its name, stats and prizes, in a box at (x, y)."""
    kit.rounded_box(im, (x, y, x + COLUMN_W, y + height), 12, kit.PANEL, kit.PANEL_EDGE, 2)
    _location_lines(ImageDraw.Draw(im), (x + 10, y + 8, x + COLUMN_W - 10), card, True, lang)


def render_face(card: str, *, lang: str = "en") -> bytes:
    """One location card alone, as the hand draws it: a card the hand page makes a button of."""
    height = _location_height(card)
    im = Image.new("RGB", (COLUMN_W + 1, height + 1), kit.TABLE)
    _location_card(im, 0, 0, height, card, lang)
    return kit.png_bytes(im, kit.module_palette(__name__))


def render_hand(view: dict[str, Any], *, names: dict[str, str], lang: str = "en") -> bytes | None:
    """The viewer's own table, drawn for a phone like the board: their cars two to a row with
    their stats and every upgrade, their crew, and their location cards face up, two to a row;
    None for a spectator."""
    me = next((p for p in view["players"] if p["id"] == view.get("viewer")), None)
    if me is None:
        return None
    cards = view.get("hand") or []
    upgraded = any(car.get("upgrades") for car in me["cars"])  # a line for their upgrades
    car_h = (3 if upgraded else 2) * LINE + 8
    locations = [
        max(_location_height(c) for c in cards[i : i + 2]) for i in range(0, len(cards), 2)
    ]
    height = PAD + 40 + -(-max(1, len(me["cars"])) // 2) * (car_h + 8) + 2 * LINE + 44
    height += sum(h + 10 for h in locations) + LINE + PAD
    im = Image.new("RGB", (BOARD_W, height), kit.TABLE)
    d = ImageDraw.Draw(im)
    y = PAD
    yours = tr(lang, "Your cars · {credits}").format(credits=money(me["credits"]))
    kit.draw_text(d, (PAD, y), yours, kit.bold(26))
    y += 40
    if not me["cars"]:
        kit.draw_text(d, (PAD, y), tr(lang, "no cars"), kit.font(TEXT), kit.MUTED)
        y += LINE
    for i, car in enumerate(me["cars"]):
        x = PAD + (i % 2) * (COLUMN_W + GAP)
        top = y + (i // 2) * (car_h + 8)
        kit.rounded_box(im, (x, top, x + COLUMN_W, top + car_h), 10, kit.PANEL, kit.PANEL_EDGE, 2)
        _tile_car(d, (x + 4, top + 4, x + COLUMN_W - 4), car, lang)
        px = x + 10
        for card in car.get("upgrades") or []:
            stat, label = upgrade_short(card, lang)
            fill = STAT_COLOURS.get(stat, kit.GREY)
            pill = kit.badge(
                d,
                (px, top + 2 * LINE + 6),
                label,
                kit.bold(TEXT),
                fill,
                kit.readable_on(fill),
                (6, 0),
            )
            px = pill[2] + 6
    y += -(-len(me["cars"]) // 2) * (car_h + 8)
    crew = ", ".join(
        f"{upgrade_of(c).name.removeprefix('Crew: ')} +1 {letters(str(upgrade_of(c).stat), lang)}"
        for c in me["crew"]
    )
    crew_line = tr(lang, "Crew: {crew}").format(crew=crew or tr(lang, "none"))
    y = kit.draw_lines(
        d, (PAD, y), crew_line, kit.font(TEXT), kit.MUTED, BOARD_W - 2 * PAD, 2, LINE
    )
    y += 12
    in_hand = tr(lang, "Location cards in hand: {n}").format(n=len(cards))
    kit.draw_text(d, (PAD, y), in_hand, kit.bold(TEXT))
    y += LINE + 6
    for row, row_h in enumerate(locations):
        for i, card in enumerate(cards[2 * row : 2 * row + 2]):
            _location_card(im, PAD + i * (COLUMN_W + GAP), y, row_h, card, lang)
        y += row_h + 10
    return kit.png_bytes(im.crop((0, 0, BOARD_W, y + PAD)), kit.module_palette(__name__))


# ---------------------------------------------------------------------------------- the race

GIF_W = 860
GIF_MARGIN = 12
GIF_HEADER_H = 96
GIF_LANE_H = 56
#: More moves than this and the moves of one step (every lane on one stat) share a frame.
MAX_MOVE_FRAMES = 36
START_MS, MOVE_MS, FINISH_MS, FINAL_MS = 1200, 650, 1000, 4500


def race_segments(last: dict[str, Any]) -> list[tuple[str, str]]:
    """(location name, stat) of each stretch raced in order: location 1's two stats, then
    location 2's, then laps from the start."""
    return [
        (LOCATIONS[loc].name, stat)
        for loc in last["locations"]
        if loc
        for stat in (LOCATIONS[loc].first, LOCATIONS[loc].second)
    ]


def move_groups(log: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """One frame per pawn move, or per step (every lane's move on one stat) when a long race
    would make too many frames; a NOZ boost stays in the frame of the move it follows."""
    groups: list[list[dict[str, Any]]] = []
    by_step = len(log) > MAX_MOVE_FRAMES
    for entry in log:
        joins = groups and (
            entry["stat"] == "NOZ" or (by_step and groups[-1][-1]["step"] == entry["step"])
        )
        if joins:
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


@dataclass
class RaceScene:
    """What every frame of one race shares: the geometry, the empty track, names and pawns."""

    view: dict[str, Any]
    last: dict[str, Any]
    names: dict[str, str]
    pawns: dict[str, Pawn]
    geometry: TrackGeometry
    segments: list[tuple[str, str]]
    background: Image.Image
    lang: str

    @property
    def rows(self) -> dict[str, int]:
        return {pid: i for i, pid in enumerate(self.last["order"])}


def _race_scene(
    view: dict[str, Any], last: dict[str, Any], names: dict[str, str], lang: str
) -> RaceScene:
    names = kit.display_names(view, names, lang)
    pawns = pawns_of(view, names)
    order = last["order"]
    length = last["finish_line"]
    label_w, grid_w, places_w = 214, 44, 132
    cell_w = (GIF_W - 2 * GIF_MARGIN - label_w - grid_w - places_w - 16) // length
    rows = max(len(order), len(last["places"]))
    g = TrackGeometry(
        GIF_MARGIN, GIF_HEADER_H + 28, label_w, grid_w, cell_w, GIF_LANE_H, rows, length, places_w
    )
    height = g.bottom + 30 + 64
    bg = Image.new("RGB", (GIF_W, height), kit.TABLE)
    d = ImageDraw.Draw(bg)
    lanes = last.get("lanes") or {pid: i + 1 for i, pid in enumerate(order)}
    labels = [str(lanes.get(pid, i + 1)) for i, pid in enumerate(order)]
    draw_track_base(d, g, labels, length, last["cls"], False, lang)
    for row, pid in enumerate(order):
        cy = g.lane_y(row)
        kit.paste(bg, pawn_image(pawns[pid], 30), (g.x, cy - 15))
        kit.draw_text(
            d,
            (g.x + 36, cy - 2),
            names.get(pid, pid),
            kit.font(20, True),
            kit.INK,
            "ls",
            max_width=label_w - 70,
        )
        car = CARS[last["cars"][pid]]
        kit.draw_text(
            d,
            (g.x + 36, cy + 2),
            f"{car.cls} {car.name}",
            kit.font(16),
            kit.MUTED,
            "la",
            max_width=label_w - 70,
        )
    title = tr(lang, "Round {n} · class {cls} race to space {length}").format(
        n=last["round"], cls=last["cls"], length=length
    )
    kit.draw_text(d, (GIF_MARGIN, 10), title, kit.font(26, True), kit.INK, max_width=GIF_W - 24)
    places = tr(lang, "PLACES")
    kit.draw_text(
        d, (g.places_x + places_w // 2, g.y - 6), places, kit.font(16, True), kit.MUTED, "ms"
    )
    segments = race_segments(last)
    _draw_route(d, g, segments, lang)
    return RaceScene(view, last, names, pawns, g, segments, bg, lang)


ROUTE_BADGE = 20


@dataclass(frozen=True)
class RouteLayout:
    """Under the track: a chip per location (its name, then its two stats in order, so a long
    name is never cut to make room for the stats), and where each stretch's stat badge sits,
    to frame the one being raced."""

    chips: list[tuple[kit.Box, str, int]]  # (box, location name, room for the name)
    badges: list[kit.Box]


ROUTE_LABEL_PX = 22


def route_label_width(lang: str) -> int:
    """Room for the route's label on its left ("Route", "Lap 9"; "Percurso" in Portuguese is
    longer than the English, so the room is measured, not fixed)."""
    fnt = kit.font(ROUTE_LABEL_PX, True)
    labels = (tr(lang, "Route"), tr(lang, "Lap {n}").format(n=9))
    return max(kit.text_width(label, fnt) for label in labels)


def route_layout(g: TrackGeometry, segments: list[tuple[str, str]], lang: str) -> RouteLayout:
    places = list(dict.fromkeys(place for place, _ in segments))
    y = g.bottom + 30
    x = GIF_MARGIN + route_label_width(lang) + 14
    width = (GIF_W - GIF_MARGIN - x) // max(1, len(places))
    fnt = kit.font(ROUTE_BADGE, True)
    chips: list[tuple[kit.Box, str, int]] = []
    badges: list[kit.Box] = []
    for i, place in enumerate(places):
        box = (x + i * width, y, x + (i + 1) * width - 8, y + 48)
        right = box[2] - 8
        placed = []
        for stat in reversed([stat for p, stat in segments if p == place]):
            w = kit.text_width(letters(stat, lang), fnt) + 16
            placed.append((right - w, box[1] + 10, right, box[3] - 10))
            right -= w + 26  # room for the arrow between the two
        badges.extend(reversed(placed))
        chips.append((box, place, right + 26 - box[0] - 18))
    return RouteLayout(chips, badges)


def _draw_route(
    d: ImageDraw.ImageDraw, g: TrackGeometry, segments: list[tuple[str, str]], lang: str
) -> None:
    """The route in order, drawn once on the race background: each location's name and its
    two stats with an arrow between."""
    layout = route_layout(g, segments, lang)
    for box, place, room in layout.chips:
        d.rounded_rectangle(box, 8, fill=kit.PANEL, outline=kit.PANEL_EDGE, width=2)
        fnt = kit.fit_font(place, room, 20, 15, True)
        kit.draw_text(d, (box[0] + 10, (box[1] + box[3]) // 2), place, fnt, kit.INK, "lm", room)
    for i, ((_, stat), badge) in enumerate(zip(segments, layout.badges, strict=True)):
        cy = (badge[1] + badge[3]) // 2
        stat_badge(d, (badge[0], cy), stat, lang, ROUTE_BADGE, "lm")
        if i % 2 == 0 and i + 1 < len(layout.badges):
            arrow_x = (badge[2] + layout.badges[i + 1][0]) // 2
            kit.draw_text(d, (arrow_x, cy), "→", kit.font(20, True), kit.MUTED, "mm")


def _route_mark(d: ImageDraw.ImageDraw, scene: RaceScene, current: int | None, lap: int) -> None:
    """The lap number and a frame round the stat of the stretch being raced."""
    badges = route_layout(scene.geometry, scene.segments, scene.lang).badges
    if current is not None:
        label = tr(scene.lang, "Lap {n}").format(n=lap)
    else:
        label = tr(scene.lang, "Route")
    y = scene.geometry.bottom + 30 + 24
    kit.draw_text(d, (GIF_MARGIN, y), label, kit.font(ROUTE_LABEL_PX, True), kit.INK, "lm")
    if current is not None and current < len(badges):
        x0, y0, x1, y1 = badges[current]
        d.rounded_rectangle((x0 - 5, y0 - 5, x1 + 5, y1 + 5), 10, outline=kit.HIGHLIGHT, width=4)


def _race_frame(
    scene: RaceScene, pos: dict[str, int], finished: list[str], group: list[dict[str, Any]] | None
) -> Image.Image:
    im = scene.background.copy()
    d = ImageDraw.Draw(im)
    g = scene.geometry
    n_segments = max(1, len(scene.segments))
    if group:
        step = group[0]["step"]
        place, stat = scene.segments[step % n_segments]
        lap = step // n_segments + 1
        caption = f"{place}: {stat_name(stat, scene.lang)}"
        _route_mark(d, scene, step % n_segments, lap)
        moves = []
        for entry in group:
            pid = entry["player"]
            row = scene.rows[pid]
            x0, x1 = g.cell_x(entry["from"]), g.cell_x(entry["to"])
            colour = STAT_COLOURS.get(entry["stat"], kit.GREY)
            d.line((x0, g.lane_y(row), x1, g.lane_y(row)), fill=colour, width=8)
            spaces = entry["to"] - entry["from"]
            word = "NOZ " if entry["stat"] == "NOZ" else ""
            moves.append(f"{scene.names.get(pid, pid)} {word}+{spaces}")
            if entry["from"] < g.length <= entry["to"]:
                place_n = place_name(finished.index(pid) + 1, scene.lang)
                moves[-1] += " " + tr(scene.lang, "finishes {place}!").format(place=place_n)
        kit.draw_text(
            d, (GIF_MARGIN, 52), caption, kit.font(22, True), kit.HIGHLIGHT, max_width=GIF_W // 2
        )
        kit.draw_text(
            d,
            (GIF_W - GIF_MARGIN, 52),
            " · ".join(moves),
            kit.font(22, True),
            kit.INK,
            "ra",
            max_width=GIF_W // 2 - 30,
        )
    else:
        _route_mark(d, scene, None, 1)
        kit.draw_text(
            d,
            (GIF_MARGIN, 52),
            tr(scene.lang, "On the grid: lane 1 moves first"),
            kit.font(22, True),
            kit.HIGHLIGHT,
        )
    for pid in scene.last["order"]:
        if pid in finished:
            place_pawn(im, g, finished.index(pid) + 1, scene.pawns[pid], 34)
        else:
            lane_pawn(im, g, scene.rows[pid], pos[pid], scene.pawns[pid], 34)
    return im


def _results_frame(scene: RaceScene) -> Image.Image:
    """The last frame: places, trophies, cars and prizes, the red penalty if the prize card has
    one, and where everyone stands in gold trophies after this race."""
    im = scene.background.copy()
    d = ImageDraw.Draw(im)
    g = scene.geometry
    for place in scene.last["places"]:
        place_pawn(im, g, place["place"], scene.pawns[place["player"]], 34)
    box = (GIF_MARGIN + 4, 44, g.places_x - 12, im.height - 8)
    d.rounded_rectangle(box, 14, fill=kit.PANEL, outline=kit.HIGHLIGHT, width=4)
    results = tr(scene.lang, "RESULTS")
    kit.draw_text(d, (box[0] + 16, box[1] + 10), results, kit.font(26, True), kit.HIGHLIGHT)
    prize_card = scene.last["locations"][-1]
    red = LOCATIONS[prize_card].red if prize_card else None
    places = scene.last["places"]
    footer = 34 + (30 if red else 0)
    row_h = min(64, (box[3] - box[1] - 48 - footer) // max(1, len(places)))
    y = box[1] + 46
    name_x = box[0] + row_h + 190
    name_w = box[2] - name_x - 100
    for place in places:
        pid = place["player"]
        kit.paste(im, trophy_image(place["trophy"], row_h - 8), (box[0] + 14, y))
        _, _, word = TROPHY_STYLE[place["trophy"]]
        cy = y + (row_h - 8) // 2
        word = tr(scene.lang, word) if word else ""
        label = f"{place_name(place['place'], scene.lang)} {word}".strip()
        kit.draw_text(d, (box[0] + 12 + row_h, cy), label, kit.font(24, True), kit.INK, "lm")
        car = CARS[scene.last["cars"][pid]]
        two_lines = row_h >= 52
        kit.draw_text(
            d,
            (name_x, cy - (12 if two_lines else 0)),
            scene.names.get(pid, pid),
            kit.font(24, True),
            kit.INK,
            "lm",
            max_width=name_w,
        )
        if two_lines:
            kit.draw_text(
                d,
                (name_x, cy + 14),
                f"{car.cls} {car.name}",
                kit.font(18),
                kit.MUTED,
                "lm",
                max_width=name_w,
            )
        kit.draw_text(
            d, (box[2] - 16, cy), f"+{money(place['credits'])}", kit.font(26, True), kit.GAIN, "rm"
        )
        y += row_h
    bottom = box[3] - 12
    if red:
        winner = scene.names.get(places[0]["player"], "")
        kit.draw_text(
            d,
            (box[0] + 16, bottom),
            "! "
            + tr(scene.lang, "{who} loses their {stat} part, if any").format(
                who=winner, stat=letters(red, scene.lang)
            ),
            kit.font(20, True),
            kit.VERMILLION,
            "ls",
            max_width=box[2] - box[0] - 32,
        )
        bottom -= 30
    golds = sorted(
        (
            (p["trophies"].get("gold", 0), scene.names.get(p["id"], p["id"]))
            for p in scene.view["players"]
        ),
        key=lambda item: -item[0],
    )
    standing = tr(scene.lang, "Gold trophies: {standing}").format(
        standing=" · ".join(f"{name} {n}" for n, name in golds)
    )
    kit.draw_text(
        d,
        (box[0] + 16, bottom),
        standing,
        kit.font(20, True),
        kit.INK,
        "ls",
        max_width=box[2] - box[0] - 32,
    )
    return im


def race_frames(
    view: dict[str, Any], last: dict[str, Any], names: dict[str, str], lang: str = "en"
) -> tuple[list[Image.Image], list[int]]:
    """Every frame of the race and how long each is shown (ms): the grid, each move (or step),
    and the results, held longest."""
    scene = _race_scene(view, last, names, lang)
    pos = dict.fromkeys(last["order"], 0)
    finished: list[str] = []
    frames = [_race_frame(scene, pos, finished, None)]
    durations = [START_MS]
    for group in move_groups(last["log"]):
        before = len(finished)
        for entry in group:
            pos[entry["player"]] = entry["to"]
            if entry["to"] >= last["finish_line"] and entry["player"] not in finished:
                finished.append(entry["player"])
        frames.append(_race_frame(scene, pos, finished, group))
        durations.append(FINISH_MS if len(finished) > before else MOVE_MS)
    frames.append(_results_frame(scene))
    durations.append(FINAL_MS)
    return frames, durations


def render_race(view: dict[str, Any], names: dict[str, str], lang: str = "en") -> bytes | None:
    """``view["last_race"]`` as an animated GIF (one shared palette) played once, ending on the
    results, or None when no race has been run yet. Without a loop count a GIF plays once."""
    last = view.get("last_race")
    if not last or not last.get("log"):
        return None
    frames, durations = race_frames(view, last, names, lang)
    sample = Image.new("RGB", (GIF_W, frames[0].height * 2))
    sample.paste(frames[len(frames) // 2], (0, 0))
    sample.paste(frames[-1], (0, frames[0].height))
    palette = sample.quantize(255, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    indexed = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    out = io.BytesIO()
    indexed[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=indexed[1:],
        duration=durations,
        optimize=True,  # frame deltas and a trimmed palette: under half the bytes
    )
    return out.getvalue()


def turn_extras(
    view: dict[str, Any], events: list[dict[str, Any]], *, names: dict[str, str], lang: str = "en"
) -> list[tuple[str, bytes]]:
    """The race replayed as ``race.gif`` on the post of the turn that ran it (a race ends with
    a ``race_over`` event), and nothing on any other post."""
    if not any(event.get("type") == "race_over" for event in events):
        return []
    gif = render_race(view, names, lang)
    return [("race.gif", gif)] if gif else []
