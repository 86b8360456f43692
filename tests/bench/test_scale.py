"""``python -m bench.scale`` measures every cost it names on a small database of each backend."""

from __future__ import annotations

from bench.scale import line, measure
from tests.backends import Backend


async def test_a_small_history_is_built_and_every_cost_measured(backend: Backend) -> None:
    row = await measure(backend.url, 60)
    assert row["games"] == 60
    costs = {key: value for key, value in row.items() if key.endswith("_ms")}
    assert len(costs) == 9 and all(value >= 0 for value in costs.values())
    assert line(backend.name, row).count("|") == 12
