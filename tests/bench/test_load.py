"""The load bench drives the real bot and the trivial floor through the harness end to end:
if a change to the interaction flow broke its adapter, this is where it shows. On both store
backends: the bot on PostgreSQL, the whole way through Discord's dispatch."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.load import DeferredChecks, load
from tests.backends import Backend
from tests.harness import validate
from tests.harness.fake_discord import RecordedRequest


async def test_one_small_level_answers_every_interaction_of_every_kind(
    tmp_path: Path, backend: Backend
) -> None:
    figures = await load(tmp_path, [4], 12, random.Random(1), backend.url)
    (level,) = figures["levels"]
    floor, project = level["floor"], level["project"]
    # 3 rounds at 4 tables: more tables than one player may host lobbies, so each has its own.
    assert floor["interactions"] == project["interactions"] == 12
    assert floor["unanswered"] == project["unanswered"] == 0
    assert floor["errors"] == project["errors"] == []
    # Each table clicked Board, then My hand, then picked a move on its panel.
    assert set(project["p99_by_kind_ms"]) == {"board", "hand", "pick"}
    assert figures["board_png_kb"] > 10


async def test_the_checks_deferred_past_the_clock_still_check_every_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(validate, "hard_issues", validate.hard_issues)
    monkeypatch.setattr(validate, "policy_issues", validate.policy_issues)
    checks = DeferredChecks()
    checks.install()
    figures = await load(tmp_path, [2], 4, random.Random(2), checks=checks)
    (level,) = figures["levels"]
    assert level["payload_issues"] == []
    assert checks.checked >= 2 * level["project"]["interactions"]  # both bots' requests
    # A request that breaks a rule is still caught, only later.
    too_long = RecordedRequest(
        seq=0,
        method="POST",
        path="/channels/1/messages",
        query={},
        json={"content": "x" * 2001},
        files=[],
        multipart=False,
    )
    validate.policy_issues(too_long, set())
    assert checks.run() != []
