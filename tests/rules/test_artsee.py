"""ArtSee rules, one test per rule of the rulebook and per chosen
reading of the component notes A5; names say which."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from rules import GAMES, IllegalAction
from rules.artsee import ARTSEE
from rules.artsee.data import EXHIBITS, MAIN, MASTERPIECES, STARTING
from rules.artsee.engine import ArtSeeState, Gallery, Progress, outcome_of
from rules.protocol import player_range

A, B, C = "a", "b", "c"


def card(featured: str, arrow: str, has: str | None = None, lacks: str | None = None) -> str:
    """The first main card with this featured category and arrow that has (or lacks) a piece."""
    for info in MAIN.values():
        if info.featured != featured or info.arrow != arrow:
            continue
        if (has and has not in info.pieces) or (lacks and lacks in info.pieces):
            continue
        return info.id
    raise LookupError((featured, arrow, has, lacks))


def gallery(player: str, columns: list[list[str]], **kw) -> Gallery:
    return Gallery(
        player=player,
        columns=tuple(tuple(col) for col in columns),
        visitors=tuple(kw.pop("visitors", [0] * len(columns))),
        masterpieces=tuple(kw.pop("masterpieces", ())),
        supply=kw.pop("supply", 5),
        hand=tuple(kw.pop("hand", ())),
        prestige=kw.pop("prestige", 0),
        policy=kw.pop("policy", "always"),
    )


def state_with(*galleries: Gallery, current: int = 0, piles=None, start: int = 0) -> ArtSeeState:
    """A table built for one rule: the galleries given, draw piles of Abstract cards."""
    base = ARTSEE.start([g.player for g in galleries], "rules", {})
    if piles is None:
        piles = ((card("AB", "L", "LA"),) * 3, (card("AB", "R", "LA"),) * 3)
    return replace(
        base,
        galleries=tuple(galleries),
        piles=piles,
        current=current,
        start=start,
        phase="card",
        progress=Progress(),
        asking=(),
    )


def play(state: ArtSeeState, player: str, *actions: dict) -> tuple[ArtSeeState, list[dict]]:
    events: list[dict] = []
    for action in actions:
        state, more = ARTSEE.play(state, player, action)
        events += more
    return state, events


def of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


# -- components and setup -------------------------------------------------------------------------


def test_the_game_is_registered_with_two_to_five_players() -> None:
    assert GAMES["artsee"] is ARTSEE
    assert (ARTSEE.min_players, ARTSEE.max_players) == (2, 5)
    assert player_range(ARTSEE, {}) == (2, 5), "no option widens the range"
    with pytest.raises(IllegalAction, match="2 to 5 players"):
        ARTSEE.start(["a"], "s", {})
    with pytest.raises(IllegalAction, match="2 to 5 players"):
        ARTSEE.start(list("abcdef"), "s", {})
    with pytest.raises(IllegalAction, match="no option"):
        ARTSEE.start(["a", "b"], "s", {"colour": "red"})


def test_the_reconstructed_deck_is_balanced_as_the_notes_say() -> None:
    """A3.4: 8 starting and 12 main cards per featured category, never the featured category
    among the pieces, 2 or 3 pieces each of a different category, arrows half L half R."""
    for deck, per in ((STARTING, 8), (MAIN, 12)):
        assert Counter(c.featured for c in deck.values()) == dict.fromkeys(
            ("AB", "LA", "PO", "SL"), per
        )
        assert Counter(c.arrow for c in deck.values()) == {"L": 2 * per, "R": 2 * per}
    for info in EXHIBITS.values():
        assert info.featured not in info.pieces and len(set(info.pieces)) == len(info.pieces)
        assert len(info.pieces) in (2, 3)
    assert MASTERPIECES["PO-7"].value == 2 and MASTERPIECES["SL-5"].value == 0


@pytest.mark.parametrize(
    ("count", "visitors", "deck"), [(2, 5, 32), (3, 7, 36), (4, 8, 48), (5, 9, 45)]
)
def test_setup_deals_galleries_hands_visitors_and_the_main_deck_by_player_count(
    count: int, visitors: int, deck: int
) -> None:
    """Setup 2, 3, 5, 6, 9: two gallery cards and three hand cards from the starting deck, the
    main deck reduced by player count and split in two piles, visitors 5/7/8/9."""
    state = ARTSEE.start([f"p{i}" for i in range(count)], "setup", {})
    for g in state.galleries:
        assert len(g.columns) == 2 and all(len(col) == 1 for col in g.columns)
        assert len(g.hand) == 3 and g.supply == visitors and g.prestige == 0
        assert all(c in STARTING for col in g.columns for c in col) and set(g.hand) <= set(STARTING)
    sizes = [len(p) for p in state.piles]
    assert sum(sizes) == deck and abs(sizes[0] - sizes[1]) <= 1
    assert all(c in MAIN for pile in state.piles for c in pile)
    everything = [
        c for g in state.galleries for c in (*g.hand, *(x for col in g.columns for x in col))
    ]
    everything += [*state.piles[0], *state.piles[1], *state.box]
    assert sorted(everything) == sorted(EXHIBITS), "every card is dealt, in a pile or boxed"
    assert len(state.supply) == 20
    assert deck % count == 0, "A3.3: every player takes the same number of turns"


def test_two_players_remove_four_cards_of_each_category() -> None:
    state = ARTSEE.start(["a", "b"], "removal", {})
    removed = [c for c in state.box if c in MAIN]
    assert Counter(MAIN[c].featured for c in removed) == {"AB": 4, "LA": 4, "PO": 4, "SL": 4}


def test_five_player_removal_is_three_cards_in_total() -> None:
    """A3.3 reading: "5 players: remove 3 random cards" means 3 in total, not 3 of each."""
    for seed in range(10):
        state = ARTSEE.start(list("abcde"), str(seed), {})
        assert len([c for c in state.box if c in MAIN]) == 3


def test_the_same_seed_deals_the_same_game() -> None:
    assert ARTSEE.start(["a", "b"], "x", {}) == ARTSEE.start(["a", "b"], "x", {})
    assert ARTSEE.start(["a", "b"], "x", {}) != ARTSEE.start(["a", "b"], "y", {})


# -- 1. play a card -----------------------------------------------------------------------------


def test_a_card_goes_on_top_of_a_column_or_into_a_new_column_at_either_end() -> None:
    hand = [card("PO", "L", "AB"), card("PO", "R", "AB"), card("SL", "L", "AB")]
    start = state_with(
        gallery(A, [[card("LA", "L")], [card("LA", "R")]], hand=hand), gallery(B, [["S-AB-01"]])
    )
    assert ARTSEE.legal(start, A) == [{"type": "card", "card": c} for c in sorted(hand)]
    chosen, _ = play(start, A, {"type": "card", "card": hand[0]})
    assert [a["column"] for a in ARTSEE.legal(chosen, A)[:-1]] == [1, 2, "left", "right"]
    assert ARTSEE.legal(chosen, A)[-1] == {"type": "back"}
    on_top, _ = play(chosen, A, {"type": "place", "column": 2})
    assert on_top.galleries[0].columns[1] == (card("LA", "R"), hand[0])
    left, _ = play(chosen, A, {"type": "place", "column": "left"})
    assert left.galleries[0].columns[0] == (hand[0],) and len(left.galleries[0].columns) == 3
    right, _ = play(chosen, A, {"type": "place", "column": "right"})
    assert right.galleries[0].columns[-1] == (hand[0],)
    assert hand[0] not in right.galleries[0].hand


def test_a_column_that_does_not_exist_is_refused_in_words() -> None:
    """Rulebook: "You may not start a new column between existing columns in your gallery." """
    hand = [card("PO", "L", "AB")]
    start = state_with(gallery(A, [["S-AB-01"], ["S-AB-02"]], hand=hand), gallery(B, [["S-LA-01"]]))
    chosen, _ = play(start, A, {"type": "card", "card": hand[0]})
    for bad in (3, 0, "middle", 1.5, True):
        with pytest.raises(IllegalAction, match="columns 1 to 2: choose one of them, or left"):
            ARTSEE.play(chosen, A, {"type": "place", "column": bad})


def test_a_card_not_in_hand_is_refused() -> None:
    start = state_with(gallery(A, [["S-AB-01"]], hand=["M-PO-01"]), gallery(B, [["S-LA-01"]]))
    with pytest.raises(IllegalAction, match="You do not hold that exhibit"):
        ARTSEE.play(start, A, {"type": "card", "card": "M-SL-01"})
    with pytest.raises(IllegalAction, match="You do not hold that exhibit"):
        ARTSEE.play(start, A, {"type": "play", "card": "nonsense", "column": 1})


def test_the_chosen_card_can_be_taken_back_and_stays_secret_until_placed() -> None:
    hand = [card("PO", "L", "AB"), card("SL", "L", "AB")]
    start = state_with(gallery(A, [["S-AB-01"]], hand=hand), gallery(B, [["S-LA-01"]]))
    chosen, events = play(start, A, {"type": "card", "card": hand[1]})
    assert events == [], "choosing tells nobody which card"
    assert ARTSEE.view(chosen, None) == {**ARTSEE.view(start, None), "phase": "column"}
    assert ARTSEE.view(chosen, A)["chosen"] == hand[1]
    back, _ = play(chosen, A, {"type": "back"})
    assert back.phase == "card" and ARTSEE.view(back, A)["chosen"] is None


def test_the_compound_play_is_both_decisions_or_nothing() -> None:
    hand = [card("PO", "L", "AB")]
    start = state_with(gallery(A, [["S-AB-01"]], hand=hand), gallery(B, [["S-LA-01"]]))
    both, _ = play(start, A, {"type": "play", "card": hand[0], "column": "right"})
    step, _ = play(
        start, A, {"type": "card", "card": hand[0]}, {"type": "place", "column": "right"}
    )
    assert both.galleries == step.galleries and both.phase == step.phase
    with pytest.raises(IllegalAction, match="columns 1 to 1"):
        ARTSEE.play(start, A, {"type": "play", "card": hand[0], "column": 7})


# -- 3. earn prestige ---------------------------------------------------------------------------


def test_visitors_score_only_from_the_covered_card_and_return_to_supply() -> None:
    """Rulebook: "Earn one prestige for each visitor on the covered exhibit card. Remove those
    visitors and return them to your personal supply." Other columns keep theirs (A5.7)."""
    mine = gallery(
        A,
        [["S-AB-01"], ["S-SL-01"]],
        visitors=[2, 1],
        supply=2,
        hand=[card("LA", "R", lacks="AB")],
    )
    start = state_with(mine, gallery(B, [["S-LA-01"]]))
    after, events = play(start, A, {"type": "play", "card": mine.hand[0], "column": 1})
    g = after.galleries[0]
    assert g.visitors == (0, 1) and g.supply == 4
    assert of(events, "visitors_scored") == [
        {"type": "visitors_scored", "player": A, "card": "S-AB-01", "prestige": 2}
    ]
    assert g.prestige == 2 + of(events, "arrow")[0]["prestige"]


