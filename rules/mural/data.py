"""Street Art: Mural component data: a RECONSTRUCTION (dataset ``streetart_reconstruction_v1``).

The printed components are not public. Everything here comes from Part C of
the rulebook's English notes, the notes' own design, consistent with the
Portuguese rulebook (street-art-mural.pt.txt). Real component data can replace this module
without touching the rules code: the engine reads every count, layout and card from here.
"""

from __future__ import annotations

from dataclasses import dataclass

DATASET = "streetart_reconstruction_v1"

#: C1: the four basic colours (prototype primaries) and the one generic advanced paint.
BASICS: tuple[str, ...] = ("R", "Y", "B", "W")
ADVANCED = "A"
PAINTS: tuple[str, ...] = (*BASICS, ADVANCED)
COLOUR_NAMES: dict[str, str] = {
    "R": "red",
    "Y": "yellow",
    "B": "blue",
    "W": "white",
    "A": "advanced",
}

#: "Um jogador pode armazenar até 5 tintas em sua mochila."
BACKPACK_LIMIT = 5
ROUNDS = 2
#: The paint queue's spaces on the board: "A quarta tinta ficará do lado de fora do tabuleiro".
QUEUE_ON_BOARD = 3

#: Setup step 9: grafiteiros and sprays per player, by player count.
GRAFITEIROS: dict[int, int] = {2: 4, 3: 5, 4: 5}
SPRAYS: dict[int, int] = {2: 7, 3: 7, 4: 6}
#: Setup step 7: "4 cartas (em partidas de 3 ou 4 jogadores) ou 3 cartas (... 2 jogadores)".
DISPLAY_SIZE: dict[int, int] = {2: 3, 3: 4, 4: 4}
#: "cada ação pode ser usada até duas vezes em cada rodada" (read per player, B ambiguity c).
ADVANCED_ROTATION_USES = 2

#: C2: 8 angular slots clockwise from east; a contact joins slot 0 (E) of the left disc to
#: slot 4 (W) of the right one; discs P1..P4 sit in a row, the queue starts west of P1.
SLOTS = 8
SLOT_NAMES: tuple[str, ...] = ("E", "SE", "S", "SW", "W", "NW", "N", "NE")
LEFT_CONTACT_SLOT = 0
RIGHT_CONTACT_SLOT = 4
DISCS = 4
#: C5: the end-of-round refill walks each disc from its west slot clockwise.
REFILL_SLOT_ORDER: tuple[int, ...] = (4, 5, 6, 7, 0, 1, 2, 3)

#: C3: each side's 8 segments, clockwise as printed (each basic colour exactly twice).
DISC_SIDES: dict[str, dict[str, str]] = {
    "D1": {"A": "RYBWRYBW", "B": "RRBYWWYB"},
    "D2": {"A": "RRYYBBWW", "B": "YBRRWBYW"},
    "D3": {"A": "RBYWBRWY", "B": "WRRYBYWB"},
    "D4": {"A": "RWYBBYWR", "B": "BWYRYWRB"},
}

#: C7: the four elements of Hip Hop, one Element token each.
ELEMENTS: tuple[str, ...] = ("DJ", "MC", "BRK", "GRF")
ELEMENT_NAMES: dict[str, str] = {
    "DJ": "DJing",
    "MC": "MCing",
    "BRK": "Breaking",
    "GRF": "Graffiti",
}

#: Card sides: N = top, E = right, S = bottom, W = left, with their neighbour offsets.
SIDES: tuple[str, ...] = ("N", "E", "S", "W")
OPPOSITE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
STEP: dict[str, tuple[int, int]] = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}


@dataclass(frozen=True)
class MuralLayout:
    """C7: the mural grid for a player count and the cell each border token spot faces."""

    rows: int
    cols: int
    #: side of the board -> the edge cell (row, col) whose side of that name the token faces.
    tokens: dict[str, tuple[int, int]]


MURALS: dict[int, MuralLayout] = {
    2: MuralLayout(3, 4, {"N": (0, 1), "E": (1, 3), "S": (2, 2), "W": (1, 0)}),
    3: MuralLayout(4, 4, {"N": (0, 1), "E": (1, 3), "S": (3, 2), "W": (2, 0)}),
    4: MuralLayout(4, 5, {"N": (0, 2), "E": (1, 4), "S": (3, 2), "W": (2, 0)}),
}

#: C9: each complete valid disc +3, at most two per card.
DISC_BONUS = 3
MAX_DISCS_PER_CARD = 2
#: "2 pontos somada a: +1 para cada tinta básica; +2 para cada tinta avançada."
FLEX_BASE = 2
PAINT_VALUE: dict[str, int] = {"R": 1, "Y": 1, "B": 1, "W": 1, "A": 2}


