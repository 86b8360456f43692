"""Street Art: Mural, rule by rule in the rulebook's order (street-art-mural.pt.txt), with the
readings of Part B where it is ambiguous. Tables are built by hand (tests/rules/mural_tables.py)."""

from __future__ import annotations

import pytest

from rules import GAMES, IllegalAction
from rules.mural import MURAL
from rules.mural.data import BASICS, CARDS, DISPLAY_SIZE, GRAFITEIROS, MURALS, SPRAYS
from rules.mural.discs import aligned_contacts
from rules.protocol import player_range
from tests.rules.mural_tables import (
    GEOMETRY,
    choice,
    empty_discs,
    in_play,
    play,
    seat,
    table,
)

PAINT_G05 = ({"type": "paint", "card": "G05"}, {"type": "cell", "row": 0, "col": 0})
ROTATE_P2_BACK = (
    {"type": "rotate", "kind": "simple"},
    {"type": "disc", "discs": [1]},
    {"type": "turn", "discs": [1], "steps": [-1]},
    {"type": "collect", "disc": 0, "segment": 0, "paint": "R", "at": "E"},
)


def test_the_game_is_registered_with_its_player_counts() -> None:
    assert GAMES["street-art-mural"] is MURAL
    assert (MURAL.min_players, MURAL.max_players) == (2, 4)
    assert player_range(MURAL, {"painting_discards": "after_first_3"}) == (2, 4)
    with pytest.raises(IllegalAction, match="2 to 4"):
        MURAL.start(["A"], "s", {})
    with pytest.raises(IllegalAction, match="2 to 4"):
        MURAL.start(list("ABCDE"), "s", {})


# -- setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4])
def test_setup_components_by_player_count(count: int) -> None:
    """Setup 5, 7 and 9: the mural for the player count, "4 cartas (3 ou 4 jogadores) ou 3 cartas
    (2 jogadores)", and "2 JOGADORES: 4 Grafiteiros e 7 Sprays; 3: 5 e 7; 4: 5 e 6"."""
    state = MURAL.start(list("ABCD")[:count], "seed", {})
    assert len(state["display"]) == DISPLAY_SIZE[count] == (3 if count == 2 else 4)
    assert len(state["display"]) + len(state["deck"]) == len(CARDS)
    grid = MURALS[count]
    assert len(state["mural"]) == grid.rows and len(state["mural"][0]) == grid.cols
    for s in state["seats"]:
        assert s["grafiteiros"] == GRAFITEIROS[count] and s["sprays"] == SPRAYS[count]
    assert sorted(state["tokens"].values()) == ["BRK", "DJ", "GRF", "MC"]


def test_setup_aligns_three_same_colour_pairs_with_a_cube_of_each_segment_colour() -> None:
    """Setup 2-3: "Gire os discos de tinta para que 3 pares de segmentos de cores iguais estejam
    alinhados. Coloque 1 cubo de tinta Básica em cada segmento da cor correspondente"."""
    for seed in range(20):
        state = MURAL.start(["A", "B"], str(seed), {"disc_sides": "random"})
        assert all(c["same"] for c in aligned_contacts(state["discs"]))
        for disc in state["discs"]:
            assert disc["cubes"] == list(disc["colours"])


def test_setup_queue_holds_one_of_each_basic_and_one_technique_is_hidden() -> None:
    """Setup 4 and 6: "1 cubo de tinta Básica de cada cor [...] aleatoriamente no início da
    fila", "revele 1 e deixe outra virada para baixo"."""
    state = MURAL.start(["A", "B"], "seed", {})
    assert sorted(state["queue"]) == sorted(BASICS)
    view = MURAL.view(state, None)
    assert view["techniques"] == state["techniques"][:1] and view["hidden_techniques"] == 1


def test_disc_sides_option() -> None:
    state = MURAL.start(["A", "B"], "seed", {"disc_sides": "B"})
    assert {d["side"] for d in state["discs"]} == {"B"}
    with pytest.raises(IllegalAction, match="disc_sides"):
        MURAL.start(["A", "B"], "seed", {"disc_sides": "C"})


# -- the turn ----------------------------------------------------------------------------------


