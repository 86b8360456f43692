"""Street Art, rule by rule, in the rulebook's order (the Street Art rulebook), with
the rulings B4 where it is silent. Tables are built by hand with ``table()``, never by hunting
for a seed."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import rules
from rules import IllegalAction
from rules.protocol import Game, player_range
from rules.street_art import STREET_ART
from rules.street_art.data import CARDS, DECK, HEARTS

PLAYERS = ["A", "B", "C", "D"]


# -- a small table builder -------------------------------------------------------------------


def table(
    hands: dict[str, list[str]] | None = None,
    piles: Sequence[tuple[str, str]] = (),
    hearts: dict[str, int] | None = None,
    middle: int | None = None,
    box: int = 0,
    current: str = "A",
    draw: list[str] | None = None,
    options: dict[str, Any] | None = None,
    players: Sequence[str] = tuple(PLAYERS),
    pad: bool = True,
):
    """A game in progress. ``piles`` lists the cards played so far as (player, card), oldest
    first, so the last card of each player is their visible top card and later plays are more
    recent. Hands are padded to 5 cards and the draw pile holds the rest of the 60 cards (in
    deck order, top first), unless ``pad=False`` or ``draw`` says otherwise. The middle holds
    whatever hearts the players and the box do not."""
    hands = {player: list(cards) for player, cards in (hands or {}).items()}
    hearts = hearts or {}
    rest = Counter(DECK)
    rest.subtract(card for cards in hands.values() for card in cards)
    rest.subtract(card for _, card in piles)
    assert min(rest.values()) >= 0, "the table uses more copies of a card than the deck has"
    spare = [card for card in CARDS for _ in range(rest[card])]
    for player in players:
        hand = hands.setdefault(player, [])
        while pad and len(hand) < 5:
            hand.append(spare.pop(0))
    played_at: dict[str, int] = {}
    pile_of: dict[str, list[str]] = {player: [] for player in players}
    for clock, (player, card) in enumerate(piles, start=1):
        pile_of[player].append(card)
        played_at[player] = clock
    options = {**STREET_ART.default_options, **(options or {})}
    data = {
        "game": "street-art",
        "version": 1,
        "seed": "table",
        "options": options,
        "seats": [
            {
                "player": player,
                "hand": sorted(hands[player]),
                "pile": pile_of[player],
                "hearts": hearts.get(player, 0),
                "played_at": played_at.get(player, 0),
            }
            for player in players
        ],
        "draw_pile": spare if draw is None else list(draw),
        "middle": HEARTS - sum(hearts.values()) - box if middle is None else middle,
        "box": box,
        "current": list(players).index(current),
        "phase": "play",
        "turn": 1,
        "clock": len(piles),
        "rng_counter": 1,
        "ended_by": None,
        "last": None,
    }
    return STREET_ART.load(data)


def play(state, player: str, card: str):
    return STREET_ART.play(state, player, {"type": "play", "card": card})


def aim(state, player: str, victim: str):
    return STREET_ART.play(state, player, {"type": "fireworks", "victim": victim})


def stop(state, player: str):
    return STREET_ART.play(state, player, {"type": "stop"})


def hearts(state) -> dict[str, int]:
    return {seat.player: seat.hearts for seat in state.seats}


def seat(state, player: str):
    return state.seats[state.players.index(player)]


def tops(state) -> dict[str, str | None]:
    return {seat.player: seat.top for seat in state.seats}


def of_type(events, kind: str) -> list[dict]:
    return [event for event in events if event["type"] == kind]


# -- Components ----------------------------------------------------------------------------------


def test_components_sixty_cards_as_the_rulebook_lists():
    counts = Counter(DECK)
    assert len(DECK) == 60
    assert counts == {
        "breakdancer": 4,
        "bmx-artist": 4,
        "juggler": 4,
        "fire-breather": 4,
        "street-painter": 5,
        "cyr-wheel-acrobat": 5,
        "living-statue": 5,
        "beatboxer": 7,
        "fireworks": 8,
        "brass-band": 12,
        "rain": 2,
    }


def test_components_street_star_values_are_the_hearts_they_give():
    values = {card: info.value for card, info in CARDS.items() if info.kind == "star"}
    assert values == {
        "breakdancer": 2,
        "bmx-artist": 2,
        "juggler": 2,
        "fire-breather": 4,
        "street-painter": 3,
        "cyr-wheel-acrobat": 3,
        "living-statue": 3,
    }
    assert all(info.value is None for info in CARDS.values() if info.kind == "special")


def test_components_36_chips_make_60_hearts():
    assert HEARTS == 60


def test_the_engine_is_registered_and_follows_the_protocol():
    assert rules.GAMES["street-art"] is STREET_ART
    assert isinstance(STREET_ART, Game)
    assert (STREET_ART.title, STREET_ART.min_players, STREET_ART.max_players) == (
        "Street Art",
        3,
        5,
    )
    assert STREET_ART.default_options == {
        "two_players": False,
        "fireworks_may_take_from_middle": False,
        "keep_top_on_reshuffle": False,
        "turn_cap": 500,
    }


def test_player_counts_are_what_start_accepts_and_two_players_widens_them():
    """Component notes B2: "support 3–5 players by default, following the parent game, and
    allow 2 players as a house option". ``min_players``/``max_players`` are what ``start``
    accepts with the default options; the option says how it widens them."""
    accepted = set()
    for count in range(1, 7):
        try:
            STREET_ART.start([f"p{i}" for i in range(count)], "counts", {})
        except IllegalAction as refused:
            assert refused.reason == (
                "Street Art needs 3 to 5 players (2 with the two_players option)."
            )
        else:
            accepted.add(count)
    assert accepted == set(range(STREET_ART.min_players, STREET_ART.max_players + 1))
    assert player_range(STREET_ART, {}) == (3, 5)
    assert player_range(STREET_ART, {"two_players": True}) == (2, 5)
    STREET_ART.start(["a", "b"], "counts", {"two_players": True})


# -- Setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [3, 4, 5])
def test_setup_deal_5_cards_each_rest_is_the_draw_pile_all_hearts_in_the_middle(count):
    players = [f"p{i}" for i in range(count)]
    state = STREET_ART.start(players, "seed", {})
    assert [len(seat.hand) for seat in state.seats] == [5] * count
    assert len(state.draw_pile) == 60 - 5 * count
    assert Counter(state.draw_pile) + sum((Counter(s.hand) for s in state.seats), Counter()) == (
        Counter(DECK)
    )
    assert state.middle == 60
    assert hearts(state) == dict.fromkeys(players, 0)
    assert state.box == 0
    assert STREET_ART.to_move(state) == [players[state.current]]
    assert STREET_ART.view(state, None)["turn"] == 1


def test_setup_is_a_function_of_the_seed():
    players = ["a", "b", "c"]
    assert STREET_ART.start(players, "s1", {}) == STREET_ART.start(players, "s1", {})
    assert STREET_ART.start(players, "s1", {}) != STREET_ART.start(players, "s2", {})
    deals = {STREET_ART.start(players, str(n), {}).draw_pile for n in range(5)}
    assert len(deals) == 5, "the cards are shuffled"


def test_setup_the_start_player_is_drawn_from_the_seed():
    """B4.9: "The bot may choose at random." """
    players = ["a", "b", "c", "d"]
    starters = {STREET_ART.to_move(STREET_ART.start(players, str(n), {}))[0] for n in range(40)}
    assert starters == set(players)


@pytest.mark.parametrize("count", [0, 1, 2, 6])
def test_setup_needs_3_to_5_players(count):
    with pytest.raises(IllegalAction) as error:
        STREET_ART.start([f"p{i}" for i in range(count)], "seed", {})
    assert error.value.reason == "Street Art needs 3 to 5 players (2 with the two_players option)."


def test_setup_two_players_only_with_the_option():
    state = STREET_ART.start(["a", "b"], "seed", {"two_players": True})
    assert len(state.draw_pile) == 50


def test_setup_rejects_unknown_and_malformed_options():
    with pytest.raises(IllegalAction, match="no option colour"):
        STREET_ART.start(PLAYERS, "seed", {"colour": "red"})
    with pytest.raises(IllegalAction, match="turn_cap"):
        STREET_ART.start(PLAYERS, "seed", {"turn_cap": 0})
    with pytest.raises(IllegalAction, match="two_players"):
        STREET_ART.start(PLAYERS, "seed", {"two_players": "yes"})


def test_setup_each_player_takes_one_seat():
    with pytest.raises(IllegalAction, match="only one seat"):
        STREET_ART.start(["a", "a", "b"], "seed", {})


# -- Gameplay: one card, face up on your own pile, then draw to 5, then clockwise ------------


def test_you_play_exactly_one_card_and_the_next_player_clockwise_takes_their_turn():
    state = table(hands={"A": ["juggler"], "D": ["living-statue"]}, current="D")
    state, events = play(state, "D", "living-statue")
    assert STREET_ART.to_move(state) == ["A"]
    assert events[-1] == {"type": "turn", "player": "A"}
    state, _ = play(state, "A", "juggler")
    assert STREET_ART.to_move(state) == ["B"]


def test_the_played_card_lies_face_up_on_your_own_pile():
    state = table(hands={"A": ["juggler", "beatboxer"]}, piles=[("A", "breakdancer")])
    state, events = play(state, "A", "juggler")
    assert seat(state, "A").pile == ("breakdancer", "juggler")
    assert STREET_ART.view(state, None)["players"][0]["top"] == "juggler"
    assert events[0] == {"type": "played", "player": "A", "card": "juggler"}


def test_you_draw_cards_until_you_have_5_again():
    state = table(hands={"A": ["juggler"]}, draw=["rain", "beatboxer", "fireworks"], pad=True)
    assert len(seat(state, "A").hand) == 5
    state, events = play(state, "A", "juggler")
    assert len(seat(state, "A").hand) == 5
    assert "rain" in seat(state, "A").hand  # the top card of the draw pile
    assert state.draw_pile == ("beatboxer", "fireworks")
    assert {"type": "drew", "player": "A", "cards": 1} in events


def test_legal_lists_each_card_held_once():
    state = table(hands={"A": ["juggler", "juggler", "rain", "brass-band", "brass-band"]})
    assert STREET_ART.legal(state, "A") == [
        {"type": "play", "card": "juggler"},
        {"type": "play", "card": "brass-band"},
        {"type": "play", "card": "rain"},
    ]
    assert STREET_ART.legal(state, "B") == []


# -- Street Stars --------------------------------------------------------------------------------


def test_rulebook_example_the_fire_breather_chain():
    state = table(
        hands={
            "A": ["fire-breather"],
            "B": ["fire-breather"],
            "C": ["juggler"],
            "D": ["fire-breather"],
        }
    )
    # A played the first Fire Breather and takes 4 hearts from the middle for it.
    state, events = play(state, "A", "fire-breather")
    assert {"type": "took", "player": "A", "hearts": 4} in events
    assert (hearts(state), state.middle) == ({"A": 4, "B": 0, "C": 0, "D": 0}, 56)
    # B also plays the Fire Breather and may now take A's chips.
    state, events = play(state, "B", "fire-breather")
    assert {"type": "stole", "from": "A", "to": "B", "hearts": 4, "card": "fire-breather"} in events
    assert (hearts(state), state.middle) == ({"A": 0, "B": 4, "C": 0, "D": 0}, 56)
    # C plays the Juggler and takes the 2-chip from the middle.
    state, events = play(state, "C", "juggler")
    assert {"type": "took", "player": "C", "hearts": 2} in events
    assert (hearts(state), state.middle) == ({"A": 0, "B": 4, "C": 2, "D": 0}, 54)
    # D also plays the Fire Breather and takes the hearts from B, because B played the Fire
    # Breather most recently.
    state, events = play(state, "D", "fire-breather")
    assert {"type": "stole", "from": "B", "to": "D", "hearts": 4, "card": "fire-breather"} in events
    assert (hearts(state), state.middle) == ({"A": 0, "B": 0, "C": 2, "D": 4}, 54)


def test_star_with_nobody_showing_it_takes_its_value_from_the_middle():
    state = table(hands={"A": ["living-statue"]}, piles=[("B", "street-painter")])
    state, events = play(state, "A", "living-statue")
    assert hearts(state)["A"] == 3
    assert state.middle == 57
    assert of_type(events, "stole") == []


def test_star_steals_from_the_player_who_played_it_most_recently():
    state = table(
        hands={"A": ["juggler"]},
        piles=[("C", "juggler"), ("B", "juggler"), ("D", "juggler")],
        hearts={"B": 5, "C": 5, "D": 5},
    )
    state, events = play(state, "A", "juggler")
    assert of_type(events, "stole") == [
        {"type": "stole", "from": "D", "to": "A", "hearts": 2, "card": "juggler"}
    ]
    assert hearts(state) == {"A": 2, "B": 5, "C": 5, "D": 3}


def test_star_most_recent_is_by_play_order_not_by_seat_order():
    state = table(
        hands={"A": ["juggler"]},
        piles=[("D", "juggler"), ("B", "juggler")],
        hearts={"B": 5, "D": 5},
    )
    state, events = play(state, "A", "juggler")
    assert of_type(events, "stole")[0]["from"] == "B"


def test_star_only_an_identical_star_on_top_counts():
    """A covered card is no longer "face up in front of them"; a different Star never counts."""
    state = table(
        hands={"A": ["fire-breather"]},
        piles=[("B", "fire-breather"), ("B", "juggler"), ("C", "living-statue")],
        hearts={"B": 6, "C": 6},
    )
    state, events = play(state, "A", "fire-breather")
    assert of_type(events, "took") == [{"type": "took", "player": "A", "hearts": 4}]
    assert hearts(state) == {"A": 4, "B": 6, "C": 6, "D": 0}


def test_star_your_own_covered_top_card_does_not_count():
    """B4.2: "Only other players' visible cards count. Your own old top card is simply
    covered." """
    state = table(hands={"A": ["juggler"]}, piles=[("A", "juggler")], hearts={"A": 2})
    state, events = play(state, "A", "juggler")
    assert of_type(events, "took") == [{"type": "took", "player": "A", "hearts": 2}]
    assert hearts(state)["A"] == 4


