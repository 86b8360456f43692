"""A SQLite connection owned by a thread of its own, that runs a whole unit of work in one hop.

aiosqlite also gives each connection a thread, but every statement is a trip there and back: a
job queued to the thread, a future resolved on the event loop, a task woken. A move was five such
trips (``BEGIN IMMEDIATE``, the compare-and-swap, the next seq, the insert, ``COMMIT``), made
while the store's lock was held, so under load every other write queued behind all of them.
Here a unit of work is a plain function of the ``sqlite3`` connection, run whole on the thread:
one trip, and nothing held on the event loop while it runs.

Write transactions (``transaction``) are run in groups: the ones queued while the previous group
ran share one ``BEGIN IMMEDIATE … COMMIT``, each inside a savepoint of its own, so a transaction
that fails (a lost compare-and-swap, a constraint) is rolled back alone and its caller alone gets
its error, while the others commit together. Every caller is answered after the group's
``COMMIT``: nobody hears "done" for work that could still be lost.

Code written statement by statement (the migrations, a store method written the aiosqlite way)
gets an aiosqlite-like surface: ``execute`` (awaitable, or an ``async with`` giving a cursor),
``execute_fetchall``, ``executemany``. On the connection itself each statement is one job, which
is only safe while nothing else uses it (at start-up); ``hold`` takes the thread for a whole
transaction of such statements, so nothing else runs on the connection until it ends.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Generator, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bot.store.outage import ENDED_EARLY

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]

#: At most this many queued write transactions share one COMMIT: a group waits for its slowest.
GROUP = 32


class Closed(Exception):
    """The connection is closed (or was never opened): the store says so in its own words."""


@dataclass
class _Job(Generic[T]):
    """One unit of work for the thread and where its answer goes."""

    work: Work[T]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[T]
    #: A write transaction (grouped with others) rather than a bare call.
    transaction: bool = False
    answered: bool = False
    queued_at: float = field(default_factory=time.perf_counter)

    def answer(self, outcome: Any) -> None:
        self.answered = True
        _answer(self.loop, self.future, outcome)


@dataclass
class _Hold:
    """The thread taken for one transaction of separate statements (``Connection.hold``)."""

    begin: str
    loop: asyncio.AbstractEventLoop
    ready: asyncio.Future[None]
    statements: queue.SimpleQueue[_Job[Any] | _End] = field(default_factory=queue.SimpleQueue)
    queued_at: float = field(default_factory=time.perf_counter)


@dataclass
class _End:
    """The end of a hold: commit (or roll back) and give the thread back."""

    commit: bool
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]


_STOP = object()


def _run(conn: sqlite3.Connection, sql: str) -> None:
    conn.execute(sql)


def _snapshot(conn: sqlite3.Connection, work: Work[T]) -> T:
    conn.execute("BEGIN")
    try:
        return work(conn)
    finally:
        conn.execute("COMMIT")


def _answer(loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], outcome: Any) -> None:
    """Hand an outcome (a value, or an exception to raise) to the future on its own loop."""

    def settle() -> None:
        if future.done():  # the caller was cancelled meanwhile
            return
        if isinstance(outcome, _Failure):
            future.set_exception(outcome.error)
        else:
            future.set_result(outcome)

    with suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
        loop.call_soon_threadsafe(settle)


@dataclass
class _Failure:
    error: BaseException


class Rows:
    """A cursor's outcome, fetched whole on the thread: the rows, ``rowcount``, ``lastrowid``."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self.rows = cursor.fetchall()
        self.rowcount = cursor.rowcount
        self.lastrowid = cursor.lastrowid

    async def fetchall(self) -> list[Any]:
        return self.rows

    async def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None

    async def __aenter__(self) -> Rows:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        return None


class _Statement:
    """What ``execute`` returns, as aiosqlite's does: await it, or ``async with`` it."""

    def __init__(self, rows: asyncio.Future[Rows]) -> None:
        self._rows = rows

    def __await__(self) -> Generator[Any, None, Rows]:
        return self._rows.__await__()

    async def __aenter__(self) -> Rows:
        return await self._rows

    async def __aexit__(self, *exc_info: object) -> None:
        return None


class _Statements:
    """The aiosqlite-like surface over a way of running one unit of work on the thread."""

    def _submit(self, work: Work[T]) -> asyncio.Future[T]:
        raise NotImplementedError

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> _Statement:
        return _Statement(self._submit(lambda conn: Rows(conn.execute(sql, parameters))))

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        return await self._submit(lambda conn: conn.execute(sql, parameters).fetchall())

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> _Statement:
        rows = list(parameters)  # read here, not on the thread: a generator may touch the loop
        return _Statement(self._submit(lambda conn: Rows(conn.executemany(sql, rows))))


