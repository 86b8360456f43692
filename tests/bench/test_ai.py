"""The AI league (``python -m bench.ai``): its interval is the Wilson interval, and a league is
the same league whether its games are played one after another or side by side."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from bench.ai import THRESHOLD_SCALE, differs, league, main, verdicts, wilson
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


def test_differs_counts_the_decisions_where_the_asked_level_chose_otherwise() -> None:
    """A level asked beside itself never chooses otherwise; easy beside normal often does."""
    same = differs("street-art", NORMAL, NORMAL, 1, "differs", AMPLE)
    assert same["decisions"] > same["forced"] > 0
    assert same["a_chose_otherwise"] == 0
    other = differs("street-art", EASY, NORMAL, 1, "differs", AMPLE)
    assert other["decisions"] == same["decisions"], "b plays the same game either way"
    assert 0 < other["a_chose_otherwise"] <= other["decisions"] - other["forced"]


def test_verdicts_compare_the_quick_judgement_with_the_deeper_one() -> None:
    """Two positions, two moves judged at each (normal's and a random one), at every
    threshold; a hint's time is reported."""
    line = verdicts("street-art-mural", 2, "verdicts")
    assert line["positions"] == 2 and line["moves_judged"] == 4
    assert len(line["agreement"]) == len(THRESHOLD_SCALE)
    for counts in line["agreement"].values():
        assert 0.0 <= counts["agree"] <= 1.0
        assert counts["mistakes_called"] <= line["moves_judged"]
    assert 0 < line["hint_ms_p50"] <= line["hint_ms_p95"]


def test_a_league_cut_short_goes_on_with_the_games_it_would_have_played() -> None:
    whole = league("street-kings", NORMAL, EASY, 2, "resume", AMPLE)
    start = league("street-kings", NORMAL, EASY, 1, "resume", AMPLE)
    rest = league("street-kings", NORMAL, EASY, 1, "resume", AMPLE, first=1)
    assert rest["first"] == 1
    assert start["a_win_rate"] + rest["a_win_rate"] == 2 * whole["a_win_rate"]
    assert start["mean_length"] + rest["mean_length"] == 2 * whole["mean_length"]


def test_a_league_interrupted_sums_up_the_games_it_played() -> None:
    """A real league process, sent SIGINT (what ``timeout -s INT`` sends at a deadline) once
    its first game is told: it prints its line for the games played, marked cut short."""
    command = [sys.executable, "-m", "bench.ai", "--game", "street-kings", "--a", NORMAL]
    command += ["--b", EASY, "--games", "500", "--seed", "cut"]
    league_process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert league_process.stderr is not None
    first = league_process.stderr.readline().decode()
    assert "game 1/500" in first
    league_process.send_signal(signal.SIGINT)
    out, _ = league_process.communicate(timeout=120)
    line = json.loads(out.decode().strip().splitlines()[-1])
    assert line["cut_short"] is True
    assert 1 <= line["games"] < 500