@dataclass(frozen=True)
class Card:
    """A Graffiti card: its cost (``None`` for a flexible cost), printed points (``None`` for
    flexible), the number of paint spaces of a flexible card, and the sides with a half-disc."""

    id: str
    element: str
    cost: str | None
    points: int | None
    spaces: int
    edges: str

    @property
    def flexible(self) -> bool:
        return self.cost is None


def _card(row: tuple[str, str, str, int | None, str]) -> Card:
    cid, element, cost, points, edges = row
    if cost.startswith("flex"):
        return Card(cid, element, None, None, int(cost[4:]), edges)
    return Card(cid, element, cost, points, 0, edges)


#: C8/C12: the 32 Graffiti cards.
CARDS: dict[str, Card] = {
    card.id: card
    for card in map(
        _card,
        (
            ("G01", "DJ", "RY", 3, "EW"),
            ("G02", "DJ", "BBW", 5, "NS"),
            ("G03", "DJ", "RYBW", 6, "NE"),
            ("G04", "DJ", "AR", 5, "SW"),
            ("G05", "DJ", "AYW", 7, "ES"),
            ("G06", "DJ", "AAB", 9, "NEW"),
            ("G07", "DJ", "flex2", None, "W"),
            ("G08", "DJ", "flex4", None, "NES"),
            ("G09", "MC", "BW", 3, "EW"),
            ("G10", "MC", "RRY", 5, "NS"),
            ("G11", "MC", "YYBW", 6, "SW"),
            ("G12", "MC", "AB", 5, "NE"),
            ("G13", "MC", "ARB", 7, "NW"),
            ("G14", "MC", "AA", 7, "ESW"),
            ("G15", "MC", "flex3", None, "E"),
            ("G16", "MC", "flex3", None, "NSW"),
            ("G17", "BRK", "YW", 3, "NS"),
            ("G18", "BRK", "RBW", 5, "EW"),
            ("G19", "BRK", "RRBY", 6, "ES"),
            ("G20", "BRK", "AW", 5, "NW"),
            ("G21", "BRK", "ARY", 7, "SW"),
            ("G22", "BRK", "AYBW", 8, "NES"),
            ("G23", "BRK", "flex2", None, "N"),
            ("G24", "BRK", "flex4", None, "ESW"),
            ("G25", "GRF", "RB", 3, "NS"),
            ("G26", "GRF", "YYW", 5, "EW"),
            ("G27", "GRF", "RBWW", 6, "NW"),
            ("G28", "GRF", "AY", 5, "ES"),
            ("G29", "GRF", "ABW", 7, "NE"),
            ("G30", "GRF", "AAR", 9, "NSW"),
            ("G31", "GRF", "flex3", None, "S"),
            ("G32", "GRF", "flex3", None, "NEW"),
        ),
    )
}


@dataclass(frozen=True)
class Technique:
    """A Basquiat technique tile (C6): English name, the rulebook's Portuguese working name,
    and whether using it counts as the turn's main action."""

    id: str
    name: str
    portuguese: str
    main: bool
    effect: str


TECHNIQUES: dict[str, Technique] = {
    t.id: t
    for t in (
        Technique(
            "BT1",
            "Swap",
            "Troca",
            False,
            "swap 1 backpack paint for a basic of your choice; the old one goes to the queue end",
        ),
        Technique(
            "BT2",
            "Copy",
            "Cópia",
            False,
            "take from the stock a paint identical to one in your backpack",
        ),
        Technique("BT3", "Queue Pick", "Fila", False, "take 1 of the first 3 paints of the queue"),
        Technique(
            "BT4",
            "Transfer",
            "Transferência",
            False,
            "move 1 paint to a segment of another disc (swapping if it is taken)",
        ),
        Technique(
            "BT5",
            "Thrift",
            "Economia",
            True,
            "paint 1 Graffiti card without spending 1 basic paint (main action)",
        ),
        Technique(
            "BT6",
            "Master Turn",
            "Giro Mestre",
            True,
            "turn 2 adjacent discs up to 2 steps each and collect 1 paint (main action)",
        ),
    )
}

assert len(CARDS) == 32, "C8: 32 Graffiti cards"
assert all(sorted(side) == sorted("RRYYBBWW") for d in DISC_SIDES.values() for side in d.values())
assert all(card.flexible or len(card.cost or "") <= BACKPACK_LIMIT for card in CARDS.values()), (
    "C8: no cost above the backpack limit"
)