def test_a_new_column_covers_nothing_and_scores_no_visitors() -> None:
    mine = gallery(A, [["S-AB-01"]], visitors=[3], supply=2, hand=[card("LA", "R")])
    after, events = play(
        state_with(mine, gallery(B, [["S-SL-01"]])),
        A,
        {"type": "play", "card": mine.hand[0], "column": "left"},
    )
    assert of(events, "visitors_scored") == [] and after.galleries[0].visitors == (0, 3)


def test_the_arrow_counts_matching_pieces_on_every_card_of_the_adjacent_column() -> None:
    """Rulebook: "In that adjacent column, count the number of art pieces that match the featured
    category of the exhibit card you played this turn." """
    target = [card("AB", "L", "PO"), card("LA", "L", "PO"), card("SL", "L", lacks="PO")]
    played = card("PO", "L")
    mine = gallery(A, [target, ["S-AB-01"]], hand=[played])
    after, events = play(
        state_with(mine, gallery(B, [["S-LA-01"]])),
        A,
        {"type": "play", "card": played, "column": 2},
    )
    (arrow,) = of(events, "arrow")
    assert arrow["owner"] == A and arrow["column"] == 1 and arrow["pieces"] == 2
    assert after.progress.earned == 2 and after.galleries[0].prestige == 2