def test_a_turn_is_free_actions_one_main_action_free_actions_then_end_turn() -> None:
    """ "o jogador deve realizar uma ação principal e pode escolher executar ações extras em
    qualquer momento do seu turno"."""
    state = table(discs=GEOMETRY, backpacks={"A": ["R", "Y"]})
    assert {"type": "end_turn"} not in MURAL.legal(state, "A")
    state, _ = play(state, {"type": "mix", "paints": ["R", "Y"]}, {"type": "queue", "paint": "R"})
    state, _ = play(state, *ROTATE_P2_BACK)
    legal = MURAL.legal(state, "A")
    assert {"type": "end_turn"} in legal
    assert not any(a["type"] in ("rotate", "paint", "pass") for a in legal), "one main action"
    state, events = play(state, {"type": "end_turn"})
    assert MURAL.to_move(state) == ["B"] and events[-1] == {"type": "turn", "player": "B"}
    told = [e["type"] for e in state["previous"]["events"]]
    assert told == ["mixed", "queued", "ordered", "rotated", "collected"], "the whole turn"


def test_back_leaves_a_choice_before_it_commits() -> None:
    state = table(discs=GEOMETRY)
    before = MURAL.dump(state)
    state, _ = play(state, {"type": "rotate", "kind": "simple"}, {"type": "back"})
    assert state["turn"] == {"main": False, "free": False, "pending": None, "log": []}
    assert state["discs"] == before["discs"]


def test_backpack_limit_applies_at_the_end_of_the_turn_discarding_to_the_queue_end() -> None:
    """ "Caso receba tintas que superem esse limite, o jogador deve descartar o excesso (à sua
    escolha) para voltar ao limite de 5, no final do seu turno" (to the queue end: B)."""
    state = table(discs=GEOMETRY, backpacks={"A": ["Y", "Y", "B", "B", "W"]}, queue=["W"])
    state, _ = play(state, *ROTATE_P2_BACK)
    assert len(seat(state, "A")["backpack"]) == 6
    state, _ = play(state, {"type": "end_turn"})
    assert MURAL.legal(state, "A") == [
        {"type": "discard", "paint": p} for p in ("R", "Y", "B", "W")
    ]
    state, _ = play(state, {"type": "discard", "paint": "Y"})
    assert state["queue"] == ["W", "Y"]
    assert sorted(seat(state, "A")["backpack"]) == sorted(["Y", "B", "B", "W", "R"])
    assert MURAL.to_move(state) == ["B"]


def test_mixing_beyond_the_limit_avoids_the_discard() -> None:
    """Mixing "inclusive depois de pegar uma quantidade de tintas que exceda o limite de 5"."""
    state = table(discs=GEOMETRY, backpacks={"A": ["Y", "Y", "B", "B", "W"]})
    state, _ = play(state, *ROTATE_P2_BACK, {"type": "mix", "paints": ["Y", "Y"]})
    state, _ = play(state, {"type": "end_turn"})
    assert MURAL.to_move(state) == ["B"]


# -- painting ----------------------------------------------------------------------------------


def test_painting_discards_the_cost_to_the_queue_end_in_the_chosen_order() -> None:
    """ "As tintas descartadas são colocadas, na ordem que o jogador desejar, na fila de tintas do
    lado de fora do tabuleiro central" (B ambiguity: appended to the end)."""
    state = table(
        backpacks={"A": ["A", "Y", "W", "R"]},
        queue=["R", "Y", "B", "W"],
        display=["G05", "G01", "G02"],
        deck=["G03", "G04"],
    )
    state, _ = play(state, *PAINT_G05)
    assert MURAL.legal(state, "A") == [{"type": "queue", "paint": p} for p in ("Y", "W", "A")]
    state, _ = play(state, {"type": "queue", "paint": "W"}, {"type": "queue", "paint": "A"})
    assert state["queue"] == ["R", "Y", "B", "W", "W", "A", "Y"]
    assert seat(state, "A")["backpack"] == ["R"]
    assert state["mural"][0][0] == {"card": "G05", "painter": "A", "paints": []}
    assert seat(state, "A")["sprays"] == 6
    assert state["turn"]["main"] is True


