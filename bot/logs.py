"""The process's log: one line per event, as readable text or as JSON (``LOG_FORMAT``).

One handler, on the root logger, installed once by ``configure_logging``; discord.py is
given none of its own (cogs/app.py connects without ``Client.run`` or ``setup_logging``), so
no event is written twice.

The ids an event is about (``game``, ``interaction``, ``shard``) are fields: pass them as
``extra={"game": ...}``, or bind them for a whole task with ``log_context`` (the Discord layer
binds the interaction and shard of each interaction it handles). The JSON form carries them as
keys; the text form keeps its one readable line.

Secrets stay out of both forms: the token is never logged by us, and the libraries that log
verbatim what they are handed (aiosqlite logs each statement with its parameters, so a hand
of cards) are held at INFO whatever ``LOG_LEVEL`` says.
"""

from __future__ import annotations

import contextvars
import json
import logging
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, TextIO

from bot.version import __version__

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: Libraries that log what they are handed at DEBUG: aiosqlite logs every statement with its
#: parameters, so game snapshots (hands, face-down cards) would reach the log.
VERBATIM_LOGGERS = ("aiosqlite",)
#: The ids an event may be about, each a JSON field of its own.
ID_FIELDS = ("game", "interaction", "shard")

#: The bound ids, a fresh mapping on each change (never mutated in place).
_context: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar(
    "log_context", default=MappingProxyType({})
)


@contextmanager
def log_context(**ids: Any) -> Iterator[None]:
    """Every event logged inside (in this task, and tasks it starts) carries ``ids``."""
    token = _context.set({**_context.get(), **{k: v for k, v in ids.items() if v is not None}})
    try:
        yield
    finally:
        _context.reset(token)


def bind(**ids: Any) -> None:
    """Bind ``ids`` for the rest of the current task (a task's context dies with it)."""
    _context.set({**_context.get(), **{k: v for k, v in ids.items() if v is not None}})


class ContextFilter(logging.Filter):
    """Puts the bound ids on each record that does not carry them already. The service's
    lines about a game begin ``game %s`` (its convention since the first log line): that
    argument is the record's game id."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _context.get().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        if (
            not hasattr(record, "game")
            and isinstance(record.msg, str)
            and record.msg.startswith("game %s")
            and isinstance(record.args, tuple)
            and record.args
        ):
            record.game = record.args[0]
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, version, and the ids."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "version": __version__,
        }
        for key in ID_FIELDS:
            value = getattr(record, key, None)
            if value is not None:
                line[key] = str(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def keep_secrets_out_of_logs() -> None:
    """Never let a verbatim logger below INFO, whatever LOG_LEVEL says."""
    for name in VERBATIM_LOGGERS:
        logger = logging.getLogger(name)
        logger.setLevel(max(logger.getEffectiveLevel(), logging.INFO))


def configure_logging(
    level: str, form: str = "text", stream: TextIO | None = None
) -> logging.Handler:
    """The process's one log handler (on ``stream``, stderr by default), replacing any other
    on the root logger, so calling this twice still writes each event once; returns it."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if form == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    keep_secrets_out_of_logs()
    return handler