def test_star_steals_only_what_the_player_owns_and_never_tops_up_from_the_middle():
    """B4.2: min(value, their hearts), and no top-up from the middle."""
    state = table(hands={"A": ["fire-breather"]}, piles=[("B", "fire-breather")], hearts={"B": 1})
    middle = state.middle
    state, events = play(state, "A", "fire-breather")
    assert of_type(events, "stole")[0]["hearts"] == 1
    assert hearts(state)["A"] == 1
    assert state.middle == middle


def test_star_steals_even_from_a_player_with_no_hearts():
    """B4.2: "you steal from the one who played it most recently, even if they have 0
    hearts." """
    state = table(
        hands={"A": ["juggler"]},
        piles=[("C", "juggler"), ("B", "juggler")],
        hearts={"C": 9},
    )
    middle = state.middle
    state, events = play(state, "A", "juggler")
    assert of_type(events, "stole") == [
        {"type": "stole", "from": "B", "to": "A", "hearts": 0, "card": "juggler"}
    ]
    assert (hearts(state)["A"], hearts(state)["C"], state.middle) == (0, 9, middle)


# -- Fireworks -----------------------------------------------------------------------------------


def test_fireworks_steal_2_hearts_from_the_player_you_choose():
    state = table(hands={"A": ["fireworks"]}, hearts={"B": 3, "C": 5})
    state, events = play(state, "A", "fireworks")
    assert events == [{"type": "played", "player": "A", "card": "fireworks"}]
    assert STREET_ART.view(state, None)["phase"] == "fireworks"
    assert STREET_ART.to_move(state) == ["A"]
    assert STREET_ART.legal(state, "A") == [
        {"type": "fireworks", "victim": "B"},
        {"type": "fireworks", "victim": "C"},
        {"type": "fireworks", "victim": "D"},
    ]
    state, events = aim(state, "A", "C")
    assert events[0] == {"type": "stole", "from": "C", "to": "A", "hearts": 2, "card": "fireworks"}
    assert hearts(state) == {"A": 2, "B": 3, "C": 3, "D": 0}
    assert STREET_ART.to_move(state) == ["B"]


