"""``json_copy`` copies a state as ``copy.deepcopy`` would, sharing nothing mutable."""

from __future__ import annotations

import copy

from rules import GAMES
from rules.jsoncopy import json_copy


def test_a_copy_is_equal_and_shares_nothing_mutable() -> None:
    data = {"a": [1, {"b": [2.5, None, True]}], "t": ("x", [3]), "s": "text"}
    copied = json_copy(data)
    assert copied == data
    assert copied["a"] is not data["a"] and copied["a"][1] is not data["a"][1]
    assert copied["t"][1] is not data["t"][1]
    copied["a"][1]["b"].append("changed")
    copied["t"][1].append(4)
    assert data == {"a": [1, {"b": [2.5, None, True]}], "t": ("x", [3]), "s": "text"}


def test_what_is_not_json_is_still_copied_deeply() -> None:
    data = {"seen": {1, 2}}
    copied = json_copy(data)
    assert copied == data and copied["seen"] is not data["seen"]


def test_every_game_state_copies_as_deepcopy_does() -> None:
    for game in GAMES.values():
        low = game.player_range(dict(game.default_options))[0]
        state = game.start([f"p{i}" for i in range(low)], "copy", dict(game.default_options))
        dumped = game.dump(state)
        assert json_copy(dumped) == copy.deepcopy(dumped)
