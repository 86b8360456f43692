"""Street Kings rules, one test per rule: the rulebook's own examples and numbers, each §3
reading of the component notes (named after it), each variant, and every refused move."""

from __future__ import annotations

from collections import Counter

import pytest

from rules import GAMES, IllegalAction
from rules.street_kings import STREET_KINGS as GAME
from rules.street_kings.data import CARS, CARS_BY_CLASS, LOCATIONS, UPGRADES, upgrade_of
from rules.street_kings.race import trade_up
from rules.street_kings.table import Table, classify_finish, half_up, noz_policies
from tests.rules.street_kings_tables import give, moves_of, new_game, race, seat


def refused(state, player, action) -> str:
    with pytest.raises(IllegalAction) as caught:
        GAME.play(state, player, action)
    return caught.value.reason


# -- setup


def test_registered_for_two_to_four_players():
    assert GAMES["street-kings"] is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    for count in (1, 5):
        with pytest.raises(IllegalAction, match="2 to 4 players"):
            GAME.start([f"p{i}" for i in range(count)], "s", {})


@pytest.mark.parametrize("players,slots", [(2, 2), (3, 2), (4, 3)])
def test_setup_deals_as_the_rulebook_says(players, slots):
    """ "Deal out two "D" class cars to each player [...] Put the remaining D class cars out of
    the game", a green cube on 2, "reveal 3 cars from the C class deck", 3 track cards each,
    upgrades "number of players plus 1", No Parking in a 2-3 player game."""
    state = GAME.start([f"p{i}" for i in range(players)], "setup", {})
    for place in state["seats"]:
        assert [CARS[car["id"]].cls for car in place["cars"]] == ["D", "D"]
        assert all(car["upgrades"] == [] for car in place["cars"])
        assert place["credits"] == 2 and len(place["hand"]) == 3
    assert len(state["out_of_game"]) == 10 - 2 * players and state["car_decks"]["D"] == []
    assert len(state["dealership"]["C"]) == 3 and state["revealed"] == ["C"]
    assert len(state["shop"]) == players + 1
    assert len(state["show"]) == slots
    assert len(state["location_deck"]) == 24 - 3 * players


def test_the_first_round_is_a_d_race_without_asking():
    """ "You can only choose a class in which you own a car, therefore for the first round, the
    race will be a "D" class event." With one possible answer nobody is asked."""
    state = new_game()
    assert state["race_class"] == "D" and state["finish_line"] == 12
    assert state["phase"] == "action"


# -- the car show, selling, buying


def test_car_show_example_3000_1000_1000_1000_0_earns_6000():
    """ "placing a car [...] whose car and upgrades show beauty values of 3000, 1000, 1000, 1000
    and 0 will earn you 6000 credits." """
    state = new_game()
    give(
        state, "p0", cars=[("C09", ["engine1-1", "turbo1-1", "suspension1-1", "noz-1"])], credits=2
    )
    beauties = [CARS["C09"].beauty] + [
        UPGRADES[c].beauty for c in ("engine1", "turbo1", "suspension1", "noz")
    ]
    assert beauties == [3, 1, 1, 1, 0]
    after, events = GAME.play(state, "p0", {"type": "show", "car": "C09"})
    assert seat(after, "p0")["credits"] == 2 + 6
    assert events[0] == {"type": "car_show", "player": "p0", "car": "C09", "slot": 1, "credits": 6}
    assert after["show"][0] == {"player": "p0", "car": "C09"}


def test_a_car_at_the_show_cannot_race_or_be_upgraded():
    """ "that car remains there for the whole round, which means you won't be able to race with it
    later or upgrade it during this round." """
    state = new_game()
    give(state, "p0", cars=[("D01", []), ("D02", [])], credits=20)
    state, _ = GAME.play(state, "p0", {"type": "show", "car": "D01"})
    table = Table(state)
    assert table.eligible_cars("p0") == ["D02"]
    state["current"] = 0
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    buys = [a for a in GAME.legal(state, "p0") if a["type"] == "buy" and "car" in a]
    assert buys and all(a["car"] == "D02" for a in buys)


def test_selling_gives_half_rounded_up():
    """ "You then gain half the value in credits (rounded up)": an Engine Tune III (7000)
    sells for 4000."""
    assert half_up(7) == 4 and half_up(6) == 3
    state = new_game()
    give(state, "p0", cars=[("D01", ["engine3-1"]), ("D02", [])], credits=0)
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    state, events = GAME.play(state, "p0", {"type": "sell", "card": "engine3-1"})
    # Nothing else to sell: the visit moves on to buying by itself.
    assert {"type": "sale", "player": "p0", "value": 7, "credits": 4} in events
    assert "engine3-1" in state["junk"]


def test_rounding_sums_the_whole_sale_before_halving():
    """§3.11: "Sum all cards sold in the action, halve, round up": NOZ (3000) and a crew member
    (3000) sold together give 3000, not 2000 + 2000."""
    state = new_game()
    give(state, "p0", cars=[("D01", ["noz-1"])], credits=0, crew=["gearhead-1"])
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    state, _ = GAME.play(state, "p0", {"type": "sell", "card": "noz-1"})
    state, _ = GAME.play(state, "p0", {"type": "sell", "card": "gearhead-1"})
    assert seat(state, "p0")["credits"] == 3


def test_a_car_is_sold_with_its_upgrades_for_half_rounded_up():
    """ "SELL a car along with all its upgrades. Add the value of the car and all the upgrades on
    it and discard those cards to gain half that amount in credits (rounded up)." 8000 + 2000 +
    3000 = 13000 -> 7000."""
    state = new_game()
    give(state, "p0", cars=[("C09", ["engine1-1", "noz-1"]), ("D01", [])], credits=0)
    state, _ = GAME.play(state, "p0", {"type": "dealer"})
    state, _ = GAME.play(state, "p0", {"type": "sell_car", "car": "C09"})
    assert seat(state, "p0")["credits"] == 7
    assert state["car_discard"]["C"] == ["C09"]
    assert {"engine1-1", "noz-1"} <= set(state["junk"])