def test_painting_discards_after_first_3_option_places_each_paint_behind_the_first_3() -> None:
    """B ambiguity of painting, reading (b), kept as the option painting_discards=after_first_3:
    "insert anywhere after position 3"."""
    state = table(
        backpacks={"A": ["A", "Y", "W"]},
        queue=["R", "Y", "B", "W", "A"],
        display=["G05", "G01", "G02"],
        options={"painting_discards": "after_first_3"},
    )
    state, _ = play(state, *PAINT_G05)
    assert MURAL.legal(state, "A") == [{"type": "place", "paint": p} for p in ("Y", "W", "A")]
    state, _ = play(state, {"type": "place", "paint": "W"})
    assert [a["position"] for a in MURAL.legal(state, "A")] == [3, 4, 5]
    state, _ = play(
        state,
        {"type": "insert", "paint": "W", "position": 3},
        {"type": "place", "paint": "A"},
        {"type": "insert", "paint": "A", "position": 3},
    )
    assert MURAL.legal(state, "A")[0] == {"type": "insert", "paint": "Y", "position": 3}
    state, events = play(state, {"type": "insert", "paint": "Y", "position": 7})
    assert state["queue"] == ["R", "Y", "B", "A", "W", "W", "A", "Y"]
    assert state["turn"]["pending"] is None and events[-1]["type"] == "inserted"


def test_painting_discards_after_first_3_reaches_every_place_of_a_long_queue() -> None:
    """Reading (b): "insert anywhere after position 3": in a long queue every place after the
    first 3 is offered, first as a range, then a place in it, each list within a select menu."""
    from rules.mural.state import insert_positions

    assert insert_positions(2, 1) == [1], "a queue shorter than 3: only its end"
    state = table(
        backpacks={"A": ["R", "Y"]},
        queue=[p for _ in range(8) for p in ("R", "Y", "B", "W")],  # 32 paints
        display=["G01", "G02", "G03"],
        options={"painting_discards": "after_first_3"},
    )
    state, _ = play(state, {"type": "paint", "card": "G01"}, {"type": "cell", "row": 0, "col": 0})
    state, _ = play(state, {"type": "place", "paint": "R"})
    ranges = MURAL.legal(state, "A")
    assert ranges == [
        {"type": "places", "first": 3, "last": 26},
        {"type": "places", "first": 27, "last": 32},
    ]
    reached = set()
    for span in ranges:
        narrowed, _ = play(state, span)
        choices = MURAL.legal(narrowed, "A")
        assert len(choices) <= 25 and choices[-1] == {"type": "back"}
        assert MURAL.legal(play(narrowed, {"type": "back"})[0], "A") == ranges
        reached |= {a["position"] for a in choices if a["type"] == "insert"}
    assert reached == set(range(3, 33)), "places 3 to 32 (27 to 29 among them) are reachable"
    state, _ = play(state, ranges[1], {"type": "insert", "paint": "R", "position": 28})
    assert state["queue"][28] == "R"
    after = MURAL.legal(state, "A")  # the Y waits: ranges again, one place longer
    assert after == [ranges[0], {"type": "places", "first": 27, "last": 33}]


def test_the_display_is_refilled_from_the_deck_top_in_the_painted_cards_place() -> None:
    """ "coloque a carta do topo do baralho, no lugar da carta pintada"."""
    state = table(backpacks={"A": ["A", "Y", "W"]}, display=["G01", "G05", "G02"], deck=["G03"])
    state, _ = play(state, *PAINT_G05)
    state, _ = play(state, {"type": "queue", "paint": "A"}, {"type": "queue", "paint": "Y"})
    assert state["display"] == ["G01", "G03", "G02"] and state["deck"] == []


def test_the_display_shrinks_once_the_deck_is_empty() -> None:
    """C7: "If the deck runs out, the display simply shrinks"."""
    state = table(backpacks={"A": ["A", "Y", "W"]}, display=["G01", "G05", "G02"], deck=[])
    state, _ = play(state, *PAINT_G05, {"type": "queue", "paint": "A"})
    state, _ = play(state, {"type": "queue", "paint": "Y"})
    assert state["display"] == ["G01", "G02"]
    assert MURAL.view(state, None)["deck_top"] is None


def test_painting_the_deck_top_is_refused() -> None:
    """ "a carta do topo do baralho não pode ser escolhida"."""
    state = table(backpacks={"A": ["R", "Y"]}, display=["G02", "G03", "G04"], deck=["G01"])
    with pytest.raises(IllegalAction, match="top card of the deck cannot be painted"):
        play(state, {"type": "paint", "card": "G01"})


def test_a_card_you_cannot_pay_is_refused() -> None:
    state = table(backpacks={"A": ["A", "B"]}, display=["G06", "G01", "G02"])
    with pytest.raises(IllegalAction, match="cannot pay G06"):
        play(state, {"type": "paint", "card": "G06"})


