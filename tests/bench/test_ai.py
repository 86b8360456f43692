"""The AI league (``python -m bench.ai``): its interval is the Wilson interval, and a league is
the same league whether its games are played one after another or side by side."""

from __future__ import annotations

import pytest

from bench.ai import league, main, wilson
from bot.ai import EASY, NORMAL

#: Seconds no decision here comes near, so no level is cut short by the clock.
AMPLE = 60.0


def test_the_interval_is_wilsons() -> None:
    assert wilson(20, 40) == [0.352, 0.648]
    assert wilson(40, 40) == [0.912, 1.0]
    assert wilson(0, 0) == [0.0, 1.0]


def test_a_league_played_side_by_side_is_the_same_league() -> None:
    alone = league("street-art", NORMAL, EASY, 2, "bench-test", AMPLE)
    together = league("street-art", NORMAL, EASY, 2, "bench-test", AMPLE, jobs=2)
    for key in ("a_win_rate", "a_ci95", "mean_length", "seed"):
        assert alone[key] == together[key]
    assert alone["decision_ms_p50"] <= alone["decision_ms_p95"]


def test_the_command_takes_a_seed_and_a_number_of_games(capsys: pytest.CaptureFixture) -> None:
    main(["--game", "street-art", "--a", NORMAL, "--b", EASY, "--games", "1", "--seed", "x"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert '"seed": "x"' in last and '"games": 1' in last and '"a_ci95"' in last