def test_fireworks_victims_with_hearts_come_first_each_group_clockwise_from_you():
    """Fireworks: "You may steal 2 hearts from any player." Every other player may be aimed
    at (B4.3), those with hearts to give listed first."""
    state = table(hands={"C": ["fireworks"]}, hearts={"A": 1, "B": 3}, current="C")
    state, _ = play(state, "C", "fireworks")
    assert [a["victim"] for a in STREET_ART.legal(state, "C")] == ["A", "B", "D"]


def test_fireworks_take_only_what_the_victim_owns():
    state = table(hands={"A": ["fireworks"]}, hearts={"B": 1})
    state, _ = play(state, "A", "fireworks")
    state, events = aim(state, "A", "B")
    assert events[0]["hearts"] == 1
    assert hearts(state)["A"] == 1 and hearts(state)["B"] == 0


def test_fireworks_may_be_aimed_at_a_player_without_hearts_and_steal_nothing():
    state = table(hands={"A": ["fireworks"]}, hearts={"B": 4})
    state, _ = play(state, "A", "fireworks")
    state, events = aim(state, "A", "C")
    assert events[0] == {"type": "stole", "from": "C", "to": "A", "hearts": 0, "card": "fireworks"}
    assert hearts(state)["B"] == 4


def test_fireworks_fizzle_when_no_other_player_has_hearts():
    """B4.3: "If no other player has any hearts, it does nothing." The game does not ask."""
    state = table(hands={"A": ["fireworks"]}, hearts={"A": 7})
    middle = state.middle
    state, events = play(state, "A", "fireworks")
    assert {"type": "fizzled", "player": "A", "card": "fireworks"} in events
    assert STREET_ART.to_move(state) == ["B"]
    assert (hearts(state)["A"], state.middle) == (7, middle)