def test_a_taken_cell_is_refused() -> None:
    """ "coloque a carta em algum espaço livre no Mural"."""
    state = table(backpacks={"A": ["R", "Y"]}, display=["G01", "G02", "G03"])
    state["mural"][0][0] = {"card": "G09", "painter": "B", "paints": []}
    state, _ = play(state, {"type": "paint", "card": "G01"})
    with pytest.raises(IllegalAction, match="A1 is already painted"):
        play(state, {"type": "cell", "row": 0, "col": 0})


def test_any_free_cell_takes_a_card_without_completing_a_disc() -> None:
    """ "A colocação de uma carta NÃO precisa formar um disco"."""
    state = table(backpacks={"A": ["R", "Y"]}, display=["G01", "G02", "G03"])
    state, _ = play(state, {"type": "paint", "card": "G01"})
    cells = [a for a in MURAL.legal(state, "A") if a["type"] == "cell"]
    assert len(cells) == 12


def test_a_flexible_cost_keeps_its_paints_on_the_card() -> None:
    """ "as tintas usadas não são descartadas, mas sim colocadas sobre os espaços de tinta"."""
    state = table(backpacks={"A": ["A", "R", "R"]}, display=["G07", "G01", "G02"], queue=[])
    state, _ = play(
        state,
        {"type": "paint", "card": "G07"},
        {"type": "cell", "row": 1, "col": 1},
        {"type": "fill", "paint": "A"},
    )
    assert MURAL.legal(state, "A") == [{"type": "fill", "paint": "R"}]
    state, _ = play(state, {"type": "fill", "paint": "R"})
    assert state["mural"][1][1]["paints"] == ["A", "R"] and state["queue"] == []
    assert seat(state, "A")["backpack"] == ["R"]


def test_a_flexible_cost_fills_every_space() -> None:
    """B ambiguity: "all spaces must be filled, and any paint fits any space"."""
    state = table(backpacks={"A": ["A", "R", "Y"]}, display=["G08", "G07", "G02"])
    painting = {a["card"] for a in MURAL.legal(state, "A") if a["type"] == "paint"}
    assert painting == {"G07"}, "G08 has 4 spaces and the backpack holds 3"


def test_painting_needs_a_spray() -> None:
    state = table(backpacks={"A": ["R", "Y"]}, display=["G01", "G02", "G03"])
    seat(state, "A")["sprays"] = 0
    with pytest.raises(IllegalAction, match="no spray"):
        play(state, {"type": "paint", "card": "G01"})


# -- mixing ------------------------------------------------------------------------------------


def test_mixing_trades_two_basics_for_an_advanced_paint() -> None:
    """ "Troque 2 Tintas Básicas por 1 Tinta Avançada [...] descartadas no final da fila"."""
    state = table(backpacks={"A": ["R", "R", "W"]}, queue=["B"])
    legal = [a for a in MURAL.legal(state, "A") if a["type"] == "mix"]
    assert legal == [{"type": "mix", "paints": p} for p in (["R", "R"], ["R", "W"])]
    state, _ = play(state, {"type": "mix", "paints": ["R", "R"]})
    assert sorted(seat(state, "A")["backpack"]) == ["A", "W"] and state["queue"] == ["B", "R", "R"]
    assert state["turn"]["free"] is True


def test_mixing_without_two_basics_is_refused() -> None:
    state = table(backpacks={"A": ["R", "A"]})
    with pytest.raises(IllegalAction, match="two basic paints"):
        play(state, {"type": "mix", "paints": ["R", "A"]})


# -- techniques --------------------------------------------------------------------------------


def techniques_table(tile: str, **kwargs):
    return table(techniques=[tile, "BT6" if tile != "BT6" else "BT1"], **kwargs)


def test_swap_technique() -> None:
    """Technique 1: "Troque 1 tinta qualquer de sua mochila por uma Tinta Básica. Pegue-a do
    estoque e coloque a que você tinha no final da fila de tintas"."""
    state = techniques_table("BT1", backpacks={"A": ["A"]}, queue=["R"])
    state, _ = play(
        state, {"type": "technique", "tile": "BT1"}, {"type": "swap", "give": "A", "take": "W"}
    )
    me = seat(state, "A")
    assert me["backpack"] == ["W"] and state["queue"] == ["R", "A"]
    assert me["grafiteiros"] == 3 and me["techniques"] == ["BT1"]
    assert state["turn"]["main"] is False, "a free action"


