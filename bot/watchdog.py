"""systemd's notify protocol, spoken over its socket (no library needed): ``READY=1`` once the
bot is connected, ``WATCHDOG=1`` from the event loop every half ``WatchdogSec`` (so a loop
that hangs stops the pings and systemd restarts the service), ``STOPPING=1`` on the way out.

Outside systemd (no ``NOTIFY_SOCKET``) every call is a no-op. deploy/tabletop-bot.service sets
``Type=notify`` and ``WatchdogSec``."""

from __future__ import annotations

import asyncio
import os
import socket


def notify(message: str) -> bool:
    """Send ``message`` to systemd; whether there was a socket to send it to."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode())
    return True


def watchdog_interval() -> float | None:
    """Half of the watchdog's timeout (``WATCHDOG_USEC``), or None when there is none."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    pid = os.environ.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):  # meant for another process
        return None
    return int(usec) / 2_000_000


async def keep_alive() -> None:
    """Ping the watchdog from the event loop for as long as it runs."""
    interval = watchdog_interval()
    if interval is None:
        return
    while True:
        notify("WATCHDOG=1")
        await asyncio.sleep(interval)
