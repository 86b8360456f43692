"""The load bench drives the real bot and the trivial floor through the harness end to end:
if a change to the interaction flow broke its adapter, this is where it shows. On both store
backends: the bot on PostgreSQL, the whole way through Discord's dispatch."""

from __future__ import annotations

import random
from pathlib import Path

from bench.load import load
from tests.backends import Backend


async def test_one_small_level_answers_every_interaction_of_every_kind(
    tmp_path: Path, backend: Backend
) -> None:
    figures = await load(tmp_path, [3], 9, random.Random(1), backend.url)
    (level,) = figures["levels"]
    floor, project = level["floor"], level["project"]
    assert floor["interactions"] == project["interactions"] == 9  # 3 rounds at 3 tables
    assert floor["unanswered"] == project["unanswered"] == 0
    assert floor["errors"] == project["errors"] == []
    # Each table clicked Board, then My hand, then picked a move on its panel.
    assert set(project["p99_by_kind_ms"]) == {"board", "hand", "pick"}
    assert figures["board_png_kb"] > 10
