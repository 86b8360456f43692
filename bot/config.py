"""Settings from the environment and an optional ``.env`` file (``.env.example`` documents each)."""

from __future__ import annotations

import base64
import ipaddress
import math
import os
import re
import string
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from bot.store.base import Shards

DEFAULT_DATABASE_URL = "sqlite:///data/games.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Libraries that log what they are handed at DEBUG: aiosqlite logs every statement with its
#: parameters, so game snapshots (hands, face-down cards) would reach the log.
VERBATIM_LOGGERS = ("aiosqlite",)
LOG_FORMATS = ("text", "json")
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
WEB_ACCESS_LOGS = ("paths", "addresses", "off")
#: Random bytes a WEB_SECRET holds at least: no search over a public id can find it.
WEB_SECRET_BYTES = 32
#: Discord's HTTP API, version 10: where the Activity's token exchange and checks go.
DEFAULT_DISCORD_API = "https://discord.com/api/v10"
#: A picture cache above this many MiB is a typo, not a budget (a whole game's boards fit in 64).
MAX_CACHE_MB = 65536
#: An AI that thinks longer than this over one decision holds its table for too long.
MAX_AI_BUDGET = 60.0
#: The longest wait between two tries to reach Discord at start-up (the cap of the doubling).
MAX_LOGIN_RETRY = 60.0
_URL = re.compile(r"(sqlite|postgresql|postgres)://", re.IGNORECASE)
_KINDS = {float: "number (like 24 or 0.5)", int: "whole number", str: "text"}


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines read by python-dotenv, as the shell would: ``#`` comments, an
    inline `` # comment`` after an unquoted value, quotes and ``export`` are understood.

    A missing file is no settings; a file that exists but cannot be read is refused in one
    sentence (``ValueError``), not a ``PermissionError`` on every command."""
    if not path.exists():
        return {}
    try:
        with path.open(encoding="utf-8") as stream:
            values = dotenv_values(stream=stream)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ValueError(
            f"the settings file {str(path)!r} cannot be read ({reason}): let the bot's user "
            "read it, or remove it and set the variables in the environment"
        ) from error
    except UnicodeDecodeError as error:
        raise ValueError(f"the settings file {str(path)!r} is not UTF-8 text") from error
    return {key: value or "" for key, value in values.items()}


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
    render_workers: int = 0  # processes for pictures; 0: one per core, -1: none
    #: Processes for AI decisions, apart from the pictures' (0: one per core, -1: none).
    ai_workers: int = 0
    render_cache_mb: float = 64.0  # the picture cache's budget (bot.pictures), in MiB
    #: Seconds an AI seat at level hard may think over one decision.
    ai_budget_seconds: float = 1.0
    #: ``text`` (one readable line per event) or ``json`` (one JSON object per line, with the
    #: game, interaction and shard ids as fields when an event has them).
    log_format: str = "text"
    #: The private port of /healthz, /readyz and /metrics (0: off), and the address it listens
    #: on (the loopback by default: never expose it to the internet).
    metrics_port: int = 0
    metrics_host: str = "127.0.0.1"
    #: Seconds before the second try to reach Discord at start-up, then doubled up to a
    #: minute: a network that is not up yet is waited for, never a restart loop.
    login_retry_seconds: float = 2.0
    #: The database `demo` plays into; empty: its own file in DEMO_DIR, never DATABASE_URL's.
    demo_database_url: str = ""
    #: Sharding (several processes over one shared store): how many shards the bot has in
    #: all, and which of them this process serves (``0-3``, ``0,2``; empty: every one).
    #: 0 shards: no sharding, one plain process (the default).
    shard_count: int = 0
    shard_ids: str = ""
    #: The web table (``web/``): its port (0: off), the address it binds (localhost unless
    #: configured: put a TLS proxy in front, docs/deploy.md), the address players open
    #: (empty: ``http://WEB_HOST:WEB_PORT``), and the key that signs hand links (at least 32
    #: random bytes; empty: one made once and kept in the store, so the bot and a
    #: ``python -m bot web`` process agree and links survive a restart).
    web_port: int = 8080
    web_host: str = "127.0.0.1"
    web_base_url: str = ""
    web_secret: str = ""
    #: The reverse proxies whose ``X-Forwarded-For`` names the client (addresses or
    #: networks, comma-separated; empty: the peer is the client).
    web_trusted_proxies: str = ""
    #: Connections the web table holds at most (never more than its open files allow), and
    #: live-page streams per client.
    web_max_connections: int = 1000
    web_streams_per_address: int = 8
    #: The web table's access log: ``paths`` (no query strings, no hand links' signed part,
    #: no addresses), ``addresses`` (the same with the client's address), or ``off``.
    web_access_log: str = "paths"
    #: The Discord Activity (docs/activity.md): the application's OAuth2 client id and secret
    #: (both empty: no Activity, the Play button answers with the web link), and the base of
    #: every call to Discord's HTTP API the web table makes (tests point it at a fake).
    discord_client_id: str = ""
    discord_client_secret: str = ""
    discord_api_base: str = DEFAULT_DISCORD_API

    @property
    def activity(self) -> bool:
        """Whether the Activity is configured: the Play button launches it."""
        return bool(self.discord_client_id and self.discord_client_secret)

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
        if "log_format" in values:
            values["log_format"] = str(values["log_format"]).strip().lower()
        settings = cls(**values)
        settings.check()
        return settings

    @property
    def demo_database(self) -> str:
        """Where ``demo`` keeps its games: DEMO_DATABASE_URL, or a file of its own in DEMO_DIR,
        so demo games and ratings never pile up in the bot's database."""
        return self.demo_database_url or f"sqlite:///{Path(self.demo_dir) / 'demo.db'}"

    def check(self) -> None:
        """Refuse every value that would only fail later, deep inside a library, in one
        sentence naming the setting and what is allowed (``ValueError``; the command line
        prints it as one line)."""
        if self.log_level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL={self.log_level!r} is not one of {', '.join(LOG_LEVELS)}")
        if self.log_format not in LOG_FORMATS:
            raise ValueError(
                f"LOG_FORMAT={self.log_format!r} is not one of {', '.join(LOG_FORMATS)}"
            )
        for name in ("database_url", "demo_database_url"):
            url = getattr(self, name)
            if url and not _URL.match(url.strip()):
                raise ValueError(
                    f"{name.upper()} must start with sqlite:/// (a file) or postgresql:// "
                    "(a server)"
                )
        if self.database_pool_size < 1:
            raise ValueError("DATABASE_POOL_SIZE must be a whole number of connections, 1 or more")
        if self.dev_guild_id and not is_snowflake(self.dev_guild_id):
            raise ValueError(
                "DEV_GUILD_ID must be a server id (digits only, from Discord's Copy Server ID), "
                "or empty"
            )
        for name in ("remind_hours", "turn_timeout_hours"):
            if not 0 <= getattr(self, name) < math.inf:  # also refuses nan
                raise ValueError(f"{name.upper()} must be 0 (off) or a positive number of hours")
        for name in ("render_workers", "ai_workers"):
            if getattr(self, name) < -1:
                raise ValueError(
                    f"{name.upper()} must be -1 (no worker processes), 0 (one per core) or a "
                    "positive number of processes"
                )
        if not 0 <= self.render_cache_mb <= MAX_CACHE_MB:
            raise ValueError(
                f"RENDER_CACHE_MB must be a number of MiB from 0 (no cache) to {MAX_CACHE_MB}"
            )
        if not 0 < self.ai_budget_seconds <= MAX_AI_BUDGET:
            raise ValueError(
                "AI_BUDGET_SECONDS must be a number of seconds above 0 and at most "
                f"{MAX_AI_BUDGET} (like 1 or 0.5)"
            )
        if not 0 <= self.metrics_port <= 65535:
            raise ValueError("METRICS_PORT must be 0 (off) or a port number from 1 to 65535")
        if self.metrics_port and not self.metrics_host.strip():
            raise ValueError("METRICS_HOST must be an address to listen on, like 127.0.0.1")
        if not 0 < self.login_retry_seconds <= MAX_LOGIN_RETRY:
            raise ValueError(
                "LOGIN_RETRY_SECONDS must be a number of seconds above 0 and at most "
                f"{MAX_LOGIN_RETRY:.0f} (like 2)"
            )
        self.shards()  # refuses a SHARD_IDS that does not fit SHARD_COUNT
        if not 0 <= self.web_port <= 65535:
            raise ValueError("WEB_PORT must be 0 (no web table) or a port from 1 to 65535")
        if self.web_base_url and not self.web_base_url.startswith(("http://", "https://")):
            raise ValueError("WEB_BASE_URL must start with https:// (or http://)")
        if self.web_secret:
            check_web_secret(self.web_secret)
        self.trusted_proxies()
        if self.web_max_connections < 4 or self.web_streams_per_address < 1:
            raise ValueError(
                "WEB_MAX_CONNECTIONS must be 4 or more and WEB_STREAMS_PER_ADDRESS 1 or more"
            )
        if self.web_access_log not in WEB_ACCESS_LOGS:
            raise ValueError(
                f"WEB_ACCESS_LOG={self.web_access_log!r} is not one of {', '.join(WEB_ACCESS_LOGS)}"
            )
        if bool(self.discord_client_id) != bool(self.discord_client_secret):
            raise ValueError(
                "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go together: set both (the "
                "Activity) or neither (the Play button gives the web link)"
            )
        if self.discord_client_id and not is_snowflake(self.discord_client_id):
            raise ValueError(
                "DISCORD_CLIENT_ID must be the application's id (digits only, from the "
                "Developer Portal's OAuth2 page)"
            )
        if not self.discord_api_base.startswith(("https://", "http://")):
            raise ValueError("DISCORD_API_BASE must start with https:// (or http://)")

    def trusted_proxies(self) -> tuple[Network, ...]:
        """WEB_TRUSTED_PROXIES: addresses or networks, comma-separated (``127.0.0.1``,
        ``10.0.0.0/8``); a ``ValueError`` naming the part that is neither."""
        networks = []
        for part in (p.strip() for p in self.web_trusted_proxies.split(",")):
            if not part:
                continue
            try:
                networks.append(ipaddress.ip_network(part, strict=False))
            except ValueError:
                raise ValueError(
                    f"WEB_TRUSTED_PROXIES: {part!r} is not an address or network (like "
                    "127.0.0.1 or 10.0.0.0/8)"
                ) from None
        return tuple(networks)

    def shards(self) -> Shards | None:
        """The shards this process serves, or None when the bot is not sharded."""
        if self.shard_count < 0:
            raise ValueError("SHARD_COUNT must be 0 (no sharding) or a positive whole number")
        if self.shard_count == 0:
            if self.shard_ids.strip():
                raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards in all")
            return None
        if not self.shard_ids.strip():
            return Shards(self.shard_count, tuple(range(self.shard_count)))
        return Shards(self.shard_count, parse_shard_ids(self.shard_ids, self.shard_count))


