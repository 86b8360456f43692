"""ArtSee in words: every event is told, a card and its scoring read as one sentence, labels fit
Discord, and the hand text shows only the viewer's own cards."""

from __future__ import annotations

import random

from bot.words import WORDS, tell
from bot.words import artsee as words
from rules.artsee import ARTSEE

NAMES = {"a": "Ana", "b": "Bo", "c": "Cy"}
#: Events told in words ("passed", no masterpiece claimed, is no news: the board shows them).
TOLD = ("placed", "claimed", "drew", "moved", "welcomed", "policy", "game_over")


def test_a_card_and_what_it_scored_read_as_one_sentence() -> None:
    events = [
        {"type": "placed", "player": "a", "card": "M-PO-01", "column": 2, "new": None},
        {"type": "visitors_scored", "player": "a", "card": "S-AB-01", "prestige": 2},
        {
            "type": "arrow",
            "player": "a",
            "direction": "L",
            "owner": "b",
            "column": 3,
            "pieces": 2,
            "masterpieces": 1,
            "prestige": 3,
        },
    ]
    assert words.describe(events, NAMES) == [
        "**Ana** played **Portrait ←** onto column 2, +2 from visitors, +3 (2 pieces + 1 "
        "masterpiece in **Bo**'s column 3)."
    ]


def test_visitors_welcomed_in_step_two_come_before_the_card_scores() -> None:
    """Rulebook: "Play a Card - Welcome Visitors - Earn Prestige": the welcome is told first
    and the prestige still joins its card's sentence; scored after an asked player answered,
    the prestige gets a sentence of its own."""
    placed = {"type": "placed", "player": "a", "card": "M-PO-01", "column": 2, "new": None}
    welcomed = {"type": "welcomed", "player": "b", "column": 1}
    scored = {"type": "visitors_scored", "player": "a", "card": "S-AB-01", "prestige": 2}
    assert words.describe([placed, welcomed, scored], NAMES) == [
        "**Ana** played **Portrait ←** onto column 2, +2 from visitors.",
        "Visitors welcomed: **Bo** on column 1.",
    ]
    assert words.describe([welcomed, scored], NAMES) == [
        "Visitors welcomed: **Bo** on column 1.",
        "**Ana**'s card scored, +2 from visitors.",
    ]


def test_visitors_welcomed_by_several_players_are_one_line() -> None:
    events = [
        {"type": "welcomed", "player": "b", "column": 1},
        {"type": "welcomed", "player": "b", "column": 3},
        {"type": "welcomed", "player": "c", "column": 2},
    ]
    assert tell("artsee", [("a", events)], NAMES) == [
        "Visitors welcomed: **Bo** on columns 1 and 3; **Cy** on column 2."
    ]


def test_every_event_of_random_games_is_told_and_every_label_fits() -> None:
    long_names = {p: "N" * 32 for p in ("a", "b", "c")}
    for seed in range(6):
        rng = random.Random(seed)
        state = ARTSEE.start(["a", "b", "c"], str(seed), {})
        state, _ = ARTSEE.play(state, "b", {"type": "policy", "policy": "ask"})
        while ARTSEE.to_move(state):
            player = rng.choice(ARTSEE.to_move(state))
            actions = ARTSEE.legal(state, player)
            for action in actions:
                assert 0 < len(words.action_label(action, long_names)) <= 80
            state, events = ARTSEE.play(state, player, rng.choice(actions))
            told = " ".join(words.describe(events, NAMES))
            for event in events:
                if event["type"] in TOLD:
                    assert told, event
        assert "Game over" in " ".join(words.describe(events, NAMES))


def test_the_hand_text_shows_the_viewers_fronts_and_what_they_are_asked() -> None:
    state = ARTSEE.start(["a", "b"], "hand", {})
    view = ARTSEE.view(state, "a")
    text = words.hand_text(view)
    assert text.startswith("Your hand: ") and "policy **always**" in text
    for card in view["hand_cards"]:
        assert words.card_label(card) in text
    assert "no cards" in words.hand_text(ARTSEE.view(state, None))
    asked = {**view, "asking": {"a": [1, 3]}, "played": "M-AB-01"}
    assert "An Abstract was played: you may welcome a visitor on column(s) 1 and 3." in (
        words.hand_text(asked)
    )


def test_the_rules_summary_fits_an_embed() -> None:
    assert len(WORDS["artsee"].RULES) <= 4096 and "/artsee play" in words.RULES


def test_the_hand_text_names_the_backs_on_the_draw_piles_when_drawing() -> None:
    view = {
        **ARTSEE.view(ARTSEE.start(["a", "b"], "draw", {}), "a"),
        "phase": "draw",
        "current": "a",
        "piles": [{"size": 9, "top": "PO"}, {"size": 5, "top": "LA"}],
    }
    assert "Draw pile 1: Portrait on top (9 cards), pile 2: Landscape on top (5 cards)." in (
        words.hand_text(view)
    )


def test_the_hand_text_tells_what_each_place_would_earn() -> None:
    view = {
        **ARTSEE.view(ARTSEE.start(["a", "b"], "preview", {}), "a"),
        "previews": {"1": 2, "2": 0, "left": 1, "right": 3},
    }
    assert (
        "It would earn: column 1 +2, column 2 +0, a new column at the left end +1, "
        "a new column at the right end +3." in words.hand_text(view)
    )


def test_the_turn_post_asks_about_visitors_only_while_someone_is_asked() -> None:
    assert words.question({"asking": {"p1": [1, 3]}}) == "Welcome visitors?"
    assert words.question({"asking": {}}) is None