def test_copy_technique() -> None:
    """Technique 2: "Pegue uma tinta do estoque [...] igual a uma tinta qualquer [...] na sua
    mochila"."""
    state = techniques_table("BT2", backpacks={"A": ["A", "R"]})
    state, _ = play(state, {"type": "technique", "tile": "BT2"})
    assert MURAL.legal(state, "A")[:2] == [
        {"type": "copy", "paint": "R"},
        {"type": "copy", "paint": "A"},
    ]
    state, _ = play(state, {"type": "copy", "paint": "A"})
    assert sorted(seat(state, "A")["backpack"]) == ["A", "A", "R"]


def test_queue_pick_technique_takes_one_of_the_first_three_and_compacts() -> None:
    """Technique 3: "Pegue uma das 3 primeiras tintas do começo da fila [...] ajuste a fila"."""
    state = techniques_table("BT3", queue=["R", "Y", "B", "W", "A"])
    state, _ = play(state, {"type": "technique", "tile": "BT3"})
    assert [a for a in MURAL.legal(state, "A") if a["type"] == "pick"] == [
        {"type": "pick", "index": i, "paint": p} for i, p in enumerate("RYB")
    ]
    state, _ = play(state, {"type": "pick", "index": 1, "paint": "Y"})
    assert seat(state, "A")["backpack"] == ["Y"] and state["queue"] == ["R", "B", "W", "A"]


def test_transfer_technique_moves_or_swaps_a_paint_between_discs() -> None:
    """Technique 4: "Passe 1 tinta qualquer de um segmento de um disco para um segmento de outro
    disco. Se o segmento de destino possuir 1 tinta, troque as duas tintas de lugar"."""
    cubes = empty_discs()
    cubes[0][2], cubes[3][5] = "A", "W"
    state = techniques_table("BT4", cubes=cubes)
    state, _ = play(state, {"type": "technique", "tile": "BT4"}, {"type": "disc", "discs": [0]})
    assert [a["segment"] for a in MURAL.legal(state, "A")] == [2]
    state, _ = play(state, choice(state, type="segment", segment=2, paint="A"))
    assert {"type": "disc", "discs": [0]} not in MURAL.legal(state, "A"), "another disc"
    state, _ = play(state, {"type": "disc", "discs": [3]})
    state, _ = play(state, choice(state, type="segment", segment=5, paint="W"))
    assert state["discs"][0]["cubes"][2] == "W" and state["discs"][3]["cubes"][5] == "A"


def test_thrift_paints_without_one_basic_and_counts_as_the_main_action() -> None:
    """Technique 5: "Pinte 1 carta de grafite, sem gastar 1 tinta básica. CONTA COMO SUA AÇÃO
    PRINCIPAL"."""
    state = techniques_table("BT5", backpacks={"A": ["A", "Y"]}, display=["G05", "G01", "G02"])
    assert {"type": "paint", "card": "G05"} not in MURAL.legal(state, "A")
    state, _ = play(state, {"type": "technique", "tile": "BT5"}, *PAINT_G05)
    assert state["mural"][0][0]["card"] == "G05" and seat(state, "A")["backpack"] == []
    assert seat(state, "A")["techniques"] == ["BT5"] and state["turn"]["main"] is True


def test_thrift_asks_which_basic_to_leave_unpaid_when_several_fit() -> None:
    state = techniques_table("BT5", backpacks={"A": ["A", "Y", "W"]}, display=["G05", "G01", "G02"])
    state, _ = play(state, {"type": "technique", "tile": "BT5"}, *PAINT_G05)
    assert MURAL.legal(state, "A") == [
        {"type": "skip", "paint": "Y"},
        {"type": "skip", "paint": "W"},
    ]
    state, _ = play(state, {"type": "skip", "paint": "W"}, {"type": "queue", "paint": "A"})
    assert seat(state, "A")["backpack"] == ["W"]


def test_thrift_gives_no_reduction_on_a_cost_without_basic_paint() -> None:
    """B ambiguity 5c: "Effect 5 on a card whose cost has no basic paint gives no reduction"."""
    state = techniques_table("BT5", backpacks={"A": ["A"]}, display=["G14", "G01", "G02"])
    assert not any(a == {"type": "technique", "tile": "BT5"} for a in MURAL.legal(state, "A"))


