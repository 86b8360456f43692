"""The paint discs (Part C2-C5): which pairs each kind of rotation aligns, collecting, refills."""

from __future__ import annotations

import pytest

from rules import IllegalAction
from rules.mural import MURAL
from rules.mural import discs as geometry
from rules.mural.state import rotation_options, rotation_possible
from tests.rules.mural_tables import GEOMETRY, empty_discs, play, seat, table

P2_BACK = ((1,), (-1,))  # P2 one step counter-clockwise: its red segment 1 meets P1's red


def test_a_segment_sits_in_slot_segment_plus_orientation() -> None:
    """C2: "Segment s occupies slot (s + o) mod 8, and the segment in a slot is (slot − o)
    mod 8"."""
    disc = {"colours": "RYBWRYBW", "orientation": 3, "cubes": [None] * 8}
    assert geometry.segment_at(disc, 4) == 1
    assert geometry.segment_at(disc, 0) == 5
    assert [geometry.segment_at(disc, slot, 0) for slot in range(8)] == list(range(8))


def test_contacts_join_east_of_the_left_disc_to_west_of_the_right() -> None:
    state = table(discs=GEOMETRY)
    contacts = geometry.aligned_contacts(state["discs"])
    assert [c["segments"] for c in contacts] == [[0, 0], [4, 4], [0, 4]]
    assert [c["same"] for c in contacts] == [False, False, True]


def test_simple_rotation_aligns_only_what_it_turns_to_the_same_colour() -> None:
    """ "Gire 1 disco, 1 passo em qualquer direção, contanto que os segmentos de uma mesma cor se
    tornem alinhados"."""
    state = table(discs=GEOMETRY)
    assert geometry.newly_aligned(state["discs"], P2_BACK) == [0]
    assert geometry.newly_aligned(state["discs"], ((1,), (1,))) == []
    simple = rotation_options(state, "simple")
    assert P2_BACK in simple and ((1,), (1,)) not in simple


def test_big_rotation_counts_only_its_final_position() -> None:
    """ "Girar 1 disco, até 4 passos": P2 one step aligns red, three steps pass it by (C4: "For
    the big rotation, only the final position counts")."""
    discs = [GEOMETRY[0], ("BBBRBBBB", 0), *GEOMETRY[2:]]
    state = table(discs=discs)
    assert geometry.newly_aligned(state["discs"], ((1,), (1,))) == [0]
    assert geometry.newly_aligned(state["discs"], ((1,), (3,))) == []
    on_p2 = [r for r in rotation_options(state, "big") if r[0] == (1,)]
    assert on_p2 == [((1,), (1,))]
    assert {steps for _, (steps,) in rotation_options(state, "big")} <= {1, 2, 3, 4, -1, -2, -3}


def test_double_rotation_turns_two_adjacent_discs_one_step_each() -> None:
    """ "Girar 2 discos adjacentes, 1 passo em qualquer direção, cada um deles": every contact
    touching either disc can align (here P3 moving makes a new yellow pair with P4)."""
    state = table(discs=GEOMETRY)
    options = rotation_options(state, "double")
    assert options
    for discs, steps in options:
        assert discs[1] == discs[0] + 1 and set(steps) <= {1, -1}
    assert geometry.newly_aligned(state["discs"], ((1, 2), (1, 1))) == [2]


def test_master_turn_turns_two_adjacent_discs_up_to_two_steps_each() -> None:
    """Technique 6: "Gire 2 discos adjacentes em até 2 passos em qualquer direção, cada um"."""
    state = table(discs=GEOMETRY)
    options = rotation_options(state, "master")
    assert ((1, 2), (-1, 2)) in options
    for _, steps in options:
        assert set(steps) <= {1, 2, -1, -2}, "both discs move (B ambiguity 6b)"


def test_master_turn_may_hold_option_lets_one_disc_stay() -> None:
    state = table(discs=GEOMETRY, options={"master_turn_may_hold": True})
    assert ((0, 1), (0, -1)) in rotation_options(state, "master")


def test_a_rotation_that_aligns_only_empty_pairs_is_illegal() -> None:
    """B ambiguity (a): "a legal rotation must allow a collection"."""
    cubes = [list(c) for c, _ in GEOMETRY]
    cubes[0][0] = None
    cubes[1][1] = None
    state = table(discs=GEOMETRY, cubes=cubes)
    assert geometry.newly_aligned(state["discs"], P2_BACK) == [0]
    assert P2_BACK not in rotation_options(state, "simple")
    state, _ = play(state, {"type": "rotate", "kind": "simple"})
    with pytest.raises(IllegalAction, match="nothing to collect"):
        play(state, {"type": "disc", "discs": [1]})


@pytest.mark.parametrize("kind", ["simple", "big", "double", "master"])
def test_a_kind_of_rotation_is_possible_exactly_when_it_has_options(kind: str) -> None:
    """The menu's quick check (stopped at the first rotation that collects) agrees with the
    full list, with every pair full, with only empty pairs aligned, with every disc empty."""
    full = table(discs=GEOMETRY)
    cubes = [list(c) for c, _ in GEOMETRY]
    cubes[0][0] = None
    cubes[1][1] = None
    emptied = table(discs=GEOMETRY, cubes=cubes)
    bare = table(discs=GEOMETRY, cubes=[[None] * 8 for _ in GEOMETRY])
    for state in (full, emptied, bare):
        assert rotation_possible(state, kind) == bool(rotation_options(state, kind))
    assert not rotation_possible(bare, kind)
    assert rotation_possible(full, kind)