def test_buying_an_upgrade_binds_it_to_a_car_and_takes_no_new_card():
    """ "place that card under the car you want to install it on [...] When you buy an upgrade,
    do NOT reveal another card from the deck." Crew are "kept face up in front of you"."""
    state = new_game()
    state["shop"] = ["engine1-1", "gearhead-1", "noz-1"]
    give(state, "p0", cars=[("D01", []), ("D02", [])], credits=5)
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    assert state["phase"] == "shop-buy"  # nothing to sell: straight to buying
    labels = GAME.legal(state, "p0")
    assert {"type": "buy", "card": "gearhead-1"} in labels
    assert {"type": "buy", "card": "engine1-1", "car": "D02"} in labels
    assert labels[-1] == {"type": "buy_nothing"}
    state, _ = GAME.play(state, "p0", {"type": "buy", "card": "engine1-1", "car": "D02"})
    assert seat(state, "p0")["cars"][1]["upgrades"] == ["engine1-1"]
    assert seat(state, "p0")["credits"] == 3
    assert state["shop"] == ["gearhead-1", "noz-1"]
    assert state["current"] == 1  # one action per turn


def test_buying_a_c_car_reveals_the_b_row_and_refills_the_c_row():
    """ "When you buy a car, reveal a new one immediately from the same class and if the class
    above does not have any cars showing, reveal 3 cards from that deck as well." """
    state = new_game()
    give(state, "p0", credits=10)
    bought = state["dealership"]["C"][0]
    state, _ = GAME.play(state, "p0", {"type": "dealer"})
    state, _ = GAME.play(state, "p0", {"type": "done_selling"})
    state, _ = GAME.play(state, "p0", {"type": "buy_car", "car": bought})
    assert bought in [car["id"] for car in seat(state, "p0")["cars"]]
    assert seat(state, "p0")["credits"] == 10 - CARS[bought].price
    assert len(state["dealership"]["C"]) == 3 and bought not in state["dealership"]["C"]
    assert len(state["dealership"]["B"]) == 3 and "B" in state["revealed"]


def test_trade_in_checks_classes_owned_when_the_visit_began():
    """§3.7: selling your only C car and buying a B car in the same visit works."""
    state = new_game()
    state["dealership"]["B"] = ["B01"]
    give(state, "p0", cars=[("D01", []), ("C01", [])], credits=9)
    state, _ = GAME.play(state, "p0", {"type": "dealer"})
    state, _ = GAME.play(state, "p0", {"type": "sell_car", "car": "C01"})
    assert seat(state, "p0")["credits"] == 12
    assert {"type": "buy_car", "car": "B01"} in GAME.legal(state, "p0")


def test_selling_the_last_car_needs_a_replacement_in_reach():
    """§3.8 (house safeguard): a player without cars could never play again, so the last car is
    sold only when a replacement can be bought in the same visit, and then "buy nothing" is not
    offered."""
    state = new_game()
    give(state, "p0", cars=[("D01", [])], credits=0)
    assert {"type": "dealer"} not in GAME.legal(state, "p0")
    assert refused(state, "p0", {"type": "dealer"}).startswith("The dealership has no car you")
    give(state, "p0", credits=5)  # 5000 + 1000 for the D car buys a 6000 C car
    state, _ = GAME.play(state, "p0", {"type": "dealer"})
    state, _ = GAME.play(state, "p0", {"type": "sell_car", "car": "D01"})
    assert {"type": "buy_nothing"} not in GAME.legal(state, "p0")


def test_a_long_shop_decision_is_split_in_two():
    """Small decisions: 5 shop cards for 6 cars would be 31 choices; the player first picks the
    card, then the car."""
    state = new_game()
    state["shop"] = ["engine1-1", "turbo1-1", "suspension1-1", "brakes1-1", "noz-1"]
    give(state, "p0", cars=[(c, []) for c in ("D01", "D02", "C01", "C02", "B01", "A01")], credits=9)
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    first = GAME.legal(state, "p0")
    assert first[0] == {"type": "narrow", "to": "engine1-1"} and len(first) == 6
    state, _ = GAME.play(state, "p0", {"type": "narrow", "to": "noz-1"})
    second = GAME.legal(state, "p0")
    assert len(second) == 7 and second[0] == {"type": "buy", "card": "noz-1", "car": "D01"}
    state, _ = GAME.play(state, "p0", {"type": "buy", "card": "noz-1", "car": "A01"})
    assert seat(state, "p0")["cars"][-1]["upgrades"] == ["noz-1"]


def test_a_long_sale_is_split_by_car():
    """Six cars with four parts each and a crew member: 25 cards to sell; first the car."""
    state = new_game()
    parts = [f"{kind}1-{n}" for kind in ("engine", "turbo", "suspension", "brakes") for n in (1,)]
    cars = [
        (c, [p.replace("-1", f"-{i + 1}") for p in parts])
        for i, c in enumerate(("D01", "D02", "C01", "C02", "B01"))
    ]
    give(
        state,
        "p0",
        cars=[*cars, ("A01", ["engine2-1", "turbo2-1", "suspension2-1", "brakes2-1"])],
        crew=["wheelman-1"],
    )
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    first = GAME.legal(state, "p0")
    assert [a.get("to") for a in first[:-1]] == ["D01", "D02", "C01", "C02", "B01", "A01", "crew"]
    state, _ = GAME.play(state, "p0", {"type": "narrow", "to": "crew"})
    assert GAME.legal(state, "p0") == [
        {"type": "sell", "card": "wheelman-1"},
        {"type": "done_selling"},
    ]
    state, _ = GAME.play(state, "p0", {"type": "sell", "card": "wheelman-1"})
    assert len(GAME.legal(state, "p0")) == 25, "24 parts and done: short enough to show whole"


# -- location cards and qualifying


