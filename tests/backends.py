"""The store backends the suites run against: a SQLite file, and a schema of a real PostgreSQL.

``tests/conftest.py`` parametrises the ``backend`` fixture over both (ids ``sqlite`` and
``postgres``, so ``pytest -k postgres`` selects every PostgreSQL run). A test run makes one
schema of its own on the server ``TEST_POSTGRES_URL`` names, migrated once, and empties its
tables before each PostgreSQL test (a fresh schema a test would cost its migrations, about ten
times as long); it drops the schema at the end. A test that needs a schema the store has never
seen (migrations) makes one with ``fresh_schema``.
"""

from __future__ import annotations

import os
import re
import sqlite3
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from bot.store import PostgresStore, SqliteStore, Store, open_store

POSTGRES_URL = "TEST_POSTGRES_URL"
#: The one line a local run without a server prints (tests/conftest.py) and skips with.
HOW = (
    "PostgreSQL tests skipped: run `make test-postgres` (a throwaway server), or set "
    f"{POSTGRES_URL}=postgresql://user@host/db"
)


def postgres_url() -> str:
    return os.environ.get(POSTGRES_URL, "").strip()


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def with_schema(url: str, schema: str) -> str:
    """``url`` with its connections' ``search_path`` set to ``schema`` (asyncpg passes unknown
    query parameters to the server as settings)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


def _numbered(sql: str) -> str:
    """SQLite's ``?`` placeholders as PostgreSQL's ``$1, $2, ...``."""
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


@dataclass
class Backend:
    """One database for one test, and the ways a test reaches it: stores on it (several stand
    for several processes) and raw SQL behind the store's back, as a disk fault or a hand edit
    would change it. SQL is written once, with ``?`` placeholders, for both backends."""

    name: str
    url: str
    path: Path | None = None  # SQLite's file
    schema: str | None = None  # PostgreSQL's schema

    def store(self, *, rebuild: bool = True) -> Store:
        """A new store on this database, not yet open; ``rebuild=False``: without the snapshot
        rebuild, so an unreadable snapshot marks its game."""
        if rebuild:
            return open_store(self.url)
        if self.name == "sqlite":
            return SqliteStore(str(self.path))
        return PostgresStore(self.url)

    async def opened(self, *, rebuild: bool = True) -> Store:
        store = self.store(rebuild=rebuild)
        await store.open()
        return store

    async def execute(self, sql: str, *params: Any) -> None:
        if self.name == "sqlite":
            with sqlite3.connect(str(self.path)) as raw:
                raw.execute("PRAGMA foreign_keys = ON")  # as the store's own connections
                raw.execute(sql, params)
            return
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(_numbered(sql), *params)
        finally:
            await conn.close()

    async def fetchval(self, sql: str, *params: Any) -> Any:
        if self.name == "sqlite":
            with sqlite3.connect(str(self.path)) as raw:
                row = raw.execute(sql, params).fetchone()
            return None if row is None else row[0]
        conn = await asyncpg.connect(self.url)
        try:
            return await conn.fetchval(_numbered(sql), *params)
        finally:
            await conn.close()

    async def tamper(self, sql: str, *params: Any) -> None:
        """Change rows behind the store's back, the log's append-only guard lifted for it."""
        if self.name == "sqlite":
            await self.execute("DROP TRIGGER IF EXISTS actions_append_only")
            await self.execute(sql, *params)
            return
        conn = await asyncpg.connect(self.url)
        try:
            async with conn.transaction():
                await conn.execute("ALTER TABLE actions DISABLE TRIGGER actions_append_only")
                await conn.execute(_numbered(sql), *params)
                await conn.execute("ALTER TABLE actions ENABLE TRIGGER actions_append_only")
        finally:
            await conn.close()


def sqlite_backend(folder: Path) -> Backend:
    path = folder / "games.db"
    return Backend("sqlite", f"sqlite:///{path}", path=path)


@dataclass(frozen=True)
class Schema:
    """This run's schema on the test server, migrated, and the tables to empty between tests."""

    server: str
    name: str
    tables: tuple[str, ...]

    @property
    def url(self) -> str:
        return with_schema(self.server, self.name)


async def fresh_schema(server: str) -> str:
    """A new, empty schema on ``server`` (named uniquely, so runs side by side never meet)."""
    name = f"test_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f"CREATE SCHEMA {name}")
    finally:
        await conn.close()
    return name


async def drop_schema(server: str, name: str) -> None:
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
    finally:
        await conn.close()


async def migrated_schema(server: str) -> Schema:
    """A fresh schema with the store's migrations applied, and its tables but the ledger."""
    name = await fresh_schema(server)
    store = PostgresStore(with_schema(server, name), pool_size=1)
    await store.open()
    await store.close()
    conn = await asyncpg.connect(server)
    try:
        rows = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1 "
            "AND tablename <> 'schema_migrations' ORDER BY tablename",
            name,
        )
    finally:
        await conn.close()
    return Schema(server, name, tuple(row[0] for row in rows))


async def postgres_backend(schema: Schema) -> Backend:
    """``schema`` emptied for one test: every table truncated, its identities restarted."""
    conn = await asyncpg.connect(schema.url)
    try:
        await conn.execute(f"TRUNCATE {', '.join(schema.tables)} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()
    return Backend("postgres", schema.url, schema=schema.name)
