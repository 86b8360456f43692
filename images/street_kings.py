"""The Street Kings board from a public view: the track with the four class finish lines and the
pawns, the two location spots, the dealership and shop cards (price, beauty, stat stars), the
car show, and each player's credits, trophies and cars with their upgrades. ``race_gif`` draws
the last race step by step as an animated GIF.

Colour is never the only cue: players carry their initial and lane number, stats their letters,
classes their letter, trophies their names.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from images import kit
from rules.street_kings.data import (
    CARS,
    CLASSES,
    FINISH_LINE,
    LOCATIONS,
    STATS,
    TRACK_LENGTH,
    upgrade_of,
)

WIDTH = 1400
CELL = 50
TRACK_X = 90
PLAYER_COLOURS = (kit.ORANGE, kit.SKY_BLUE, kit.BLUISH_GREEN, kit.REDDISH_PURPLE)
CLASS_COLOURS = {"D": kit.GREY, "C": kit.SKY_BLUE, "B": kit.ORANGE, "A": kit.YELLOW}
PART_COLOURS = {
    "red": kit.VERMILLION,
    "yellow": kit.YELLOW,
    "blue": kit.BLUE,
    "green": kit.BLUISH_GREEN,
    "purple": kit.REDDISH_PURPLE,
    None: kit.GREY,
}
TROPHY_LETTERS = {"gold": "G", "silver": "S", "bronze": "B", "fourth": "4th"}
STAT_LETTERS = {"TS": "SPD", "AC": "ACC", "HA": "HND", "BR": "BRK"}


def name(view: dict[str, Any], player: str) -> str:
    return kit.drawable(view.get("names", {}).get(player, player)) or "?"


def colour_of(view: dict[str, Any], player: str) -> kit.Color:
    ids = [p["id"] for p in view["players"]]
    return PLAYER_COLOURS[ids.index(player) % len(PLAYER_COLOURS)]


def draw_track(
    draw: ImageDraw.ImageDraw, view: dict[str, Any], top: int, positions: dict[str, int]
) -> int:
    """The track: spaces 0..24, the four finish lines (the race's in bold), pawns at
    ``positions`` (several on a space stack up). Returns the bottom."""
    height = 170
    draw.rounded_rectangle((20, top, WIDTH - 20, top + height), 18, fill=kit.PANEL)
    y0 = top + 50
    for space in range(TRACK_LENGTH + 1):
        x = TRACK_X + space * CELL
        fill = kit.PANEL_EDGE if space % 2 else (52, 60, 72)
        draw.rectangle((x, y0, x + CELL - 2, y0 + 100), fill=fill)
        if space % 4 == 0:
            kit.draw_text(
                draw, (x + CELL // 2, y0 + 110), str(space), kit.font(16), kit.MUTED, "mt"
            )
    kit.draw_text(draw, (TRACK_X - 10, y0 + 50), "GO", kit.font(22, True), kit.INK, "rm")
    chosen = view.get("finish_line")
    for cls in CLASSES:
        x = TRACK_X + FINISH_LINE[cls] * CELL - 1
        draw.line((x, y0 - 8, x, y0 + 108), fill=CLASS_COLOURS[cls], width=4)
        kit.badge(draw, (x, top + 8), cls, kit.font(20, True), CLASS_COLOURS[cls], anchor="ma")
    if chosen is not None:
        x = TRACK_X + chosen * CELL - 1
        draw.line((x, y0 - 8, x, y0 + 108), fill=kit.WHITE, width=8)
        kit.draw_text(draw, (x - 8, y0 + 96), "FINISH", kit.font(16, True), kit.WHITE, "rb")
    stacks: dict[int, int] = {}
    for player, pos in positions.items():
        space = min(pos, TRACK_LENGTH)
        slot = stacks.get(space, 0)
        stacks[space] = slot + 1
        cx = TRACK_X + space * CELL + CELL // 2
        cy = y0 + 14 + slot * 24
        draw.ellipse(
            (cx - 17, cy - 12, cx + 17, cy + 12),
            fill=colour_of(view, player),
            outline=kit.WHITE,
            width=2,
        )
        kit.draw_text(
            draw, (cx, cy), name(view, player)[:2], kit.font(15, True), kit.PAPER_INK, "mm"
        )
    return top + height


def stars_lines(stars: dict[str, int]) -> list[str]:
    """The four stats in two lines, letters beside numbers ("SPD 3  ACC 2")."""
    parts = [f"{STAT_LETTERS[s]} {stars[s]}" for s in STATS]
    return ["  ".join(parts[:2]), "  ".join(parts[2:])]


def draw_car_card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], car_id: str) -> None:
    car = CARS[car_id]
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, 10, fill=kit.PAPER, outline=CLASS_COLOURS[car.cls], width=4)
    kit.draw_text(
        draw,
        (x0 + 10, y0 + 8),
        f"{car.cls} · {car.name}",
        kit.font(18, True),
        kit.PAPER_INK,
        "la",
        x1 - x0 - 20,
    )
    kit.draw_text(
        draw,
        (x0 + 10, y0 + 34),
        f"${car.price}k  ★ show {car.beauty}k",
        kit.font(17),
        kit.PAPER_INK,
        "la",
    )
    for row, line in enumerate(stars_lines(car.stars)):
        kit.draw_text(
            draw, (x0 + 10, y0 + 58 + row * 22), line, kit.font(17, True), kit.PAPER_INK, "la"
        )


def draw_upgrade_card(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], card: str) -> None:
    info = upgrade_of(card)
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, 10, fill=kit.PAPER, outline=PART_COLOURS[info.colour], width=5)
    kit.draw_text(
        draw, (x0 + 10, y0 + 8), info.name, kit.font(18, True), kit.PAPER_INK, "la", x1 - x0 - 20
    )
    effect = "+3 spaces once" if info.kind == "noz" else f"+{info.stars} {STAT_LETTERS[info.stat]}"
    colour = info.colour or "crew"
    kit.draw_text(
        draw,
        (x0 + 10, y0 + 34),
        f"${info.price}k  ★ show {info.beauty}k",
        kit.font(17),
        kit.PAPER_INK,
        "la",
    )
    kit.draw_text(
        draw,
        (x0 + 10, y0 + 58),
        f"{effect} · {colour}",
        kit.font(16, True),
        kit.PAPER_INK,
        "la",
        x1 - x0 - 20,
    )


def draw_location(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], spot: dict[str, Any], number: int
) -> None:
    x0, y0, x1, _ = box
    title = f"Location {number}" + (" (prizes)" if number == 2 else "")
    if spot["card"] is None:
        draw.rounded_rectangle(box, 10, fill=kit.PANEL_EDGE)
        label = "face down" if spot["filled"] else "empty"
        kit.draw_text(draw, (x0 + 12, y0 + 10), title, kit.font(18, True), kit.INK, "la")
        kit.draw_text(draw, (x0 + 12, y0 + 44), f"? {label}", kit.font(22, True), kit.MUTED, "la")
        return
    info = LOCATIONS[spot["card"]]
    draw.rounded_rectangle(box, 10, fill=kit.PAPER)
    kit.draw_text(
        draw,
        (x0 + 12, y0 + 8),
        f"{title}: {info.name}",
        kit.font(17, True),
        kit.PAPER_INK,
        "la",
        x1 - x0 - 20,
    )
    red = f"  RED {STAT_LETTERS[info.red]}" if info.red else ""
    kit.draw_text(
        draw,
        (x0 + 12, y0 + 36),
        f"{STAT_LETTERS[info.first]} → {STAT_LETTERS[info.second]}{red}",
        kit.font(20, True),
        kit.VERMILLION if info.red else kit.PAPER_INK,
        "la",
    )
    prizes = " / ".join(f"{p}k" for p in info.prizes)
    kit.draw_text(draw, (x0 + 12, y0 + 64), f"4th→1st: {prizes}", kit.font(16), kit.PAPER_INK, "la")


def draw_player(
    draw: ImageDraw.ImageDraw,
    view: dict[str, Any],
    player: dict[str, Any],
    box: tuple[int, int, int, int],
) -> None:
    x0, y0, x1, _ = box
    pid = player["id"]
    waiting = pid in view.get("to_move", [])
    draw.rounded_rectangle(
        box,
        14,
        fill=kit.PANEL,
        outline=kit.HIGHLIGHT if waiting else kit.PANEL_EDGE,
        width=4 if waiting else 2,
    )
    draw.ellipse((x0 + 12, y0 + 12, x0 + 40, y0 + 40), fill=colour_of(view, pid))
    head = name(view, pid) + (" (first)" if view.get("first") == pid else "")
    kit.draw_text(draw, (x0 + 50, y0 + 12), head, kit.font(22, True), kit.INK, "la", x1 - x0 - 60)
    trophies = "  ".join(f"{TROPHY_LETTERS[t]}×{n}" for t, n in player["trophies"].items())
    status = f"lane {player['lane']}" if player["lane"] else ("passed" if player["passed"] else "")
    kit.draw_text(
        draw,
        (x0 + 14, y0 + 48),
        f"${player['credits']}k   {trophies}   {status}",
        kit.font(18),
        kit.INK,
        "la",
        x1 - x0 - 24,
    )
    y = y0 + 78
    for car in player["cars"]:
        info = CARS[car["id"]]
        if car["upgrades"] is None:
            parts = f"{car['hidden_upgrades']} hidden upgrades"
        else:
            parts = ", ".join(upgrade_of(c).name for c in car["upgrades"]) or "stock"
        parked = " [SHOW]" if car["at_show"] else ""
        kit.draw_text(
            draw,
            (x0 + 14, y),
            f"{info.cls} {info.name}{parked}: {parts}",
            kit.font(16),
            kit.MUTED,
            "la",
            x1 - x0 - 24,
        )
        y += 22
    if player["crew"]:
        crew = ", ".join(upgrade_of(c).name.removeprefix("Crew: ") for c in player["crew"])
        kit.draw_text(
            draw, (x0 + 14, y), f"Crew: {crew}", kit.font(16), kit.MUTED, "la", x1 - x0 - 24
        )


def positions_now(view: dict[str, Any]) -> dict[str, int]:
    """Pawns: on the track mid-race, else on the grid (space 0) for qualified players."""
    if view.get("race"):
        return dict(view["race"]["pos"])
    return {p["id"]: 0 for p in sorted(view["players"], key=lambda p: p["lane"] or 9) if p["lane"]}


def header(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    title = f"Street Kings · round {view['round']}"
    if view.get("race_class"):
        title += f" · {view['race_class']} class race"
    if view.get("championship"):
        title += " · CHAMPIONSHIP"
    kit.draw_text(draw, (24, 16), title, kit.font(32, True), kit.INK, "la")
    kit.draw_text(
        draw,
        (WIDTH - 24, 24),
        f"{view['golds_to_win']} golds to win",
        kit.font(20),
        kit.MUTED,
        "ra",
    )


def render(view: dict[str, Any]) -> bytes:
    players = view["players"]
    rows = (len(players) + 1) // 2
    height = 70 + 180 + 130 + 2 * 116 + 40 + 140 + rows * 230 + 20
    image = Image.new("RGB", (WIDTH, height), kit.TABLE)
    draw = ImageDraw.Draw(image)
    header(draw, view)
    y = draw_track(draw, view, 64, positions_now(view)) + 12
    # location spots and the car show
    for i, spot in enumerate(view["spots"]):
        draw_location(draw, (20 + i * 350, y, 350 + i * 350, y + 100), spot, i + 1)
    kit.draw_text(draw, (720, y), "Car show", kit.font(20, True), kit.INK, "la")
    for i, slot in enumerate(view["show"]):
        box = (720 + i * 225, y + 30, 935 + i * 225, y + 100)
        if slot:
            draw.rounded_rectangle(box, 10, fill=colour_of(view, slot["player"]))
            kit.draw_text(
                draw,
                (box[0] + 10, box[1] + 10),
                name(view, slot["player"]),
                kit.font(17, True),
                kit.PAPER_INK,
                "la",
                195,
            )
            kit.draw_text(
                draw,
                (box[0] + 10, box[1] + 36),
                CARS[slot["car"]].name,
                kit.font(16),
                kit.PAPER_INK,
                "la",
                195,
            )
        else:
            draw.rounded_rectangle(box, 10, outline=kit.MUTED, width=2)
            kit.centered_text(draw, box, "free", kit.font(18), kit.MUTED)
    y += 120
    # the dealership, one row per class shown
    kit.draw_text(draw, (24, y), "Dealership", kit.font(22, True), kit.INK, "la")
    y += 32
    cards = [car for cls in CLASSES for car in view["dealership"][cls]]
    for i, car in enumerate(cards[:12]):
        col, row = i % 6, i // 6
        draw_car_card(
            draw, (20 + col * 228, y + row * 116, 240 + col * 228, y + row * 116 + 108), car
        )
    y += 116 * max(1, (min(len(cards), 12) + 5) // 6) + 8
    kit.draw_text(draw, (24, y), "Shop", kit.font(22, True), kit.INK, "la")
    y += 32
    for i, card in enumerate(view["shop"][:6]):
        draw_upgrade_card(draw, (20 + i * 228, y, 240 + i * 228, y + 88), card)
    y += 100
    for i, player in enumerate(players):
        col, row = i % 2, i // 2
        draw_player(
            draw,
            view,
            player,
            (20 + col * 690, y + row * 230, 680 + col * 690, y + row * 230 + 220),
        )
    image = image.crop((0, 0, WIDTH, y + rows * 230 + 10))
    return kit.png_bytes(image)


# -- the race, step by step ------------------------------------------------------------------------


def race_frames(view: dict[str, Any]) -> list[Image.Image]:
    """One frame per racer's step of the last race (NOZ boosts too), pawns moving on the track."""
    race = view["last_race"]
    frame_view = {**view, "finish_line": race["finish_line"]}
    positions = {player: 0 for player in race["order"]}
    frames = []
    steps = [None, *race["log"]]
    for entry in steps:
        if entry is not None:
            positions[entry["player"]] = entry["to"]
        image = Image.new("RGB", (WIDTH, 250), kit.TABLE)
        draw = ImageDraw.Draw(image)
        caption = f"Race of round {race['round']} · {race['cls']} class"
        if entry is not None:
            stat = "NOZ!" if entry["stat"] == "NOZ" else STAT_LETTERS[entry["stat"]]
            caption += f" · {name(view, entry['player'])} {stat} +{entry['to'] - entry['from']}"
        kit.draw_text(draw, (24, 12), caption, kit.font(26, True), kit.INK, "la", WIDTH - 48)
        draw_track(draw, frame_view, 60, positions)
        frames.append(image)
    podium = " · ".join(
        f"{p['place']}. {name(view, p['player'])} ({p['trophy']})" for p in race["places"]
    )
    last = frames[-1].copy()
    ImageDraw.Draw(last).rectangle((0, 0, WIDTH, 56), fill=kit.TABLE)
    kit.draw_text(
        ImageDraw.Draw(last),
        (24, 12),
        f"Result: {podium}",
        kit.font(26, True),
        kit.YELLOW,
        "la",
        WIDTH - 48,
    )
    frames.append(last)
    return frames


def race_gif(view: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, bytes]:
    """``{"race.gif": ...}`` when these events finished a race, else nothing."""
    if view.get("last_race") is None or not any(e["type"] == "race_over" for e in events):
        return {}
    frames = [f.quantize(colors=64, method=Image.Quantize.FASTOCTREE) for f in race_frames(view)]
    out = io.BytesIO()
    durations = [700] * (len(frames) - 1) + [3000]
    frames[0].save(
        out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0
    )
    return {"race.gif": out.getvalue()}
