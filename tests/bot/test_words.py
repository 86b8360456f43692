"""What players read: every event an engine emits is told, labels fit Discord, hands are private."""

from __future__ import annotations

import random

from bot.words import WORDS, label_for, tell
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
            view = game.view(state, player)
            for action in actions:
                assert 0 < len(words.action_label(action, long_names)) <= 80
                assert 0 < len(label_for("street-art", action, long_names, view)) <= 80
            state, events = game.play(state, player, rng.choice(actions))
            told = " ".join(words.describe(events, NAMES))
            for event in events:
                if event["type"] in ("played", "rain", "game_over"):
                    assert told, event
        assert "Game over" in " ".join(words.describe(events, NAMES))


def table_view(hearts: dict[str, int], tops: dict[str, str], hand: list[str], **kw):
    """The mover A's own view of a table with these hearts and top cards."""
    from tests.rules.test_street_art import table

    piles = [(player, card) for player, card in tops.items()]
    state = table(hands={"A": hand}, hearts=hearts, piles=piles, players=["A", "B", "C"], **kw)
    return GAMES["street-art"], state


def test_fireworks_targets_say_what_each_would_give_useful_first() -> None:
    """Fireworks: "You may steal 2 hearts from any player." Each target says what its player
    has ("Bo has 1 ♥", "Cy has none"), and the ones with hearts come first."""
    game, state = table_view({"C": 1}, {}, ["fireworks"])
    state, _ = game.play(state, "A", {"type": "play", "card": "fireworks"})
    view = game.view(state, "A")
    names = {"A": "Ana", "B": "Bo", "C": "Cy"}
    labels = [label_for("street-art", a, names, view) for a in game.legal(state, "A")]
    assert labels == ["Cy has 1 ♥: steal 1 ♥", "Bo has none: nothing to steal"]


def test_street_star_labels_say_what_the_play_takes_and_why_when_less() -> None:
    """Street Stars: "If another player currently has an identical Street Star face up in front
    of them, you steal that number of hearts from that player." A label says what the play will
    take; when it is less than the card's value, why (B4.2: only what they own)."""
    names = {"A": "Ana", "B": "Bo", "C": "Cy"}
    hand = ["fire-breather", "juggler", "street-painter", "rain"]
    game, state = table_view({"B": 1}, {"B": "fire-breather", "C": "juggler"}, hand, pad=False)
    view = game.view(state, "A")
    labels = {a["card"]: label_for("street-art", a, names, view) for a in game.legal(state, "A")}
    assert labels == {
        "fire-breather": "Play Fire Breather: only 1 ♥, all Bo has",
        "juggler": "Play Juggler: 0 ♥: Cy has none",
        "street-painter": "Play Street Painter: 3 ♥ from the middle",
        "rain": "Play Rain",
    }
    game, short = table_view({}, {}, ["street-painter"], middle=2)
    view = game.view(short, "A")
    assert label_for("street-art", {"type": "play", "card": "street-painter"}, names, view) == (
        "Play Street Painter: only 2 ♥, all that is left in the middle"
    )


def test_street_star_labels_fit_discord_with_long_names() -> None:
    long_names = {p: "N" * 32 for p in ("a", "b", "c")}
    for got, source in ((0, "b"), (1, "b"), (3, "b"), (1, "middle"), (3, "middle")):
        take = {"cyr-wheel-acrobat": {"hearts": got, "from": source}}
        action = {"type": "play", "card": "cyr-wheel-acrobat"}
        assert len(words.view_label(action, long_names, {"takes": take})) <= 80


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
