"""Start-up that explains itself (issue 22): a token Discord rejects is one sentence and exit
status 2 (systemd does not restart it in a loop); a network that is not there yet is tried
again with backoff, one line per attempt."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web

from bot.config import Settings
from cogs import app
from tests.backends import Backend
from tests.discord_layer.test_health_metrics import free_port
from tests.harness import FakeDiscord, payloads
from tests.harness.fake_discord import API_PREFIX

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

    bot: Any = app.build(settings(tmp_path))
    monkeypatch.setattr(bot, "login", offline_twice)
    with caplog.at_level(logging.WARNING, logger="cogs.app"):
        await app.login(bot, "t", first_wait=0.01)
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


class Unanswering:
    """Discord out of reach as a client meets it at its worst: a local port that takes each
    connection and holds it without an answer until the test lets that try fail (``refuse``:
    a 503, as a load balancer in front of a service that is down answers). Each login try
    is one connection, so the test knows which try is in flight."""

    REFUSAL = (
        b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 11\r\nConnection: close\r\n\r\nunavailable"
    )

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.sock.getsockname()[1])
        self.held: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):  # closed at the end of the test
            while True:
                conn, _ = self.sock.accept()
                conn.settimeout(5)
                request = b""
                while b"\r\n\r\n" not in request and (chunk := conn.recv(4096)):
                    request += chunk  # the request read whole: its answer is then read
                with self.lock:
                    self.held.append(conn)

    def wait_for(self, tries: int, process: subprocess.Popen[str]) -> None:
        """Until the ``tries``-th connection came (that try is in flight now)."""
        until(lambda: len(self.held) >= tries, process)

    def refuse(self) -> None:
        """The tries in flight are answered 503 (each then fails)."""
        with self.lock:
            for conn in self.held:
                if conn.fileno() != -1:
                    with contextlib.suppress(OSError):
                        conn.sendall(self.REFUSAL)
                    conn.close()

    def close(self) -> None:
        self.refuse()
        self.sock.close()


def run_against(port: int) -> str:
    """``python -m bot run`` with Discord, its API and its gateway, at ``port`` on the
    loopback."""
    return (
        "import runpy, sys, yarl, discord.gateway, discord.http; "
        f"discord.http.Route.BASE = 'http://127.0.0.1:{port}/api/v10'; "
        f"discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL('ws://127.0.0.1:{port}/'); "
        "sys.argv = ['bot', 'run']; runpy.run_module('bot', run_name='__main__')"
    )


def real_run(
    folder: Path, backend: Backend, discord_port: int, metrics: int
) -> subprocess.Popen[str]:
    """``python -m bot run`` as a process of its own in ``folder`` on ``backend``'s database,
    with Discord at ``discord_port`` on the loopback, its health on port ``metrics``, and a
    short back-off (``LOGIN_RETRY_SECONDS``: a setting, as an operator would set it)."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": "MTA.not.real",
        "DATABASE_URL": backend.url,
        "PYTHONPATH": str(ROOT),
        "METRICS_PORT": str(metrics),
        "LOGIN_RETRY_SECONDS": "0.2",
        "WEB_PORT": "0",
    }
    return subprocess.Popen(
        [sys.executable, "-c", run_against(discord_port)],
        cwd=folder,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )


def until(condition: Callable[[], bool], process: subprocess.Popen[str]) -> None:
    """Wait (a minute at most) until ``condition()``, while the bot still runs."""
    deadline = time.monotonic() + 60
    while not condition():
        assert process.poll() is None, process.stderr and process.stderr.read()
        assert time.monotonic() < deadline, "waited a minute"
        time.sleep(0.05)