def test_arrow_at_a_gallery_end_counts_the_neighbours_nearest_column() -> None:
    """Rulebook: "If it does, count the number of matching art pieces in the nearest column of
    that neighbor's gallery instead." A5.1: the next player sits to your left and your leftmost
    column faces their rightmost; the previous player sits to your right."""
    portrait = card("AB", "L", "PO")
    none = card("AB", "L", lacks="PO")
    b_cols = [[none], [portrait, portrait]]  # B is A's left neighbour: B's rightmost column
    c_cols = [[portrait], [none]]  # C is A's right neighbour: C's leftmost column
    left_arrow, right_arrow = card("PO", "L"), card("PO", "R")
    mine = gallery(A, [["S-SL-01"]], hand=[left_arrow, right_arrow])
    start = state_with(mine, gallery(B, b_cols), gallery(C, c_cols))
    _, events = play(start, A, {"type": "play", "card": left_arrow, "column": "left"})
    assert of(events, "arrow")[0] | {} == {
        "type": "arrow",
        "player": A,
        "direction": "L",
        "owner": B,
        "column": 2,
        "pieces": 2,
        "masterpieces": 0,
        "prestige": 2,
    }
    _, events = play(start, A, {"type": "play", "card": right_arrow, "column": 1})
    assert (of(events, "arrow")[0]["owner"], of(events, "arrow")[0]["column"]) == (C, 1)
    assert of(events, "arrow")[0]["pieces"] == 1


