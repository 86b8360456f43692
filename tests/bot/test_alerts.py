"""The rules of a player's alerts (issue 27, ``bot.alerts``): modes per game, quiet hours in
a time zone (across midnight and summer time), the digest's hour, the choices' checks."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from bot import alerts


def at(zone: str, *when: int) -> float:
    return dt.datetime(*when, tzinfo=ZoneInfo(zone)).timestamp()


def test_a_game_of_its_own_wins_and_a_refused_dm_falls_back_to_the_thread() -> None:
    prefs = {"alerts": alerts.OFF, "games": {"abc234": alerts.DM}}
    assert alerts.mode_of({}) == alerts.THREAD
    assert alerts.mode_of(prefs, "abc234") == alerts.DM
    assert alerts.mode_of(prefs, "xyz789") == alerts.OFF
    assert alerts.mode_of({**prefs, "dm_refused": True}, "abc234") == alerts.THREAD
    assert alerts.mode_of({**prefs, "dm_refused": True}, "xyz789") == alerts.OFF


@pytest.mark.parametrize(
    ("zone", "local", "quiet", "ends"),
    [
        ("Europe/Lisbon", (2026, 1, 10, 23, 30), [22, 7], (2026, 1, 11, 7)),  # over midnight
        ("Europe/Lisbon", (2026, 1, 11, 6, 59), [22, 7], (2026, 1, 11, 7)),
        ("America/Sao_Paulo", (2026, 6, 1, 13, 0), [12, 14], (2026, 6, 1, 14)),
        ("Asia/Kolkata", (2026, 6, 1, 3, 15), [0, 8], (2026, 6, 1, 8)),  # a half-hour zone
        ("Europe/Lisbon", (2026, 3, 29, 0, 30), [23, 8], (2026, 3, 29, 8)),  # the clocks jump
    ],
)
def test_quiet_hours_end_at_the_local_hour(zone, local, quiet, ends) -> None:
    prefs = {"zone": zone, "quiet": quiet}
    assert alerts.quiet_until(prefs, at(zone, *local)) == at(zone, *ends)


def test_outside_quiet_hours_nothing_waits_and_the_digest_is_at_nine() -> None:
    prefs = {"zone": "America/New_York", "quiet": [22, 7]}
    noon = at("America/New_York", 2026, 7, 4, 12)
    assert alerts.quiet_until(prefs, noon) is None and alerts.not_before(prefs, noon) == noon
    assert alerts.next_digest(prefs, noon) == at("America/New_York", 2026, 7, 5, 9)
    early = {"zone": "America/New_York", "quiet": [22, 10]}  # quiet over nine: after it
    assert alerts.next_digest(early, noon) == at("America/New_York", 2026, 7, 5, 10)


def test_choices_are_checked_and_a_new_choice_clears_a_refused_dm() -> None:
    with pytest.raises(ValueError, match="time zone"):
        alerts.changed({}, zone_name="Mars/Olympus", now=0.0)
    for wrong in ("22", "25-7", "7-7", "night"):
        with pytest.raises(ValueError, match="Quiet hours"):
            alerts.parse_quiet(wrong)
    assert alerts.parse_quiet("off") is None and alerts.parse_quiet(" 22-7 ") == [22, 7]
    prefs = alerts.changed({"dm_refused": True}, alerts=alerts.DM, now=0.0)
    assert prefs["alerts"] == alerts.DM and "dm_refused" not in prefs
    digest = alerts.changed(prefs, alerts=alerts.DIGEST, game_id="abc234", now=0.0)
    assert digest["games"] == {"abc234": alerts.DIGEST} and digest["digest_at"] > 0
    assert "digest_at" not in alerts.changed(digest, alerts=alerts.OFF, game_id="abc234", now=0)


def test_an_alert_whose_decision_passed_is_stale() -> None:
    payload = {"user": "1", "deadline": 100.0}
    assert not alerts.stale(payload, {"1": [50.0, 100.0]})
    assert alerts.stale(payload, {"1": [150.0, 200.0]}) and alerts.stale(payload, {})
    assert not alerts.stale({"user": "1", "deadline": None}, {})
