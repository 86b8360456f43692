"""``hard`` in Mural (``bot.ai.mural``): whole turns played out and compared."""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import replace

import pytest

from bot.ai import HARD, Agent, decide, levels, mural
from bot.ai.evaluate import mural as evaluate
from bot.ai.search import MAX_TURN_STEPS, Search
from rules import GAMES
from rules.mural import discs
from rules.mural.state import rotation_options

GAME = GAMES["street-art-mural"]


def search_for(budget: float = 60.0) -> Search:
    return Search(GAME, evaluate, random.Random(0), 14, time.perf_counter() + budget)


def table_at_a_turn_start(decisions: int):
    """A game after ``decisions`` random moves, then on until a turn starts with a simple
    rotation among its moves."""
    state = GAME.start(["p0", "p1"], "plans", {})
    agent = Agent("plans")
    while True:
        mover = GAME.to_move(state)[0]
        fresh = state["turn"] == {"main": False, "free": False, "pending": None, "log": []}
        if decisions <= 0 and fresh and rotation_options(state, "simple"):
            return state, mover
        state, _ = GAME.play(state, mover, agent.choose(GAME, state, mover))
        decisions -= 1


def count_plays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A one-item list that counts the moves played through the rules from now on."""
    plays = [0]
    play = type(GAME).play

    def counted(self: object, *args: object) -> object:
        plays[0] += 1
        return play(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(type(GAME), "play", counted)
    return plays


@pytest.mark.parametrize("decisions", [0, 15, 30])
def test_a_simple_rotation_is_played_out_with_every_paint_it_lets_one_collect(
    decisions: int,
) -> None:
    """Each simple rotation with each paint it aligns is a plan of its own: greedy steps would
    take the first disc (the choice of a disc changes nothing the evaluation sees)."""
    table, player = table_at_a_turn_start(decisions)
    seat = table["players"].index(player)
    expected = set()
    for rotation in rotation_options(table, "simple"):
        turned = tuple(discs.turned(table["discs"], rotation))
        for position, segment in discs.collectable(table["discs"], rotation):
            paint = table["discs"][position]["cubes"][segment]
            expected.add((turned, tuple(sorted([*table["seats"][seat]["backpack"], paint]))))
    rotate = {"type": "rotate", "kind": "simple"}
    found = mural.plans(search_for(), table, player, [rotate], mural.CHAIN_PLAYS)
    reached = {
        (
            tuple(d["orientation"] for d in end["discs"]),
            tuple(sorted(end["seats"][seat]["backpack"])),
        )
        for _, end, _ in found
    }
    assert len(expected) > 1
    assert reached == expected
    assert all(first == 0 and not over for first, _, over in found), "judged before turn's end"


def test_a_position_is_the_same_whatever_the_path_to_it() -> None:
    table, _ = table_at_a_turn_start(30)
    other = {**table, "last": {"player": "p9", "events": []}, "previous": None}
    other["turn"] = {**table["turn"], "log": [{"type": "mixed"}]}
    assert mural.position_key(other) == mural.position_key(table)
    moved = {**table, "queue": [*table["queue"], "R"]}
    assert mural.position_key(moved) != mural.position_key(table)


def test_a_free_action_is_finished_greedily_not_played_out() -> None:
    table, player = table_at_a_turn_start(30)
    table["seats"][table["current"]]["backpack"] = ["R", "R", "Y"]
    mix = {"type": "mix", "paints": ["R", "R"]}  # two alike: no queue order to choose
    assert mix in GAME.legal(table, player)
    found = mural.plans(search_for(), table, player, [mix], mural.CHAIN_PLAYS)
    assert len(found) == 1 and found[0][2], "one end, the turn over"


def test_hard_mural_keeps_to_its_budget_when_the_machine_is_too_slow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A clock that races (each reading a tenth of a second on): the plans stop at the cap,
    long before all are played, and hard still answers with a legal move."""
    table, player = table_at_a_turn_start(30)
    view, legal = GAME.view(table, player), GAME.legal(table, player)
    plays = count_plays(monkeypatch)
    decide(GAME.id, HARD, view, legal, "slow", 60.0)
    unhurried, plays[0] = plays[0], 0
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 10)
    assert decide(GAME.id, HARD, view, legal, "slow", 1.0) in legal
    assert next(ticks) < 40, "the search read the clock long after its budget was spent"
    assert plays[0] < unhurried / 2, (plays[0], unhurried)