def test_choosing_a_location_draws_one_then_places_one_face_down():
    """ "draw a location card from the deck. You must then place one of your location cards, from
    your hand, face down on any available location spot on the board." """
    state = new_game()
    deck_top = state["location_deck"][0]
    state, events = GAME.play(state, "p0", {"type": "location"})
    assert deck_top in seat(state, "p0")["hand"] and len(seat(state, "p0")["hand"]) == 4
    assert all("card" not in e for e in events), "the drawn card stays secret"
    state, events = GAME.play(state, "p0", {"type": "place", "card": deck_top, "spot": 2})
    assert state["spots"][1] == {"card": deck_top, "by": "p0", "revealed": False}
    assert GAME.view(state, None)["spots"][1]["card"] is None
    assert GAME.view(state, "p0")["spots"][1]["card"] == deck_top
    assert GAME.view(state, "p1")["spots"][1]["card"] is None


def test_the_location_deck_reshuffles_its_discard():
    """ "If the deck is empty, shuffle the discard and make a new deck." """
    state = new_game()
    state["location_discard"], state["location_deck"] = state["location_deck"], []
    state, events = GAME.play(state, "p0", {"type": "location"})
    assert {"type": "reshuffled", "deck": "locations"} in events
    assert state["location_discard"] == []


def test_qualifying_takes_a_lane_and_keeps_the_player_acting():
    """ "Placing your pawn on the starting grid does not remove you from the action round." """
    state = new_game(3)
    state, _ = GAME.play(state, "p0", {"type": "qualify", "lane": 3})
    state, _ = GAME.play(state, "p1", {"type": "pass"})
    state, _ = GAME.play(state, "p2", {"type": "location"})
    card = seat(state, "p2")["hand"][0]
    state, _ = GAME.play(state, "p2", {"type": "place", "card": card, "spot": 1})
    assert GAME.to_move(state) == ["p0"]
    assert not any(a["type"] == "qualify" for a in GAME.legal(state, "p0"))


def test_the_action_phase_ends_when_all_have_qualified_or_passed():
    """§3.2: the phase ends the moment everyone is qualified or passed; the race follows."""
    state = new_game()
    state, _ = GAME.play(state, "p0", {"type": "qualify", "lane": 2})
    state, events = GAME.play(state, "p1", {"type": "qualify", "lane": 1})
    assert state["phase"] == "race-car" and GAME.to_move(state) == ["p0"]
    state, _ = GAME.play(state, "p0", GAME.legal(state, "p0")[0])
    state, events = GAME.play(state, "p1", GAME.legal(state, "p1")[0])
    assert any(e["type"] == "race_over" for e in events)
    assert state["round"] == 2


def test_pass_skips_the_race_for_a_player_who_has_not_qualified():
    """§3.3: Pass leaves the action phase; an unqualified player then skips the race."""
    state = new_game()
    give(state, "p1", cars=[("D03", [])])
    state, _ = GAME.play(state, "p0", {"type": "pass"})
    assert GAME.to_move(state) == ["p1"]
    state, events = GAME.play(state, "p1", {"type": "qualify", "lane": 4})
    results = next(e for e in events if e["type"] == "results")
    assert [p["player"] for p in results["places"]] == ["p1"]


# -- the race


def test_rulebook_race_example_moves_by_each_stat_and_pays_only_the_second_card():
    """ "This example track will start with handling, then top speed, then acceleration and
    finally end with braking. Only the second card is used in giving prizes to the players.
    5000 for 1st, 4000 for second." Card 1 pays 4000 to a winner, card 2 pays 5000."""
    state = new_game()
    give(state, "p0", cars=[("D03", [])], credits=0)  # TS 3, AC 2, HA 2, BR 1
    give(state, "p1", cars=[("D01", [])], credits=0)  # 2 everywhere
    assert LOCATIONS["L07"].prizes == (1, 2, 3, 4) and LOCATIONS["L18"].prizes == (2, 3, 4, 5)
    state, events = race(state, {"p0": 1, "p1": 2}, ("L07", "L18"))
    stats = [e["stat"] for e in events if e["type"] == "moved" and e["player"] == "p0"]
    assert stats == ["HA", "TS", "AC", "BR", "HA", "TS"]
    assert moves_of(events, "p0") == [2, 3, 2, 1, 2, 3]
    results = next(e for e in events if e["type"] == "results")
    assert [(p["player"], p["credits"], p["trophy"]) for p in results["places"]] == [
        ("p0", 5, "gold"),
        ("p1", 4, "silver"),
    ]
    assert seat(state, "p0")["credits"] == 5 and seat(state, "p1")["credits"] == 4


def test_lane_order_decides_who_finishes_first():
    """ "car in lane 1 will move first, then car in lane 2 [...] taking this action early can mean
    the difference between winning and losing the race." Same stats: the lower lane wins."""
    for lanes, winner in (({"p0": 1, "p1": 2}, "p0"), ({"p1": 1, "p0": 2}, "p1")):
        state = new_game()
        give(state, "p0", cars=[("D01", [])])
        give(state, "p1", cars=[("D02", [])])
        state, _ = race(state, lanes, ("L01", "L02"))
        assert state["last_race"]["places"][0]["player"] == winner


def test_laps_go_back_to_the_first_location_card():
    """ "If a car does not reach the finish line when all 4 location stats have been visited,
    continue using the first location card, as though you're doing laps." """
    state = new_game()
    give(state, "p0", cars=[("D01", [])])
    give(state, "p1", cars=[("D02", [])])
    state, events = race(state, {"p0": 1, "p1": 2}, ("L01", "L02"), finish_line=20)
    stats = [e["stat"] for e in events if e["type"] == "moved" and e["player"] == "p0"]
    assert stats == ["TS", "AC", "TS", "HA", "TS", "AC", "TS", "HA", "TS", "AC"]
    assert events.count({"type": "location_revealed", "spot": 2, "card": "L02"}) == 1


def test_red_penalty_hits_only_the_winners_part_of_that_stat():
    """ "the player who came in 1st discards an upgrade of that stat from the car used in the
    race, (however, this does not apply to CREW cards.)" §3.24: nor NOZ; other parts stay."""
    state = new_game()
    give(state, "p0", cars=[("D01", ["brakes1-1", "engine1-1"])], crew=["brake_specialist-1"])
    give(state, "p1", cars=[("D02", ["brakes2-1"])])
    state, events = race(state, {"p0": 1, "p1": 2}, ("L07", "L18"))
    assert state["last_race"]["places"][0]["player"] == "p0"
    assert {"type": "penalty", "player": "p0", "stat": "BR", "card": "brakes1-1"} in events
    assert seat(state, "p0")["cars"][0]["upgrades"] == ["engine1-1"]
    assert seat(state, "p0")["crew"] == ["brake_specialist-1"]
    assert seat(state, "p1")["cars"][0]["upgrades"] == ["brakes2-1"], "only the winner pays"
    assert "brakes1-1" in state["junk"]