def test_fireworks_never_from_the_middle_without_the_option():
    state = table(hands={"A": ["fireworks"]}, hearts={"B": 4})
    state, _ = play(state, "A", "fireworks")
    assert {"type": "fireworks", "victim": "middle"} not in STREET_ART.legal(state, "A")
    with pytest.raises(IllegalAction, match="not the middle"):
        aim(state, "A", "middle")


def test_fireworks_from_the_middle_with_the_option():
    """B4.3: option fireworks_may_take_from_middle (Feuerschlucker's behaviour)."""
    state = table(hands={"A": ["fireworks"]}, options={"fireworks_may_take_from_middle": True})
    state, events = play(state, "A", "fireworks")
    assert STREET_ART.legal(state, "A")[0] == {"type": "fireworks", "victim": "middle"}, (
        "nobody has hearts: the middle is the one useful target"
    )
    state, events = aim(state, "A", "middle")
    assert events[0] == {"type": "took", "player": "A", "hearts": 2}
    assert state.middle == 58


def test_fireworks_from_the_middle_can_end_the_game():
    state = table(
        hands={"A": ["fireworks"]},
        hearts={"B": 59},
        options={"fireworks_may_take_from_middle": True},
    )
    state, _ = play(state, "A", "fireworks")
    state, events = aim(state, "A", "middle")
    assert events[0] == {"type": "took", "player": "A", "hearts": 1}
    assert [e["type"] for e in events] == ["took", "game_over"]
    assert STREET_ART.to_move(state) == []
    assert STREET_ART.outcome(state).details == {"ended_by": "middle_empty"}


def test_fireworks_cannot_be_aimed_at_yourself_or_a_stranger():
    state = table(hands={"A": ["fireworks"]}, hearts={"B": 4})
    state, _ = play(state, "A", "fireworks")
    with pytest.raises(IllegalAction) as error:
        aim(state, "A", "A")
    assert error.value.reason == "You cannot aim Fireworks at yourself."
    with pytest.raises(IllegalAction, match="playing in this game"):
        aim(state, "A", "Z")


# -- Beatboxer -------------------------------------------------------------------------------


def test_beatboxer_takes_as_many_hearts_as_beatboxers_are_visible_your_own_included():
    state = table(hands={"A": ["beatboxer"]}, piles=[("B", "beatboxer"), ("D", "beatboxer")])
    state, events = play(state, "A", "beatboxer")
    assert {"type": "took", "player": "A", "hearts": 3} in events
    assert state.middle == 57


def test_beatboxer_covered_beatboxers_do_not_count():
    state = table(
        hands={"A": ["beatboxer"]},
        piles=[("A", "beatboxer"), ("B", "beatboxer"), ("B", "juggler")],
    )
    state, events = play(state, "A", "beatboxer")
    assert {"type": "took", "player": "A", "hearts": 1} in events