def test_neighbours_for_two_players_the_opponent_is_on_both_sides() -> None:
    """A5.2: "Your left end faces the opponent's right end, and your right end faces their left
    end." """
    portrait = card("AB", "L", "PO")
    b_cols = [[portrait], [card("AB", "L", lacks="PO")], [portrait, portrait, portrait]]
    left_arrow, right_arrow = card("PO", "L"), card("PO", "R")
    start = state_with(
        gallery(A, [["S-SL-01"]], hand=[left_arrow, right_arrow]), gallery(B, b_cols)
    )
    _, events = play(start, A, {"type": "play", "card": left_arrow, "column": 1})
    assert (of(events, "arrow")[0]["owner"], of(events, "arrow")[0]["column"]) == (B, 3)
    assert of(events, "arrow")[0]["pieces"] == 3
    _, events = play(start, A, {"type": "play", "card": right_arrow, "column": 1})
    assert (of(events, "arrow")[0]["owner"], of(events, "arrow")[0]["column"]) == (B, 1)
    assert of(events, "arrow")[0]["pieces"] == 1


def test_a_masterpiece_in_the_gap_pointed_across_adds_one_if_it_matches() -> None:
    """Rulebook: "When you play an exhibit card in a column adjacent to the masterpiece token and
    the arrow points in its direction, you earn one extra prestige if it matches the featured
    category." A non-matching token and one on the other side add nothing."""
    played = card("PO", "L")
    mine = gallery(
        A,
        [["S-SL-01"], ["S-SL-02"]],
        masterpieces=[("PO-5", 1), ("LA-6", 0), ("AB-5", 2)],
        hand=[played],
    )
    _, events = play(
        state_with(mine, gallery(B, [["S-LA-01"]])),
        A,
        {"type": "play", "card": played, "column": 2},
    )
    (arrow,) = of(events, "arrow")
    assert arrow["masterpieces"] == 1 and arrow["prestige"] == arrow["pieces"] + 1


def test_masterpiece_at_a_gallery_end_gives_the_neighbour_plus_one() -> None:
    """Rulebook: "If you place a masterpiece token on one end of your gallery, your neighbor on
    that side also earns one extra prestige when they play an exhibit card in the nearest column
    of their gallery and the arrow points in the direction of your masterpiece token." A5.3: if
    both have a token in that gap, both count. Three players: B's left neighbour is C, whose
    rightmost column faces B's leftmost across C's right-end slot."""
    played = card("PO", "L", lacks="PO")
    b = gallery(B, [["S-SL-01"], ["S-SL-02"]], hand=[played], masterpieces=[("PO-9", 0)])
    c = gallery(C, [["S-AB-01"], ["S-LA-01"]], masterpieces=[("PO-6", 2)])
    start = state_with(gallery(A, [["S-SL-03"]]), b, c, current=1)
    _, events = play(start, B, {"type": "play", "card": played, "column": 1})
    (arrow,) = of(events, "arrow")
    assert arrow["owner"] == C and arrow["column"] == 2 and arrow["masterpieces"] == 2
    without_mine = replace(start, galleries=(start.galleries[0], replace(b, masterpieces=()), c))
    _, events = play(without_mine, B, {"type": "play", "card": played, "column": 1})
    assert of(events, "arrow")[0]["masterpieces"] == 1, "C's end token alone gives B +1"


# -- 4. claim a masterpiece -------------------------------------------------------------------


def claim_table(earned_pieces: int, **mine) -> tuple[ArtSeeState, str]:
    """A to play a Portrait whose arrow (left) points at a column with ``earned_pieces``
    portrait pieces; returns the table and the card."""
    played = card("PO", "L")
    column = [card("AB", "L", "PO")] * earned_pieces or [card("AB", "L", lacks="PO")]
    g = gallery(A, [column, ["S-SL-01"]], hand=[played], **mine)
    return state_with(g, gallery(B, [["S-LA-01"]])), played


def test_claiming_is_offered_for_each_affordable_token_of_the_played_category() -> None:
    """Rulebook: "If that total meets or exceeds the claim requirement [...] you may claim it! You
    may only claim a masterpiece token if it matches the featured category of the exhibit card you
    played this turn." Visitors and pieces add up (A5.6)."""
    start, played = claim_table(4, visitors=[0, 2], supply=3)
    after, _ = play(start, A, {"type": "play", "card": played, "column": 2})
    assert after.progress.earned == 6
    assert ARTSEE.legal(after, A) == [
        {"type": "claim", "token": "PO-5"},
        {"type": "claim", "token": "PO-6"},
        {"type": "pass"},
    ]
    token, _ = play(after, A, {"type": "claim", "token": "PO-6"})
    assert ARTSEE.legal(token, A) == [{"type": "slot", "slot": s} for s in (0, 1, 2)] + [
        {"type": "back"}
    ]
    placed, events = play(token, A, {"type": "slot", "slot": 1})
    assert placed.galleries[0].masterpieces == (("PO-6", 1),)
    assert "PO-6" not in placed.supply and of(events, "claimed")[0]["token"] == "PO-6"
    assert placed.phase == "draw"


def test_claim_refused_for_wrong_category() -> None:
    start, played = claim_table(5)
    after, _ = play(start, A, {"type": "play", "card": played, "column": 2})
    with pytest.raises(IllegalAction, match="You played a Portrait exhibit this turn, so you may"):
        ARTSEE.play(after, A, {"type": "claim", "token": "LA-5"})


