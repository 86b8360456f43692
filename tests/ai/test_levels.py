"""The AI levels: ``normal`` clearly beats ``easy`` in every game, no level's decision depends on
anything its seat cannot see, and the levels live in the AI seats' ids."""

from __future__ import annotations

import itertools
import json
import random
import time
from typing import Any

import pytest

from bench.ai import levels_for, play_one, seat_count
from bot.ai import EASY, HARD, NORMAL, Agent, ai_id, decide, level_of, levels
from rules import DETERMINIZERS, GAMES

#: Seconds no test decision comes near, so ``normal`` never stops sampling early: a seeded
#: game is then the same game on any machine.
AMPLE = 60.0


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_normal_beats_easy_clearly_over_a_seeded_sample(game_id: str) -> None:
    games = 6
    won = 0.0
    for number in range(games):
        levels = levels_for(number, seat_count(game_id), NORMAL, EASY)
        won += play_one(game_id, levels, f"test:{number}", AMPLE).share[NORMAL]
    assert won / games >= 0.75, f"normal won {won} of {games} {game_id} games"


@pytest.fixture
def steady_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that advances a millisecond a reading, so ``hard`` runs the same number of
    rollouts every time and its choice can be compared."""
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 1000)


def mid_game(game_id: str, decisions: int):
    game = GAMES[game_id]
    players = [f"p{i}" for i in range(seat_count(game_id))]
    state = game.start(players, "midgame", {})
    agent = Agent("midgame", EASY)
    for _ in range(decisions):
        mover = game.to_move(state)[0]
        state, _ = game.play(state, mover, agent.choose(game, state, mover))
    return game, state


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("level", [EASY, NORMAL, HARD])
@pytest.mark.usefixtures("steady_clock")
def test_a_decision_is_the_same_whatever_the_seat_cannot_see(game_id: str, level: str) -> None:
    """The same table with everything hidden from the mover dealt anew (as their view allows):
    every level decides the same, since it is handed nothing but the seat's view."""
    for decisions in (9, 23, 41):
        game, state = mid_game(game_id, decisions)
        mover = game.to_move(state)[0]
        view = game.view(state, mover)
        for n in range(2):
            redealt = DETERMINIZERS[game.id](view, mover, random.Random(n))
            assert game.dump(redealt) != game.dump(state)
            budget = 0.2
            here = Agent("same", level, budget).choose(game, state, mover)
            there = Agent("same", level, budget).choose(game, redealt, mover)
            assert here == there
            assert here in game.legal(state, mover)


def test_decide_takes_and_gives_plain_json_so_a_worker_process_can_run_it() -> None:
    game, state = mid_game("artsee", 5)
    mover = game.to_move(state)[0]
    args = json.loads(json.dumps(["artsee", NORMAL, game.view(state, mover)]))
    legal = json.loads(json.dumps(game.legal(state, mover)))
    action = decide(*args, legal, "plain", AMPLE)
    assert action in legal and json.loads(json.dumps(action)) == action


def test_a_decision_with_nothing_to_choose_from_is_refused() -> None:
    game, state = mid_game("street-art", 0)
    with pytest.raises(ValueError):
        decide("street-art", NORMAL, game.view(state, "p0"), [], "none", AMPLE)
    with pytest.raises(ValueError):
        decide("street-art", "grandmaster", game.view(state, "p0"), [{"type": "x"}], "x", AMPLE)


def test_a_seat_id_keeps_its_level_and_old_ids_read_as_easy() -> None:
    assert [level_of(ai_id(level, 2)) for level in (EASY, NORMAL, HARD)] == [EASY, NORMAL, HARD]
    assert ai_id(HARD, 2) == "ai:hard:2"
    assert level_of("ai:3") == EASY, "the seats of games from before levels"
    assert level_of("123456789") == NORMAL, "a human's seat handed to the AI plays normal"
    with pytest.raises(ValueError):
        ai_id("grandmaster", 1)


def counting_tables(monkeypatch: pytest.MonkeyPatch, game_id: str) -> list[int]:
    """Counts the determinized tables ``decide`` deals for ``game_id``."""
    dealt = [0]
    deal = DETERMINIZERS[game_id]

    def counted(view: dict[str, Any], player: str, rng: random.Random) -> Any:
        dealt[0] += 1
        return deal(view, player, rng)

    monkeypatch.setattr(levels, "DETERMINIZERS", {**DETERMINIZERS, game_id: counted})
    return dealt


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_hard_searches_a_set_amount_not_until_the_clock_runs_out(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With all the time in the world, hard deals no more tables than its level allows, and a
    clock that crawls (a busy machine) changes nothing while the cap is not reached."""
    game, state = mid_game(game_id, 23)
    mover = game.to_move(state)[0]
    view, legal = game.view(state, mover), game.legal(state, mover)
    dealt = counting_tables(monkeypatch, game_id)
    quick = decide(game_id, HARD, view, legal, "effort", AMPLE)
    tuning = levels.TUNING[game_id]
    assert 0 < dealt[0] <= tuning.samples + 2 * tuning.tables
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 1000)
    assert decide(game_id, HARD, view, legal, "effort", AMPLE) == quick


def test_hard_keeps_to_its_budget_when_the_machine_is_too_slow_for_its_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A clock that races (each reading a tenth of a second on): the search stops at the cap
    and still answers with a legal move."""
    game, state = mid_game("artsee", 23)
    mover = game.to_move(state)[0]
    view, legal = game.view(state, mover), game.legal(state, mover)
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 10)
    assert decide("artsee", HARD, view, legal, "slow", 1.0) in legal
    assert next(ticks) < 40, "the search read the clock long after its budget was spent"


def test_hard_plays_a_forced_move_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """One move worth making: no table is dealt, nothing is searched."""
    game, state = mid_game("artsee", 9)
    mover = game.to_move(state)[0]
    only = game.legal(state, mover)[:1]
    dealt = counting_tables(monkeypatch, "artsee")
    assert decide("artsee", HARD, game.view(state, mover), only, "forced", AMPLE) == only[0]
    assert dealt[0] == 0


def test_a_candidate_clearly_behind_the_best_drops_out_and_a_close_one_stays() -> None:
    best = [10.0, 12.0, 11.0, 9.0, 10.0, 13.0, 11.0, 10.0]
    close = [v + (0.5 if n % 2 else -0.7) for n, v in enumerate(best)]
    behind = [v - 5 + (n % 3) for n, v in enumerate(best)]
    assert levels.survivors([0, 1, 2], [best, close, behind]) == [0, 1]
    assert levels.survivors([0, 2], [best, close, behind]) == [0], "the best alone: search stops"