def test_only_the_second_cards_red_icon_applies():
    """§3.19: a red icon on the first card is just a movement segment."""
    state = new_game()
    give(state, "p0", cars=[("D01", ["brakes1-1"])])
    give(state, "p1", cars=[("D02", [])])
    state, events = race(state, {"p0": 1, "p1": 2}, ("L18", "L01"))
    assert not any(e["type"] == "penalty" for e in events)
    assert seat(state, "p0")["cars"][0]["upgrades"] == ["brakes1-1"]


def test_prizes_with_fewer_racers_pay_the_places_reached():
    """§3.23: three racers take the 1st, 2nd and 3rd prizes; 4th is not paid."""
    state = new_game(4)
    for player, car in zip(("p0", "p1", "p2", "p3"), ("D01", "D02", "D03", "D04"), strict=True):
        give(state, player, cars=[(car, [])], credits=0)
    state, _ = race(state, {"p0": 1, "p1": 2, "p2": 3}, ("L07", "L18"))
    places = state["last_race"]["places"]
    assert [p["credits"] for p in places] == [5, 4, 3]
    assert [p["trophy"] for p in places] == ["gold", "silver", "bronze"]
    assert seat(state, "p3")["credits"] == 0


def test_crew_and_upgrades_add_stars_for_the_race():
    """ "This upgrade will add STARS to the stats of that car"; crew join the car at race start
    (§3.15), one per artwork."""
    state = new_game()
    give(state, "p0", cars=[("D01", ["engine2-1"])], crew=["gearhead-1", "gearhead-2"])
    give(state, "p1", cars=[("D02", [])])
    state, events = race(state, {"p0": 1, "p1": 2}, ("L01", "L02"))
    assert moves_of(events, "p0")[0] == 2 + 2 + 1  # TS: car 2, Engine Tune II +2, one Gearhead
    assert {"type": "entered", "player": "p0", "car": "D01", "crew": 1} in events


def test_a_racer_with_several_eligible_cars_chooses_and_nobody_else_is_asked():
    """ "each player now chooses one of their available cars": only a real choice is asked."""
    state = new_game()
    give(state, "p0", cars=[("D01", []), ("D02", [])])
    give(state, "p1", cars=[("D03", [])])
    state, _ = race(state, {"p1": 1, "p0": 2}, ("L01", "L02"))
    assert state["phase"] == "race-car" and GAME.to_move(state) == ["p0"]
    assert GAME.legal(state, "p0") == [
        {"type": "race", "car": "D01"},
        {"type": "race", "car": "D02"},
    ]
    state, _ = GAME.play(state, "p0", {"type": "race", "car": "D02"})
    assert state["last_race"]["cars"] == {"p1": "D03", "p0": "D02"}


@pytest.mark.parametrize("policy,used", [("never", 0), ("first chance", 1)])
def test_noz_policies_answer_without_asking(policy, used):
    """ "After you move your car, you may choose to use & discard a NOZ card attached to it to
    move an extra 3 spaces." The standing policy answers for the racer."""
    state = new_game()
    give(state, "p0", cars=[("D01", ["noz-1"])])
    give(state, "p1", cars=[("D02", [])])
    seat(state, "p0")["noz_policy"] = policy
    state, events = race(state, {"p0": 1, "p1": 2}, ("L01", "L02"))
    assert moves_of(events, "p0").count(3) >= used
    assert sum(e["type"] == "noz" for e in events) == used
    if used:
        assert moves_of(events, "p0")[:2] == [2, 3], "right after the racer's first move"
        assert "noz-1" in state["junk"]


def test_noz_policy_ask_waits_only_for_that_racer():
    state = new_game()
    give(state, "p0", cars=[("D01", [])])
    give(state, "p1", cars=[("D02", ["noz-1"])])
    state, events = race(state, {"p0": 1, "p1": 2}, ("L01", "L02"))
    assert state["phase"] == "noz" and GAME.to_move(state) == ["p1"]
    assert GAME.legal(state, "p1")[:2] == [
        {"type": "noz", "use": True},
        {"type": "noz", "use": False},
    ]
    state, events = GAME.play(state, "p1", {"type": "noz", "use": False})
    assert GAME.to_move(state) == ["p1"], "asked again after the next move"
    state, events = GAME.play(state, "p1", {"type": "noz_policy", "policy": "first chance"})
    assert {"type": "noz", "player": "p1"} in events, "a new policy answers the open question"
    assert state["phase"] == "action" and state["round"] == 2


def race_course(hidden_card: str, policy: str | None) -> list[object]:
    """The public view before, then who is to move, the public view and the events after a
    Hidden Upgrades race in which p1's one hidden upgrade is ``hidden_card`` and p1's NOZ policy
    is ``policy`` (``None``: the one every seat starts with)."""
    state = new_game(options={"hidden_upgrades": True})
    give(state, "p0", cars=[("D01", [])])
    give(state, "p1", cars=[("D02", [hidden_card])])
    if policy is not None:
        seat(state, "p1")["noz_policy"] = policy
    before = GAME.view(state, None)
    state, events = race(state, {"p0": 1, "p1": 2}, ("L01", "L02"))
    return [before, GAME.to_move(state), GAME.view(state, None), events]


