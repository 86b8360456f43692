"""Settings from the environment and an optional ``.env`` file (``.env.example`` documents each)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

DEFAULT_DATABASE_URL = "sqlite:///data/games.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Libraries that log what they are handed at DEBUG: aiosqlite logs every statement with its
#: parameters, so game snapshots (hands, face-down cards) would reach the log.
VERBATIM_LOGGERS = ("aiosqlite",)
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_KINDS = {float: "number (like 24 or 0.5)", int: "whole number", str: "text"}


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines; ``#`` comments and blank lines skipped, surrounding quotes removed."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip().removeprefix("export ").strip()] = value
    return values


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment."""

    discord_token: str = ""
    database_url: str = DEFAULT_DATABASE_URL
    #: Connections each bot process may hold to a PostgreSQL DATABASE_URL (SQLite: unused).
    database_pool_size: int = 10
    #: Sync commands to this guild only (instant, for development); empty: global sync.
    dev_guild_id: str = ""
    log_level: str = "INFO"
    demo_dir: str = "out/demo"
    #: Hours a player may take before a reminder, and before their AI decides (0: never).
    remind_hours: float = 24.0
    turn_timeout_hours: float = 72.0
    render_workers: int = 0  # processes for pictures and AI decisions; 0: one per core, -1: none
    render_cache_mb: float = 64.0  # the picture cache's budget (bot.pictures), in MiB
    #: Seconds an AI seat at level hard may think over one decision.
    ai_budget_seconds: float = 1.0

    @staticmethod
    def hours(value: float) -> float | None:
        """Hours as seconds, ``None`` for 0 (off)."""
        return value * 3600 if value > 0 else None

    @classmethod
    def load(cls, env_file: str | Path = ".env", **overrides: str) -> Settings:
        """Environment variables win over ``.env``; keyword overrides win over both."""
        merged = {**read_env_file(Path(env_file)), **os.environ}
        raw: dict[str, str] = {}
        for f in fields(cls):
            key = f.name.upper()
            if key in merged and merged[key] != "":
                raw[f.name] = merged[key]
        raw.update({k: v for k, v in overrides.items() if v is not None})
        defaults = cls()
        values: dict[str, Any] = {}
        for name, value in raw.items():
            kind = type(getattr(defaults, name))
            try:
                values[name] = kind(value)
            except ValueError as error:
                raise ValueError(
                    f"{name.upper()}={value!r} is not a {_KINDS.get(kind, kind.__name__)}"
                ) from error
        if "log_level" in values:  # logging itself takes the upper-case names only
            values["log_level"] = str(values["log_level"]).strip().upper()
        settings = cls(**values)
        settings.check()
        return settings

    def check(self) -> None:
        """Refuse values that would only fail later, deep inside a library, with what is
        allowed (``ValueError``; the command line prints it as one line)."""
        if self.log_level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL={self.log_level!r} is not one of {', '.join(LOG_LEVELS)}")
        if self.database_pool_size < 1:
            raise ValueError("DATABASE_POOL_SIZE must be a whole number of connections, 1 or more")
        for name in ("remind_hours", "turn_timeout_hours"):
            if not getattr(self, name) >= 0:  # also refuses nan
                raise ValueError(f"{name.upper()} must be 0 (off) or a positive number of hours")


def keep_secrets_out_of_logs() -> None:
    """Never let a verbatim logger below INFO, whatever LOG_LEVEL says."""
    for name in VERBATIM_LOGGERS:
        logger = logging.getLogger(name)
        logger.setLevel(max(logger.getEffectiveLevel(), logging.INFO))


def configure_logging(level: str) -> None:
    """The process's logging: ``level`` for our code, secrets kept out (see above)."""
    logging.basicConfig(level=level, format=LOG_FORMAT)
    keep_secrets_out_of_logs()
