"""Scoring ("Pontuação", Part C9) and "Quem Vence?", on a 2-player mural (3 rows x 4 columns;
the board's token spots face the north of B1, the east of D2, the south of C3, the west of A2)."""

from __future__ import annotations

from typing import Any

from rules.mural import MURAL
from rules.mural.data import MURALS
from rules.mural.scoring import disc_bonus, partners, score_sheet
from tests.rules.mural_tables import table

TOKENS = {"N": "MC", "E": "DJ", "S": "BRK", "W": "GRF"}


def mural(*cards: tuple[int, int, str, str], paints: list[str] | None = None):
    grid: list[list[Any]] = [[None] * 4 for _ in range(3)]
    for row, col, card, painter in cards:
        grid[row][col] = {"card": card, "painter": painter, "paints": list(paints or [])}
    return grid


def sheet(grid, tokens=TOKENS, backpacks=None):
    return score_sheet(grid, MURALS[2], tokens, ["A", "B"], backpacks or [[], []])


def test_a_card_with_two_valid_discs_scores_six_more() -> None:
    """ "Cada disco completo e válido fornece 3 pontos extras": G03 (DJ, half-discs N and E) meets
    G10 (MC) above and G18 (BRK) to its right."""
    grid = mural((1, 1, "G03", "A"), (0, 1, "G10", "B"), (1, 2, "G18", "B"))
    assert partners(grid, MURALS[2], TOKENS, 1, 1) == ["MC", "BRK"]
    assert sheet(grid)["A"] == {"cards": 6, "discs": 6, "paints": 0, "sprays": 1, "total": 12}


def test_a_second_disc_must_reach_a_third_element() -> None:
    """ "Um segundo disco completo e válido deve ligar a um terceiro elemento diferente dos 2
    primeiros": two MC partners count once."""
    grid = mural((1, 1, "G03", "A"), (0, 1, "G10", "B"), (1, 2, "G09", "B"))
    assert partners(grid, MURALS[2], TOKENS, 1, 1) == ["MC", "MC"]
    assert sheet(grid)["A"]["discs"] == 3


def test_a_disc_with_the_boards_element_token() -> None:
    """ "A colocação da carta pode formar um disco [...] com o próprio tabuleiro (onde as fichas
    de elementos foram colocadas)": G02 (DJ, N) under the MC token above B1."""
    grid = mural((0, 1, "G02", "A"))
    assert sheet(grid)["A"]["discs"] == 3
    assert sheet(grid, tokens={**TOKENS, "N": "DJ"})["A"]["discs"] == 0, "same element"


def test_a_disc_with_an_opponents_card_counts_for_both() -> None:
    """C9.4: "A card-card disc counts for both cards" (Ludopedia: "yours and your opponents'")."""
    grid = mural((1, 1, "G03", "A"), (0, 1, "G10", "B"))
    scores = sheet(grid)  # G10's north half-disc meets the MC token: same element, not valid
    assert scores["A"]["discs"] == 3 and scores["B"]["discs"] == 3


def test_a_disc_of_two_equal_elements_is_not_valid() -> None:
    """ "os elementos de cada carta que formam este disco devem ser diferentes"."""
    grid = mural((1, 1, "G03", "A"), (0, 1, "G02", "B"))  # DJ over DJ
    assert sheet(grid)["A"]["discs"] == 0


def test_a_card_scores_at_most_two_discs() -> None:
    """ "Cada carta pode ter, no máximo, 2 discos completos e válidos, garantindo até 6 pontos"."""
    grid = mural((1, 1, "G30", "A"), (0, 1, "G10", "B"), (2, 1, "G02", "B"), (1, 0, "G18", "B"))
    assert sorted(partners(grid, MURALS[2], TOKENS, 1, 1)) == ["BRK", "DJ", "MC"]
    assert sheet(grid)["A"]["discs"] == 6
    assert disc_bonus("GRF", ["MC", "DJ", "BRK"]) == 6


def test_half_discs_that_do_not_meet_score_nothing() -> None:
    grid = mural((1, 1, "G03", "A"), (0, 1, "G09", "B"))  # G09 has no south half-disc
    assert sheet(grid)["A"]["discs"] == 0


def test_leftover_paints_score_one_per_basic_two_per_advanced() -> None:
    """ "1 PONTO por TINTA BÁSICA. 2 PONTOS por TINTA AVANÇADA"."""
    assert sheet(mural(), backpacks=[["R", "A", "W"], []])["A"]["paints"] == 4


def test_a_flexible_card_scores_two_plus_its_paints() -> None:
    """ "A pontuação desse tipo de carta é sempre 2 pontos somada a: +1 para cada tinta básica;
    +2 para cada tinta avançada"."""
    grid = mural((2, 3, "G08", "A"), paints=["A", "A", "R", "W"])
    assert sheet(grid)["A"]["cards"] == 2 + 2 + 2 + 1 + 1


def finished(grid, backpacks=((), ()), round_first: str = "A"):
    state = table()
    state["mural"] = grid
    for s, pack in zip(state["seats"], backpacks, strict=True):
        s["backpack"] = list(pack)
    state["round_first"] = ["A", "B"].index(round_first)
    state["phase"], state["ended_by"] = "over", "round_2"
    return MURAL.outcome(state)


def test_a_tie_goes_to_the_most_sprays_on_the_mural() -> None:
    """ "Em um eventual empate, vence quem possuir mais sprays no mural"."""
    grid = mural((2, 3, "G09", "A"), (0, 3, "G01", "A"), (2, 0, "G03", "B"))
    result = finished(grid, round_first="B")
    assert result.scores == {"A": 6, "B": 6} and result.winners == ["A"]


def test_then_to_the_most_card_points() -> None:
    """ "caso o empate permaneça, vence quem pontuou mais no critério I"."""
    grid = mural((0, 3, "G01", "A"), (2, 0, "G03", "B"))
    result = finished(grid, backpacks=(["R", "Y", "W"], []))
    assert result.scores == {"A": 6, "B": 6} and result.winners == ["B"]


def test_then_to_whoever_acted_earlier_in_the_last_round() -> None:
    """ "Se ainda persistir o empate, vence quem agiu antes pela ordem de turno na última
    rodada"."""
    grid = mural((0, 3, "G01", "A"), (2, 3, "G09", "B"))
    assert finished(grid, round_first="B").winners == ["B"]
    assert finished(grid, round_first="A").winners == ["A"]


def test_the_view_shows_each_cards_disc_bonus_as_the_mural_stands() -> None:
    state = table()
    state["mural"] = mural((1, 1, "G03", "A"), (0, 1, "G10", "B"), (1, 2, "G18", "B"))
    state["tokens"] = dict(TOKENS)
    bonuses = MURAL.view(state, None)["bonuses"]
    assert bonuses[1][1] == 6 and bonuses[0][1] == 3 and bonuses[1][2] == 3
    assert bonuses[2][3] is None