@pytest.mark.parametrize("policy", [None, *noz_policies({"hidden_upgrades": True})])
def test_hidden_upgrades_race_pauses_the_same_whether_or_not_a_noz_is_hidden(policy):
    """ "Hidden Upgrades: Upgrades are hidden under the cars." A race stops for nobody's NOZ, so
    it pauses (here: not at all) the same for a hidden NOZ as for a hidden brake kit; with the
    policy "never" its whole public course is the same (the track races no braking)."""
    with_noz, without = race_course("noz-1", policy), race_course("brakes1-1", policy)
    assert with_noz[1] == without[1] == ["p1"], "the next round's first player, not a NOZ stop"
    assert with_noz[2]["phase"] == without[2]["phase"] == "action"
    if policy == "never":
        assert with_noz == without


def test_hidden_upgrades_replace_the_ask_policy_by_standing_answers():
    """With Hidden Upgrades "ask" is not a policy: everyone starts on "first chance", a NOZ
    fires with no visible pause, and every player is offered the policies, NOZ or not, so that
    setting one gives nothing away."""
    state = new_game(options={"hidden_upgrades": True})
    assert [place["noz_policy"] for place in state["seats"]] == ["first chance"] * 2
    give(state, "p0", cars=[("D01", ["noz-1"])])
    give(state, "p1", cars=[("D02", ["brakes1-1"])])
    for player in ("p0", "p1"):
        state["current"] = state["players"].index(player)
        policies = [a for a in GAME.legal(state, player) if a["type"] == "noz_policy"]
        assert policies == [{"type": "noz_policy", "policy": "never"}]
    state["current"] = 0
    assert "never stops to ask" in refused(state, "p0", {"type": "noz_policy", "policy": "ask"})
    assert "never stops to ask" in refused(state, "p1", {"type": "noz_policy", "policy": "ask"})
    give(state, "p1", cars=[("D02", [])])
    state, events = race(state, {"p0": 1, "p1": 2}, ("L01", "L02"))
    assert {"type": "noz", "player": "p0"} in events and state["phase"] == "action"


# -- trophies and the end


def trophies(**counts):
    return {"gold": 0, "silver": 0, "bronze": 0, "fourth": 0, **counts}


@pytest.mark.parametrize(
    "before,after",
    [
        (trophies(fourth=2), trophies(bronze=1)),
        (trophies(bronze=2), trophies(silver=1)),
        (trophies(silver=2), trophies(gold=1)),
        (trophies(fourth=2, bronze=1, silver=1), trophies(gold=1)),
        (trophies(gold=6, silver=3), trophies(gold=6, silver=3)),
        (trophies(gold=7, silver=2), trophies(gold=8)),
    ],
)
def test_trade_ups_and_the_7th_gold_rule(before, after):
    """ "2x Fourth place into 1 Bronze, 2x Bronze into 1 Silver, 2x Silver into 1 Gold [...] You
    don't trade up to get your 7th Gold trophy. You MUST win that one by racing. You can for your
    8th gold." (§3.25, §3.26)"""
    table = Table(new_game())
    table.s["seats"][0]["trophies"] = dict(before)
    trade_up(table, "p0")
    assert table.s["seats"][0]["trophies"] == after


def test_winning_the_7th_gold_by_racing_lifts_the_lock_and_calls_the_championship():
    """§3.26-27: the 7th gold won in a race lets the waiting silvers trade into the 8th; the round
    ends normally, then the championship round follows."""
    state = new_game()
    seat(state, "p0")["trophies"] = trophies(gold=6, silver=1)
    give(state, "p0", cars=[("D01", [])])
    give(state, "p1", cars=[("D02", [])])
    seat(state, "p1")["trophies"] = trophies(silver=1)
    state, events = race(state, {"p0": 1, "p1": 2}, ("L01", "L02"))
    assert seat(state, "p0")["trophies"] == trophies(gold=7, silver=1)
    assert seat(state, "p1")["trophies"] == trophies(gold=1)
    assert {"type": "championship_next", "players": ["p0"]} in events
    assert state["championship"] and state["race_class"] == "A"


def test_championship_round_rules():
    """ "The class marker is set to class "A" [...] only class "A" cars are allowed [...] Place
    the top two location cards [...] Players can't play location cards this round. You can SELL
    as many cars as you want during the Dealership action. When a part is bought at the shop,
    reveal a new one." Players without an A car pass (§3.28)."""
    state = new_game()
    seat(state, "p0")["trophies"] = trophies(gold=6)
    give(state, "p0", cars=[("D01", []), ("A01", []), ("B01", []), ("C01", [])], credits=10)
    give(state, "p1", cars=[("D02", [])])
    state, _ = race(state, {"p0": 1, "p1": 2}, ("L01", "L02"))
    assert state["championship"] and state["race_class"] == "A"
    assert all(spot["card"] and spot["by"] is None for spot in state["spots"])
    assert GAME.to_move(state) == ["p1"], "the first player marker moved on"
    state, _ = GAME.play(state, "p1", {"type": "pass"})
    actions = GAME.legal(state, "p0")
    assert {"type": "location"} not in actions
    assert Table(state).eligible_cars("p0") == ["A01"]
    state, _ = GAME.play(state, "p0", {"type": "dealer"})
    state, _ = GAME.play(state, "p0", {"type": "sell_car", "car": "D01"})
    state, _ = GAME.play(state, "p0", {"type": "sell_car", "car": "C01"})
    assert state["phase"] == "dealer-sell", "the championship sells as many cars as you like"
    state, _ = GAME.play(state, "p0", {"type": "done_selling"})
    state, _ = GAME.play(state, "p0", {"type": "buy_nothing"})
    shop = list(state["shop"])
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    while state["phase"] == "shop-sell":
        state, _ = GAME.play(state, "p0", {"type": "done_selling"})
    buy = next(a for a in GAME.legal(state, "p0") if a["type"] == "buy")
    state, _ = GAME.play(state, "p0", buy)
    assert len(state["shop"]) == len(shop), "a part bought in the championship is replaced"
    state, _ = GAME.play(state, "p0", {"type": "qualify", "lane": 1})
    assert GAME.outcome(state) is not None and state["ended_by"] == "championship"


