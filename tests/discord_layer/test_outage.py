"""A store that cannot be written (SQLite's disk full) or reached (PostgreSQL stopped) is told
as what it is, through discord.py's real dispatch: "The game store is not reachable right now,
so your move was not saved. Try again in a minute.", not the apology for a bug and no pointer to
a command that would fail too; once the store is back, the game goes on.

The full disk is injected where SQLite meets its driver: the store's connections answer every
change with SQLite's own SQLITE_FULL while the test says so. PostgreSQL is stopped as far as the
bot can tell: its connections go through a proxy (a Unix socket or a TCP port, as the server's
URL is) that the test closes (every connection drops, new ones are refused) and opens again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import socket
import sqlite3
import tempfile
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

import pytest

from bot.store.outage import postgres_outage, sqlite_outage
from cogs.app import create_bot
from cogs.flows import OOPS, OUTAGE
from tests.backends import Backend
from tests.discord_layer.test_threads import ANA, BO, EVERYONE, GUILD, TABLE
from tests.harness import FakeDiscord, Harness, Response

pytest_plugins = ["tests.harness.fixtures"]

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


class FullDisk(sqlite3.Connection):
    """A SQLite connection whose changes fail as on a full disk while ``full`` is set."""

    full = False

    def _check(self, sql: str) -> None:
        if FullDisk.full and sql.lstrip().upper().startswith(WRITES):
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode = 13  # SQLITE_FULL, as SQLite itself reports it
            raise error

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        self._check(sql)
        return super().execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        self._check(sql)
        return super().executemany(sql, *args)


class Proxy:
    """A proxy in front of a PostgreSQL server, on a thread of its own (so the harness, which
    waits for the bot's tasks, never waits for it): ``stop`` drops every connection and
    refuses new ones, as a stopped server does; ``start`` lets them through. ``url`` is the
    server's through the proxy: a Unix socket in ``folder`` when the server's URL names a
    socket folder (``?host=/folder``, as ``.ci/with-postgres`` gives), else a loopback TCP
    port (``postgresql://user@127.0.0.1:5432/db``, the form the README documents)."""

    def __init__(self, url: str, folder: str) -> None:
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        port = parts.port or int(query.get("port", ["5432"])[0])
        server_dir = query.get("host", [""])[0]
        self.target: tuple[str, int] | str
        self.listen: tuple[str, int] | str
        if server_dir.startswith("/"):
            self.target = f"{server_dir}/.s.PGSQL.{port}"
            self.listen = f"{folder}/.s.PGSQL.{port}"
            self.url = url.replace(f"host={server_dir}", f"host={folder}")
        else:
            self.target = (parts.hostname or "localhost", port)
            with socket.socket() as probe:  # a free port, kept across stop and start
                probe.bind(("127.0.0.1", 0))
                self.listen = ("127.0.0.1", int(probe.getsockname()[1]))
            user = parts.netloc.rpartition("@")[0]  # with its password, if any
            host = f"{self.listen[0]}:{self.listen[1]}"
            self.url = urlunsplit(parts._replace(netloc=f"{user}@{host}" if user else host))
        self.server: asyncio.AbstractServer | None = None
        self.pipes: list[asyncio.StreamWriter] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    async def _on_thread(self, coro: Any) -> None:
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    async def start(self) -> None:
        await self._on_thread(self._start())

    async def stop(self) -> None:
        await self._on_thread(self._stop())

    async def close(self) -> None:
        if self.server is not None:
            await self.stop()
        # Its connections' tasks end here: left pending, the garbage collector would destroy
        # them during a later test (whose bot would then report them).
        await self._on_thread(self._end_tasks())
        self.loop.call_soon_threadsafe(self.loop.stop)
        await asyncio.to_thread(self.thread.join)
        self.loop.close()

    async def _start(self) -> None:
        if isinstance(self.listen, str):
            self.server = await asyncio.start_unix_server(self._serve, path=self.listen)
        else:
            self.server = await asyncio.start_server(self._serve, *self.listen)

    async def _stop(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in self.pipes:
            writer.transport.abort()
        self.pipes.clear()
        if isinstance(self.listen, str):
            with contextlib.suppress(FileNotFoundError):
                Path(self.listen).unlink()
        self.server = None

    async def _end_tasks(self) -> None:
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if isinstance(self.target, str):
            up_reader, up_writer = await asyncio.open_unix_connection(self.target)
        else:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        self.pipes += [writer, up_writer]

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.transport.abort()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))


@contextlib.asynccontextmanager
async def outage_switch(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[str, Callable[[bool], Any]]]:
    """The bot's database URL, and a switch that takes its store down (True) and back."""
    if backend.name == "sqlite":
        connect = functools.partial(sqlite3.connect, factory=FullDisk)
        monkeypatch.setattr(sqlite3, "connect", connect)

        async def disk_full(down: bool) -> None:
            FullDisk.full = down

        try:
            yield backend.url, disk_full
        finally:
            FullDisk.full = False
        return
    with tempfile.TemporaryDirectory() as folder:
        proxy = Proxy(backend.url, folder)
        await proxy.start()
        url = proxy.url

        async def stopped(down: bool) -> None:
            await (proxy.stop() if down else proxy.start())

        try:
            yield url, stopped
        finally:
            await proxy.close()


def honest(response: Response) -> None:
    """The answer names the outage, privately, and neither apologises for a bug nor sends
    the player to a command that would fail too."""
    assert response.ephemeral_text() == OUTAGE, response.text()
    assert "/game" not in response.text()
    assert OOPS not in response.text()
    assert response.public_messages == [], response.public_text()


async def test_an_outage_is_told_as_one_and_the_game_goes_on(
    harness_factory, backend: Backend, monkeypatch: pytest.MonkeyPatch
):
    async with outage_switch(backend, monkeypatch) as (url, down):
        h: Harness = await harness_factory(
            create_bot(database_url=url, discord_token=""),
            FakeDiscord(),
            guild_id=GUILD,
            channels=[TABLE],
            members=EVERYONE,
        )
        h.bot.service.remind_after, h.bot.service.timeout_after = None, None
        lobby = (await h.slash(ANA, "game new", game="artsee", thread=False)).message

        await down(True)
        honest(await h.click(BO, h.message(lobby), label="Join"))  # a button's guard
        honest(await h.slash(BO, "game new", game="artsee"))  # the tree's error handler
        await down(False)

        joined = await h.click(BO, h.message(lobby), label="Join")
        assert "Bo joined" in joined.text(), joined.text()
        await h.click(ANA, h.message(lobby), label="Start")
        assert any("begins" in m.text() for m in h.channel_messages(TABLE))

        await down(True)
        honest(await h.slash(BO, "game away"))
        await down(False)
        away = await h.slash(BO, "game away")
        assert "is away" in away.text(), away.text()
        # The bot stops while its database is still reachable: left running until the
        # fixture's teardown, its scheduler could meet the proxy's closed connections and
        # report that later, in another test of the same worker.
        await h.close()


def test_outages_are_told_apart_from_bugs():
    """What the stores raise ``StoreUnavailable`` for, and what stays a bug."""
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13
    io = sqlite3.OperationalError("disk I/O error")
    io.sqlite_errorcode = 10 | (3 << 8)  # SQLITE_IOERR_WRITE
    syntax = sqlite3.OperationalError("near 'SELEC': syntax error")
    syntax.sqlite_errorcode = 1
    assert sqlite_outage(full) and sqlite_outage(io)
    assert not sqlite_outage(syntax)
    assert not sqlite_outage(sqlite3.IntegrityError("UNIQUE constraint failed"))

    import asyncpg

    assert postgres_outage(ConnectionRefusedError())
    assert postgres_outage(asyncpg.CannotConnectNowError("the database system is starting up"))
    assert postgres_outage(asyncpg.ConnectionDoesNotExistError("connection was closed"))
    assert not postgres_outage(asyncpg.UniqueViolationError("duplicate key"))
