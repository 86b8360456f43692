"""Every game's board, at every table size, early, mid-game and final (seeded random playouts of
the rules engines, bench/boards.py): landscape (at least 1.3:1, so Discord shows it large
inline), at most 250 KB, as are its second pictures; and players' markers stay apart for a
deuteranope, by shape or letter where colour alone would fail."""

from __future__ import annotations

import io
from functools import cache
from itertools import combinations

import pytest
from PIL import Image, ImageChops, ImageStat

import images
from bench.boards import Snapshot, playout
from images import artsee, kit, mural, street_kings
from rules import GAMES

BUDGET = 250 * 1024
MIN_ASPECT = 1.3
#: Boards drawn for a phone's width (one picture a post, the market inside): narrower, and
#: portrait, but never taller than twice their width (a phone shows them whole, 285 CSS px wide).
PHONE_BOARDS = {"street-kings": (800, 0.5), "artsee": (800, 0.5), "street-art-mural": (800, 0.5)}
CASES = [
    (game_id, players)
    for game_id in sorted(GAMES)
    for players in range(GAMES[game_id].min_players, GAMES[game_id].max_players + 1)
]
#: Five names with one initial: markers must tell them apart by more than the initial.
SAME_INITIAL = {f"p{i}": name for i, name in enumerate(("Ana", "Al", "Abe", "Ava", "Amy"))}


@cache
def snapshots(game_id: str, players: int) -> list[Snapshot]:
    return playout(game_id, players, seed="landscape")