def test_winner_ties_break_on_silver_bronze_fourth_then_credits():
    """§3.29: most gold, then silver, bronze, fourth, credits; a full tie shares the title."""
    state = new_game(3)
    seat(state, "p0")["trophies"] = trophies(gold=7, silver=1)
    seat(state, "p1")["trophies"] = trophies(gold=7, silver=1)
    seat(state, "p2")["trophies"] = trophies(gold=7)
    for place in state["seats"]:
        place["credits"] = 4
    state["phase"], state["ended_by"] = "over", "championship"
    assert GAME.outcome(state).winners == ["p0", "p1"]
    seat(state, "p1")["credits"] = 5
    assert GAME.outcome(state).winners == ["p1"]
    assert GAME.outcome(state).scores == {"p0": 7, "p1": 7, "p2": 7}


def test_clean_up_returns_cars_discards_locations_renews_the_shop_and_passes_first_player():
    """Phase 4: cars back from the car show, pawns back, locations discarded, "Discard ALL cards
    from the shop and reveal new Upgrades", the dealership refilled, the first player marker to
    the left."""
    state = new_game()
    give(state, "p0", cars=[("D01", []), ("D02", [])])
    give(state, "p1", cars=[("D03", [])])
    state["show"][0] = {"player": "p0", "car": "D02"}
    old_shop = list(state["shop"])
    state, _ = race(state, {"p0": 1, "p1": 2}, ("L01", "L02"))
    assert state["show"] == [None, None]
    assert all(place["lane"] is None and not place["passed"] for place in state["seats"])
    assert state["location_discard"][-2:] == ["L01", "L02"]
    assert set(old_shop) <= set(state["junk"]) and len(state["shop"]) == 3
    assert state["first"] == 1 and state["round"] == 2


# -- variants


def test_no_crew_and_no_noz_remove_their_cards():
    for option, kind in (("no_crew", "crew"), ("no_noz", "noz")):
        state = new_game(options={option: True})
        cards = [*state["upgrade_deck"], *state["shop"]]
        assert not any(upgrade_of(c).kind == kind for c in cards)
        assert len(cards) == 62 - (8 if kind == "crew" else 6)


def test_shorter_game_deals_d_and_c_cars_with_an_upgrade_each_and_ends_at_5_golds():
    """ "each player starts with one D class and one C class car. Each player gets one random
    upgrade to each of those cars. Play until a player has 5 gold trophies instead of 7, with no
    Championship round." """
    state = new_game(options={"shorter_game": True})
    for place in state["seats"]:
        assert [CARS[c["id"]].cls for c in place["cars"]] == ["D", "C"]
        assert all(len(c["upgrades"]) == 1 for c in place["cars"])
        assert all(upgrade_of(c["upgrades"][0]).kind != "crew" for c in place["cars"])
    assert "B" in state["revealed"], "B cars show once someone owns a C car"
    assert state["phase"] == "class" and GAME.legal(state, "p0") == [
        {"type": "class", "class": "D"},
        {"type": "class", "class": "C"},
    ]
    state, _ = GAME.play(state, "p0", {"type": "class", "class": "D"})
    seat(state, "p0")["trophies"] = trophies(gold=4, silver=2)
    give(state, "p0", cars=[("D01", [])])
    give(state, "p1", cars=[("D02", [])])
    state, _ = race(state, {"p0": 1, "p1": 2}, ("L01", "L02"))
    assert seat(state, "p0")["trophies"]["gold"] == 6
    assert GAME.outcome(state).winners == ["p0"] and state["ended_by"] == "golds"


def test_shorter_game_5th_gold_is_not_traded_for():
    table = Table(new_game(options={"shorter_game": True}))
    table.s["seats"][0]["trophies"] = trophies(gold=4, silver=2)
    trade_up(table, "p0")
    assert table.s["seats"][0]["trophies"] == trophies(gold=4, silver=2)


def test_elite_class_deals_every_class_and_cycles_the_race_class():
    """ "each player gets 1 random car from each class and 1 random upgrade for each of those
    cars. Each player also starts with 5000 credits. [...] first round will be class D, second
    round class C, third round class B, fourth round class A, fifth round class D"."""
    state = new_game(options={"elite_class": True})
    for place in state["seats"]:
        assert [CARS[c["id"]].cls for c in place["cars"]] == ["D", "C", "B", "A"]
        assert place["credits"] == 5
    assert sorted(state["revealed"]) == ["A", "B", "C"]
    classes = []
    for _ in range(5):
        classes.append(state["race_class"])
        for place in state["seats"][1:]:  # everybody else has passed already
            place["passed"] = True
        state["current"] = 0
        state, _ = GAME.play(state, "p0", {"type": "pass"})
    assert classes == ["D", "C", "B", "A", "D"]


def test_custom_finish_line_picks_the_closest_class():
    """ "The first player can choose where the finish line will be on the racing track. The class
    of the race is the letter which is closest to the token." Halfway counts as the lower class."""
    assert [classify_finish(s) for s in (1, 10, 13, 14, 15, 18, 19, 22, 23, 24)] == [
        "D",
        "D",
        "D",
        "D",
        "C",
        "C",
        "B",
        "B",
        "A",
        "A",
    ]
    state = new_game(options={"custom_finish_line": True})
    assert state["phase"] == "class"
    spaces = [a["space"] for a in GAME.legal(state, "p0")]
    assert spaces == list(range(1, 15)), "every space closest to D, the one class p0 owns"
    state, _ = GAME.play(state, "p0", {"type": "finish_line", "space": 3})
    assert (state["race_class"], state["finish_line"]) == ("D", 3)


@pytest.mark.parametrize(
    "cars,last",
    [(["D01", "C01"], 18), (["C01"], 18), (["D01", "C01", "B01", "A01"], 24)],
)
def test_custom_finish_line_offers_every_space_closest_to_an_owned_class(cars, last):
    """ "The first player can choose where the finish line will be on the racing track. The class
    of the race is the letter which is closest to the token": every space of the track whose
    letter is a class the chooser owns, and the whole track fits one select."""
    state = new_game(options={"custom_finish_line": True})
    give(state, "p0", cars=[(car, []) for car in cars])
    state["phase"], state["current"] = "class", 0
    spaces = [a["space"] for a in GAME.legal(state, "p0")]
    owned = {CARS[car].cls for car in cars}
    assert spaces == [s for s in range(1, last + 1) if classify_finish(s) in owned]
    assert len(spaces) <= 25
    reason = refused(state, "p0", {"type": "finish_line", "space": 25})
    assert reason == f"Put the finish line on a space from {spaces[0]} to {spaces[-1]}."