def test_claim_refused_for_a_second_token_of_a_category() -> None:
    start, played = claim_table(5, masterpieces=[("PO-5", 0)])
    after, _ = play(start, A, {"type": "play", "card": played, "column": 2})
    assert after.phase == "draw", "no claim possible: the game does not ask"
    with pytest.raises(IllegalAction, match="already have a Portrait masterpiece; each player"):
        ARTSEE.play(after, A, {"type": "claim", "token": "PO-6"})


def test_claim_refused_with_no_free_slot() -> None:
    full = [("AB-5", 0), ("LA-5", 1), ("SL-5", 2)]
    start, played = claim_table(5, masterpieces=full)
    after, _ = play(start, A, {"type": "play", "card": played, "column": 2})
    with pytest.raises(IllegalAction, match="no free slot"):
        ARTSEE.play(after, A, {"type": "claim", "token": "PO-5"})


def test_claim_refused_for_too_little_prestige_this_turn() -> None:
    """Only prestige earned this turn counts, not the player's total."""
    start, played = claim_table(4, prestige=30)
    after, _ = play(start, A, {"type": "play", "card": played, "column": 2})
    with pytest.raises(
        IllegalAction, match="You earned 4 prestige this turn; the Portrait 5 needs 5"
    ):
        ARTSEE.play(after, A, {"type": "claim", "token": "PO-5"})


def test_claim_refused_for_a_token_already_claimed_and_before_playing() -> None:
    start, played = claim_table(6)
    with pytest.raises(IllegalAction, match="Play a card first"):
        ARTSEE.play(start, A, {"type": "claim", "token": "PO-5"})
    after, _ = play(start, A, {"type": "play", "card": played, "column": 2})
    gone = replace(after, supply=tuple(t for t in after.supply if t != "PO-5"))
    with pytest.raises(IllegalAction, match="Portrait 5 masterpiece has been claimed already"):
        ARTSEE.play(gone, A, {"type": "claim", "token": "PO-5"})


def test_a_single_free_slot_is_taken_without_asking_and_a_claim_may_be_declined() -> None:
    start, played = claim_table(5, masterpieces=[("AB-5", 0), ("LA-5", 1)])
    after, _ = play(start, A, {"type": "play", "card": played, "column": 2})
    claimed, _ = play(after, A, {"type": "claim", "token": "PO-5"})
    assert claimed.galleries[0].masterpieces[-1] == ("PO-5", 2) and claimed.phase == "draw"
    passed, events = play(after, A, {"type": "pass"})
    assert of(events, "passed") and "PO-5" in passed.supply and passed.phase == "draw"


def test_the_compound_claim_names_token_and_slot() -> None:
    start, played = claim_table(6)
    after, _ = play(start, A, {"type": "play", "card": played, "column": 2})
    done, _ = play(after, A, {"type": "claim", "token": "PO-6", "slot": 0})
    assert done.galleries[0].masterpieces == (("PO-6", 0),)
    with pytest.raises(IllegalAction, match="Choose a free slot: 0, 1, 2"):
        ARTSEE.play(after, A, {"type": "claim", "token": "PO-6", "slot": 5})


def test_a_new_column_beyond_an_end_token_leaves_it_between_columns() -> None:
    """A5.5: "If you start a new column beyond an end slot that holds your token, the token stays
    put and becomes a between-columns slot." """
    mine = gallery(A, [["S-AB-01"]], masterpieces=[("SL-5", 0), ("LA-5", 1)], hand=["M-PO-01"])
    after, _ = play(
        state_with(mine, gallery(B, [["S-LA-01"]])),
        A,
        {"type": "play", "card": "M-PO-01", "column": "left"},
    )
    assert after.galleries[0].masterpieces == (("SL-5", 1), ("LA-5", 2))


# -- 5. draw a card -----------------------------------------------------------------------------


def drawing_table(piles) -> ArtSeeState:
    played = card("PO", "L", lacks="SL")
    start = state_with(
        gallery(A, [["S-AB-01"]], hand=[played]),
        gallery(B, [["S-LA-01"]], hand=["M-SL-02"]),
        piles=piles,
    )
    after, _ = play(start, A, {"type": "play", "card": played, "column": "right"})
    return after


def test_draw_from_either_pile_and_see_the_backs_on_top() -> None:
    top1, top2 = "M-SL-01", "M-LA-02"
    after = drawing_table(((top1, "M-AB-01"), (top2, "M-AB-02")))
    assert [p["top"] for p in ARTSEE.view(after, B)["piles"]] == ["SL", "LA"]
    assert ARTSEE.legal(after, A) == [{"type": "draw", "pile": 1}, {"type": "draw", "pile": 2}]
    drawn, events = play(after, A, {"type": "draw", "pile": 2})
    assert top2 in drawn.galleries[0].hand and drawn.piles == ((top1, "M-AB-01"), ("M-AB-02",))
    assert of(events, "drew") == [{"type": "drew", "player": A, "pile": 2, "category": "LA"}]