def test_beatboxer_never_steals():
    state = table(hands={"A": ["beatboxer"]}, piles=[("B", "beatboxer")], hearts={"B": 5})
    state, _ = play(state, "A", "beatboxer")
    assert hearts(state)["B"] == 5


# -- Brass Band --------------------------------------------------------------------------------


def test_brass_band_play_as_many_as_you_like_1_heart_each():
    state = table(hands={"A": ["brass-band"] * 3 + ["juggler"]})
    state, events = play(state, "A", "brass-band")
    assert {"type": "took", "player": "A", "hearts": 1} in events
    assert STREET_ART.to_move(state) == ["A"]
    assert STREET_ART.legal(state, "A") == [
        {"type": "play", "card": "brass-band"},
        {"type": "stop"},
    ]
    state, _ = play(state, "A", "brass-band")
    state, events = stop(state, "A")
    assert hearts(state)["A"] == 2
    assert seat(state, "A").pile == ("brass-band", "brass-band")
    assert {"type": "drew", "player": "A", "cards": 2} in events
    assert STREET_ART.to_move(state) == ["B"]


def test_brass_band_the_player_decides_to_stop_even_without_another_brass_band():
    """Setup: "Take the cards into your hand and look at them": hands are private, so the turn
    after a Brass Band must not tell the table whether its player holds another one. Brass
    Band: "You may play as many of these cards from your hand as you like." """
    state = table(hands={"A": ["brass-band", "brass-band", "juggler"]})
    state, _ = play(state, "A", "brass-band")
    state, events = play(state, "A", "brass-band")
    assert state.phase == "brass-band" and STREET_ART.to_move(state) == ["A"]
    assert STREET_ART.legal(state, "A") == [{"type": "stop"}]
    assert reason(state, "A", {"type": "play", "card": "brass-band"}) == (
        "You hold no other Brass Band card: stop to end your turn."
    )
    state, events = stop(state, "A")
    assert events[-1] == {"type": "turn", "player": "B"}
    assert hearts(state)["A"] == 2


def test_brass_band_the_public_cannot_tell_whether_another_is_held():
    """The same Brass Band from two hands, one holding another and one not: the public views
    after it are the same."""
    holding = table(hands={"A": ["brass-band", "brass-band", "juggler"]}, pad=False)
    lacking = table(hands={"A": ["brass-band", "juggler", "juggler"]}, pad=False)
    after = [play(state, "A", "brass-band")[0] for state in (holding, lacking)]
    views = [STREET_ART.view(state, None) for state in after]
    assert views[0] == views[1]
    assert views[0]["phase"] == "brass-band" and views[0]["to_move"] == ["A"]


def test_brass_band_turn_admits_no_other_card():
    """B4.5: "A turn is either exactly one non-Brass card, or one or more Brass Band cards.
    No mixing." """
    state = table(hands={"A": ["brass-band", "brass-band", "juggler"]})
    state, _ = play(state, "A", "brass-band")
    with pytest.raises(IllegalAction, match="only play more Brass Band"):
        play(state, "A", "juggler")


def test_brass_band_a_single_one_is_a_whole_turn():
    state = table(hands={"A": ["brass-band", "juggler"]})
    state, _ = play(state, "A", "brass-band")
    state, _ = stop(state, "A")
    assert STREET_ART.to_move(state) == ["B"]


def test_brass_band_game_ends_in_the_middle_of_the_payout():
    """B4.8: "even in the middle of a Brass Band [...] payout. Nobody draws after that." """
    state = table(hands={"A": ["brass-band"] * 3}, hearts={"B": 58})
    state, _ = play(state, "A", "brass-band")
    state, events = play(state, "A", "brass-band")
    assert state.middle == 0
    assert STREET_ART.to_move(state) == []
    assert len(seat(state, "A").hand) == 3  # nobody draws after the end
    assert events[-1]["type"] == "game_over"


# -- Rain ----------------------------------------------------------------------------------------


def test_rulebook_example_rain():
    state = table(
        hands={"D": ["rain"]},
        piles=[
            ("A", "living-statue"),
            ("B", "juggler"),
            ("C", "fireworks"),
            ("D", "fire-breather"),
        ],
        hearts={"A": 5, "B": 4, "C": 6, "D": 3},
        current="D",
    )
    # D plays a Rain. Therefore A must put 3 hearts into the box, and B and C 2 each. D does not
    # have to give up anything.
    state, events = play(state, "D", "rain")
    assert of_type(events, "rain") == [
        {"type": "rain", "player": "D", "losses": {"A": 3, "B": 2, "C": 2}}
    ]
    assert hearts(state) == {"A": 2, "B": 2, "C": 4, "D": 3}
    assert state.box == 7
    assert state.middle == 60 - 18  # untouched


def test_rain_hearts_go_to_the_box_not_the_middle():
    state = table(
        hands={"A": ["rain"]}, piles=[("B", "fire-breather")], hearts={"B": 10}, middle=50
    )
    state, _ = play(state, "A", "rain")
    assert (state.middle, state.box, hearts(state)["B"]) == (50, 4, 6)