def status_of(port: int, path: str) -> int:
    """The HTTP status ``path`` answers on the loopback ``port`` (0: nothing listens yet)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code
    except urllib.error.URLError:
        return 0


def on_backends(cases: dict[str, tuple[str, tuple[Any, ...]]]) -> list[Any]:
    """Each case (id -> (its backend in ``make test``, its arguments)) with the store backend
    (``backend``, indirect) in front: on the backend named in ``make test``, on the other in
    the slow tier. The backend only serves start-up's store check, before the login and the
    stop these cases are about; the fast tier still has every pair of a backend, a signal and
    a try (an orthogonal array), and the slow tier adds the remaining combinations."""
    other = {"sqlite": "postgres", "postgres": "sqlite"}
    return [
        pytest.param(on, *args, id=f"{on}-{name}", marks=[pytest.mark.slow] if slow else [])
        for slow in (False, True)
        for name, (fast, args) in cases.items()
        for on in [other[fast] if slow else fast]
    ]


@pytest.mark.parametrize(
    ("backend", "stop", "during"),
    on_backends(
        {
            "sigterm-2nd": ("sqlite", (signal.SIGTERM, 2)),
            "sigint-2nd": ("postgres", (signal.SIGINT, 2)),
            "sigterm-3rd": ("postgres", (signal.SIGTERM, 3)),
            "sigint-3rd": ("sqlite", (signal.SIGINT, 3)),
        }
    ),
    indirect=["backend"],
)
def test_a_real_run_against_an_unreachable_discord_retries_and_stops_cleanly(
    tmp_path: Path, backend: Backend, stop: signal.Signals, during: int
) -> None:
    """Issue 34: each try to log in is a real one on a fresh HTTP session (the second used to
    die with "Session is closed"), one line per failed try; /healthz answers all along and
    /readyz says not ready; a stop during a try in flight exits 0 at once."""
    discord_api, metrics = Unanswering(), free_port()
    process = real_run(tmp_path, backend, discord_api.port, metrics)
    try:
        for attempt in range(1, during):
            discord_api.wait_for(attempt, process)
            assert (status_of(metrics, "/healthz"), status_of(metrics, "/readyz")) == (200, 503)
            discord_api.refuse()  # that try fails: the next comes after its back-off
        discord_api.wait_for(during, process)  # this try is in flight
        assert (status_of(metrics, "/healthz"), status_of(metrics, "/readyz")) == (200, 503)
        tried = len(discord_api.held)
        sent = time.monotonic()
        process.send_signal(stop)
        code = process.wait(timeout=30)
        seconds = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
        discord_api.close()
    assert process.stderr is not None
    err = process.stderr.read()
    assert code == 0, err
    assert "Traceback" not in err and "Session is closed" not in err, err
    tries = [line for line in err.splitlines() if "cannot reach Discord (try" in line]
    assert [f"(try {n}:" in line for n, line in enumerate(tries, 1)] == [True] * (during - 1)
    assert tried == during  # one connection a try: none made twice
    assert f"stopping ({stop.name})" in err and "stopped in" in err
    print(f"{stop.name} during try {during}: exit {code} in {seconds:.2f} s")


class LocalDiscord:
    """Discord on a loopback port, on a thread of its own: the REST login (the bot's user and
    application) answered as the harness's fake Discord answers it, any other REST call
    refused with a 503; the gateway refused ``refusals`` times (each refusal held until the
    test ``release``s them), then served: HELLO, READY (no servers) to the IDENTIFY, every
    heartbeat acknowledged."""

    LOGIN = frozenset(f"{API_PREFIX}{path}" for path in ("/users/@me", "/oauth2/applications/@me"))

    def __init__(self, refusals: int) -> None:
        self.fake, self.refusals, self.gateway_tries = FakeDiscord(), refusals, 0
        self.loop = asyncio.new_event_loop()
        self.released = asyncio.Event()
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._answer)
        self.runner = web.AppRunner(app, access_log=None)
        sock = socket.create_server(("127.0.0.1", 0))
        self.port = int(sock.getsockname()[1])
        self.loop.run_until_complete(self.runner.setup())
        self.loop.run_until_complete(web.SockSite(self.runner, sock).start())
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        if request.method == "GET" and request.path in self.LOGIN:
            answer = await self.fake.handle("GET", f"https://discord.com{request.path}", {})
            body = await answer.read()
            return web.Response(status=answer.status, body=body, content_type="application/json")
        if request.path == "/":
            self.gateway_tries += 1
            if self.gateway_tries > self.refusals:
                return await self._gateway(request)
            await self.released.wait()
        return web.Response(status=503, text="unavailable")

    def release(self) -> None:
        """The gateway's refusals go out (the one held now, and the later ones at once)."""
        self.loop.call_soon_threadsafe(self.released.set)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket_ = web.WebSocketResponse()
        await socket_.prepare(request)
        await socket_.send_json({"op": 10, "d": {"heartbeat_interval": 41250}})
        async for message in socket_:
            op = json.loads(message.data).get("op")
            if op == 2:  # IDENTIFY
                ready = {**payloads.ready(self.fake, 0, "local"), "guilds": []}
                await socket_.send_json({"op": 0, "t": "READY", "s": 1, "d": ready})
            elif op == 1:  # a heartbeat
                await socket_.send_json({"op": 11})
        return socket_

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)


