"""Floods against a real web table process with few open files (issue 35).

``python -m bot web`` runs with its open-file limit set to 96 (``RLIMIT_NOFILE``, set in the
child before it starts), as a small container would give it. Before the caps, 80 event streams
from one address left such a process unable to answer anyone ("Too many open files"); now the
streams and connections past the caps are refused at once, and another visitor's page is still
served. Clients come from addresses of their own: every 127.0.0.x is this machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from tests.web.test_web_process import cli, free_port, stored_public_game

#: The open files the web process may hold.
FILES = 96
#: How long a client waits for an answer before it counts as none (a starved process).
WAIT = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=30)


@dataclass
class Process:
    """A running ``python -m bot web`` and the public address of one game it serves."""

    base: str
    table: str
    process: subprocess.Popen[bytes]


def few_files() -> None:
    """In the child, before ``python -m bot web`` starts: FILES open files at most."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Process]:
    pid = await stored_public_game(tmp_path)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "web"],
        cwd=tmp_path,
        env=cli(tmp_path, WEB_PORT=str(port)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=few_files,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        await until_up(f"{base}/g/{pid}")
        yield Process(base, f"{base}/g/{pid}", process)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a process that no longer answers even a signal
            process.kill()
            process.wait()
    stderr = process.stderr.read().decode() if process.stderr else ""
    assert "Too many open files" not in stderr, stderr[-3000:]


async def until_up(url: str) -> None:
    async with aiohttp.ClientSession() as session:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(aiohttp.ClientConnectionError):
                async with session.get(url) as response:
                    assert response.status == 200
                    return
            assert time.monotonic() < deadline, "the web process did not start"
            await asyncio.sleep(0.2)


def session_from(address: str) -> aiohttp.ClientSession:
    """A client whose connections leave from ``address`` (127.0.0.x), none pooled."""
    connector = aiohttp.TCPConnector(local_addr=(address, 0), limit=0, force_close=True)
    return aiohttp.ClientSession(connector=connector)


async def open_stream(session: aiohttp.ClientSession, url: str) -> aiohttp.ClientResponse | int:
    """An event stream held open (its first event read), or the status that refused it (0:
    the connection itself was dropped)."""
    try:
        response = await session.get(f"{url}/events", timeout=WAIT)
    except aiohttp.ClientError:
        return 0
    except TimeoutError:
        return -1  # never answered
    if response.status != 200:
        status = response.status
        response.release()
        return status
    try:
        await asyncio.wait_for(response.content.readline(), 30)
    except (TimeoutError, aiohttp.ClientError):
        response.close()
        return -1
    return response


async def visitor_sees(url: str, address: str = "127.0.0.250") -> int | str:
    """The status another visitor's page gets (or how it failed)."""
    try:
        async with session_from(address) as session, session.get(url, timeout=WAIT) as response:
            await response.read()
            return response.status
    except (TimeoutError, aiohttp.ClientError) as error:
        return repr(error)


def read_to_end(sock: socket.socket) -> bytes:
    """All a connection receives until the server closes it (60 s at most: a connection
    still open by then has been left open)."""
    sock.settimeout(60)
    data = b""
    with contextlib.suppress(ConnectionResetError):  # closed with the request unread
        while chunk := sock.recv(4096):
            data += chunk
    return data


def tally(results: list[aiohttp.ClientResponse | int]) -> tuple[int, list[int]]:
    held = [r for r in results if isinstance(r, aiohttp.ClientResponse)]
    return len(held), sorted({r for r in results if isinstance(r, int)})


@contextlib.contextmanager
def closing_all(results: list[aiohttp.ClientResponse | int]) -> Iterator[None]:
    try:
        yield
    finally:
        for result in results:
            if isinstance(result, aiohttp.ClientResponse):
                result.close()


async def test_eighty_streams_from_one_address_leave_the_others_served(served: Process) -> None:
    async with session_from("127.0.0.2") as flood:
        results = list(await asyncio.gather(*(open_stream(flood, served.table) for _ in range(80))))
        with closing_all(results):
            assert await visitor_sees(served.table) == 200
            assert await visitor_sees(f"{served.table}/fragment") == 200
            held, refused = tally(results)
            assert 0 < held <= 8  # WEB_STREAMS_PER_ADDRESS (8)
            assert refused and set(refused) <= {0, 429, 503}


async def test_streams_from_many_addresses_leave_the_others_served(served: Process) -> None:
    sessions = [session_from(f"127.0.0.{10 + n}") for n in range(20)]
    try:
        results = list(
            await asyncio.gather(
                *(open_stream(s, served.table) for s in sessions for _ in range(8))
            )
        )
        with closing_all(results):
            assert await visitor_sees(served.table) == 200
            held, refused = tally(results)
            assert 0 < held < 160 and refused
    finally:
        for session in sessions:
            await session.close()


async def test_half_sent_requests_are_cut_off_and_do_not_lock_the_others_out(
    served: Process,
) -> None:
    """Connections from many addresses that send half a request and wait: past the cap a new
    one is refused, and each is closed at the header deadline, after which everyone is
    served again."""
    port = int(served.base.rsplit(":", 1)[1])
    held: list[socket.socket] = []
    try:
        for n in range(60):
            sock = socket.socket()
            sock.bind((f"127.0.0.{100 + n % 30}", 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
            held.append(sock)
        loop = asyncio.get_running_loop()
        answers = [await loop.run_in_executor(None, read_to_end, sock) for sock in held]
        # Each was closed (none left open): turned away at once (503), or at the deadline.
        assert all(a == b"" or a.startswith(b"HTTP/1.1 503") for a in answers)
        assert await visitor_sees(served.table) == 200
    finally:
        for sock in held:
            sock.close()