def check_web_secret(text: str) -> None:
    """Refuse a WEB_SECRET that could be guessed: it must be at least 32 random bytes, written
    as hex or base64 (a short one can be found from a single public id, and then anyone signs
    hand links)."""
    text = text.strip()
    try:
        if len(text) % 2 == 0 and all(c in string.hexdigits for c in text):
            raw = bytes.fromhex(text)
        else:
            padded = text.replace("-", "+").replace("_", "/") + "=" * (-len(text) % 4)
            raw = base64.b64decode(padded, validate=True)
    except ValueError:
        raw = b""
    if len(raw) < WEB_SECRET_BYTES or len(set(raw)) < WEB_SECRET_BYTES // 2:
        raise ValueError(
            f"WEB_SECRET must be at least {WEB_SECRET_BYTES} random bytes in hex or base64 "
            "(make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))'), "
            "or empty for one kept in the database"
        )


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    """``0-3`` or ``0,2`` or ``0-1,5``: the shard ids, sorted, each below ``count``."""
    ids: set[int] = set()
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        bounds = (first, last) if dash else (first, first)
        if not all(b.strip().isascii() and b.strip().isdigit() for b in bounds):
            raise ValueError(
                f"SHARD_IDS={text!r} is not a list of shard ids like 0-3 or 0,2 (got {part!r})"
            )
        low, high = (int(b) for b in bounds)
        if low > high:
            raise ValueError(f"SHARD_IDS={text!r}: the range {part.strip()!r} runs backwards")
        if high >= count:
            raise ValueError(
                f"SHARD_IDS={text!r}: shard {high} does not exist with SHARD_COUNT={count} "
                f"(ids run from 0 to {count - 1})"
            )
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


def is_snowflake(text: str) -> bool:
    """Whether ``text`` is a Discord id: digits only, at most 20 of them (a 64-bit number)."""
    text = text.strip()
    return text.isascii() and text.isdigit() and len(text) <= 20 and int(text) > 0