def test_rain_special_cards_showing_cost_fireworks_2_brass_band_1_beatboxer_per_visible():
    state = table(
        hands={"A": ["rain"]},
        piles=[("A", "beatboxer"), ("B", "fireworks"), ("C", "brass-band"), ("D", "beatboxer")],
        hearts={"B": 9, "C": 9, "D": 9},
    )
    state, events = play(state, "A", "rain")
    # A's Beatboxer is covered by the Rain, so only D's Beatboxer is visible.
    assert of_type(events, "rain")[0]["losses"] == {"B": 2, "C": 1, "D": 1}


def test_rain_beatboxers_are_counted_before_any_pile_is_collected():
    state = table(
        hands={"A": ["rain"]},
        piles=[("B", "beatboxer"), ("C", "beatboxer"), ("D", "beatboxer")],
        hearts={"B": 9, "C": 9, "D": 9},
    )
    state, events = play(state, "A", "rain")
    assert of_type(events, "rain")[0]["losses"] == {"B": 3, "C": 3, "D": 3}


def test_rain_no_pile_costs_nothing_and_you_give_up_at_most_all_you_own():
    state = table(
        hands={"A": ["rain"]},
        piles=[("B", "fire-breather"), ("D", "street-painter")],
        hearts={"B": 2, "C": 5, "D": 0},
    )
    state, events = play(state, "A", "rain")
    assert of_type(events, "rain")[0]["losses"] == {"B": 2, "C": 0, "D": 0}
    assert hearts(state) == {"A": 0, "B": 0, "C": 5, "D": 0}


def test_rain_the_player_of_the_rain_gives_up_nothing():
    state = table(
        hands={"A": ["rain"]}, piles=[("A", "fire-breather")], hearts={"A": 8}, current="A"
    )
    state, events = play(state, "A", "rain")
    assert "A" not in of_type(events, "rain")[0]["losses"]
    assert hearts(state)["A"] == 8


def test_rain_all_piles_are_collected_shuffled_and_placed_under_the_draw_pile():
    played = [("A", "juggler"), ("B", "fire-breather"), ("B", "beatboxer"), ("C", "fireworks")]
    state = table(
        hands={"A": ["rain"]}, piles=played, draw=["living-statue", "street-painter"], pad=True
    )
    state, events = play(state, "A", "rain")
    assert {"type": "piles_collected", "cards": 5} in events
    assert tops(state) == dict.fromkeys(PLAYERS)
    assert all(seat.pile == () for seat in state.seats)
    # A refills one card from the top, which is the old draw pile; the rest lies under it.
    assert "living-statue" in seat(state, "A").hand
    assert state.draw_pile[0] == "street-painter"
    assert Counter(state.draw_pile[1:]) == Counter([card for _, card in played] + ["rain"])


def test_rain_on_an_empty_draw_pile_the_collected_cards_become_the_draw_pile():
    state = table(hands={"A": ["rain"]}, piles=[("B", "juggler"), ("C", "juggler")], draw=[])
    state, events = play(state, "A", "rain")
    assert {"type": "drew", "player": "A", "cards": 1} in events
    assert len(state.draw_pile) == 2
    assert of_type(events, "reshuffled") == []


def test_rain_after_it_nobody_shows_a_star_so_the_next_star_takes_from_the_middle():
    state = table(
        hands={"A": ["rain"], "B": ["juggler"]}, piles=[("C", "juggler")], hearts={"C": 5}
    )
    state, _ = play(state, "A", "rain")
    state, events = play(state, "B", "juggler")
    assert of_type(events, "took") == [{"type": "took", "player": "B", "hearts": 2}]


# -- The draw pile runs out ----------------------------------------------------------------------


def test_empty_draw_pile_shuffle_all_discard_piles_top_cards_included_into_a_new_one():
    """B4.7: "Shuffle all discard piles, including the visible top cards." """
    state = table(
        hands={"A": ["juggler"]},
        piles=[("B", "fire-breather"), ("B", "beatboxer"), ("C", "fireworks")],
        draw=[],
    )
    state, events = play(state, "A", "juggler")
    assert {"type": "reshuffled", "cards": 4} in events
    assert {"type": "drew", "player": "A", "cards": 1} in events
    assert tops(state) == dict.fromkeys(PLAYERS)
    assert len(state.draw_pile) == 3


def test_empty_draw_pile_midway_draw_what_is_left_then_reshuffle():
    state = table(
        hands={"A": ["brass-band", "brass-band"]},
        piles=[("B", "juggler"), ("C", "juggler")],
        draw=["rain"],
    )
    state, _ = play(state, "A", "brass-band")
    state, _ = play(state, "A", "brass-band")
    state, events = stop(state, "A")
    assert [e["type"] for e in events] == ["reshuffled", "drew", "turn"]
    assert "rain" in seat(state, "A").hand
    assert len(seat(state, "A").hand) == 5