def test_super_store_reveals_a_new_upgrade_after_each_purchase():
    """ "When a player buys an upgrade, reveal a new one from the deck." """
    state = new_game(options={"super_store": True})
    state["shop"] = ["engine1-1", "turbo1-1", "noz-1"]
    give(state, "p0", credits=5)
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    state, events = GAME.play(
        state, "p0", {"type": "buy", "card": "engine1-1", "car": seat(state, "p0")["cars"][0]["id"]}
    )
    assert len(state["shop"]) == 3 and any(e["type"] == "shop_restocked" for e in events)


def test_infinite_actions_continue_until_everybody_passes():
    """ "Even if all players have qualified, the action round continues until all players say
    "Pass" to end the phase." """
    state = new_game(options={"infinite_actions": True})
    give(state, "p0", cars=[("D01", [])])
    give(state, "p1", cars=[("D02", [])])
    state, _ = GAME.play(state, "p0", {"type": "qualify", "lane": 1})
    state, _ = GAME.play(state, "p1", {"type": "qualify", "lane": 2})
    assert state["phase"] == "action" and GAME.to_move(state) == ["p0"]
    state, _ = GAME.play(state, "p0", {"type": "pass"})
    state, events = GAME.play(state, "p1", {"type": "pass"})
    assert any(e["type"] == "race_over" for e in events)


def test_hidden_upgrades_show_only_counts_to_others():
    """ "Upgrades are hidden under the cars." The owner still sees them."""
    state = new_game(options={"hidden_upgrades": True})
    give(state, "p0", cars=[("D01", ["engine1-1", "noz-1"])])
    for viewer in (None, "p1"):
        car = GAME.view(state, viewer)["players"][0]["cars"][0]
        assert car == {"id": "D01", "at_show": False, "upgrades": None, "hidden_upgrades": 2}
    assert GAME.view(state, "p0")["players"][0]["cars"][0]["upgrades"] == ["engine1-1", "noz-1"]


def test_options_are_checked():
    with pytest.raises(IllegalAction, match="no option betting"):
        GAME.start(["a", "b"], "s", {"betting": True})
    with pytest.raises(IllegalAction, match="choose one of them"):
        GAME.start(["a", "b"], "s", {"shorter_game": True, "elite_class": True})
    with pytest.raises(IllegalAction, match="true or false"):
        GAME.start(["a", "b"], "s", {"no_noz": "yes"})
    with pytest.raises(IllegalAction, match="round_cap"):
        GAME.start(["a", "b"], "s", {"round_cap": 0})


def test_round_cap_ends_the_game():
    state = new_game(options={"round_cap": 1})
    state, _ = GAME.play(state, "p0", {"type": "pass"})
    state, events = GAME.play(state, "p1", {"type": "pass"})
    assert state["ended_by"] == "round_cap" and events[-1]["type"] == "game_over"


# -- readings of §3


def test_class_choice_passes_to_the_next_player_who_owns_a_car():
    """§3.6: a first player without cars hands the choice on clockwise."""
    table = Table(new_game(3))
    table.s["seats"][0]["cars"] = []
    assert table.class_chooser() == "p1"
    for place in table.s["seats"]:
        place["cars"] = []
    assert table.class_chooser() is None


def test_car_show_after_qualifying_keeps_the_last_eligible_car():
    """§3.5: a qualified player may not send their last eligible car to the car show."""
    state = new_game(3)
    give(state, "p0", cars=[("D01", []), ("C01", [])])
    state, _ = GAME.play(state, "p0", {"type": "qualify", "lane": 1})
    state["current"] = 0
    assert {"type": "show", "car": "D01"} not in GAME.legal(state, "p0")
    assert {"type": "show", "car": "C01"} in GAME.legal(state, "p0")
    assert "only car you can race" in refused(state, "p0", {"type": "show", "car": "D01"})


def test_selling_a_car_at_the_car_show_is_refused():
    """§3.10: a car at the show is committed for the round."""
    state = new_game()
    give(state, "p0", cars=[("D01", []), ("C01", [])])
    state["show"][0] = {"player": "p0", "car": "C01"}
    state, _ = GAME.play(state, "p0", {"type": "dealer"})
    assert "car show" in refused(state, "p0", {"type": "sell_car", "car": "C01"})


def test_car_decks_reshuffle_their_discards():
    """§3.9: an empty class deck takes back that class's discards."""
    table = Table(new_game())
    table.s["car_decks"]["C"], table.s["car_discard"]["C"] = [], ["C05"]
    assert table.draw_car("C") == "C05" and table.s["car_discard"]["C"] == []


# -- bad input


def test_buying_without_enough_credits_is_refused_with_the_prices():
    state = new_game()
    state["shop"] = ["engine3-1", "turbo1-1", "noz-1"]
    give(state, "p0", credits=2)
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    reason = refused(
        state, "p0", {"type": "buy", "card": "engine3-1", "car": seat(state, "p0")["cars"][0]["id"]}
    )
    assert reason == (
        "Engine Tune III costs 7,000 credits and you have 2,000 credits: choose something "
        "cheaper, or buy nothing."
    )
    state2 = new_game()
    give(state2, "p0", credits=7)
    state2["dealership"]["C"] = ["C09", "C01"]
    state2, _ = GAME.play(state2, "p0", {"type": "dealer"})
    state2, _ = GAME.play(state2, "p0", {"type": "done_selling"})
    assert "costs 8,000 credits and you have" in refused(
        state2, "p0", {"type": "buy_car", "car": "C09"}
    )


def test_a_second_upgrade_of_one_colour_is_refused():
    state = new_game()
    state["shop"] = ["engine2-1", "turbo1-1", "noz-1"]
    give(state, "p0", cars=[("D01", ["engine1-1"]), ("D02", [])], credits=9)
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    state, _ = GAME.play(state, "p0", {"type": "done_selling"})
    reason = refused(state, "p0", {"type": "buy", "card": "engine2-1", "car": "D01"})
    assert reason.startswith("Your Grey Hatch already has a red upgrade (Engine Tune I)")
    assert {"type": "buy", "card": "engine2-1", "car": "D02"} in GAME.legal(state, "p0")


