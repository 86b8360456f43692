"""``python -m bench.pairing`` times a Swiss pairing at each size it names."""

from __future__ import annotations

from bench.pairing import measure


def test_a_pairing_is_timed_after_the_first_round() -> None:
    row = measure(8, 3, 1)
    assert row["players"] == 8 and 0 <= row["median_ms"] <= row["max_ms"]
