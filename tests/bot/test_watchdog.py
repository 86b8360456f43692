"""systemd's notify protocol: READY, the watchdog's pings at half its timeout, nothing outside
systemd; and the units that rely on it."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import pytest

from bot import watchdog

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> socket.socket:
    """A datagram socket standing for systemd's, named by NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    messages = []
    while True:
        try:
            messages.append(sock.recv(256).decode())
        except BlockingIOError:
            return messages


def test_outside_systemd_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    assert watchdog.notify("READY=1") is False
    assert watchdog.watchdog_interval() is None


def test_ready_reaches_systemd(systemd: socket.socket) -> None:
    assert watchdog.notify("READY=1") is True
    assert received(systemd) == ["READY=1"]


def test_the_watchdog_is_pinged_at_half_its_timeout(
    systemd: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "100000")  # 0.1 s: a ping every 0.05 s
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog.watchdog_interval() == 0.05

    async def for_a_while() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(watchdog.keep_alive(), timeout=0.12)

    asyncio.run(for_a_while())
    pings = received(systemd)  # at 0, 0.05 and 0.10 s, unless the machine is busy
    assert len(pings) >= 2 and set(pings) == {"WATCHDOG=1"}
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert watchdog.watchdog_interval() is None


@pytest.mark.parametrize("unit", ["tabletop-bot.service", "tabletop-bot@.service"])
def test_the_units_wait_for_ready_and_use_the_watchdog(unit: str) -> None:
    text = (ROOT / "deploy" / unit).read_text(encoding="utf-8")
    assert "\nType=notify\n" in text and "\nWatchdogSec=" in text
    assert "\nNotifyAccess=main\n" in text