def test_empty_draw_pile_option_keep_top_on_reshuffle_keeps_each_top_card():
    state = table(
        hands={"A": ["juggler"]},
        piles=[("B", "fire-breather"), ("B", "beatboxer"), ("C", "fireworks")],
        hearts={"B": 4},
        draw=[],
        options={"keep_top_on_reshuffle": True},
    )
    state, events = play(state, "A", "juggler")
    assert {"type": "reshuffled", "cards": 1} in events  # only B's covered Fire Breather
    assert tops(state) == {"A": "juggler", "B": "beatboxer", "C": "fireworks", "D": None}
    # The kept top cards keep their order of play for later steals.
    state, events = play(state, "B", "juggler")
    assert of_type(events, "stole")[0]["from"] == "A"


def test_nothing_anywhere_to_draw_stop_drawing():
    state = table(
        hands={"A": ["juggler"], "B": ["juggler"], "C": ["juggler"], "D": ["juggler"]},
        draw=[],
        pad=False,
        options={"keep_top_on_reshuffle": True},
    )
    state, events = play(state, "A", "juggler")
    assert seat(state, "A").hand == ()
    assert of_type(events, "drew") == [] and of_type(events, "reshuffled") == []
    assert STREET_ART.to_move(state) == ["B"]


def test_a_player_with_no_cards_is_skipped_and_only_draws():
    state = table(
        hands={"A": ["juggler"] + ["beatboxer"] * 4, "B": [], "C": ["juggler"], "D": ["juggler"]},
        piles=[("D", "fireworks"), ("D", "fireworks"), ("D", "brass-band")],
        draw=[],
        pad=False,
        options={"keep_top_on_reshuffle": True},
    )
    state, events = play(state, "A", "juggler")
    assert events[-3:] == [
        {"type": "skipped", "player": "B"},
        {"type": "drew", "player": "B", "cards": 1},
        {"type": "turn", "player": "C"},
    ]
    assert seat(state, "B").hand == ("fireworks",)
    assert STREET_ART.to_move(state) == ["C"]


def test_when_nobody_holds_or_can_draw_a_card_the_game_ends_instead_of_waiting():
    state = table(
        hands={"A": ["juggler"], "B": [], "C": [], "D": []},
        draw=[],
        pad=False,
        options={"keep_top_on_reshuffle": True},
    )
    state, events = play(state, "A", "juggler")
    assert [e["type"] for e in events] == ["played", "took", "game_over"]
    assert STREET_ART.to_move(state) == []
    assert STREET_ART.outcome(state).details == {"ended_by": "no_cards"}
    assert STREET_ART.outcome(state).winners == ["A"]


# -- End of the game -----------------------------------------------------------------------------


def test_the_game_ends_when_the_middle_is_empty_taking_what_is_left():
    """ "If on your last turn you would receive more hearts from the middle than are there, you
    take all remaining hearts from the middle." """
    state = table(hands={"A": ["fire-breather"]}, hearts={"B": 30, "C": 28})
    assert state.middle == 2
    state, events = play(state, "A", "fire-breather")
    assert {"type": "took", "player": "A", "hearts": 2} in events
    assert state.middle == 0
    assert events[-1] == {
        "type": "game_over",
        "scores": {"A": 2, "B": 30, "C": 28, "D": 0},
        "winners": ["B"],
    }
    assert STREET_ART.to_move(state) == []
    assert STREET_ART.legal(state, "B") == []
    assert len(seat(state, "A").hand) == 4  # nobody draws after the end
    assert of_type(events, "turn") == []
    view = STREET_ART.view(state, None)
    assert (view["phase"], view["current"]) == ("over", None)
    assert view["outcome"]["winners"] == ["B"]


def test_the_game_ends_in_the_middle_of_a_beatboxer_payout():
    state = table(hands={"A": ["beatboxer"]}, piles=[("B", "beatboxer")], hearts={"B": 59})
    state, events = play(state, "A", "beatboxer")
    assert {"type": "took", "player": "A", "hearts": 1} in events
    assert STREET_ART.outcome(state).details == {"ended_by": "middle_empty"}


def test_the_most_hearts_wins():
    state = table(hands={"A": ["juggler"]}, hearts={"B": 20, "C": 19, "D": 18}, middle=1)
    state, _ = play(state, "A", "juggler")
    result = STREET_ART.outcome(state)
    assert result.scores == {"A": 1, "B": 20, "C": 19, "D": 18}
    assert result.winners == ["B"]


def test_in_case_of_a_tie_all_players_involved_win():
    state = table(hands={"A": ["juggler"]}, hearts={"A": 18, "B": 20, "C": 20}, middle=2)
    state, _ = play(state, "A", "juggler")
    assert STREET_ART.outcome(state).winners == ["A", "B", "C"]


def test_no_outcome_while_the_game_runs():
    assert STREET_ART.outcome(table()) is None


def test_the_turn_cap_is_a_safety_net_that_ends_the_game():
    state = table(options={"turn_cap": 2}, hands={"A": ["juggler"], "B": ["beatboxer"]})
    state, events = play(state, "A", "juggler")
    assert events[-1] == {"type": "turn", "player": "B"}
    state, events = play(state, "B", "beatboxer")
    assert events[-1]["type"] == "game_over"
    result = STREET_ART.outcome(state)
    assert result.details == {"ended_by": "turn_cap"}
    assert result.winners == ["A"]


# -- Illegal actions ----------------------------------------------------------------------------


def reason(state, player, action) -> str:
    with pytest.raises(IllegalAction) as error:
        STREET_ART.play(state, player, action)
    return error.value.reason


