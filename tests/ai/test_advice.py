"""Advice from a seat's own view (``bot.ai.advice``): the best move's verdict is no loss, a hint
is always a legal move, and neither depends on anything the seat cannot see."""

from __future__ import annotations

import random

import pytest

from bot.ai import advice
from bot.ai.memory import Memories
from rules import DETERMINIZERS, GAMES
from tests.ai.test_levels import AMPLE, mid_game


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_best_move_loses_nothing_and_the_hint_is_legal(game_id: str) -> None:
    for decisions in (7, 30):
        game, state = mid_game(game_id, decisions)
        mover = game.to_move(state)[0]
        view, legal = game.view(state, mover), game.legal(state, mover)
        shown = advice.hint(game_id, view, legal, "hint", None, AMPLE)
        assert shown.move in legal
        assert shown.focus.items() <= shown.move.items() or shown.focus == {
            "type": shown.move["type"]
        }
        best = advice.verdict(game_id, view, legal, shown.move, "hint", None, AMPLE)
        assert best.loss == 0.0 and not best.mistake and best.best == shown.move
        for move in legal:
            judged = advice.verdict(game_id, view, legal, move, "hint", None, AMPLE)
            assert judged.loss >= 0.0 and judged.best in legal
            assert judged.mistake == (judged.loss > advice.MISTAKE[game_id])
            if judged.mistake:
                quick = advice.appraise(game_id, view, legal, "hint", None, cap_s=AMPLE)
                assert quick.loss(move) > advice.MISTAKE[game_id], "the quick search suspected it"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_hint_is_the_same_whatever_the_seat_cannot_see(game_id: str) -> None:
    """The table with everything hidden from the seat dealt anew gives the same hint."""
    for decisions in (9, 23):
        game, state = mid_game(game_id, decisions)
        mover = game.to_move(state)[0]
        view, legal = game.view(state, mover), game.legal(state, mover)
        here = advice.hint(game_id, view, legal, "same", None, AMPLE)
        for n in range(2):
            redealt = DETERMINIZERS[game_id](game.view(state, mover), mover, random.Random(n))
            assert game.dump(redealt) != game.dump(state)
            view, legal = game.view(redealt, mover), game.legal(redealt, mover)
            assert advice.hint(game_id, view, legal, "same", None, AMPLE) == here


def test_a_street_art_hint_reads_the_seats_memory() -> None:
    """With the memory, the tables it deals know what lies in the piles: a hint still legal."""
    game, state = mid_game("street-art", 0)
    players = state.players
    memories = Memories(game, players)
    memories.saw(state)
    rng = random.Random(3)
    for _ in range(25):
        mover = game.to_move(state)[0]
        state, _ = game.play(state, mover, rng.choice(game.legal(state, mover)))
        memories.saw(state)
    mover = game.to_move(state)[0]
    view, legal = game.view(state, mover), game.legal(state, mover)
    memory = memories.of(mover)
    assert memory is not None
    assert advice.hint("street-art", view, legal, "memo", memory, AMPLE).move in legal


def test_a_verdict_refuses_a_move_that_is_not_legal() -> None:
    game, state = mid_game("street-art", 3)
    mover = game.to_move(state)[0]
    with pytest.raises(ValueError):
        advice.verdict(
            "street-art",
            game.view(state, mover),
            game.legal(state, mover),
            {"type": "play", "card": "no-such-card"},
            "x",
        )


def test_a_hint_never_sends_the_seat_round_an_empty_shop_visit() -> None:
    """Street Kings: everyone else has passed, and the seat may Pass or visit a shop where it
    can only sell. A visit that sells nothing brings the same decision back, unchanged, and a
    hint that names it names it again: followed, the hints must never bring the seat back to
    a decision it has had (the search's look ahead once valued the visit above Pass: it
    put the race that Pass starts past its horizon)."""
    game = GAMES["street-kings"]
    state = game.start(["me", "ai:1", "ai:2"], "s0", dict(game.default_options))
    rng = random.Random(0)
    for _step in range(17):
        mover = game.to_move(state)[0]
        legal = game.legal(state, mover)
        active = [a for a in legal if a["type"] != "pass"] if mover == "me" else legal
        state = game.play(state, mover, rng.choice(active or legal))[0]
    assert game.legal(state, "me") == [{"type": "shop"}, {"type": "pass"}]
    visited = game.play(state, "me", {"type": "shop"})[0]
    assert {a["type"] for a in game.legal(visited, "me")} == {"sell", "done_selling"}
    followed: list[str] = []
    seen: list[dict] = []
    for step in range(6):
        if game.to_move(state) != ["me"]:
            break
        view, legal = game.view(state, "me"), game.legal(state, "me")
        assert view not in seen, f"the same decision again, unchanged: {followed}"
        seen.append(view)
        move = advice.hint("street-kings", view, legal, f"loop:{step}", cap_s=AMPLE).move
        followed.append(move["type"])
        state = game.play(state, "me", move)[0]
