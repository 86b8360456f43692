"""Start-up that explains itself (issue 22): a token Discord rejects is one sentence and exit
status 2 (systemd does not restart it in a loop); a network that is not there yet is tried
again with backoff, one line per attempt."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot.config import Settings
from cogs import app

ROOT = Path(__file__).resolve().parents[2]


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


#: ``python -m bot run`` with Discord's API moved to a port where nothing listens, so the run
#: is offline whatever the machine's network.
OFFLINE_RUN = (
    "import runpy, sys, discord.http; "
    "discord.http.Route.BASE = 'https://127.0.0.1:9/api/v10'; "
    "sys.argv = ['bot', 'run']; runpy.run_module('bot', run_name='__main__')"
)


def test_sigterm_stops_a_real_run_cleanly_with_exit_status_0(tmp_path: Path) -> None:
    """A real ``python -m bot run`` process, still trying to reach Discord, stops on SIGTERM
    at once and exits 0 (systemd counts no failure)."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": "MTA.not.real",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'games.db'}",
        "PYTHONPATH": str(ROOT),
    }
    process = subprocess.Popen(
        [sys.executable, "-c", OFFLINE_RUN],
        cwd=tmp_path,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    seen = ""
    deadline = time.monotonic() + 60
    while "cannot reach Discord" not in seen and time.monotonic() < deadline:
        seen += process.stderr.readline()
    assert "cannot reach Discord (try 1" in seen
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    code = process.wait(timeout=20)
    seconds = time.monotonic() - sent
    rest = process.stderr.read()
    assert code == 0, rest
    assert "stopped in" in rest and "Traceback" not in rest
    print(f"SIGTERM while offline: exit {code} in {seconds:.2f} s")