def test_a_car_two_classes_up_is_refused():
    state = new_game()
    state["dealership"]["B"] = ["B01"]
    give(state, "p0", credits=30)
    state, _ = GAME.play(state, "p0", {"type": "dealer"})
    state, _ = GAME.play(state, "p0", {"type": "done_selling"})
    reason = refused(state, "p0", {"type": "buy_car", "car": "B01"})
    assert reason == "You can only buy a car one class above a car you own: a B car needs a C car."


def test_qualifying_without_an_eligible_car_is_refused():
    state = new_game(3)
    give(state, "p0", cars=[("C01", [])])
    reason = refused(state, "p0", {"type": "qualify", "lane": 1})
    assert reason.startswith("You have no D car free to race")
    assert not any(a["type"] == "qualify" for a in GAME.legal(state, "p0"))


def test_a_taken_lane_is_refused():
    state = new_game(3)
    state, _ = GAME.play(state, "p0", {"type": "qualify", "lane": 1})
    assert refused(state, "p1", {"type": "qualify", "lane": 1}) == (
        "Lane 1 is taken: choose a free lane (2, 3, 4)."
    )


def test_a_full_location_spot_is_refused():
    state = new_game(3)
    state, _ = GAME.play(state, "p0", {"type": "location"})
    card = seat(state, "p0")["hand"][0]
    state, _ = GAME.play(state, "p0", {"type": "place", "card": card, "spot": 1})
    state, _ = GAME.play(state, "p1", {"type": "location"})
    card = seat(state, "p1")["hand"][0]
    assert refused(state, "p1", {"type": "place", "card": card, "spot": 1}) == (
        "Location spot 1 already holds a card: place yours on spot 2."
    )


def test_a_class_you_own_no_car_of_is_refused():
    state = new_game(options={"shorter_game": True})
    assert refused(state, "p0", {"type": "class", "class": "A"}) == (
        "You own no A car, so you cannot choose a A race: choose D, C."
    )


def test_moves_out_of_turn_or_out_of_phase_are_refused():
    state = new_game()
    assert refused(state, "p1", {"type": "pass"}) == "It is not your turn."
    assert refused(state, "zed", {"type": "pass"}) == "You are not playing in this game."
    assert (
        refused(state, "p0", {"type": "fly"})
        == "That is not a Street Kings move: pick one from the list."
    )
    assert refused(state, "p0", {"type": "buy_car", "car": "C01"}).startswith("It is your turn:")


def test_the_deck_counts_match_the_component_notes():
    """§4.2-4.4: 10 D, 10 C, 8 B, 8 A cars; 62 upgrades; 24 locations, red on 8."""
    assert Counter(car.cls for car in CARS.values()) == {"D": 10, "C": 10, "B": 8, "A": 8}
    assert sum(info.copies for info in UPGRADES.values()) == 62
    assert len(LOCATIONS) == 24 and sum(1 for loc in LOCATIONS.values() if loc.red) == 8
    assert len(CARS_BY_CLASS["D"]) == 10


def test_a_narrowed_shop_list_still_takes_a_direct_purchase():
    """A command naming the card and the car (``/kings shop buy:``) needs no narrowing step."""
    state = new_game()
    state["shop"] = ["engine1-1", "turbo1-1", "suspension1-1", "brakes1-1", "noz-1"]
    give(state, "p0", cars=[(c, []) for c in ("D01", "D02", "C01", "C02", "B01", "A01")], credits=9)
    state, _ = GAME.play(state, "p0", {"type": "shop"})
    assert GAME.legal(state, "p0")[0]["type"] == "narrow"
    state, _ = GAME.play(state, "p0", {"type": "buy", "card": "turbo1-1", "car": "C02"})
    car = next(c for c in seat(state, "p0")["cars"] if c["id"] == "C02")
    assert car["upgrades"] == ["turbo1-1"]


def test_the_noz_policy_is_a_standing_order_anyone_seated_may_set_at_any_time():
    """docs/architecture.md, "Standing orders": out-of-turn decisions have a standing policy
    set by an action, so a race never waits on a player who would always answer the same."""
    state = new_game()
    idle = next(p for p in state["players"] if p not in GAME.to_move(state))
    assert GAME.is_standing_order({"type": "noz_policy", "policy": "never"})
    assert not GAME.is_standing_order({"type": "pass"})
    state, events = GAME.play(state, idle, {"type": "noz_policy", "policy": "first chance"})
    assert seat(state, idle)["noz_policy"] == "first chance"
    assert events == [{"type": "noz_policy", "player": idle, "policy": "first chance"}]
    with pytest.raises(IllegalAction, match="already first chance"):
        GAME.play(state, idle, {"type": "noz_policy", "policy": "first chance"})
    with pytest.raises(IllegalAction, match="Choose a NOZ policy: ask, first chance or never"):
        GAME.play(state, idle, {"type": "noz_policy", "policy": "sometimes"})
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.play(state, idle, {"type": "pass"})
    no_noz = GAME.start(["p0", "p1"], "s", {"no_noz": True})
    with pytest.raises(IllegalAction, match="without NOZ"):
        GAME.play(no_noz, "p1", {"type": "noz_policy", "policy": "never"})


def test_each_action_is_a_turn_of_its_own_even_when_the_same_player_acts_again():
    """Once p1 has passed, p0 takes every action; each ends with a ``turn`` event, so each is
    told in its own post rather than all together at the end of the phase."""
    state = new_game()
    state["current"] = 1
    state, _ = GAME.play(state, "p1", {"type": "pass"})
    assert GAME.to_move(state) == ["p0"]
    car = seat(state, "p0")["cars"][0]["id"]
    state, events = GAME.play(state, "p0", {"type": "show", "car": car})
    assert events[-1] == {"type": "turn", "player": "p0"} and GAME.to_move(state) == ["p0"]
