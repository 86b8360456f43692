"""What players read: every event an engine emits is told, labels fit Discord, hands are private."""

from __future__ import annotations

import random

from bot.words import WORDS, tell
from bot.words import street_art as words
from bot.words.common import game_over, hearts
from rules import GAMES

NAMES = {"a": "Ana", "b": "Bo", "c": "Cy"}


def test_a_card_and_its_effect_read_as_one_sentence() -> None:
    events = [
        {"type": "played", "player": "a", "card": "fire-breather"},
        {"type": "stole", "from": "b", "to": "a", "hearts": 4, "card": "fire-breather"},
    ]
    assert words.describe(events, NAMES) == [
        "**Ana** played **Fire Breather** and stole 4 ♥ from **Bo**."
    ]


def test_a_fireworks_victim_chosen_in_a_later_step_is_told_with_the_card() -> None:
    steps = [
        ("a", [{"type": "played", "player": "a", "card": "fireworks"}]),
        ("a", [{"type": "stole", "from": "c", "to": "a", "hearts": 2, "card": "fireworks"}]),
        (
            "b",
            [
                {"type": "played", "player": "b", "card": "juggler"},
                {"type": "took", "player": "b", "hearts": 2},
            ],
        ),
    ]
    assert tell("street-art", steps, NAMES) == [
        "**Ana** played **Fireworks** and stole 2 ♥ from **Cy**.",
        "**Bo** played **Juggler** and took 2 ♥ from the middle.",
    ]


def test_rain_names_only_who_lost_hearts() -> None:
    events = [
        {"type": "played", "player": "c", "card": "rain"},
        {"type": "rain", "player": "c", "losses": {"a": 3, "b": 0}},
    ]
    assert words.describe(events, NAMES) == [
        "**Cy** played **Rain**.",
        "Rain! The audience goes home: **Ana** 3 ♥ to the box.",
    ]


def test_every_event_of_random_games_is_told_and_every_label_fits() -> None:
    """Play random games: each played/took/stole/rain/game_over event gives text, and every
    legal action's label fits a Discord button or select option (80 characters)."""
    game = GAMES["street-art"]
    long_names = {p: "N" * 32 for p in ("a", "b", "c")}
    for seed in range(15):
        rng = random.Random(seed)
        state = game.start(["a", "b", "c"], str(seed), {})
        while game.to_move(state):
            player = game.to_move(state)[0]
            actions = game.legal(state, player)
            for action in actions:
                assert 0 < len(words.action_label(action, long_names)) <= 80
            state, events = game.play(state, player, rng.choice(actions))
            told = " ".join(words.describe(events, NAMES))
            for event in events:
                if event["type"] in ("played", "rain", "game_over"):
                    assert told, event
        assert "Game over" in " ".join(words.describe(events, NAMES))


def test_hand_text_lists_the_viewers_cards_and_nothing_for_spectators() -> None:
    view = {"hand": ["brass-band", "brass-band", "juggler"]}
    assert words.hand_text(view) == "Your hand: Brass Band ×2, Juggler (2 ♥)"
    assert "no cards" in words.hand_text({})


def test_every_game_has_its_words() -> None:
    assert set(WORDS) == set(GAMES)


def test_the_closing_line_names_every_winner_and_a_tie_shares_the_win() -> None:
    one = {"type": "game_over", "winners": ["a"], "scores": {"a": 9, "b": 4}}
    tie = {"type": "game_over", "winners": ["a", "b"], "scores": {"a": 9, "b": 9, "c": 2}}
    assert game_over(one, NAMES, hearts) == "🏁 Game over! **Ana** wins with 9 ♥."
    assert game_over(tie, NAMES, str) == "🏁 Game over! **Ana** and **Bo** share the win with 9."
