"""`python -m bot web`: the web table as a process of its own over the bots' store."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

from bench.web_flood import public_table
from bot.config import Settings, check_web_secret
from tests.backends import Backend
from web.server import links_for

ROOT = Path(__file__).resolve().parents[2]
#: A WEB_SECRET as an admin makes one (32 random bytes, base64).
PROCESS_SECRET = "e4Vq0rS8m1kJ3xYw7Zt2Lb6Np9Hc5Ud0Fg8Ji4Ko1Ma"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cli(tmp_path: Path, **env: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    return {
        **clean,
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'games.db'}",
        "RENDER_WORKERS": "-1",
        "WEB_SECRET": PROCESS_SECRET,
        **env,
    }


def refusal(tmp_path: Path, **env: str) -> str:
    """``python -m bot web``'s one line on stderr, when it cannot start."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "web"],
        cwd=tmp_path,
        env=cli(tmp_path, **env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    return done.stderr.strip().splitlines()[-1]


def test_web_refuses_to_start_in_one_line(tmp_path: Path) -> None:
    assert "WEB_PORT is 0" in refusal(tmp_path, WEB_PORT="0")
    assert "WEB_PORT must be" in refusal(tmp_path, WEB_PORT="70000")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert f"cannot listen on 127.0.0.1:{port}" in refusal(tmp_path, WEB_PORT=str(port))


async def stored_public_game(tmp_path: Path) -> str:
    """A started game recorded public in ``tmp_path``'s database, as a bot would; its id."""
    return await public_table(tmp_path, PROCESS_SECRET)


async def test_the_web_process_serves_the_games_a_bot_stored_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    pid = await stored_public_game(tmp_path)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "web"],
        cwd=tmp_path,
        env=cli(tmp_path, WEB_PORT=str(port)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        async with aiohttp.ClientSession() as session:
            deadline = time.monotonic() + 30
            while True:
                try:
                    async with session.get(f"http://127.0.0.1:{port}/g/{pid}") as response:
                        assert response.status == 200
                        assert "Ana" in await response.text()
                        break
                except aiohttp.ClientConnectionError:
                    assert time.monotonic() < deadline, "the web process did not start"
                    await asyncio.sleep(0.2)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    assert process.returncode == 0, process.stderr.read() if process.stderr else ""


def test_a_guessable_web_secret_stops_start_up_in_one_line(tmp_path: Path) -> None:
    for weak in ("abc", "process test", "a" * 64, "abc" * 20):
        line = refusal(tmp_path, WEB_PORT=str(free_port()), WEB_SECRET=weak)
        assert "WEB_SECRET must be at least 32 random bytes" in line, line
        assert weak not in line  # the refusal does not repeat the secret


async def test_without_web_secret_one_is_made_once_and_kept(backend: Backend) -> None:
    """No WEB_SECRET: the first process makes one and keeps it in the store; a restart, or
    another process over the same store, signs with the same one, so links survive."""
    store = await backend.opened()
    try:
        first = await links_for(Settings(web_secret=""), store)
    finally:
        await store.close()
    restarted = await backend.opened(rebuild=False)
    try:
        again = await links_for(Settings(web_secret=""), restarted)
        configured = await links_for(Settings(web_secret=PROCESS_SECRET), restarted)
    finally:
        await restarted.close()
    assert first.secret == again.secret and len(first.secret) >= 43
    check_web_secret(first.secret.decode())
    assert configured.secret == PROCESS_SECRET.encode()