def test_pairs_aligned_in_earlier_turns_cannot_be_collected() -> None:
    """ "Tintas em alinhamentos feitos em turnos anteriores não podem ser escolhidas": the old
    yellow pair between P3 and P4 offers nothing when P2 turns."""
    state = table(discs=GEOMETRY)
    assert geometry.collectable(state["discs"], P2_BACK) == [(0, 0), (1, 1)]


def test_two_new_pairs_may_give_one_paint_from_either_pair() -> None:
    """B ambiguity (b): "you may choose either, but take only 1 paint in total"."""
    discs = [GEOMETRY[0], GEOMETRY[1], ("BBBBBBBB", 0), GEOMETRY[3]]
    state = table(discs=discs)
    assert geometry.newly_aligned(state["discs"], P2_BACK) == [0, 1]
    state, _ = play(
        state,
        {"type": "rotate", "kind": "simple"},
        {"type": "disc", "discs": [1]},
        {"type": "turn", "discs": [1], "steps": [-1]},
    )
    choices = MURAL.legal(state, "A")
    assert [(a["type"], a["disc"], a["segment"], a["paint"], a["at"]) for a in choices] == [
        ("collect", 0, 0, "R", "E"),
        ("collect", 1, 1, "R", "W"),
        ("collect", 1, 5, "B", "E"),
        ("collect", 2, 4, "B", "W"),
    ]
    state, _ = play(state, choices[3])
    assert seat(state, "A")["backpack"] == ["B"]
    assert state["discs"][2]["cubes"][4] is None
    assert not any(a["type"] == "collect" for a in MURAL.legal(state, "A"))


def test_the_collected_paint_need_not_match_its_segment() -> None:
    """ "A cor da tinta obtida não precisa ser a mesma dos segmentos alinhados"."""
    cubes = [[None] * 8 for _ in range(4)]
    cubes[0][0] = "A"  # an advanced paint on P1's red segment
    state = table(discs=GEOMETRY, cubes=cubes)
    state, _ = play(
        state,
        {"type": "rotate", "kind": "simple"},
        {"type": "disc", "discs": [1]},
        {"type": "turn", "discs": [1], "steps": [-1]},
    )
    assert seat(state, "A")["backpack"] == ["A"], "a single choice is collected at once"
    assert state["turn"]["main"] is True


def test_simple_rotation_needs_no_grafiteiro() -> None:
    """ "Para realizar o giro simples, um jogador NÃO usa seus grafiteiros"."""
    state = table(discs=GEOMETRY)
    seat(state, "A")["grafiteiros"] = 0
    kinds = [a["kind"] for a in MURAL.legal(state, "A") if a["type"] == "rotate"]
    assert kinds == ["simple"]


def test_advanced_rotations_cost_a_grafiteiro_twice_per_round_per_player() -> None:
    """ "cada ação pode ser usada até duas vezes em cada rodada", per player (B ambiguity c)."""
    state = table(discs=GEOMETRY)
    after, _ = play(
        state,
        {"type": "rotate", "kind": "big"},
        {"type": "disc", "discs": [1]},
        {"type": "turn", "discs": [1], "steps": [-1]},
        {"type": "collect", "disc": 0, "segment": 0, "paint": "R", "at": "E"},
    )
    me = seat(after, "A")
    assert me["grafiteiros"] == 3 and me["rotations"] == {"big": 1, "double": 0}
    seat(state, "A")["rotations"]["big"] = 2
    assert {"type": "rotate", "kind": "big"} not in MURAL.legal(state, "A")
    with pytest.raises(IllegalAction, match="twice this round"):
        play(state, {"type": "rotate", "kind": "big"})
    state["current"] = 1
    assert {"type": "rotate", "kind": "big"} in MURAL.legal(state, "B")


def test_refill_order_starts_at_the_west_slot_of_p1_and_goes_clockwise_disc_by_disc() -> None:
    """End of round 1, C5: "for P1, then P2, P3, P4, walk the slots in the order
    4,5,6,7,0,1,2,3"; leftover queue paints slide to the front in order."""
    queue = [f"q{i}" for i in range(34)]
    state = table(discs=GEOMETRY, cubes=empty_discs())
    from_stock = geometry.refill(state["discs"], queue)
    assert from_stock == [] and queue == ["q32", "q33"]
    p1, p2 = state["discs"][0]["cubes"], state["discs"][1]["cubes"]
    # P1 (orientation 0): slot 4 holds segment 4, then 5, 6, 7, 0, 1, 2, 3.
    assert [p1[s] for s in (4, 5, 6, 7, 0, 1, 2, 3)] == [f"q{i}" for i in range(8)]
    # P2 (orientation 4): slot 4 holds segment 0, then 1, ..., 7.
    assert p2 == [f"q{i}" for i in range(8, 16)]


def test_refill_fills_only_empty_segments() -> None:
    """B ambiguity (a) of the end of round: "a segment holds at most 1 paint"."""
    cubes = [list(c) for c, _ in GEOMETRY]
    cubes[0][5] = None
    state = table(discs=GEOMETRY, cubes=cubes)
    queue = ["A", "R"]
    geometry.refill(state["discs"], queue)
    assert state["discs"][0]["cubes"][5] == "A" and queue == ["R"]
