"""Knowing when the bot has finished handling an event, and catching the errors it only logged.

discord.py answers every gateway event by spawning tasks (the command tree invoker, view
dispatch, listeners) that may spawn more and may run rendering in threads. "Finished" therefore
means: every task on the loop is done or parked. A task is parked when it waits for something
only the outside world brings: a long sleep (view timeouts, schedulers), a ``tasks.loop``
interval, or user input (``Client.wait_for``, ``View.wait``). Anything else still running after
the timeout fails the test with the stacks of the stuck tasks.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any

# Coroutines that only end when the outside world acts: (function name, file suffix).
_PARKED_FRAMES: tuple[tuple[str, str], ...] = (
    ("_loop", "discord/ext/tasks/__init__.py"),
    ("wait_for", "discord/client.py"),
    ("wait", "discord/ui/view.py"),
    ("wait", "discord/ui/modal.py"),
    ("wait_until_ready", "discord/client.py"),
    ("get", "asyncio/queues.py"),
    ("wait", "asyncio/locks.py"),
)


class SettleTimeout(AssertionError):
    """The bot was still busy when the harness's patience ran out."""


class BotError(AssertionError):
    """The bot raised or logged an error while handling an event."""


def _chain(task: asyncio.Task[Any]) -> list[tuple[CodeType, FrameType | None]]:
    """The coroutine frames a task is suspended in, outermost first."""
    out: list[tuple[CodeType, FrameType | None]] = []
    awaitable: Any = task.get_coro()
    while awaitable is not None:
        frame = getattr(awaitable, "cr_frame", None) or getattr(awaitable, "gi_frame", None)
        code = getattr(awaitable, "cr_code", None) or getattr(awaitable, "gi_code", None)
        if code is not None:
            out.append((code, frame))
        awaitable = getattr(awaitable, "cr_await", None) or getattr(awaitable, "gi_yieldfrom", None)
    return out


def _innermost_awaited(task: asyncio.Task[Any]) -> Any:
    awaitable: Any = task.get_coro()
    last = awaitable
    while awaitable is not None:
        last = awaitable
        awaitable = getattr(awaitable, "cr_await", None) or getattr(awaitable, "gi_yieldfrom", None)
    return last


def is_parked(task: asyncio.Task[Any], sleep_threshold: float, _depth: int = 0) -> bool:
    """True when the task waits for time to pass or for outside input, not for work in progress."""
    chain = _chain(task)
    if not chain or chain[-1][1] is None:
        return False
    for code, frame in chain:
        path = code.co_filename.replace("\\", "/")
        if code.co_name == "sleep" and path.endswith("asyncio/tasks.py") and frame is not None:
            delay = frame.f_locals.get("delay")
            if isinstance(delay, (int, float)) and delay >= sleep_threshold:
                return True
        for name, suffix in _PARKED_FRAMES:
            if code.co_name == name and path.endswith(suffix):
                return True
    inner = _innermost_awaited(task)
    awaited = getattr(inner, "cr_await", None)
    if isinstance(awaited, asyncio.Task) and _depth < 8 and not awaited.done():
        return is_parked(awaited, sleep_threshold, _depth + 1)
    return False


def describe_task(task: asyncio.Task[Any]) -> str:
    buffer = io.StringIO()
    task.print_stack(file=buffer)
    return f"{task.get_name()}:\n{buffer.getvalue()}"


@dataclass
class Settler:
    """Waits until every task is done or parked, pumping queued gateway events in between."""

    timeout: float = 10.0
    sleep_threshold: float = 1.0
    ignore: Callable[[asyncio.Task[Any]], bool] | None = None

    async def settle(
        self,
        pump: Callable[[], Awaitable[bool]] | None = None,
        *,
        timeout: float | None = None,
    ) -> list[BaseException]:
        """Return the exceptions of tasks that ended with one while we watched."""
        deadline = time.monotonic() + (timeout or self.timeout)
        me = asyncio.current_task()
        watched: set[asyncio.Task[Any]] = set()
        quiet_rounds = 0
        while True:
            pumped = await pump() if pump is not None else False
            busy = []
            for task in asyncio.all_tasks():
                if task is me or task.done():
                    continue
                if self.ignore is not None and self.ignore(task):
                    continue
                watched.add(task)
                if not is_parked(task, self.sleep_threshold):
                    busy.append(task)
            if not busy and not pumped:
                quiet_rounds += 1
                if quiet_rounds >= 3:  # let call_soon callbacks and thread wake-ups land
                    break
                await asyncio.sleep(0)
                continue
            quiet_rounds = 0
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                stacks = "\n".join(describe_task(t) for t in busy)
                raise SettleTimeout(
                    f"bot still busy after {timeout or self.timeout}s; "
                    f"{len(busy)} task(s) not finished:\n{stacks}"
                )
            if busy:
                await asyncio.wait(
                    busy, timeout=min(0.02, remaining), return_when="FIRST_COMPLETED"
                )
            else:
                await asyncio.sleep(0)
        errors: list[BaseException] = []
        for task in watched:
            if task.done() and not task.cancelled() and task.exception() is not None:
                errors.append(task.exception())  # type: ignore[arg-type]
        return errors


class ErrorLog(logging.Handler):
    """Collects ERROR records of any logger: discord.py reports handler crashes only in logs."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def render(self) -> str:
        formatter = logging.Formatter("%(name)s: %(message)s")
        return "\n".join(formatter.format(r) for r in self.records)


@contextmanager
def capture_errors() -> Iterator[ErrorLog]:
    """Attach an ErrorLog to the root logger for the duration of the block."""
    handler = ErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