def test_when_a_pile_empties_the_top_card_of_the_other_moves_over() -> None:
    """Rulebook: "If one of the draw piles becomes empty before the other, move the top card of
    the remaining draw pile over to the empty draw pile"."""
    after = drawing_table((("M-SL-01",), ("M-LA-02", "M-AB-02", "M-PO-01")))
    drawn, events = play(after, A, {"type": "draw", "pile": 1})
    assert drawn.piles == (("M-LA-02",), ("M-AB-02", "M-PO-01"))
    assert of(events, "moved") == [{"type": "moved", "from": 2, "to": 1, "category": "LA"}]


def test_with_one_card_left_nothing_moves_and_the_last_pile_is_drawn_without_asking() -> None:
    """Reading of "(if possible)": a lone card stays where it is; no choice, no question."""
    after = drawing_table((("M-SL-01",), ()))
    assert after.phase == "card" and after.galleries[0].hand == ("M-SL-01",)
    assert after.piles == ((), ())


def test_a_draw_from_an_empty_pile_is_refused() -> None:
    after = drawing_table(((), ()))
    assert after.current == 1
    with pytest.raises(IllegalAction, match="Draw pile 2 is empty, and so is pile 1"):
        ARTSEE.play(after, B, {"type": "draw", "pile": 2})
    start = state_with(
        gallery(A, [["S-AB-01"]], hand=["M-PO-01"]),
        gallery(B, [["S-LA-01"]]),
        piles=(("M-SL-01",), ()),
    )
    with pytest.raises(IllegalAction, match="Draw pile 2 is empty; draw from pile 1"):
        ARTSEE.play(start, A, {"type": "draw", "pile": 2})
    with pytest.raises(IllegalAction, match="First choose a card"):
        ARTSEE.play(start, A, {"type": "draw", "pile": 1})


# -- 2. welcome visitors (on the active player's turn, by the opponents) --------------------------


def welcome_table(policy_b: str, policy_c: str = "always", supply_b: int = 5) -> ArtSeeState:
    """A plays a Portrait; B's fronts: Portrait, Abstract, Portrait; C's: Portrait. The state
    after step 2: the opponents have welcomed, or the ones on ``ask`` are asked."""
    played = card("PO", "R", lacks="SL")
    b = gallery(
        B,
        [["S-PO-01"], ["S-AB-01"], ["S-SL-01", "S-PO-02"]],
        policy=policy_b,
        supply=supply_b,
        hand=["M-SL-02"],
    )
    c = gallery(C, [["S-PO-03"]], policy=policy_c, hand=["M-SL-03"])
    mine = gallery(A, [["S-LA-01"], ["S-PO-04"]], hand=[played])
    start = state_with(mine, b, c)
    after, _ = play(start, A, {"type": "play", "card": played, "column": "right"})
    return after


def test_opponents_on_always_welcome_a_visitor_on_each_matching_front_card() -> None:
    """Rulebook: "For each matching exhibit card in their gallery, an opponent may [...] place one
    visitor from their personal supply onto that exhibit card." The active player places none,
    and a covered Portrait (under B's column 3) takes none."""
    after = welcome_table("always")
    assert after.galleries[1].visitors == (1, 0, 1) and after.galleries[1].supply == 3
    assert after.galleries[2].visitors == (1,)
    assert after.galleries[0].visitors == (0, 0, 0), "the active player welcomes nobody"
    assert after.current == 0 and after.phase == "draw"


def test_always_welcomes_from_the_left_while_visitors_last() -> None:
    """Rulebook: "If they run out of visitors in their personal supply, they simply cannot place
    any more for now." """
    after = welcome_table("always", supply_b=1)
    assert after.galleries[1].visitors == (1, 0, 0) and after.galleries[1].supply == 0


def test_never_welcomes_nobody() -> None:
    after = welcome_table("never")
    assert after.galleries[1].visitors == (0, 0, 0) and after.phase == "draw"


def test_ask_lists_only_players_with_a_real_choice() -> None:
    after = welcome_table("ask", "ask")
    assert ARTSEE.to_move(after) == [B, C] and after.phase == "welcome"
    assert ARTSEE.legal(after, B) == [
        {"type": "welcome", "column": 1},
        {"type": "welcome", "column": 3},
        {"type": "enough"},
    ]
    assert ARTSEE.legal(after, A) == []
    no_visitors = welcome_table("ask", "always", supply_b=0)
    assert no_visitors.phase == "draw", "the game never waits on a decision with no choice"


