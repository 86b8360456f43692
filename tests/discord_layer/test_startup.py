"""Start-up that explains itself (issue 22): a token Discord rejects is one sentence and exit
status 2 (systemd does not restart it in a loop); a network that is not there yet is tried
again with backoff, one line per attempt."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot.config import Settings
from cogs import app


def settings(tmp_path: Path) -> Settings:
    return Settings.load(
        discord_token="not-a-token", database_url=f"sqlite:///{tmp_path / 'games.db'}"
    )


def test_a_rejected_token_is_one_sentence_and_exit_status_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def rejected(self: discord.Client, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.Client, "login", rejected)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **_: None)  # pytest's own logs
    with pytest.raises(SystemExit) as stopped:
        app.main("run", settings(tmp_path))
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err == app.REJECTED and "Traceback" not in err


async def test_no_network_is_tried_again_with_a_line_per_attempt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    tries: list[str] = []

    async def offline_twice(token: str) -> None:
        tries.append(token)
        if len(tries) <= 2:
            raise aiohttp.ClientConnectionError("Cannot connect to host discord.com:443")

    monkeypatch.setattr(app, "LOGIN_WAIT", 0.01)
    bot: Any = app.build(settings(tmp_path))
    monkeypatch.setattr(bot, "login", offline_twice)
    with caplog.at_level(logging.WARNING, logger="cogs.app"):
        await app.login(bot, "t")
    assert len(tries) == 3
    lines = [r.getMessage() for r in caplog.records if r.name == "cogs.app"]
    assert len(lines) == 2 and all("cannot reach Discord" in line for line in lines)
    assert "try 1" in lines[0] and "try 2" in lines[1]