def test_thrift_on_a_flexible_card_leaves_one_space_empty() -> None:
    """B ambiguity 5c: "On a flexible card it means one paint space may stay empty, scoring 0
    for that space"."""
    state = techniques_table("BT5", backpacks={"A": ["A"]}, display=["G07", "G01", "G02"])
    state, _ = play(
        state,
        {"type": "technique", "tile": "BT5"},
        {"type": "paint", "card": "G07"},
        {"type": "cell", "row": 0, "col": 0},
        {"type": "fill", "paint": None},
    )
    assert MURAL.legal(state, "A") == [{"type": "fill", "paint": "A"}]
    state, _ = play(state, {"type": "fill", "paint": "A"})
    assert state["mural"][0][0]["paints"] == [None, "A"]
    assert MURAL.view(state, None)["players"][0]["score"]["cards"] == 4


def test_master_turn_rotates_two_discs_collects_and_counts_as_the_main_action() -> None:
    """Technique 6: "Gire 2 discos adjacentes [...] e recolha 1 tinta. CONTA COMO SUA AÇÃO
    PRINCIPAL"."""
    state = techniques_table("BT6", discs=GEOMETRY)
    state, _ = play(
        state,
        {"type": "technique", "tile": "BT6"},
        {"type": "disc", "discs": [1, 2]},
        {"type": "turn", "discs": [1, 2], "steps": [-1, 2]},
    )
    assert state["turn"]["main"] is True and seat(state, "A")["techniques"] == ["BT6"]
    assert MURAL.legal(state, "A")[0]["type"] == "collect"


def test_a_technique_is_once_per_player_per_round_and_every_player_may_use_it() -> None:
    """ "Você não pode realizá-la novamente nesta rodada"; B ambiguity (a): "the limit is once per
    player per tile per round, and the tile can hold several players' pawns"."""
    state = techniques_table("BT2", backpacks={"A": ["R"], "B": ["Y"]})
    state, _ = play(state, {"type": "technique", "tile": "BT2"}, {"type": "copy", "paint": "R"})
    with pytest.raises(IllegalAction, match="already used Copy this round"):
        play(state, {"type": "technique", "tile": "BT2"})
    state["current"] = 1
    assert {"type": "technique", "tile": "BT2"} in MURAL.legal(state, "B")


def test_a_technique_without_a_grafiteiro_is_refused() -> None:
    """ "Se um jogador não possuir mais grafiteiros ele não poderá usar essas ações especiais"."""
    state = techniques_table("BT2", backpacks={"A": ["R"]})
    seat(state, "A")["grafiteiros"] = 0
    with pytest.raises(IllegalAction, match="no grafiteiro left"):
        play(state, {"type": "technique", "tile": "BT2"})


def test_the_face_down_technique_waits_for_round_two() -> None:
    state = table(techniques=["BT2", "BT1"], backpacks={"A": ["R"]})
    with pytest.raises(IllegalAction, match="not revealed"):
        play(state, {"type": "technique", "tile": "BT1"})


# -- passing and rounds ------------------------------------------------------------------------


def test_a_free_action_and_passing_never_share_a_turn() -> None:
    """ "O jogador não pode realizar uma ação livre e passar a vez"."""
    state = table(discs=GEOMETRY, backpacks={"A": ["R", "Y"]})
    state, _ = play(state, {"type": "mix", "paints": ["R", "Y"]}, {"type": "queue", "paint": "R"})
    with pytest.raises(IllegalAction, match="free action and pass"):
        play(state, {"type": "pass"})


def test_a_free_action_is_offered_only_when_a_main_action_can_follow_it() -> None:
    """ "O jogador não pode realizar uma ação livre e passar a vez." With nothing to rotate
    and nothing to paint, copying an advanced paint and then passing would be +2 at the end:
    the copy is not offered, only the pass is."""
    state = table(
        cubes=empty_discs(),
        backpacks={"A": ["A"]},
        display=["G06", "G30", "G13"],
        techniques=["BT2", "BT1"],
    )
    assert MURAL.legal(state, "A") == [{"type": "pass"}]
    mixes = table(
        cubes=empty_discs(),
        backpacks={"A": ["R", "Y", "B"]},
        display=["G12", "G06"],
        techniques=["BT6", "BT1"],
    )
    assert MURAL.legal(mixes, "A") == [
        {"type": "mix", "paints": ["R", "Y"]},  # leaves B and an advanced paint: G12 (AB)
        {"type": "pass"},
    ]