def test_asked_players_choose_each_card_and_may_stop() -> None:
    after = welcome_table("ask", "ask")
    after, _ = play(after, B, {"type": "welcome", "column": 3})
    assert ARTSEE.legal(after, B) == [{"type": "welcome", "column": 1}, {"type": "enough"}]
    after, _ = play(after, C, {"type": "enough"})
    assert ARTSEE.to_move(after) == [B]
    after, _ = play(after, B, {"type": "enough"})
    assert after.galleries[1].visitors == (0, 0, 1) and after.galleries[2].visitors == (0,)
    assert after.phase == "draw" and ARTSEE.to_move(after) == [A], "A's turn goes on"


def test_visitors_on_a_card_that_does_not_match_are_refused() -> None:
    after = welcome_table("ask")
    with pytest.raises(IllegalAction, match="front exhibit of your column 2 is Abstract; visitors"):
        ARTSEE.play(after, B, {"type": "welcome", "column": 2})
    with pytest.raises(IllegalAction, match="columns 1 to 3"):
        ARTSEE.play(after, B, {"type": "welcome", "column": 9})


def test_a_policy_is_a_standing_order_given_at_any_time() -> None:
    """A player not to move may change their policy; one being asked is answered by it at once."""
    start = state_with(gallery(A, [["S-AB-01"]], hand=["M-PO-01"]), gallery(B, [["S-LA-01"]]))
    assert ARTSEE.is_standing_order({"type": "policy", "policy": "ask"})
    changed, events = play(start, B, {"type": "policy", "policy": "ask"})
    assert changed.galleries[1].policy == "ask" and changed.current == 0
    assert events == [{"type": "policy", "player": B, "policy": "ask"}]
    with pytest.raises(IllegalAction, match="always, never or ask"):
        ARTSEE.play(start, B, {"type": "policy", "policy": "sometimes"})
    asked = welcome_table("ask", "ask")
    answered, _ = play(asked, B, {"type": "policy", "policy": "always"})
    assert answered.galleries[1].visitors == (1, 0, 1) and ARTSEE.to_move(answered) == [C]


# -- the end ------------------------------------------------------------------------------------


def test_the_last_turn_is_taken_by_the_player_to_the_right_of_the_start_player() -> None:
    """Rulebook: "At the end of the turn when both draw piles are empty and all player hands are
    empty, the game is over. This means that the player seated to the right of the start player
    will take the last turn of the game." """
    for count in (2, 3, 5):
        state = ARTSEE.start([f"p{i}" for i in range(count)], f"end-{count}", {})
        turns = Counter()
        last = None
        while ARTSEE.to_move(state):
            player = ARTSEE.to_move(state)[0]
            if state.phase == "card":
                turns[player] += 1
                last = player
            state, _ = ARTSEE.play(state, player, ARTSEE.legal(state, player)[0])
        assert last == state.players[(state.start - 1) % count]
        assert len(set(turns.values())) == 1, "everyone took the same number of turns"
        assert not any(state.piles) and not any(g.hand for g in state.galleries)


def test_final_scoring_adds_token_values_and_the_category_bonus() -> None:
    """Rulebook: "each player earns prestige equal to the prestige values of the masterpiece
    tokens [...] In addition, each player earns bonus prestige based on how many masterpiece tokens
    of different categories they have" (A1 values, A2 bonus 1/3/6/10)."""
    a = gallery(A, [["S-AB-01"]], prestige=20, masterpieces=[("PO-9", 0), ("AB-5", 1)])
    b = gallery(B, [["S-LA-01"]], prestige=27)
    result = outcome_of((a, b))
    assert result.scores == {A: 20 + 4 + 0 + 3, B: 27}
    assert result.details["breakdown"][A] == {
        "prestige": 20,
        "masterpieces": 4,
        "bonus": 3,
        "total": 27,
    }


def test_tie_break_on_visitors_in_the_gallery_then_a_shared_win() -> None:
    """Rulebook: "If there is a tie, the tied player with the most visitors remaining in their
    gallery wins. If there is still a tie, the tied players share the victory." A5.9: on cards,
    not in supply."""
    a = gallery(A, [["S-AB-01"], ["S-AB-02"]], prestige=10, visitors=[1, 1], supply=0)
    b = gallery(B, [["S-LA-01"]], prestige=10, visitors=[1], supply=9)
    c = gallery(C, [["S-LA-02"]], prestige=9, visitors=[5])
    result = outcome_of((a, b, c))
    assert result.winners == [A] and result.details["tie_break"]
    shared = outcome_of((a, replace(b, visitors=(2,)), c))
    assert shared.winners == [A, B]