def test_illegal_not_your_turn():
    state = table(hands={"B": ["juggler"]})
    assert reason(state, "B", {"type": "play", "card": "juggler"}) == "It is not your turn."


def test_illegal_not_at_the_table():
    assert reason(table(), "Z", {"type": "stop"}) == "You are not playing in this game."


def test_illegal_card_not_held():
    state = table(hands={"A": ["juggler"]})
    assert reason(state, "A", {"type": "play", "card": "fire-breather"}) == (
        "You do not hold a Fire Breather card."
    )


@pytest.mark.parametrize("card", [None, "joker", 3])
def test_illegal_no_such_card(card):
    assert "Choose one of the cards" in reason(table(), "A", {"type": "play", "card": card})


@pytest.mark.parametrize("action", [{}, {"type": "pass"}, "play", None, {"type": ["play"]}])
def test_illegal_unknown_action(action):
    assert reason(table(), "A", action) == "That is not a Street Art action."


def test_illegal_wrong_action_for_the_phase():
    state = table(hands={"A": ["fireworks", "brass-band", "brass-band"]}, hearts={"B": 3})
    assert "Play a Fireworks card" in reason(state, "A", {"type": "fireworks", "victim": "B"})
    assert "no Brass Band turn" in reason(state, "A", {"type": "stop"})
    aiming, _ = play(state, "A", "fireworks")
    assert reason(aiming, "A", {"type": "stop"}) == "Choose a Fireworks victim first."
    assert reason(aiming, "A", {"type": "play", "card": "brass-band"}) == (
        "Choose a Fireworks victim first."
    )
    band, _ = play(state, "A", "brass-band")
    assert "Brass Band" in reason(band, "A", {"type": "fireworks", "victim": "B"})


def test_illegal_after_the_game_is_over():
    state = table(hands={"A": ["juggler"], "B": ["juggler"]}, middle=1)
    state, _ = play(state, "A", "juggler")
    assert reason(state, "B", {"type": "play", "card": "juggler"}) == "The game is over."


def test_an_illegal_action_changes_nothing():
    state = table(hands={"A": ["juggler"]})
    before = STREET_ART.dump(state)
    reason(state, "A", {"type": "play", "card": "rain"})
    assert STREET_ART.dump(state) == before


# -- Views, storage, purity of play -----------------------------------------------------------


def test_public_view_shows_the_table_and_no_hand():
    state = table(piles=[("B", "juggler")], hearts={"B": 2})
    view = STREET_ART.view(state, None)
    assert "hand" not in view
    assert set(view) == {
        "game",
        "viewer",
        "players",
        "middle",
        "box",
        "draw_pile",
        "phase",
        "current",
        "to_move",
        "turn",
        "last",
        "outcome",
    }
    assert view["players"][1] == {
        "id": "B",
        "hearts": 2,
        "top": "juggler",
        "pile": 1,
        "hand_size": 5,
        "seat": 1,
    }
    assert (view["middle"], view["box"], view["draw_pile"]) == (58, 0, 39)
    assert (view["phase"], view["current"], view["to_move"]) == ("play", "A", ["A"])
    assert "table" not in json.dumps(view)  # the seed
    assert json.loads(json.dumps(view)) == view


def test_a_player_view_adds_their_own_hand_sorted():
    state = table(hands={"B": ["rain", "juggler", "beatboxer", "brass-band", "fireworks"]})
    view = STREET_ART.view(state, "B")
    assert view["viewer"] == "B"
    assert view["hand"] == ["beatboxer", "brass-band", "fireworks", "juggler", "rain"]
    assert "hand" not in STREET_ART.view(state, "Z")


def test_view_last_holds_the_events_of_the_last_action():
    state = table(hands={"A": ["juggler"]})
    assert STREET_ART.view(state, None)["last"] is None
    state, events = play(state, "A", "juggler")
    assert STREET_ART.view(state, None)["last"] == {"player": "A", "events": events}


def test_dump_is_versioned_json_and_load_inverts_it():
    state = table(hands={"A": ["fireworks"]}, piles=[("B", "juggler")], hearts={"B": 3})
    state, _ = play(state, "A", "fireworks")
    data = STREET_ART.dump(state)
    assert data["version"] == 1
    assert STREET_ART.load(json.loads(json.dumps(data))) == state


def test_load_refuses_another_format():
    data = STREET_ART.dump(table())
    with pytest.raises(ValueError, match="version"):
        STREET_ART.load({**data, "version": 99})


def test_play_never_mutates_its_input():
    state = table(hands={"A": ["rain"]}, piles=[("B", "juggler")], hearts={"B": 3}, draw=[])
    before = STREET_ART.dump(state)
    new, events = play(state, "A", "rain")
    events.clear()
    STREET_ART.view(new, None)["last"]["events"].clear()
    assert STREET_ART.dump(state) == before
    assert new.last["events"]
    hash(new)  # nothing mutable inside


def test_each_shuffle_takes_the_next_random_draw_of_the_seed():
    """docs/architecture.md: randomness comes from the seed and a counter kept in the state."""
    state = table(hands={"A": ["rain"]}, piles=[("B", "juggler"), ("C", "juggler")])
    counter = state.rng_counter
    state, _ = play(state, "A", "rain")
    assert state.rng_counter == counter + 1