def test_a_real_run_whose_gateway_is_refused_retries_it_and_is_ready_once_connected(
    tmp_path: Path, backend: Backend
) -> None:
    """Logged in and loaded (the store, the worker pools) while Discord refuses the gateway:
    the gateway is tried again, a line per failed try (discord.py alone gave up after the
    first, Rapptz/discord.py#10520), and /readyz says not ready until it is connected; then
    ready; SIGTERM exits 0 once the whole stop is done (the pools and the store closed)."""
    discord_api, metrics = LocalDiscord(refusals=2), free_port()
    process = real_run(tmp_path, backend, discord_api.port, metrics)
    try:
        until(lambda: discord_api.gateway_tries == 1, process)  # logged in, loaded; held
        assert (status_of(metrics, "/healthz"), status_of(metrics, "/readyz")) == (200, 503)
        discord_api.release()
        until(lambda: status_of(metrics, "/readyz") == 200, process)  # READY: connected
        assert discord_api.gateway_tries == 3
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
        discord_api.close()
    assert process.stderr is not None
    err = process.stderr.read()
    assert code == 0, err
    tries = [line for line in err.splitlines() if "cannot reach Discord's gateway" in line]
    assert len(tries) == 2 and "(try 1)" in tries[0] and "(try 2)" in tries[1]
    assert "cannot reach Discord (try" not in err  # the login itself went through
    assert "stopping (SIGTERM)" in err and "stopped in" in err, err


@pytest.mark.parametrize(
    ("backend", "stop"),
    on_backends(
        {"sigterm": ("sqlite", (signal.SIGTERM,)), "sigint": ("postgres", (signal.SIGINT,))}
    ),
    indirect=["backend"],
)
def test_a_stop_before_the_event_loop_runs_exits_0(
    tmp_path: Path, backend: Backend, stop: signal.Signals
) -> None:
    """A signal in start-up's first second (the database checked, discord.py still being
    imported, before the graceful stop is installed) ends it at once with exit status 0: it
    used to be SIGTERM's default (killed, -15) or a KeyboardInterrupt's traceback."""
    with contextlib.closing(socket.create_server(("127.0.0.1", 0))) as closed:
        port = int(closed.getsockname()[1])  # nothing answers there once it is closed
    process = real_run(tmp_path, backend, port, free_port())
    assert process.stderr is not None
    seen = ""
    deadline = time.monotonic() + 60
    while ": run" not in seen and time.monotonic() < deadline:  # "tabletop-bot X: run"
        seen += process.stderr.readline()
    process.send_signal(stop)
    code = process.wait(timeout=30)
    err = seen + process.stderr.read()
    assert code == 0, err
    assert "Traceback" not in err, err