def test_a_finished_game_accepts_no_more_actions() -> None:
    state = ARTSEE.start(["a", "b"], "over", {})
    while ARTSEE.to_move(state):
        player = ARTSEE.to_move(state)[0]
        state, events = ARTSEE.play(state, player, ARTSEE.legal(state, player)[0])
    assert events[-1]["type"] == "game_over" and ARTSEE.outcome(state) is not None
    with pytest.raises(IllegalAction, match="The game is over"):
        ARTSEE.play(state, "a", {"type": "policy", "policy": "ask"})


def test_moves_out_of_turn_and_unknown_actions_are_refused() -> None:
    start = state_with(gallery(A, [["S-AB-01"]], hand=["M-PO-01"]), gallery(B, [["S-LA-01"]]))
    with pytest.raises(IllegalAction, match="It is a's turn"):
        ARTSEE.play(start, B, {"type": "card", "card": "M-PO-01"})
    with pytest.raises(IllegalAction, match="not an ArtSee action"):
        ARTSEE.play(start, A, {"type": "dance"})
    with pytest.raises(IllegalAction, match="not playing"):
        ARTSEE.play(start, "zed", {"type": "policy", "policy": "ask"})


def test_visitors_are_welcomed_in_step_two_before_prestige_claim_and_draw() -> None:
    """Rulebook: "On your turn, there are five steps: Play a Card - Welcome Visitors - Earn
    Prestige - Claim a Masterpiece - Draw a Card." The active player sees the new visitors,
    and the asked opponents answer, before the prestige, the claim and the draw."""
    played = card("PO", "R", lacks="SL")
    b = gallery(B, [["S-PO-01"]], hand=["M-SL-02"])
    mine = gallery(A, [["S-LA-01"], ["S-PO-02"]], visitors=[0, 2], hand=[played])
    start = state_with(mine, b)
    placed, events = play(start, A, {"type": "play", "card": played, "column": 2})
    kinds = [e["type"] for e in events]
    assert kinds[:4] == ["placed", "welcomed", "visitors_scored", "arrow"]
    assert placed.galleries[1].visitors == (1,) and placed.phase == "draw"
    asked = replace(start, galleries=(mine, replace(b, policy="ask")))
    waiting, events = play(asked, A, {"type": "play", "card": played, "column": 2})
    assert [e["type"] for e in events] == ["placed"] and waiting.progress.earned == 0
    assert ARTSEE.to_move(waiting) == [B] and ARTSEE.view(waiting, None)["phase"] == "welcome"
    answered, events = play(waiting, B, {"type": "welcome", "column": 1})
    assert [e["type"] for e in events][:3] == ["welcomed", "visitors_scored", "arrow"]
    assert ARTSEE.to_move(answered) == [A] and answered.phase == "draw"
    assert answered.progress.earned == placed.progress.earned


# -- readings where the rulebook is silent ------------------------------------------------------


def test_the_start_player_is_drawn_from_the_seed_and_the_odd_card_goes_to_pile_one() -> None:
    """Reading of setup 6 and 10: "roughly equal" piles get the odd card on pile 1; the start
    player is chosen randomly (from the seed)."""
    starts = {ARTSEE.start(list("abcde"), str(seed), {}).start for seed in range(30)}
    assert starts == {0, 1, 2, 3, 4}
    state = ARTSEE.start(list("abcde"), "odd", {})
    assert [len(p) for p in state.piles] == [23, 22]


def test_a_player_with_an_empty_hand_is_skipped_while_others_still_play() -> None:
    """Safety net (the setup removals make it impossible in a dealt game): no hang."""
    start = state_with(
        gallery(A, [["S-AB-01"]], hand=["M-PO-01"]),
        gallery(B, [["S-LA-01"]]),
        gallery(C, [["S-SL-01"]], hand=["M-PO-02"]),
        piles=((), ()),
    )
    after, events = play(start, A, {"type": "play", "card": "M-PO-01", "column": 1})
    assert {"type": "skipped", "player": B} in events and after.current == 2


def test_the_owner_sees_what_each_place_would_earn_and_nobody_else_does() -> None:
    """An aid to the column decision: visitors on the covered card plus the arrow, per place."""
    target = [card("AB", "L", "PO"), card("LA", "L", "PO")]
    played = card("PO", "L")
    mine = gallery(A, [target, ["S-AB-01"]], visitors=[0, 2], supply=3, hand=[played])
    start = state_with(mine, gallery(B, [["S-LA-01"]]))
    chosen, _ = play(start, A, {"type": "card", "card": played})
    previews = ARTSEE.view(chosen, A)["previews"]
    assert previews["2"] == 2 + 2, "two visitors on the covered card and two portrait pieces"
    for place, earned in previews.items():
        column = int(place) if place.isdigit() else place
        placed, _ = play(chosen, A, {"type": "place", "column": column})
        assert placed.progress.earned == earned
    assert "previews" not in ARTSEE.view(chosen, B) and "previews" not in ARTSEE.view(chosen, None)