def test_free_actions_that_lead_to_a_main_action_through_others_are_offered() -> None:
    """Two mixes make the two advanced paints G14 needs; after the first one the player may not
    pass, and every choice inside a free technique keeps a main action possible too."""
    state = table(cubes=empty_discs(), backpacks={"A": ["R", "R", "Y", "Y"]}, display=["G14"])
    state, _ = play(state, {"type": "mix", "paints": ["R", "R"]})
    legal = MURAL.legal(state, "A")
    assert {"type": "pass"} not in legal and legal == [{"type": "mix", "paints": ["Y", "Y"]}]
    state, _ = play(state, {"type": "mix", "paints": ["Y", "Y"]})
    assert {"type": "paint", "card": "G14"} in MURAL.legal(state, "A")
    copying = table(
        cubes=empty_discs(),
        backpacks={"A": ["A", "R"]},
        display=["G30"],  # AAR
        techniques=["BT2", "BT1"],
    )
    copying, _ = play(copying, {"type": "technique", "tile": "BT2"})
    assert MURAL.legal(copying, "A") == [{"type": "copy", "paint": "A"}, {"type": "back"}]


def test_the_first_to_pass_in_round_one_takes_the_first_player_marker() -> None:
    """ "Na primeira rodada, o primeiro jogador que passar pega o marcador de primeiro jogador"."""
    state = table(players=3, current="B", first="A")
    state, events = play(state, {"type": "pass"})
    assert state["first"] == 1 and {"type": "first_player", "player": "B"} in events
    state, _ = play(state, {"type": "pass"})  # C
    assert state["first"] == 1 and MURAL.to_move(state) == ["A"]


def test_a_passed_player_plays_again_only_next_round() -> None:
    state = table(players=3, discs=GEOMETRY)
    state, _ = play(state, {"type": "pass"})
    state, _ = play(state, {"type": "pass"})  # B
    assert MURAL.to_move(state) == ["C"]
    state, _ = play(state, *ROTATE_P2_BACK, {"type": "end_turn"})
    assert MURAL.to_move(state) == ["C"], "A and B have passed"


def test_end_of_round_one_returns_grafiteiros_reveals_the_second_technique_and_refills() -> None:
    """ "Cada jogador recolhe os grafiteiros [...] Revele a segunda peça [...] coloque uma tinta em
    cada segmento"; "A próxima rodada se inicia pelo jogador que está com o marcador"."""
    state = table(techniques=["BT2", "BT4"], queue=["A", "W"])
    for s in state["seats"]:
        s["grafiteiros"], s["rotations"], s["techniques"] = 1, {"big": 2, "double": 1}, ["BT2"]
    state["discs"][0]["cubes"][state["discs"][0]["cubes"].index("R")] = None
    state, events = play(state, {"type": "pass"}, {"type": "pass"})
    assert state["round"] == 2 and MURAL.to_move(state) == ["A"]
    for s in state["seats"]:
        assert (s["grafiteiros"], s["techniques"]) == (4, []) and s["rotations"]["big"] == 0
        assert s["passed"] is False
    assert MURAL.view(state, None)["techniques"] == ["BT2", "BT4"]
    assert all(p is not None for d in state["discs"] for p in d["cubes"])
    assert state["queue"] == ["W"], "the one empty segment took the first queue paint"
    assert {"type": "round_over", "round": 1, "revealed": "BT4", "from_stock": 0} in events


def test_a_dry_queue_refills_from_the_stock_in_segment_colours_and_repeats_setup_step_4() -> None:
    """ "Se não houverem mais tintas na fila [...] coloque tintas do estoque que correspondam ao
    segmento de cada disco. Neste caso, repita o passo 4 da preparação"."""
    state = table(discs=GEOMETRY, cubes=empty_discs(), queue=["A"])
    state, _ = play(state, {"type": "pass"}, {"type": "pass"})
    p1 = state["discs"][0]["cubes"]
    assert p1[4] == "A" and p1[5] == "Y" and p1[0] == "R"
    assert sorted(state["queue"]) == sorted(BASICS)
    assert sorted(in_play(state)) == sorted(p for p, n in state["taken"].items() for _ in range(n))


