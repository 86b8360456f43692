"""ArtSee component data: a RECONSTRUCTION, kept in one module so the printed data can replace it.

Source: the ArtSee rulebook ("Components", "Setup", "End of the Game") and the
component notes, Part A (for players: docs/rules/artsee.md). The card list
(A3.4), the token values (A1) and the category bonus (A2) are the notes' RECONSTRUCTION, not the
published components; the counts and the token requirements are FACT. The engine reads only the
names defined here, so swapping in the real data touches no rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Category = Literal["AB", "LA", "PO", "SL"]
Arrow = Literal["L", "R"]

#: The four categories in the notes' order (A3.4): abstract, landscape, portrait, still life.
CATEGORIES: tuple[Category, ...] = ("AB", "LA", "PO", "SL")
CATEGORY_NAMES: dict[str, str] = {
    "AB": "Abstract",
    "LA": "Landscape",
    "PO": "Portrait",
    "SL": "Still life",
}


@dataclass(frozen=True)
class Exhibit:
    """One exhibit card: its featured category (also on its back), its art pieces (2 or 3, each
    of a different category) and the arrow that says which adjacent column scores."""

    id: str
    deck: Literal["start", "main"]
    featured: Category
    pieces: tuple[Category, ...]
    arrow: Arrow


def _compositions(featured: Category, main: bool) -> list[tuple[tuple[Category, ...], Arrow]]:
    """A3.4: "an exhibit's art pieces are drawn from the three categories other than its
    featured category"; starting cards {X,Y}L/R, {X,Z}L/R, {Y,Z}L/R, {X,Y,Z}L/R, main cards the
    same six 2-piece cards plus {X,Y,Z} L, R, L, R, L, R."""
    x, y, z = (c for c in CATEGORIES if c != featured)
    cards: list[tuple[tuple[Category, ...], Arrow]] = []
    for pair in ((x, y), (x, z), (y, z)):
        cards += [(pair, "L"), (pair, "R")]
    for _ in range(3 if main else 1):
        cards += [((x, y, z), "L"), ((x, y, z), "R")]
    return cards


def _deck(deck: Literal["start", "main"]) -> dict[str, Exhibit]:
    prefix = "S" if deck == "start" else "M"
    cards: dict[str, Exhibit] = {}
    for featured in CATEGORIES:
        for n, (pieces, arrow) in enumerate(_compositions(featured, deck == "main"), 1):
            card = Exhibit(f"{prefix}-{featured}-{n:02d}", deck, featured, pieces, arrow)
            cards[card.id] = card
    return cards


#: "32 Starting Exhibit Cards" (black borders) and "48 Main Exhibit Cards" (white borders).
STARTING: dict[str, Exhibit] = _deck("start")
MAIN: dict[str, Exhibit] = _deck("main")
EXHIBITS: dict[str, Exhibit] = {**STARTING, **MAIN}


@dataclass(frozen=True)
class Masterpiece:
    """A masterpiece token: "a featured category [...], a claim requirement (ranging from five to
    nine), and a prestige value (ranging from zero to four)"."""

    id: str
    category: Category
    requirement: int
    value: int


#: A1: requirements 5..9 in each category (FACT); value = requirement - 5 (RECONSTRUCTION).
MASTERPIECES: dict[str, Masterpiece] = {
    f"{c}-{r}": Masterpiece(f"{c}-{r}", c, r, r - 5) for c in CATEGORIES for r in range(5, 10)
}

#: A2 RECONSTRUCTION: end-game bonus by the number of masterpiece categories held (0..4).
CATEGORY_BONUS: tuple[int, ...] = (0, 1, 3, 6, 10)

#: Setup 2: "deal each player two cards to form the start of their gallery".
GALLERY_START = 2
#: Setup 3: "deal each player three cards to form their hand".
HAND_SIZE = 3

#: Setup 5, main cards removed per player count: ("each", n) removes n random cards of each
#: category, ("total", n) n random cards in all (A3.3: 5 players remove 3 in total).
REMOVAL: dict[int, tuple[Literal["each", "total"], int]] = {
    2: ("each", 4),
    3: ("each", 3),
    4: ("each", 0),
    5: ("total", 3),
}

#: Setup 9: visitors in each player's personal supply by player count.
VISITORS: dict[int, int] = {2: 5, 3: 7, 4: 8, 5: 9}

assert len(STARTING) == 32 and len(MAIN) == 48, "32 starting and 48 main exhibit cards"
assert len(MASTERPIECES) == 20, "20 masterpiece tokens"
assert all(sum(1 for card in MAIN.values() if card.featured == c) == 12 for c in CATEGORIES), (
    "A3.2: 12 main cards per featured category"
)
