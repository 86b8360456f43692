"""SHARD_COUNT and SHARD_IDS: the shards a process serves, and a start-up refusal that says
what is allowed for every value that cannot work."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.store.base import Shards
from tests.bot.test_cli import run_cli


@pytest.mark.parametrize(
    ("count", "ids", "shards"),
    [
        ("", "", None),
        ("0", "", None),
        ("4", "", Shards(4, (0, 1, 2, 3))),
        ("4", "0-3", Shards(4, (0, 1, 2, 3))),
        ("4", "1-2", Shards(4, (1, 2))),
        ("4", "0,2", Shards(4, (0, 2))),
        ("16", " 0-1, 5 ,3-3 ", Shards(16, (0, 1, 3, 5))),
        ("1", "0", Shards(1, (0,))),
    ],
)
def test_the_shards_of_a_process(
    monkeypatch: pytest.MonkeyPatch, count: str, ids: str, shards: Shards | None
) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    assert Settings.load("no-such.env").shards() == shards


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        ("4", "4", "shard 4 does not exist with SHARD_COUNT=4 (ids run from 0 to 3)"),
        ("4", "2-7", "shard 7 does not exist"),
        ("4", "3-1", "runs backwards"),
        ("4", "zero", "is not a list of shard ids like 0-3 or 0,2"),
        ("4", "0,,1", "is not a list of shard ids"),
        ("4", "-1", "is not a list of shard ids"),
        ("0", "0-1", "SHARD_IDS needs SHARD_COUNT"),
        ("-2", "", "SHARD_COUNT must be 0 (no sharding) or a positive whole number"),
        ("two", "", "SHARD_COUNT='two' is not a whole number"),
    ],
)
def test_a_shard_setting_that_cannot_work_is_refused_saying_why(
    monkeypatch: pytest.MonkeyPatch, count: str, ids: str, says: str
) -> None:
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(ValueError, match="SHARD_") as refused:
        Settings.load("no-such.env")
    assert says in str(refused.value)


def test_the_bot_does_not_start_with_bad_shards_and_says_so_in_one_line(tmp_path: Path) -> None:
    done = run_cli("run", cwd=tmp_path, DISCORD_TOKEN="x", SHARD_COUNT="2", SHARD_IDS="0-2")
    assert done.returncode != 0
    assert "Cannot start: SHARD_IDS='0-2': shard 2 does not exist" in done.stderr
    assert "Traceback" not in done.stderr
