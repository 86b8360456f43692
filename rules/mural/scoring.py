"""End-of-game scoring of the mural (rulebook "Pontuação", Part C9)."""

from __future__ import annotations

from typing import Any

from rules.mural.data import (
    CARDS,
    DISC_BONUS,
    FLEX_BASE,
    MAX_DISCS_PER_CARD,
    OPPOSITE,
    PAINT_VALUE,
    STEP,
    MuralLayout,
)

#: A painted cell: ``{"card": id, "painter": player, "paints": [...]}`` (paints on flexible cards).
Cell = dict[str, Any]


def card_points(cell: Cell) -> int:
    """Item 1, "Pontos das cartas no mural"; a flexible card: "sempre 2 pontos somada a: +1 para
    cada tinta básica; +2 para cada tinta avançada"."""
    card = CARDS[cell["card"]]
    if card.flexible:
        return FLEX_BASE + sum(PAINT_VALUE[p] for p in cell["paints"] if p is not None)
    assert card.points is not None
    return card.points


def partners(
    mural: list[list[Cell | None]], layout: MuralLayout, tokens: dict[str, str], row: int, col: int
) -> list[str]:
    """C9.1: the element on the other half of each complete disc of the card at (row, col):
    a neighbouring card with the opposite half-disc, or a board token facing this edge."""
    card = CARDS[mural[row][col]["card"]]  # type: ignore[index]
    found = []
    for side in card.edges:
        dr, dc = STEP[side]
        r, c = row + dr, col + dc
        if 0 <= r < layout.rows and 0 <= c < layout.cols:
            neighbour = mural[r][c]
            if neighbour is not None and OPPOSITE[side] in CARDS[neighbour["card"]].edges:
                found.append(CARDS[neighbour["card"]].element)
        elif layout.tokens.get(side) == (row, col):
            found.append(tokens[side])
    return found


def disc_bonus(element: str, partner_elements: list[str]) -> int:
    """Item 2: "Um disco completo e válido precisa ter as duas metades encaixadas, além disso os
    elementos de cada carta que formam este disco devem ser diferentes. Um segundo disco [...]
    deve ligar a um terceiro elemento diferente dos 2 primeiros. Cada disco [...] fornece 3
    pontos extras. Cada carta pode ter, no máximo, 2 discos"."""
    valid = {partner for partner in partner_elements if partner != element}
    return DISC_BONUS * min(MAX_DISCS_PER_CARD, len(valid))


def leftover_points(backpack: list[str]) -> int:
    """Item 3: "1 PONTO por TINTA BÁSICA. 2 PONTOS por TINTA AVANÇADA"."""
    return sum(PAINT_VALUE[p] for p in backpack)


def card_bonus(
    mural: list[list[Cell | None]], layout: MuralLayout, tokens: dict[str, str], row: int, col: int
) -> int:
    """The disc bonus of the card at (row, col)."""
    element = CARDS[mural[row][col]["card"]].element  # type: ignore[index]
    return disc_bonus(element, partners(mural, layout, tokens, row, col))


def bonus_grid(
    mural: list[list[Cell | None]], layout: MuralLayout, tokens: dict[str, str]
) -> list[list[int | None]]:
    """Each painted card's disc bonus as the mural stands (``None`` for an empty cell)."""
    return [
        [
            None if cell is None else card_bonus(mural, layout, tokens, r, c)
            for c, cell in enumerate(row)
        ]
        for r, row in enumerate(mural)
    ]


def score_sheet(
    mural: list[list[Cell | None]],
    layout: MuralLayout,
    tokens: dict[str, str],
    players: list[str],
    backpacks: list[list[str]],
) -> dict[str, dict[str, int]]:
    """Every player's score by item: card points, disc bonus, leftover paints, sprays on the
    mural (the first tie-break), and the total."""
    sheet = {
        player: {"cards": 0, "discs": 0, "paints": leftover_points(pack), "sprays": 0}
        for player, pack in zip(players, backpacks, strict=True)
    }
    for row, cells in enumerate(mural):
        for col, cell in enumerate(cells):
            if cell is None:
                continue
            entry = sheet[cell["painter"]]
            entry["cards"] += card_points(cell)
            entry["discs"] += card_bonus(mural, layout, tokens, row, col)
            entry["sprays"] += 1
    for entry in sheet.values():
        entry["total"] = entry["cards"] + entry["discs"] + entry["paints"]
    return sheet
