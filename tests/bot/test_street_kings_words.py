"""Street Kings in words: every event of random games is told (a race compactly), every legal
action's label fits Discord, the rules and options summaries are complete, the hand is private."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.words import WORDS, tell
from bot.words import street_kings as words
from rules import GAMES

GAME = GAMES["street-kings"]
NAMES = {"a": "Ana", "b": "Bo", "c": "Cy", "d": "Dee"}
LONG_NAMES = {p: "N" * 32 for p in NAMES}
#: Events the board shows better than a sentence: each pawn step, the end-of-race marker.
SILENT = {"moved", "race_over", "turn"}  # the board shows them; "turn" only marks a post
VARIANTS: list[dict[str, Any]] = [
    {},
    {"shorter_game": True},
    {"custom_finish_line": True, "hidden_upgrades": True},
    {"elite_class": True, "super_store": True},
    {"infinite_actions": True, "no_crew": True, "no_noz": True, "round_cap": 6},
]


def random_game(seed: int, options: dict[str, Any]) -> list[tuple[str, list[Any], list[Any]]]:
    """(player, legal actions, events) of each decision of one random game."""
    rng = random.Random(seed)
    players = list(NAMES)[: 2 + seed % 3]
    state = GAME.start(players, f"words-{seed}", options)
    played = []
    while GAME.to_move(state):
        player = GAME.to_move(state)[0]
        legal = GAME.legal(state, player)
        state, events = GAME.play(state, player, rng.choice(legal))
        played.append((player, legal, events))
    return played


GAMES_PLAYED = [(seed, opts) for seed in range(3) for opts in VARIANTS]


@pytest.mark.parametrize(("seed", "options"), GAMES_PLAYED)
def test_every_event_is_told_and_every_label_fits(seed: int, options: dict[str, Any]) -> None:
    played = random_game(seed, options)
    for _player, legal, events in played:
        for action in legal:
            assert 0 < len(words.action_label(action, LONG_NAMES)) <= 80, action
        for event in events:
            if event["type"] not in SILENT:
                assert words.describe([event], NAMES), event
    last_events = played[-1][2]
    assert "Game over" in " ".join(words.describe(last_events, NAMES))


@pytest.mark.parametrize(("seed", "options"), GAMES_PLAYED)
def test_a_turn_and_a_whole_round_read_well_under_4000_characters(
    seed: int, options: dict[str, Any]
) -> None:
    """A decision's text (a race and the next round's start included) is short; a public post
    telling a whole round of AI seats stays well under Discord's 4096, because a race is told by
    finishes and prizes, never pawn step by step."""
    rounds: list[list[tuple[str, list[Any]]]] = [[]]
    for player, _legal, events in random_game(seed, options):
        assert len("\n".join(words.describe(events, LONG_NAMES))) < 2000
        rounds[-1].append((player, events))
        if any(event["type"] == "round" for event in events):
            rounds.append([])
    for steps in rounds:
        assert len("\n".join(tell("street-kings", steps, NAMES))) < 3000


def test_a_shop_visit_is_one_sentence() -> None:
    steps = [
        ("a", [{"type": "shop", "player": "a"}]),
        ("a", [{"type": "sold_upgrade", "player": "a", "card": "engine1-1"}]),
        ("a", [{"type": "sale", "player": "a", "value": 2, "credits": 1}]),
        (
            "a",
            [
                {
                    "type": "bought_upgrade",
                    "player": "a",
                    "card": "turbo2-1",
                    "car": "D01",
                    "price": 4,
                }
            ],
        ),
    ]
    assert tell("street-kings", steps, NAMES) == [
        "**Ana** went to the shop: sold Engine Tune I for 1k; "
        "bought Turbo Kit II (+2 Acceleration) for Grey Hatch (4k)."
    ]


def test_a_hidden_upgrade_is_told_without_its_car() -> None:
    event = {"type": "bought_upgrade", "player": "b", "card": "brakes1-2", "car": None, "price": 2}
    (line,) = words.describe([event], NAMES)
    assert "out of sight" in line and "Grey Hatch" not in line


def test_a_race_paused_for_a_noz_question_says_where_the_pawns_are() -> None:
    events = [
        {"type": "location_revealed", "spot": 1, "card": "L01"},
        {"type": "moved", "player": "a", "stat": "TS", "spaces": 3, "to": 3},
        {"type": "moved", "player": "b", "stat": "TS", "spaces": 2, "to": 2},
        {"type": "moved", "player": "a", "stat": "AC", "spaces": 2, "to": 5},
    ]
    assert words.describe(events, NAMES) == [
        "Location 1: **Expressway Ramp** (TS → AC · 4k/3k/2k/1k).",
        "The race so far: **Ana** on space 5, **Bo** on space 2.",
    ]


def test_a_race_tells_each_place_once_and_a_location_card_in_one_line() -> None:
    # Issue 24: a race said "crosses the line 1st" for each racer, then the same places with
    # their prizes; a location action said "draws a card" and then "places a card".
    race = [
        {"type": "finished", "player": "a", "place": 1},
        {"type": "finished", "player": "b", "place": 2},
        {"type": "race_over"},
        {
            "type": "results",
            "location": "L01",
            "places": [
                {"place": 1, "player": "a", "trophy": "gold", "credits": 4},
                {"place": 2, "player": "b", "trophy": "silver", "credits": 3},
            ],
        },
    ]
    assert words.describe(race, NAMES) == [
        "🏁 Prizes of Expressway Ramp: 1st **Ana** (gold, +4k), 2nd **Bo** (silver, +3k)."
    ]
    assert words.describe(race[:2], NAMES) == ["🏁 Across the line: 1st **Ana** · 2nd **Bo**."]
    location = [
        {"type": "location_drawn", "player": "a", "drew": True},
        {"type": "location_placed", "player": "a", "spot": 2},
    ]
    assert words.describe(location, NAMES) == [
        "**Ana** places a location card face down on spot 2."
    ]


def test_a_buy_label_keeps_the_car_name_first_and_fits_a_phone() -> None:
    label = words.action_label({"type": "buy", "card": "engine2-1", "car": "D01"}, NAMES)
    car = words.CARS["D01"].name
    assert label.startswith(f"{car}: ") and "+2 TS" in label and len(label) <= 45, label


def test_rules_and_options_are_complete() -> None:
    assert WORDS["street-kings"] is words
    assert len(words.RULES) <= 4096
    for command in (
        "class",
        "shop",
        "dealer",
        "show",
        "location",
        "qualify",
        "pass",
        "race",
        "noz",
    ):
        assert f"/kings {command}" in words.RULES
    assert set(words.OPTIONS) == set(GAME.default_options)
    for key, sentence in words.OPTIONS.items():
        assert 0 < len(sentence) <= 200 and key in words.RULES


def test_hand_text_shows_the_viewers_holdings_and_nothing_for_spectators() -> None:
    state = GAME.start(["a", "b"], "hand", {"shorter_game": True})
    view = GAME.view(state, "a")
    text = words.hand_text(view)
    for card in view["hand"]:
        assert words.LOCATIONS[card].name in text
    assert "**Credits:** 2k" in text and "**NOZ policy:** ask" in text
    me = view["players"][0]
    for car in me["cars"]:
        assert words.CARS[car["id"]].name in text
    assert "watching" in words.hand_text(GAME.view(state, None))


def test_a_narrowed_shop_list_names_the_car_the_crew_or_the_card() -> None:
    label = words.action_label
    assert label({"type": "narrow", "to": "crew"}, NAMES) == "Sell crew…"
    assert label({"type": "narrow", "to": "D01"}, NAMES).startswith("Sell from ")
    assert "D01" not in label({"type": "narrow", "to": "D01"}, NAMES)  # the car's name instead
    bought = label({"type": "narrow", "to": "noz-1"}, NAMES)
    assert bought.startswith("Buy ") and bought.endswith("…") and "noz-1" not in bought


def test_the_turn_post_asks_about_noz_only_while_a_race_asks() -> None:
    assert words.question({"race": {"asking": "p1"}}) == "Fire your NOZ?"
    assert words.question({"race": {"asking": None}}) is None
    assert words.question({"race": None}) is None
