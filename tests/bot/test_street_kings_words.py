"""Street Kings in words: every event random games emit is told or deliberately silent, every
label fits a Discord option, and the private panel shows the viewer's own cards."""

from __future__ import annotations

import random

from bot.words import street_kings as words
from rules.street_kings import STREET_KINGS as GAME

#: Events the board shows and no sentence needs (the race GIF shows each movement).
SILENT = {
    "moved",
    "finished",
    "race_setup",
    "race_over",
    "dealership_revealed",
    "shop_restocked",
    "reshuffled",
}


def test_every_event_is_told_and_every_label_fits():
    names = {f"p{i}": "N" * 32 for i in range(4)}
    for seed, options in enumerate(({}, {"shorter_game": True}, {"custom_finish_line": True})):
        rng = random.Random(seed)
        state = GAME.start(list(names), str(seed), options)
        while GAME.to_move(state):
            player = GAME.to_move(state)[0]
            actions = GAME.legal(state, player)
            for action in actions:
                assert 0 < len(words.action_label(action, names)) <= 80, action
            state, events = GAME.play(state, player, rng.choice(actions))
            for event in events:
                told = words.describe([event], names)
                assert bool(told) == (event["type"] not in SILENT and event.get("drew", True)), (
                    event
                )
        assert "Street King" in words.describe(events, names)[-1]


def test_the_panel_shows_the_viewers_cards_and_nothing_to_spectators():
    state = GAME.start(["a", "b"], "words", {})
    view = GAME.view(state, "a")
    text = words.hand_text(view)
    assert text.startswith("Your hand:") and "Credits:" in text and "location cards:" in text
    assert "no cards" in words.hand_text(GAME.view(state, None))
    assert len(words.RULES) <= 4096