def test_hard_mural_stops_at_its_effort_the_same_on_any_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decision whose plans take more plays than hard's effort stops near that many plays
    (the greedy rest of one turn past it at most), whatever the clock says: a crawling clock
    gives the same move, where a clock-bound search would have searched further."""
    table, player = table_at_a_turn_start(30)
    view, legal = GAME.view(table, player), GAME.legal(table, player)
    plays = count_plays(monkeypatch)
    tuning = levels.TUNING[GAME.id]
    monkeypatch.setitem(levels.TUNING, GAME.id, replace(tuning, effort=None))
    decide(GAME.id, HARD, view, legal, "effort", 60.0)
    unbounded, plays[0] = plays[0], 0
    effort = unbounded // 3
    monkeypatch.setitem(levels.TUNING, GAME.id, replace(tuning, effort=effort))
    bounded = decide(GAME.id, HARD, view, legal, "effort", 60.0)
    one_turn = tuning.breadth * MAX_TURN_STEPS
    assert bounded in legal
    assert effort <= plays[0] <= effort + one_turn < unbounded, (plays[0], effort, unbounded)
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 10_000)
    assert decide(GAME.id, HARD, view, legal, "effort", 60.0) == bounded


def test_a_flexible_card_s_spaces_are_filled_in_one_order_only() -> None:
    """The same paints on a flexible card in another order score alike: tried once."""
    state = {"turn": {"pending": {"do": "paint", "card": "G08", "paints": ["Y"]}}}
    moves = [{"type": "fill", "paint": p} for p in ("R", "Y", "B", "A", None)] + [{"type": "back"}]
    kept = mural.worth_trying(state, moves)
    assert [m["paint"] for m in kept] == ["Y", "B", "A", None]


def test_hard_values_the_paint_a_display_card_needs_where_normal_sees_no_difference() -> None:
    """Neither paint pays a card yet: ``normal``'s judgement ties them, ``hard``'s prefers the
    blue that two display cards (BBW, BW) and a third (RBW) need over a yellow none needs."""
    table, player = table_at_a_turn_start(0)
    table["display"] = ["G02", "G09", "G18"]
    seat = table["seats"][table["players"].index(player)]
    blue, yellow = dict(table), dict(table)
    blue["seats"] = [dict(s) for s in table["seats"]]
    yellow["seats"] = [dict(s) for s in table["seats"]]
    blue["seats"][table["players"].index(player)]["backpack"] = [*seat["backpack"], "B"]
    yellow["seats"][table["players"].index(player)]["backpack"] = [*seat["backpack"], "Y"]
    assert seat["backpack"] == []
    assert evaluate(blue, player) == evaluate(yellow, player)
    assert mural.evaluate(blue, player) > mural.evaluate(yellow, player)


def test_a_card_is_nearer_by_the_paints_still_to_collect_mixes_counted() -> None:
    assert mural.missing(["R", "Y"], "G01") == 0  # RY
    assert mural.missing(["R"], "G01") == 1
    assert mural.missing(["R", "Y", "B"], "G04") == 0  # AR: the two spares mix into the A
    assert mural.missing(["R", "Y"], "G04") == 1  # one spare: one more paint to mix with
    assert mural.missing([], "G06") == 5  # AAB
    assert mural.missing(["A", "B"], "G08") == 2  # four spaces, any paints


def test_the_next_turn_is_its_mover_s_best_plan() -> None:
    table, player = table_at_a_turn_start(15)
    search = search_for()
    moves = search.moves(table, player)
    found = mural.plans(search, table, player, moves, mural.CHAIN_PLAYS, greedy=False)
    reached = mural.answer(search, table, finish=False)
    assert len({round(search.value(end, player), 6) for _, end, _ in found}) > 1
    assert search.value(reached, player) == max(search.value(end, player) for _, end, _ in found)