def test_a_queue_emptied_exactly_when_the_discs_are_full_does_not_repeat_step_4() -> None:
    """B ambiguity: "The literal reading is no"."""
    state = table(discs=GEOMETRY, cubes=empty_discs(), queue=["W"] * 32)
    state, _ = play(state, {"type": "pass"}, {"type": "pass"})
    assert state["queue"] == []


def test_the_game_ends_when_everyone_passes_in_round_two() -> None:
    """ "Se todos os jogadores passarem e esta for a segunda rodada, a partida terminou"."""
    state = table()
    state["round"] = 2
    state, events = play(state, {"type": "pass"}, {"type": "pass"})
    assert MURAL.to_move(state) == [] and events[-1]["type"] == "game_over"
    assert MURAL.outcome(state).details["ended_by"] == "round_2"


# -- the early end -----------------------------------------------------------------------------


def triggering_table(players: int, first: str, current: str):
    state = table(
        players=players,
        discs=GEOMETRY,
        first=first,
        current=current,
        backpacks={current: ["R", "Y"]},
        display=["G01", "G02", "G03", "G04"][: 3 if players == 2 else 4],
    )
    seat(state, current)["sprays"] = 1
    return state


PAINT_G01 = ({"type": "paint", "card": "G01"}, {"type": "cell", "row": 0, "col": 0})


def test_the_last_spray_ends_the_game_after_the_seat_right_of_the_first_player() -> None:
    """ "algum jogador utilizar todos os seus sprays [...] a partida continua [...] até que o turno
    do jogador à direita de quem está com o marcador de primeiro jogador tenha acabado"."""
    state = triggering_table(3, first="A", current="A")
    state["round"] = 2  # so that passing keeps the marker where it is
    state, events = play(state, *PAINT_G01, {"type": "queue", "paint": "R"})
    assert {"type": "end_triggered", "player": "A", "reason": "sprays"} in events
    state, _ = play(state, {"type": "end_turn"})
    assert MURAL.to_move(state) == ["B"]
    state, _ = play(state, *ROTATE_P2_BACK, {"type": "end_turn"})
    assert MURAL.to_move(state) == ["C"], "C sits to the right of A"
    state, events = play(state, {"type": "pass"})
    assert MURAL.to_move(state) == [] and events[-1]["type"] == "game_over"


def test_a_trigger_on_the_last_seat_of_the_lap_ends_the_game_with_that_turn() -> None:
    state = triggering_table(3, first="B", current="A")
    state, _ = play(state, *PAINT_G01, {"type": "queue", "paint": "R"}, {"type": "end_turn"})
    assert MURAL.outcome(state).details["ended_by"] == "trigger"


def test_a_full_mural_ends_the_game() -> None:
    """ "o mural for finalizado"."""
    state = triggering_table(2, first="A", current="A")
    seat(state, "A")["sprays"] = 5
    for r, cells in enumerate(state["mural"]):
        for c in range(len(cells)):
            if (r, c) != (0, 0):
                state["mural"][r][c] = {"card": "G09", "painter": "B", "paints": []}
    _, events = play(state, *PAINT_G01, {"type": "queue", "paint": "R"})
    assert {"type": "end_triggered", "player": "A", "reason": "mural"} in events


def test_a_trigger_in_round_one_never_starts_round_two() -> None:
    """B ambiguity: "Part C ends the game there and never starts round 2. A new round never
    begins after the trigger." B passes first and takes the marker, so A (to B's right) plays
    once more, then the game ends."""
    state = triggering_table(2, first="A", current="A")
    state, _ = play(state, *PAINT_G01, {"type": "queue", "paint": "R"}, {"type": "end_turn"})
    state, _ = play(state, {"type": "pass"})
    assert MURAL.to_move(state) == ["A"]
    state, _ = play(state, {"type": "pass"})
    assert MURAL.to_move(state) == [] and state["round"] == 1


def test_a_new_action_while_a_choice_is_open_is_refused() -> None:
    state = table(backpacks={"A": ["R", "Y", "W"]}, display=["G01", "G02", "G03"])
    state, _ = play(state, {"type": "paint", "card": "G01"})
    with pytest.raises(IllegalAction, match="Finish the choice you started first: choose the"):
        play(state, {"type": "mix", "paints": ["R", "W"]})