class Held(_Statements):
    """The statements of one held transaction (``Connection.hold``)."""

    def __init__(self, hold: _Hold) -> None:
        self._hold = hold

    def _submit(self, work: Work[T]) -> asyncio.Future[T]:
        future: asyncio.Future[T] = self._hold.loop.create_future()
        self._hold.statements.put(_Job(work, self._hold.loop, future))
        return future


class Connection(_Statements):
    """One ``sqlite3`` connection and the thread that alone uses it."""

    def __init__(self, path: str, *, name: str, busy_timeout_ms: int) -> None:
        self.path = path
        self.name = name
        self.busy_timeout_ms = busy_timeout_ms
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        self._closing = False
        #: When a list (the load bench sets one), the seconds each job waited in the queue
        #: before the thread began it: what a caller waits for the connection.
        self.waits: list[float] | None = None

    # -- lifecycle ---------------------------------------------------------------------------

    async def open(self) -> None:
        """Start the thread and connect on it (in autocommit mode: every transaction here is
        an explicit ``BEGIN``); a failure to connect is raised here and the thread ends."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        self._thread = threading.Thread(
            target=self._serve, args=(loop, ready), name=self.name, daemon=True
        )
        self._thread.start()
        try:
            await ready
        except BaseException:
            # Cancelled while the thread connected: it would wait for jobs for ever. (After
            # a failed connect it has ended, and the stop is never read.)
            self._jobs.put(_STOP)
            await asyncio.to_thread(self._thread.join)
            self._thread = None
            raise

    async def close(self) -> None:
        """Finish every job queued so far (nothing queued is dropped), then close the
        connection and end the thread; later jobs are refused. Safe to call twice."""
        thread = self._thread
        if thread is None or self._closing:
            return
        self._closing = True
        self._jobs.put(_STOP)
        await asyncio.to_thread(thread.join)
        self._thread = None

    @property
    def in_transaction(self) -> bool:
        return self._conn is not None and self._conn.in_transaction

    # -- work --------------------------------------------------------------------------------

    def _submit(self, work: Work[T], *, transaction: bool = False) -> asyncio.Future[T]:
        if self._thread is None or self._closing:
            raise Closed(self.path)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put(_Job(work, loop, future, transaction))
        return future

    async def call(self, work: Work[T]) -> T:
        """Run ``work(connection)`` on the thread, outside any transaction of ours."""
        return await self._submit(work)

    async def read(self, work: Work[T]) -> T:
        """Run ``work(connection)`` inside one deferred transaction: one snapshot of the
        database, however many statements it runs."""
        return await self._submit(lambda conn: _snapshot(conn, work))

    async def transaction(self, work: Work[T]) -> T:
        """Run ``work(connection)`` inside ``BEGIN IMMEDIATE … COMMIT`` (shared with other
        queued transactions, each in its own savepoint): its exception rolls back its own
        changes and is raised here; a failed COMMIT is raised to every member of the group."""
        return await self._submit(work, transaction=True)

    @asynccontextmanager
    async def hold(self, begin: str = "BEGIN IMMEDIATE") -> AsyncIterator[Held]:
        """The thread for one transaction of separate statements: ``begin``, the body's
        statements, then ``COMMIT`` (on any exception, ``ROLLBACK``). Nothing else runs on this
        connection meanwhile, so keep the body short and never wait on another store call."""
        if self._thread is None or self._closing:
            raise Closed(self.path)
        loop = asyncio.get_running_loop()
        hold = _Hold(begin, loop, loop.create_future())
        self._jobs.put(hold)
        try:
            await hold.ready
        except BaseException:
            # BEGIN failed, or we were cancelled and the thread may take the hold later:
            # either way it must give the thread back at once.
            self._end(hold, commit=False)
            raise
        commit = False
        try:
            yield Held(hold)
            commit = True
        finally:
            ended = self._end(hold, commit=commit)
            await asyncio.shield(ended)

    @staticmethod
    def _end(hold: _Hold, *, commit: bool) -> asyncio.Future[None]:
        future: asyncio.Future[None] = hold.loop.create_future()
        hold.statements.put(_End(commit, hold.loop, future))
        return future

    # -- the thread --------------------------------------------------------------------------

    def _serve(self, loop: asyncio.AbstractEventLoop, ready: asyncio.Future[None]) -> None:
        try:
            conn = sqlite3.connect(
                self.path,
                isolation_level=None,
                check_same_thread=False,
                timeout=self.busy_timeout_ms / 1000,
            )
        except BaseException as exc:
            _answer(loop, ready, _Failure(exc))
            return
        self._conn = conn
        _answer(loop, ready, None)
        try:
            while True:
                job = self._jobs.get()
                if job is _STOP:
                    return
                if isinstance(job, _Hold):
                    self._serve_hold(conn, job)
                elif job.transaction:
                    group = [job]
                    while len(group) < GROUP:
                        try:
                            more = self._jobs.get_nowait()
                        except queue.Empty:
                            break
                        if not (isinstance(more, _Job) and more.transaction):
                            self._run_group(conn, group)
                            group = []
                            self._jobs_front(more)
                            break
                        group.append(more)
                    if group:
                        self._run_group(conn, group)
                else:
                    self._began(job)
                    job.answer(self._outcome(conn, job.work))
        finally:
            self._conn = None
            conn.close()

    def _jobs_front(self, job: Any) -> None:
        """Serve ``job`` next: it was taken while gathering a group it cannot join."""
        if job is _STOP:
            self._jobs.put(_STOP)  # nothing can be queued after the stop
            return
        if isinstance(job, _Hold):
            self._serve_hold(self._connected(), job)
        else:
            self._began(job)
            job.answer(self._outcome(self._connected(), job.work))

    def _began(self, job: _Job[Any] | _Hold) -> None:
        if self.waits is not None:
            self.waits.append(time.perf_counter() - job.queued_at)

    def _connected(self) -> sqlite3.Connection:
        assert self._conn is not None
        return self._conn

    @staticmethod
    def _outcome(conn: sqlite3.Connection, work: Work[Any]) -> Any:
        try:
            return work(conn)
        except Exception as exc:
            return _Failure(exc)

    def _run_group(self, conn: sqlite3.Connection, jobs: list[_Job[Any]]) -> None:
        """Run queued transactions in one ``BEGIN IMMEDIATE … COMMIT``, a savepoint each."""
        pending = [job for job in jobs if not job.future.cancelled()]
        try:
            while pending:
                pending = self._run_some(conn, pending)
        except Exception as exc:  # the plumbing itself failed: answer everyone, keep serving
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for job in jobs:
                if not job.answered:
                    job.answer(_Failure(exc))

    def _run_some(self, conn: sqlite3.Connection, jobs: list[_Job[Any]]) -> list[_Job[Any]]:
        """One transaction over as many of ``jobs`` as it survives; returns the ones left for
        the next (if a failure ended the transaction early, as a full disk can)."""
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            for job in jobs:
                job.answer(_Failure(exc))
            return []
        outcomes: list[Any] = []
        for i, job in enumerate(jobs):
            conn.execute("SAVEPOINT work")
            self._began(job)
            outcome = self._outcome(conn, job.work)
            if not conn.in_transaction:  # a failure (a full disk, say) ended the transaction
                if not isinstance(outcome, _Failure):
                    outcome = _Failure(sqlite3.OperationalError(ENDED_EARLY))
                lost = [o if isinstance(o, _Failure) else outcome for o in outcomes]
                for done, result in zip(jobs[:i], lost, strict=True):
                    done.answer(result)
                job.answer(outcome)
                return jobs[i + 1 :]
            if isinstance(outcome, _Failure):
                conn.execute("ROLLBACK TO work")
            conn.execute("RELEASE work")
            outcomes.append(outcome)
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            outcomes = [o if isinstance(o, _Failure) else _Failure(exc) for o in outcomes]
        for job, outcome in zip(jobs, outcomes, strict=True):
            job.answer(outcome)
        return []

    def _serve_hold(self, conn: sqlite3.Connection, hold: _Hold) -> None:
        """Begin, run the held transaction's statements as they come, until its end."""
        self._began(hold)
        began = self._outcome(conn, lambda c: _run(c, hold.begin))
        _answer(hold.loop, hold.ready, began)
        while True:
            item = hold.statements.get()
            if isinstance(item, _End):
                if isinstance(began, _Failure):
                    outcome: Any = None
                elif item.commit:
                    outcome = self._outcome(conn, lambda c: _run(c, "COMMIT"))
                else:
                    outcome = None
                if conn.in_transaction:  # not committed: a failed COMMIT, or a rollback
                    conn.execute("ROLLBACK")
                _answer(item.loop, item.future, outcome)
                return
            item.answer(self._outcome(conn, item.work))
