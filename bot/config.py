"""Settings from the environment and an optional ``.env`` file (``.env.example`` documents each)."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path

DEFAULT_DATABASE_URL = "sqlite:///data/games.db"


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
    #: Sync commands to this guild only (instant, for development); empty: global sync.
    dev_guild_id: str = ""
    log_level: str = "INFO"
    demo_dir: str = "out/demo"
    #: Hours a player may take before a reminder, and before their AI decides (0: never).
    remind_hours: float = 24.0
    turn_timeout_hours: float = 72.0
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
        values: dict[str, object] = {}
        for name, value in raw.items():
            kind = type(getattr(defaults, name))
            try:
                values[name] = kind(value)
            except ValueError as error:
                raise ValueError(
                    f"{name.upper()}={value!r} is not a valid {kind.__name__}"
                ) from error
        return cls(**values)
