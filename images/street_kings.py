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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from images import kit
from images.kit import Color
from rules.street_kings.data import CARS, CLASSES, FINISH_LINE, LOCATIONS, TRACK_LENGTH, upgrade_of

WIDTH = 1200
MARGIN = 20
GAP = 16
INNER = WIDTH - 2 * MARGIN

STAT_COLOURS: dict[str, Color] = {
    "TS": kit.VERMILLION,
    "AC": kit.YELLOW,
    "HA": kit.BLUE,
    "BR": kit.BLUISH_GREEN,
    "NOZ": kit.REDDISH_PURPLE,
}
STAT_WORDS = {"TS": "Top Speed", "AC": "Acceleration", "HA": "Handling", "BR": "Braking"}
TROPHY_STYLE: dict[str, tuple[Color, str, str]] = {
    "gold": (kit.rgb("#E8B923"), "G", "GOLD"),
    "silver": (kit.rgb("#C9CED6"), "S", "SILVER"),
    "bronze": (kit.rgb("#C7793A"), "B", "BRONZE"),
    "fourth": (kit.rgb("#7D8FA3"), "4", ""),
}
PLACE_WORDS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
#: Pawn fill and shape per seat: a player is told apart by shape and initial, not colour alone.
PAWN_COLOURS = (kit.ORANGE, kit.SKY_BLUE, kit.REDDISH_PURPLE, kit.rgb("#E4E4E4"))
PAWN_SHAPES = ("circle", "square", "diamond", "hexagon")
CLASS_COLOUR = kit.rgb("#3B4656")
FINISH_COLOUR = kit.YELLOW
LANE_COLOUR = kit.rgb("#2B313B")
LANE_EDGE = kit.rgb("#4A5361")

PHASE_HINTS = {
    "class": "is choosing the race class",
    "action": "to take an action",
    "shop-sell": "is at the shop, selling",
    "shop-buy": "is at the shop, buying",
    "dealer-sell": "is at the dealership, selling",
    "dealer-buy": "is at the dealership, buying",
    "place-location": "is placing a location card",
    "race-car": "is choosing a car to race",
    "noz": "may fire a NOZ",
}


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
    return f"{k}k"