def size_of(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        return image.size


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_board_is_landscape_and_small_at_every_stage(game_id: str, players: int) -> None:
    for snap in snapshots(game_id, players):
        png = images.render(game_id, snap.view, names=snap.names, last=snap.last)
        width, height = size_of(png)
        least_width, least_aspect = PHONE_BOARDS.get(game_id, (1200, MIN_ASPECT))
        assert width / height >= least_aspect, (snap.stage, width, height)
        assert width >= least_width and len(png) <= BUDGET, (snap.stage, len(png))
        for filename, extra in images.extra_pictures(game_id, snap.view, names=snap.names):
            assert filename.endswith(".png") and len(extra) <= BUDGET
            size_of(extra)


def test_the_second_pictures_carry_what_the_board_leaves_out() -> None:
    five = snapshots("artsee", 5)[1]  # every gallery on the board, the cards in the detail
    assert images.extra_pictures("artsee", five.view, names=five.names) == []
    detail = images.render_detail("artsee", five.view, names=five.names)
    assert detail is not None and size_of(detail)[0] >= 1200
    assert images.render_detail("street-art", five.view, names=five.names) is None
    kings = snapshots("street-kings", 2)[0]  # the market is in the board: one picture
    assert images.extra_pictures("street-kings", kings.view, names={}) == []
    assert images.extra_pictures("street-art", {}, names={}) == []


def test_the_last_turn_in_words_is_drawn() -> None:
    snap = snapshots("street-kings", 3)[1]
    without = images.render("street-kings", snap.view, names=snap.names)
    told = images.render("street-kings", snap.view, names=snap.names, last=["**Ana** passes."])
    assert without != told


def test_an_unknown_language_is_refused_rather_than_drawn_in_english() -> None:
    snap = snapshots("street-art", 3)[0]
    with pytest.raises(ValueError, match="xx"):
        images.render("street-art", snap.view, names=snap.names, lang="xx")


@pytest.mark.parametrize("game_id", ["street-art-mural", "street-kings"])
def test_every_game_draws_a_seated_players_hand(game_id: str) -> None:
    snap = snapshots(game_id, 3)[1]
    game = GAMES[game_id]
    state = game.start(["p0", "p1", "p2"], "landscape", {})
    own = images.render_hand(game_id, game.view(state, "p0"), names=snap.names)
    assert own is not None and size_of(own)[0] >= 700
    other = images.render_hand(game_id, game.view(state, "p1"), names=snap.names)
    assert other != own
    assert images.render_hand(game_id, game.view(state, None), names=snap.names) is None


# -- colour is never the only cue ---------------------------------------------------------------

#: Machado, Oliveira & Fernandes (2009), deuteranopia at severity 1.0, on linear RGB.
DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _srgb(c: float) -> int:
    c = min(1.0, max(0.0, c))
    c = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(c * 255)


def deuteranope(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    lin = [_linear(c) for c in colour]
    r, g, b = (sum(m * c for m, c in zip(row, lin, strict=True)) for row in DEUTERANOPIA)
    return (_srgb(r), _srgb(g), _srgb(b))


def seen_by_a_deuteranope(image: Image.Image) -> Image.Image:
    """``image`` as a deuteranope sees it (a lookup per colour: marker images are small)."""
    rgba = image.convert("RGBA")
    raw = rgba.tobytes()
    table: dict[bytes, bytes] = {}
    seen = bytearray()
    for i in range(0, len(raw), 4):
        rgb = raw[i : i + 3]
        if rgb not in table:
            table[rgb] = bytes(deuteranope((rgb[0], rgb[1], rgb[2])))
        seen += table[rgb] + raw[i + 3 : i + 4]
    out = Image.frombytes("RGBA", rgba.size, bytes(seen))
    flat = Image.new("RGB", out.size, kit.PANEL)  # as on a player's panel
    flat.paste(out, (0, 0), out)
    return flat.convert("L")


def distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


def test_the_simulation_merges_what_a_deuteranope_cannot_tell_apart() -> None:
    """The matrix is right: red and green, far apart for most eyes, come close."""
    red, green = (220, 40, 40), (40, 160, 40)
    assert distance(deuteranope(red), deuteranope(green)) < distance(red, green) / 2
    assert deuteranope((255, 255, 255)) == (255, 255, 255)


def assert_apart(pictures: dict[str, Image.Image]) -> None:
    """Each pair of markers differs, seen by a deuteranope, in more than a few pixels."""
    seen = {pid: seen_by_a_deuteranope(im) for pid, im in pictures.items()}
    for a, b in combinations(seen, 2):
        diff = ImageStat.Stat(ImageChops.difference(seen[a], seen[b])).mean[0]
        assert diff > 8, (a, b)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_street_kings_pawns_differ_by_shape_and_label_for_a_deuteranope(players: int) -> None:
    view = snapshots("street-kings", players)[1].view
    pawns = street_kings.pawns_of(view, kit.display_names(view, SAME_INITIAL))
    assert len({(p.shape, p.label) for p in pawns.values()}) == players
    assert len({p.shape for p in pawns.values()}) == players  # shape alone tells them apart
    assert_apart({pid: street_kings.pawn_image(p, 44) for pid, p in pawns.items()})


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_artsee_visitors_carry_a_letter_each_that_a_deuteranope_can_read(players: int) -> None:
    view = snapshots("artsee", players)[1].view
    letters = artsee.seat_letters(view, kit.display_names(view, SAME_INITIAL))
    assert len(set(letters.values())) == players
    colours = {p["id"]: artsee.SEAT_COLOURS[p["seat"]] for p in view["players"]}
    assert_apart({pid: artsee.visitor_pawn(colours[pid], letters[pid], 40) for pid in letters})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mural_players_differ_by_shape_on_the_board_for_a_deuteranope(players: int) -> None:
    """Each player's panel starts with their shape in their colour: cropped off the board
    itself, the shapes stay apart when the colours merge."""
    snap = snapshots("street-art-mural", players)[1]
    marks = mural.player_colours(snap.view)
    assert len({shape for _, shape in marks.values()}) == players
    png = images.render("street-art-mural", snap.view, names=SAME_INITIAL)
    with Image.open(io.BytesIO(png)) as board:
        board = board.convert("RGB")
    top = board.height - mural.MARGIN - mural.PLAYER_H
    width = (mural.WIDTH - 2 * mural.MARGIN - (players - 1) * mural.PLAYERS_GAP) // players
    shapes = {}
    for i, player in enumerate(snap.view["players"]):
        x = mural.MARGIN + i * (width + mural.PLAYERS_GAP)
        shapes[player["id"]] = board.crop((x + 24, top + 12, x + 56, top + 44))
    assert_apart(shapes)
