"""How legible a board is on a phone: the words a player needs, listed from the board's view,
against what an OCR (Debian's tesseract) reads back from the board shown as a phone shows it.

A phone shows a post's picture 285 CSS px wide. We measure at a device pixel ratio of 2
(570 device pixels): the low end of the phones in use (most draw 2 to 3 device pixels to a CSS
pixel), where the board is scaled down the most; a board read there is read on a 3x phone too.

The words a player needs are the ones each board writes from the view: the players' names,
their scores and the counts that decide a move (cards in pile and hand, visitors, paints,
credits, trophies, decks...). Names and numbers are compared as runs of letters or digits
("2k" is "2" and "k"), as a multiset: a needed word is read once for each time the OCR read it.
The one confusion forgiven is the font's: an O among figures is read as the zero it is.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from PIL import Image

from rules.artsee.data import EXHIBITS, MASTERPIECES
from rules.mural.data import CARDS

#: Mural paints a board writes as their letter (an advanced paint is drawn as a star).
BASIC_PAINTS = frozenset("RYBW")

#: A phone shows a post's picture this many CSS px wide.
PHONE_CSS_PX = 285
#: Device pixels per CSS pixel we measure at (see the module's docstring).
DEVICE_PIXEL_RATIO = 2
#: Share of the needed words the OCR must read back on every board.
LEGIBLE = 0.75
TESSERACT = shutil.which("tesseract")


#: A round letter touching a figure, a times sign or a slash ("2nd×O", "O/5"): the font draws
#: O and 0 alike, and a reader takes it for the zero it is among figures.
ROUND_ZERO = re.compile(r"(?<=[\dx×/])[oO]|[oO](?=[\d/])")


def tokens(text: str) -> list[str]:
    """Runs of letters or of digits, lower case: how needed and read words are compared."""
    return [t.lower() for t in re.findall(r"\d+|[^\W\d_]+", text)]


def as_a_phone_shows(png: bytes) -> Image.Image:
    """The board scaled to ``PHONE_CSS_PX`` CSS px at ``DEVICE_PIXEL_RATIO``, as a browser
    scales a picture (a Lanczos filter)."""
    with Image.open(io.BytesIO(png)) as board:
        width = PHONE_CSS_PX * DEVICE_PIXEL_RATIO
        height = round(board.height * width / board.width)
        return board.convert("RGB").resize((width, height), Image.Resampling.LANCZOS)


def read_back(png: bytes) -> Counter[str]:
    """The words tesseract reads on the board as a phone shows it, read twice: as one block of
    lines (a table's rows of counts) and as sparse text (labels scattered over a picture); a
    word counts as read as often as the better reading has it. One thread each, so parallel
    tests do not starve."""
    assert TESSERACT is not None
    read: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "board.png")
        as_a_phone_shows(png).save(path)
        for layout in ("6", "11"):
            out = subprocess.run(
                [TESSERACT, path, "-", "--psm", layout],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "OMP_THREAD_LIMIT": "1"},
            ).stdout
            read |= Counter(tokens(ROUND_ZERO.sub("0", out)))
    return read


def _street_art(view: dict[str, Any]) -> Iterable[Any]:
    yield from (view["middle"], view["draw_pile"], view["box"], view["turn"])
    for p in view["players"]:
        yield from (p["hearts"], p["pile"], p["hand_size"])


def _artsee(view: dict[str, Any]) -> Iterable[Any]:
    yield view["turn"]
    yield from (pile["size"] for pile in view["piles"])
    for p in view["players"]:
        yield from (p["prestige"], p["supply"])
    if view.get("outcome"):
        return  # the final scores: nothing left to claim or to play onto
    yield from (MASTERPIECES[t].requirement for t in view["supply"])
    for p in view["players"]:
        yield from range(1, len(p["columns"]) + 1)  # the columns a card goes onto
        for column in p["columns"]:
            pieces = Counter(piece for card in column for piece in EXHIBITS[card].pieces)
            yield from pieces.values()
        yield from (n for n in p["visitors"] if n)
        yield from (MASTERPIECES[m["token"]].requirement for m in p["masterpieces"])


def _mural(view: dict[str, Any]) -> Iterable[Any]:
    yield view["round"]
    if not view.get("outcome"):
        yield view["deck_size"]
        yield from view["display"]
        if view["deck_top"]:
            yield view["deck_top"]
        for row in view["mural"]:
            for painted in row:
                if painted is not None and not CARDS[painted["card"]].flexible:
                    yield CARDS[painted["card"]].points
    for p in view["players"]:
        yield from (p["score"]["total"], p["sprays"], p["grafiteiros"], len(p["backpack"]))
        yield from (p["rotations"]["big"], p["rotations"]["double"])
        yield from (paint for paint in p["backpack"] if paint in BASIC_PAINTS)


def _street_kings(view: dict[str, Any]) -> Iterable[Any]:
    yield from (view["round"], view["golds_to_win"])
    yield from (view["decks"]["locations"], view["decks"]["upgrades"])
    for p in view["players"]:
        yield from (p["credits"], p["hand_size"], *p["trophies"].values())


#: game id -> the counts a player needs from its board's view (the names come with them).
COUNTS: dict[str, Callable[[dict[str, Any]], Iterable[Any]]] = {
    "street-art": _street_art,
    "artsee": _artsee,
    "street-art-mural": _mural,
    "street-kings": _street_kings,
}


def needed(game: str, view: dict[str, Any], names: dict[str, str]) -> Counter[str]:
    """The words a player needs from the board of ``view``: every player's name, then the
    game's counts."""
    words = [names.get(p["id"], p["id"]) for p in view["players"]]
    words += [str(count) for count in COUNTS[game](view)]
    return Counter(tokens(" ".join(words)))


def words_read(need: Counter[str], read: Counter[str]) -> int:
    """How many of the needed words the OCR read (each as often as it read it)."""
    return sum(min(n, read[word]) for word, n in need.items())
