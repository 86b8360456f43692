"""Street Art: Mural in words: every event of random games is told, every label fits Discord,
the rules fit an embed and name the Portuguese terms, the board text is the viewer's own."""

from __future__ import annotations

import random

from bot.words import mural as words
from bot.words import tell
from rules.mural import MURAL
from rules.mural.data import TECHNIQUES

NAMES = {"a": "Ana", "b": "Bo", "c": "Cy"}
TOLD = {
    "rotated", "collected", "painted", "mixed", "technique", "swapped", "copied", "picked",
    "transferred", "discarded", "passed", "first_player", "end_triggered", "round_over",
    "game_over",
}  # fmt: skip


def test_the_rules_fit_an_embed_and_name_the_rulebook_terms() -> None:
    assert len(words.RULES) <= 4096
    for term in ("Giro Simples", "Giro Grande", "Giro Duplo", "Técnicas de Basquiat", "Troca"):
        assert term in words.RULES


def test_every_technique_has_a_short_label() -> None:
    assert set(words.TECHNIQUE_LABELS) == set(TECHNIQUES)
    for tile in TECHNIQUES:
        label = words.action_label({"type": "technique", "tile": tile}, NAMES)
        assert label.startswith(f"Technique {TECHNIQUES[tile].name}") and "…" not in label


def test_a_rotation_and_its_paint_read_as_one_sentence() -> None:
    steps = [
        ("a", [{"type": "rotated", "player": "a", "kind": "simple", "discs": [1], "steps": [-1],
                "aligned": [0]}]),
        ("a", [{"type": "collected", "player": "a", "paint": "R", "disc": 0, "segment": 0}]),
    ]  # fmt: skip
    assert tell("street-art-mural", steps, NAMES) == [
        "**Ana** made a simple rotation (disc 2: 1 step ↺) and collected red."
    ]


def test_every_event_of_random_games_is_told_and_every_label_fits() -> None:
    long_names = {p: "N" * 32 for p in ("a", "b", "c")}
    seen: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = MURAL.start(["a", "b", "c"][: 2 + seed % 2], str(seed), {})
        for player_state in state["seats"]:
            player_state["sprays"] = 2 if seed % 3 == 0 else player_state["sprays"]
        while MURAL.to_move(state):
            player = MURAL.to_move(state)[0]
            actions = MURAL.legal(state, player)
            for action in actions:
                assert 0 < len(words.action_label(action, long_names)) <= 80
            state, events = MURAL.play(state, player, rng.choice(actions))
            told = words.describe(events, NAMES)
            wanted = [e for e in events if e["type"] in TOLD and e["type"] != "collected"]
            assert len(told) >= len(wanted), (events, told)
            seen.update(e["type"] for e in events)
    assert {"rotated", "collected", "painted", "passed", "round_over", "game_over"} <= seen


def test_the_board_text_is_the_viewers_own() -> None:
    state = MURAL.start(["a", "b"], "s", {})
    state["seats"][0]["backpack"] = ["R", "A"]
    text = words.hand_text(MURAL.view(state, "a"))
    assert "**Backpack** (2/5): red, advanced" in text and "Grafiteiros** 4" in text
    assert "no board" in words.hand_text(MURAL.view(state, None))
    state["current"] = 0
    state["seats"][0]["backpack"] = ["R", "Y"]
    state, _ = MURAL.play(state, "a", {"type": "mix", "paints": ["R", "Y"]})
    assert "**Now:** choose which paint goes to the end of the queue next." in words.hand_text(
        MURAL.view(state, "a")
    )