def car_stars(car: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Per stat: the car's printed stars and what its visible parts add."""
    base = CARS[car["id"]].stars
    extra = dict.fromkeys(base, 0)
    for card in car.get("upgrades") or []:
        info = upgrade_of(card)
        if info.kind == "part" and info.stat in extra:
            extra[info.stat] += info.stars
    return {stat: (base[stat], extra[stat]) for stat in base}


def upgrade_short(card: str) -> tuple[str, str]:
    """(stat key for the colour, short label) of an upgrade card: ("TS", "TS+2"), ("NOZ", ...)."""
    info = upgrade_of(card)
    if info.kind == "noz":
        return "NOZ", "NOZ"
    assert info.stat is not None
    return info.stat, f"{info.stat}+{info.stars}"


def status_line(view: dict[str, Any], names: dict[str, str]) -> str:
    """Whose turn and what they are doing, or the winners when the game is over."""
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners", [])
        golds = outcome.get("scores", {})
        who = " & ".join(names.get(p, p) for p in winners)
        best = max(golds.values()) if golds else 0
        title = "STREET KINGS" if len(winners) > 1 else "the STREET KING"
        return f"Game over: {who} {'are' if len(winners) > 1 else 'is'} {title} ({best} gold)"
    movers = view.get("to_move") or []
    if not movers:
        return ""
    who = ", ".join(names.get(p, p) for p in movers)
    return f"{who} {PHASE_HINTS.get(view.get('phase', ''), 'to move')}"


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
    ImageDraw.Draw(im).text(
        (size / 2, size / 2), pawn.label, font=fnt, fill=kit.PAPER_INK, anchor="mm"
    )
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
    ImageDraw.Draw(im).text(
        (size / 2, size * 0.36), letter, font=fnt, fill=kit.PAPER_INK, anchor="mm"
    )
    return im


def stat_badge(
    d: ImageDraw.ImageDraw, xy: tuple[int, int], stat: str, size: int = 22, anchor: str = "la"
) -> kit.Box:
    """A pill in the stat's colour with its letters (colour never alone)."""
    fill = STAT_COLOURS.get(stat, kit.GREY)
    return kit.badge(d, xy, stat, kit.font(size, True), fill, kit.readable_on(fill), (8, 2), anchor)


def pips(d: ImageDraw.ImageDraw, x: int, y: int, filled: int, extra: int, r: int = 7) -> int:
    """Star pips: ``filled`` solid, ``extra`` (from upgrades) solid with a light ring, left to
    right from ``x`` centred on ``y``; returns the x after the last."""
    for i in range(filled + extra):
        cx = x + r + i * (2 * r + 4)
        fill = kit.PAPER_INK if i < filled else kit.ORANGE
        d.ellipse((cx - r, y - r, cx + r, y + r), fill=fill)
        if i >= filled:  # an upgrade's star: a hollow centre as well as a colour
            d.ellipse((cx - r // 2, y - r // 2, cx + r // 2, y + r // 2), fill=kit.PAPER)
    return x + (filled + extra) * (2 * r + 4)


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
) -> None:
    """Lanes, spaces, class finish lines (the raced one thick and checkered) and empty places."""
    label_font = kit.font(26, True)
    right = g.line_x(g.length)
    for row in range(g.lanes):
        top = g.y + row * g.lane_h
        d.rectangle((g.x + g.label_w, top + 3, right, top + g.lane_h - 3), fill=LANE_COLOUR)
        d.rectangle(
            (g.x + g.label_w, top + 3, g.x + g.label_w + g.grid_w, top + g.lane_h - 3),
            fill=kit.rgb("#39414D"),
            outline=LANE_EDGE,
            width=2,
        )
        kit.draw_text(
            d,
            (g.x + g.label_w - 10, g.lane_y(row)),
            lane_labels[row],
            label_font if len(lane_labels[row]) < 3 else kit.font(20, True),
            kit.INK,
            "rm",
            max_width=g.label_w - 12,
        )
        for space in range(1, g.length):
            x = g.line_x(space)
            d.line((x, top + 8, x, top + g.lane_h - 8), fill=LANE_EDGE, width=1)
    lines = {cls: FINISH_LINE[cls] for cls in CLASSES if FINISH_LINE[cls] <= g.length}
    small = kit.font(20, True)
    for cls, space in lines.items():
        if not all_classes and space != finish_line:
            continue
        x = g.line_x(space)
        raced = cls == race_class and space == finish_line
        if not raced:
            d.line((x, g.y, x, g.bottom), fill=kit.MUTED, width=3)
            kit.badge(
                d,
                (x, g.y - 4),
                f"{cls} {space}",
                small,
                CLASS_COLOUR,
                kit.INK,
                (6, 1),
                _line_anchor(space, g),
            )
    if finish_line is not None:
        _checkered_line(d, g.line_x(min(finish_line, g.length)), g.y, g.bottom)
        custom = FINISH_LINE.get(race_class or "") != finish_line
        label = f"FINISH {race_class or ''}" + (f" at {finish_line} (custom)" if custom else "")
        x = g.line_x(min(finish_line, g.length))
        anchor = _line_anchor(finish_line, g)
        kit.badge(d, (x + 4, g.y - 4), label, small, FINISH_COLOUR, kit.PAPER_INK, (8, 1), anchor)
    ruler = kit.font(18)
    for space in range(2, g.length + 1, 2):
        kit.draw_text(d, (g.cell_x(space), g.bottom + 4), str(space), ruler, kit.MUTED, "ma")
    kit.draw_text(d, (g.cell_x(0), g.bottom + 4), "grid", ruler, kit.MUTED, "ma")
    if g.places_w:
        for row in range(min(4, g.lanes)):
            _place_slot(d, g, row + 1)


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


def _place_slot(d: ImageDraw.ImageDraw, g: TrackGeometry, place: int) -> None:
    """An empty trophy place: "1st G", "2nd S"... (the pawn lands on its right half)."""
    kind = ("gold", "silver", "bronze", "fourth")[place - 1]
    colour, letter, _ = TROPHY_STYLE[kind]
    top = g.y + (place - 1) * g.lane_h + 3
    box = (g.places_x, top, g.places_x + g.places_w, top + g.lane_h - 6)
    d.rounded_rectangle(box, 10, fill=kit.PANEL, outline=colour, width=3)
    kit.draw_text(
        d,
        (box[0] + 10, (box[1] + box[3]) // 2),
        f"{PLACE_WORDS[place]} {letter}",
        kit.font(24, True),
        colour,
        "lm",
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


CAR_CARD = (168, 222)


@lru_cache(maxsize=64)
def car_card(car_id: str, size: tuple[int, int] = CAR_CARD) -> Image.Image:
    """A dealership car: class letter, price, name, four stat rows of star pips, beauty."""
    info = CARS[car_id]
    w, h = size
    im = kit.rounded_card(size, kit.PAPER, kit.PANEL_EDGE, 14, 3).copy()
    d = ImageDraw.Draw(im)
    kit.badge(d, (10, 10), info.cls, kit.font(26, True), CLASS_COLOUR, kit.WHITE, (10, 0))
    kit.draw_text(d, (w - 12, 12), money(info.price), kit.font(28, True), kit.PAPER_INK, "ra")
    for i, line in enumerate(kit.wrap(info.name, kit.font(21, True), w - 20, 2)):
        kit.draw_text(d, (10, 54 + i * 24), line, kit.font(21, True), kit.PAPER_INK)
    y = 114
    for stat in info.stars:
        stat_badge(d, (10, y - 11), stat, 17)
        pips(d, 62, y, info.stars[stat], 0)
        y += 22
    kit.draw_text(d, (10, h - 12), f"show +{money(info.beauty)}", kit.font(19), kit.PAPER_INK, "ls")
    return im


@lru_cache(maxsize=64)
def upgrade_card(kind_id: str, size: tuple[int, int] = (218, 150)) -> Image.Image:
    """A shop card: a band in its stat's colour with the stat letters, name, effect, price and
    car-show value."""
    info = upgrade_of(f"{kind_id}-1")
    w, h = size
    im = kit.rounded_card(size, kit.PAPER, kit.PANEL_EDGE, 14, 3).copy()
    d = ImageDraw.Draw(im)
    if info.kind == "crew":
        band, tag, effect = kit.GREY, "CREW", f"+{info.stars} {info.stat} when racing"
        name = info.name.removeprefix("Crew: ")
    elif info.kind == "noz":
        band, tag, effect, name = STAT_COLOURS["NOZ"], "NOZ", "+3 spaces, once", "Nitrous (NOZ)"
    else:
        assert info.stat is not None
        band, tag, effect, name = STAT_COLOURS[info.stat], info.stat, "", info.name
    d.rounded_rectangle((3, 3, w - 4, 44), 11, fill=band)
    d.rectangle((3, 30, w - 4, 44), fill=band)
    kit.draw_text(d, (12, 24), tag, kit.font(24, True), kit.readable_on(band), "lm")
    kit.draw_text(
        d, (w - 12, 24), money(info.price), kit.font(26, True), kit.readable_on(band), "rm"
    )
    kit.draw_text(
        d, (10, 52), name, kit.fit_font(name, w - 20, 22, 17, True), kit.PAPER_INK, max_width=w - 20
    )
    if effect:
        kit.draw_text(d, (10, 84), effect, kit.fit_font(effect, w - 20, 20, 15), kit.PAPER_INK)
    else:
        pips(d, 10, 96, 0, info.stars, r=9)
        kit.draw_text(
            d, (12 + info.stars * 22, 96), f"+{info.stars}", kit.font(22, True), kit.PAPER_INK, "lm"
        )
    kit.draw_text(d, (10, h - 12), f"show +{money(info.beauty)}", kit.font(19), kit.PAPER_INK, "ls")
    return im


@lru_cache(maxsize=64)
def location_card(
    loc_id: str, prizes_count: bool, size: tuple[int, int] = (276, 176)
) -> Image.Image:
    """A revealed location: name, its two stats in order, the red penalty stat, and the prizes
    for 4th to 1st (dimmed on the first spot, whose prizes are not used)."""
    info = LOCATIONS[loc_id]
    w, h = size
    im = kit.rounded_card(size, kit.PAPER, kit.PANEL_EDGE, 14, 3).copy()
    d = ImageDraw.Draw(im)
    kit.draw_text(
        d,
        (12, 10),
        info.name,
        kit.fit_font(info.name, w - 24, 24, 17, True),
        kit.PAPER_INK,
        max_width=w - 24,
    )
    x = 12
    for i, stat in enumerate((info.first, info.second)):
        box = stat_badge(d, (x, 46), stat, 26)
        x = box[2] + 6
        if i == 0:
            kit.draw_text(d, (x, 62), "→", kit.font(26, True), kit.PAPER_INK, "lm")
            x += 34
    if info.red and prizes_count:  # only the second card's red icon is a penalty
        label = f"! winner loses {info.red} part"
        d.rounded_rectangle((10, 86, w - 10, 116), 8, outline=kit.VERMILLION, width=3)
        kit.draw_text(
            d, (w // 2, 101), label, kit.fit_font(label, w - 30, 20, 14, True), kit.VERMILLION, "mm"
        )
    prize_font = kit.font(20, True) if prizes_count else kit.font(18)
    ink = kit.PAPER_INK if prizes_count else kit.GREY
    cell = (w - 20) // 4
    for i, prize in enumerate(info.prizes):
        cx = 10 + i * cell + cell // 2
        kit.draw_text(d, (cx, h - 40), PLACE_WORDS[4 - i], kit.font(17), ink, "mm")
        kit.draw_text(d, (cx, h - 16), money(prize), prize_font, ink, "mm")
    return im


# --------------------------------------------------------------------------------- the board


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str]) -> int:
    y = MARGIN
    kit.draw_text(d, (MARGIN, y), "STREET KINGS", kit.font(44, True))
    right = WIDTH - MARGIN
    kit.draw_text(d, (right, y), f"Round {view['round']}", kit.font(40, True), kit.INK, "ra")
    tags: list[tuple[str, Color]] = []
    if view.get("race_class"):
        tags.append((f"CLASS {view['race_class']} RACE", FINISH_COLOUR))
    if view.get("championship"):
        tags.append(("★ CHAMPIONSHIP", kit.ORANGE))
    elif view.get("championship_next"):
        tags.append(("★ championship next round", kit.ORANGE))
    tags.append((f"{view.get('golds_to_win', 7)} gold wins", kit.PANEL_EDGE))
    y += 60
    x = MARGIN
    for text, fill in tags:
        box = kit.badge(d, (x, y), text, kit.font(24, True), fill, kit.readable_on(fill))
        x = box[2] + 10
    y += 52
    status = status_line(view, names)
    if status:
        prefix = "" if view.get("outcome") else "▶ "
        kit.draw_text(
            d, (MARGIN, y), prefix + status, kit.font(30, True), kit.HIGHLIGHT, max_width=INNER
        )
        y += 42
    return y + 8


def _board_track(
    im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int, pawns: dict[str, Pawn]
) -> int:
    """The track with every class line; pawns on the grid (qualified) or racing, places filled."""
    kit.paste(im, board_track_layer(view.get("finish_line"), view.get("race_class")), (0, y))
    g = dataclasses.replace(BOARD_TRACK, y=BOARD_TRACK.y + y)
    race = view.get("race")
    lane_of = {p["id"]: p.get("lane") for p in view["players"]}
    if race:
        for pid in race["order"]:
            lane = lane_of.get(pid)
            if pid in race["finished"]:
                place_pawn(im, g, race["finished"].index(pid) + 1, pawns[pid], 44)
            elif lane:
                lane_pawn(im, g, lane - 1, race["pos"].get(pid, 0), pawns[pid], 44)
    elif view.get("outcome") and view.get("last_race"):  # the deciding race's places stay
        for place in view["last_race"]["places"]:
            place_pawn(im, g, place["place"], pawns[place["player"]], 44)
    else:
        for pid, lane in lane_of.items():
            if lane:
                lane_pawn(im, g, lane - 1, 0, pawns[pid], 44)
    return g.bottom + 34


#: The board's track, 30 px under its layer's top (room for the finish-line labels).
BOARD_TRACK = TrackGeometry(MARGIN, 30, 44, 60, 34, 58, 4, TRACK_LENGTH, 150)


@kit.static_layer(maxsize=16)
def board_track_layer(finish_line: int | None, race_class: str | None) -> Image.Image:
    """The empty board track for one finish line (a fresh copy per call)."""
    g = BOARD_TRACK
    im = Image.new("RGB", (WIDTH, g.bottom + 34), kit.TABLE)
    d = ImageDraw.Draw(im)
    draw_track_base(d, g, ["1", "2", "3", "4"], finish_line, race_class, True)
    kit.draw_text(
        d, (g.places_x + g.places_w // 2, g.y - 6), "PLACES", kit.font(20, True), kit.MUTED, "ms"
    )
    return im


def _spots_and_show(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    y: int,
    names: dict[str, str],
    pawns: dict[str, Pawn],
) -> int:
    head = kit.font(26, True)
    kit.draw_text(d, (MARGIN, y), "LOCATIONS", head)
    cw, ch = 276, 176
    for i, spot in enumerate(view["spots"]):
        x = MARGIN + i * (cw + GAP)
        top = y + 36
        title = "Spot 1 · no prizes" if i == 0 else "Spot 2 · PRIZES"
        if spot.get("card"):
            kit.paste(im, location_card(spot["card"], i == 1), (x, top))
        elif spot.get("filled"):
            kit.paste(im, kit.card_back((cw, ch)), (x, top))
            who = names.get(spot["by"], "?") if spot.get("by") else "the deck"
            kit.badge(
                d,
                (x + cw // 2, top + ch // 2),
                "face down",
                kit.font(22, True),
                kit.WHITE,
                kit.PAPER_INK,
                anchor="mm",
            )
            title += ""
            kit.draw_text(
                d,
                (x + cw // 2, top + ch - 14),
                f"from {who}",
                kit.font(20, True),
                kit.WHITE,
                "ms",
                max_width=cw - 20,
                stroke=(3, kit.BLUE),
            )
        else:
            _empty_box(d, (x, top, x + cw, top + ch), "empty")
        kit.draw_text(d, (x, top + ch + 6), title, kit.font(20), kit.MUTED)
    decks = view.get("decks", {})
    kit.draw_text(
        d,
        (MARGIN + 2 * (cw + GAP) - GAP, y + 4),
        f"deck {decks.get('locations', 0)}",
        kit.font(20),
        kit.MUTED,
        "ra",
    )
    # the car show
    sx = MARGIN + 2 * (cw + GAP) + 12
    kit.draw_text(d, (sx, y), "CAR SHOW", head)
    slots = view.get("show") or []
    sw = (WIDTH - MARGIN - sx - GAP * (len(slots) - 1)) // max(1, len(slots))
    for i, slot in enumerate(slots):
        x = sx + i * (sw + GAP)
        box = (x, y + 36, x + sw, y + 36 + ch)
        if not slot:
            _empty_box(d, box, "open")
            continue
        info = CARS[slot["car"]]
        d.rounded_rectangle(box, 14, fill=kit.PANEL, outline=kit.PANEL_EDGE, width=3)
        kit.paste(im, pawn_image(pawns[slot["player"]], 40), (x + 10, y + 46))
        kit.draw_text(
            d,
            (x + 58, y + 66),
            names.get(slot["player"], "?"),
            kit.font(22, True),
            kit.INK,
            "lm",
            max_width=sw - 66,
        )
        kit.badge(
            d, (x + 10, y + 98), info.cls, kit.font(22, True), CLASS_COLOUR, kit.WHITE, (8, 0)
        )
        for j, line in enumerate(kit.wrap(info.name, kit.font(20, True), sw - 20, 2)):
            kit.draw_text(d, (x + 10, y + 132 + j * 24), line, kit.font(20, True), kit.INK)
    return y + 36 + ch + 40


def _empty_box(d: ImageDraw.ImageDraw, box: kit.Box, text: str) -> None:
    d.rounded_rectangle(box, 14, outline=kit.PANEL_EDGE, width=3)
    kit.centered_text(d, box, text, kit.font(22), kit.MUTED)


def _market(im: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> int:
    """The dealership (classes C, B, A, three cars each) and the shop."""
    head = kit.font(26, True)
    kit.draw_text(d, (MARGIN, y), "DEALERSHIP", head)
    y += 36
    cw, ch = CAR_CARD
    group_w = 40 + 3 * cw + 2 * 10
    shown = [cls for cls in CLASSES if cls != "D"]
    for k, cls in enumerate(shown):
        gx = MARGIN + (k % 2) * (group_w + 24)
        gy = y + (k // 2) * (ch + GAP)
        kit.badge(
            d, (gx, gy + ch // 2), cls, kit.font(30, True), CLASS_COLOUR, kit.WHITE, (8, 4), "lm"
        )
        row = view["dealership"].get(cls) or []
        for i in range(3):
            x = gx + 40 + i * (cw + 10)
            if i < len(row):
                kit.paste(im, car_card(row[i]), (x, gy))
            else:
                _empty_box(d, (x, gy, x + cw, gy + ch), "not shown" if not row else "sold out")
    # the shop sits next to class A
    sx = MARGIN + group_w + 24
    sy = y + ch + GAP
    kit.draw_text(d, (sx, sy - 2), "SHOP", head)
    decks = view.get("decks", {})
    kit.draw_text(
        d,
        (WIDTH - MARGIN, sy),
        f"upgrade deck {decks.get('upgrades', 0)}",
        kit.font(20),
        kit.MUTED,
        "ra",
    )
    shop = view.get("shop") or []
    uw, uh = 176, 150
    for i, card in enumerate(shop):
        if len(shop) <= 3:
            x, top = sx + i * (uw + 10), sy + 34
        else:
            x, top = sx + (i % 3) * (uw + 10), sy + 34 + (i // 3) * (uh + 10)
        kit.paste(im, upgrade_card(upgrade_of(card).id, (uw, uh)), (x, top))
    shop_rows = 1 if len(shop) <= 3 else 2
    return max(y + 2 * (ch + GAP), sy + 34 + shop_rows * (uh + 10)) + 10


# ------------------------------------------------------------------------------ player tiles

TILE_W = (INNER - GAP) // 2
CAR_ROW_H = 70


def _tile_height(player: dict[str, Any]) -> int:
    return 150 + max(1, len(player["cars"])) * CAR_ROW_H + (34 if player["crew"] else 0)


def _draw_tile(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    h: int,
    player: dict[str, Any],
    view: dict[str, Any],
    name: str,
    pawn: Pawn,
) -> None:
    x, y = xy
    pid = player["id"]
    turn = pid in (view.get("to_move") or []) and not view.get("outcome")
    winner = pid in ((view.get("outcome") or {}).get("winners") or [])
    edge = kit.HIGHLIGHT if turn or winner else kit.PANEL_EDGE
    kit.paste(im, kit.rounded_card((TILE_W, h), kit.PANEL, edge, 16, 5 if turn else 3), (x, y))
    kit.paste(im, pawn_image(pawn, 46), (x + 14, y + 14))
    tags: list[tuple[str, Color]] = []
    if turn:
        tags.append(("▶ TURN", kit.HIGHLIGHT))
    if winner:
        tags.append(("★ KING", kit.HIGHLIGHT))
    if view.get("first") == pid:
        tags.append(("1st player", kit.GREY))
    tag_font = kit.font(20, True)
    tag_w = sum(kit.text_width(t, tag_font) + 38 for t, _ in tags)
    kit.draw_text(
        d, (x + 72, y + 37), name, kit.font(30, True), kit.INK, "lm", max_width=TILE_W - 90 - tag_w
    )
    tx = x + TILE_W - 12
    for text, fill in reversed(tags):
        box = kit.badge(d, (tx, y + 37), text, tag_font, fill, kit.PAPER_INK, (10, 3), "rm")
        tx = box[0] - 8
    # credits, trophies, lane
    line_y = y + 88
    kit.draw_text(d, (x + 16, line_y), money(player["credits"]), kit.font(34, True), kit.INK, "lm")
    tx = x + 130
    for kind in TROPHY_STYLE:
        kit.paste(im, trophy_image(kind, 36), (tx, line_y - 20))
        kit.draw_text(
            d,
            (tx + 40, line_y),
            f"×{player['trophies'].get(kind, 0)}",
            kit.font(26, True),
            kit.INK,
            "lm",
        )
        tx += 88
    if player.get("lane"):
        state = f"lane {player['lane']}"
    elif player.get("passed"):
        state = "passed"
    else:
        state = ""
    if state:
        kit.draw_text(d, (x + TILE_W - 14, y + 128), state, kit.font(24, True), kit.HIGHLIGHT, "rm")
    kit.draw_text(
        d,
        (x + 16, y + 118),
        f"{player['hand_size']} location cards in hand",
        kit.font(20),
        kit.MUTED,
    )
    cy = y + 146
    if not player["cars"]:
        kit.draw_text(d, (x + 16, cy + 10), "no cars", kit.font(24), kit.MUTED)
    for car in player["cars"]:
        _car_row(d, x + 12, cy, car)
        cy += CAR_ROW_H
    if player["crew"]:
        crew = ", ".join(
            f"{upgrade_of(c).name.removeprefix('Crew: ')} +1 {upgrade_of(c).stat}"
            for c in player["crew"]
        )
        kit.draw_text(
            d,
            (x + 16, cy + 4),
            f"Crew: {crew}",
            kit.font(20, True),
            kit.MUTED,
            max_width=TILE_W - 32,
        )


def _car_row(d: ImageDraw.ImageDraw, x: int, y: int, car: dict[str, Any]) -> None:
    """A player's car: class, name, "AT SHOW"; its stat totals (upgrades marked +n) and the
    upgrades as coloured pills with their letters, or the count of hidden ones."""
    info = CARS[car["id"]]
    d.rounded_rectangle((x, y, x + TILE_W - 24, y + CAR_ROW_H - 6), 10, fill=LANE_COLOUR)
    kit.badge(d, (x + 8, y + 6), info.cls, kit.font(22, True), CLASS_COLOUR, kit.WHITE, (8, 0))
    name_w = TILE_W - 24 - 60 - (110 if car.get("at_show") else 0)
    kit.draw_text(d, (x + 46, y + 6), info.name, kit.font(22, True), kit.INK, max_width=name_w)
    if car.get("at_show"):
        kit.badge(
            d,
            (x + TILE_W - 32, y + 5),
            "AT SHOW",
            kit.font(18, True),
            kit.ORANGE,
            kit.PAPER_INK,
            (8, 1),
            "ra",
        )
    sx = x + 8
    row_y = y + 48
    stars = car_stars(car)
    for stat, (base, extra) in stars.items():
        text = f"{stat} {base}" + (f"+{extra}" if extra else "")
        fnt = kit.font(20, True)
        w = kit.draw_text(d, (sx, row_y), text, fnt, kit.INK if extra else kit.MUTED, "lm")
        sx += w + 14
    sx += 6
    upgrades = car.get("upgrades")
    if upgrades is None:
        count = car.get("hidden_upgrades", 0)
        text = f"{count} hidden upgrade{'s' if count != 1 else ''}" if count else "no upgrades"
        kit.badge(d, (sx, row_y), text, kit.font(18, True), kit.GREY, kit.PAPER_INK, (8, 1), "lm")
        return
    for card in upgrades:
        stat, label = upgrade_short(card)
        fill = STAT_COLOURS.get(stat, kit.GREY)
        box = kit.badge(
            d, (sx, row_y), label, kit.font(18, True), fill, kit.readable_on(fill), (7, 1), "lm"
        )
        sx = box[2] + 6


def _last_race_line(
    d: ImageDraw.ImageDraw, view: dict[str, Any], y: int, names: dict[str, str]
) -> int:
    race = view.get("race")
    if race and race["log"]:
        step = race["log"][-1]["step"]
        stretches = 2 * sum(1 for spot in view["spots"] if spot["filled"]) or 1
        stat = race["log"][-1]["stat"]
        text = (
            f"Race on: lap {step // stretches + 1}, {STAT_WORDS.get(stat, stat)}, "
            f"{len(race['finished'])} of {len(race['order'])} finished"
        )
        kit.draw_text(d, (MARGIN, y), text, kit.font(24, True), kit.INK, max_width=INNER)
        return y + 34
    last = view.get("last_race")
    if not last or race:
        return y
    parts = [
        f"{PLACE_WORDS[p['place']]} {names.get(p['player'], p['player'])} +{money(p['credits'])}"
        for p in last["places"]
    ]
    text = f"Last race (round {last['round']}, class {last['cls']}): " + ", ".join(parts)
    kit.draw_text(d, (MARGIN, y), text, kit.font(22, True), kit.MUTED, max_width=INNER)
    return y + 34


def board_image(view: dict[str, Any]) -> Image.Image:
    """The board of ``view`` as an RGB image (height grows with the players' cars)."""
    names = kit.display_names(view)
    pawns = pawns_of(view, names)
    players = view["players"]
    rows = [players[i : i + 2] for i in range(0, len(players), 2)]
    row_heights = [max(_tile_height(p) for p in row) for row in rows]
    height = 1500 + sum(row_heights) + GAP * len(rows) + MARGIN
    im = Image.new("RGB", (WIDTH, height), kit.TABLE)
    d = ImageDraw.Draw(im)
    y = _header(d, view, names)
    y = _last_race_line(d, view, y, names)
    y = _board_track(im, d, view, y, pawns)
    y = _spots_and_show(im, d, view, y, names, pawns)
    y = _market(im, d, view, y)
    for row, rh in zip(rows, row_heights, strict=True):
        for i, player in enumerate(row):
            x = MARGIN + i * (TILE_W + GAP)
            _draw_tile(im, d, (x, y), rh, player, view, names[player["id"]], pawns[player["id"]])
        y += rh + GAP
    return im.crop((0, 0, WIDTH, y - GAP + MARGIN))


def render(view: dict[str, Any]) -> bytes:
    """The Street Kings board of ``view`` as PNG bytes (public parts only)."""
    return kit.png_bytes(board_image(view))


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

    @property
    def rows(self) -> dict[str, int]:
        return {pid: i for i, pid in enumerate(self.last["order"])}


def _race_scene(view: dict[str, Any], last: dict[str, Any]) -> RaceScene:
    names = kit.display_names(view)
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
    draw_track_base(d, g, labels, length, last["cls"], False)
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
    title = f"Round {last['round']} · class {last['cls']} race to space {length}"
    kit.draw_text(d, (GIF_MARGIN, 10), title, kit.font(26, True), kit.INK, max_width=GIF_W - 24)
    kit.draw_text(
        d, (g.places_x + places_w // 2, g.y - 6), "PLACES", kit.font(16, True), kit.MUTED, "ms"
    )
    segments = race_segments(last)
    _draw_route(d, g, segments)
    return RaceScene(view, last, names, pawns, g, segments, bg)


def _route_boxes(scene_geometry: TrackGeometry, segments: list[tuple[str, str]]) -> list[kit.Box]:
    """Where each stretch of the route sits, under the track."""
    y = scene_geometry.bottom + 30
    x = GIF_MARGIN + 86
    width = (GIF_W - GIF_MARGIN - x) // max(1, len(segments))
    return [(x + i * width, y, x + (i + 1) * width - 8, y + 48) for i in range(len(segments))]


def _draw_route(d: ImageDraw.ImageDraw, g: TrackGeometry, segments: list[tuple[str, str]]) -> None:
    """The stretches in order (location, stat), drawn once on the race background."""
    for box, (place, stat) in zip(_route_boxes(g, segments), segments, strict=True):
        d.rounded_rectangle(box, 8, fill=kit.PANEL, outline=kit.PANEL_EDGE, width=2)
        stat_badge(d, (box[0] + 8, box[1] + 24), stat, 18, "lm")
        kit.draw_text(
            d,
            (box[0] + 60, box[1] + 24),
            place,
            kit.font(15),
            kit.INK,
            "lm",
            max_width=box[2] - box[0] - 66,
        )


def _route_mark(d: ImageDraw.ImageDraw, scene: RaceScene, current: int | None, lap: int) -> None:
    """The lap number and a frame round the stretch being raced."""
    boxes = _route_boxes(scene.geometry, scene.segments)
    label = f"Lap {lap}" if current is not None else "Route"
    y = scene.geometry.bottom + 30 + 24
    kit.draw_text(d, (GIF_MARGIN, y), label, kit.font(22, True), kit.INK, "lm")
    if current is not None and current < len(boxes):
        d.rounded_rectangle(boxes[current], 8, outline=kit.HIGHLIGHT, width=4)


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
        caption = f"{place}: {STAT_WORDS.get(stat, stat)}"
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
                moves[-1] += f" finishes {PLACE_WORDS[finished.index(pid) + 1]}!"
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
            "On the grid: lane 1 moves first",
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
    """The last frame: places, trophies, prizes, and the red penalty if the prize card has one."""
    im = scene.background.copy()
    d = ImageDraw.Draw(im)
    g = scene.geometry
    for place in scene.last["places"]:
        place_pawn(im, g, place["place"], scene.pawns[place["player"]], 34)
    box = (GIF_MARGIN + 4, 44, g.places_x - 12, im.height - 8)
    d.rounded_rectangle(box, 14, fill=kit.PANEL, outline=kit.HIGHLIGHT, width=4)
    kit.draw_text(d, (box[0] + 16, box[1] + 10), "RESULTS", kit.font(24, True), kit.HIGHLIGHT)
    row_h = min(50, (box[3] - box[1] - 50) // max(1, len(scene.last["places"])))
    y = box[1] + 46
    for place in scene.last["places"]:
        pid = place["player"]
        kit.paste(im, trophy_image(place["trophy"], row_h - 6), (box[0] + 14, y))
        _, _, word = TROPHY_STYLE[place["trophy"]]
        cy = y + (row_h - 6) // 2
        kit.draw_text(
            d,
            (box[0] + 14 + row_h, cy),
            f"{PLACE_WORDS[place['place']]} {word}".strip(),
            kit.font(22, True),
            kit.INK,
            "lm",
        )
        kit.draw_text(
            d,
            (box[0] + row_h + 184, cy - 12),
            scene.names.get(pid, pid),
            kit.font(22, True),
            kit.INK,
            "lm",
            max_width=box[2] - box[0] - row_h - 284,
        )
        car = CARS[scene.last["cars"][pid]]
        kit.draw_text(
            d,
            (box[0] + row_h + 184, cy + 12),
            f"{car.cls} {car.name}",
            kit.font(16),
            kit.MUTED,
            "lm",
            max_width=box[2] - box[0] - row_h - 284,
        )
        kit.draw_text(
            d, (box[2] - 16, cy), f"+{money(place['credits'])}", kit.font(24, True), kit.GAIN, "rm"
        )
        y += row_h
    prize_card = scene.last["locations"][-1]
    red = LOCATIONS[prize_card].red if prize_card else None
    if red:
        winner = scene.names.get(scene.last["places"][0]["player"], "")
        kit.draw_text(
            d,
            (box[0] + 16, box[3] - 10),
            f"! {winner} loses their {red} part, if any",
            kit.font(20, True),
            kit.VERMILLION,
            "ls",
            max_width=box[2] - box[0] - 32,
        )
    return im


def race_frames(view: dict[str, Any], last: dict[str, Any]) -> tuple[list[Image.Image], list[int]]:
    """Every frame of the race and how long each is shown (ms): the grid, each move (or step),
    and the results, held longest."""
    scene = _race_scene(view, last)
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


def render_race(view: dict[str, Any]) -> bytes | None:
    """``view["last_race"]`` as an animated GIF (one shared palette), or None when no race has
    been run yet."""
    last = view.get("last_race")
    if not last or not last.get("log"):
        return None
    frames, durations = race_frames(view, last)
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
        loop=0,
        optimize=False,
    )
    return out.getvalue()


def turn_extras(view: dict[str, Any], events: list[dict[str, Any]]) -> list[tuple[str, bytes]]:
    """The race replayed as ``race.gif`` on the post of the turn that ran it (a race ends with
    a ``race_over`` event), and nothing on any other post."""
    if not any(event.get("type") == "race_over" for event in events):
        return []
    gif = render_race(view)
    return [("race.gif", gif)] if gif else []
