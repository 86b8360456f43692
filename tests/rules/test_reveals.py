"""``Game.reveals``: what each engine says makes something hidden known, which `/game undo`
relies on. Checked against the state itself: a step none of whose events reveals anything
takes no card from a face-down deck or pile, shuffles nothing and turns nothing face up."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import GAMES
from rules.protocol import Game


def hidden_zones(game_id: str, state: dict[str, Any]) -> Any:
    """Everything of a dumped state nobody sees, or that only chance changes: the decks and
    face-down piles, the generator's counter, what is face up among the face-down things."""
    if game_id == "street-art":
        return state["draw_pile"], state["rng_counter"]
    if game_id == "artsee":
        return state["piles"]
    if game_id == "street-art-mural":  # the round says how many techniques are face up
        return state["deck"], state["rng"], state["round"]
    spots = [spot["card"] for spot in state["spots"] if spot.get("revealed")]
    decks = state["car_decks"], state["upgrade_deck"], state["location_deck"]
    return decks, state["rng"], spots


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_step_that_reveals_nothing_leaves_every_hidden_zone_alone(game_id: str) -> None:
    game = GAMES[game_id]
    quiet = loud = 0
    for seed in range(4):
        rng = random.Random(seed)
        options = {"hidden_upgrades": True} if game_id == "street-kings" and seed % 2 else {}
        players = ["a", "b", "c"][: max(game.min_players, 2 if game_id != "street-art" else 3)]
        state = game.start(players, f"reveals-{seed}", options)
        for _ in range(1500):
            movers = game.to_move(state)
            if not movers:
                break
            player = movers[0]
            before = hidden_zones(game_id, game.dump(state))
            state, events = game.play(state, player, rng.choice(game.legal(state, player)))
            if any(game.reveals(event) for event in events):
                loud += 1
            else:
                quiet += 1
                assert hidden_zones(game_id, game.dump(state)) == before, events
    assert quiet and loud  # both kinds of step happened, so both sides were checked


def test_by_default_every_event_reveals_something() -> None:
    class Bare(Game):
        id = "bare"

    assert Bare().reveals({"type": "anything"}) is True


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_an_event_an_engine_does_not_know_counts_as_revealing(game_id: str) -> None:
    assert GAMES[game_id].reveals({"type": "a-new-kind-of-event"}) is True


@pytest.mark.parametrize(
    ("game_id", "event", "reveals"),
    [
        ("street-art", {"type": "drew", "player": "a", "cards": 1}, True),
        ("street-art", {"type": "reshuffled", "cards": 9}, True),
        ("street-art", {"type": "played", "player": "a", "card": "rain"}, False),
        ("artsee", {"type": "drew", "player": "a", "pile": 1, "category": "x"}, True),
        ("artsee", {"type": "placed", "player": "a", "card": "x", "column": 1}, False),
        ("street-art-mural", {"type": "painted", "player": "a", "card": "G01"}, True),
        ("street-art-mural", {"type": "rotated", "player": "a", "kind": "small"}, False),
        ("street-kings", {"type": "location_drawn", "player": "a", "drew": True}, True),
        ("street-kings", {"type": "location_drawn", "player": "a", "drew": False}, False),
        ("street-kings", {"type": "sold_upgrade", "player": "a", "card": "x"}, True),
        ("street-kings", {"type": "qualified", "player": "a", "lane": 1}, False),
    ],
)
def test_each_engine_names_its_revealing_events(
    game_id: str, event: dict[str, Any], reveals: bool
) -> None:
    assert GAMES[game_id].reveals(event) is reveals
