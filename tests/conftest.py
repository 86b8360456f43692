"""Test-wide settings and the store backends.

Pictures are drawn inline (in a thread), not in worker processes: a test that patches a
renderer patches it in this process; workers would not see the patch, and starting processes
for every bot a test builds would only make the suite slower.

Every test that takes the ``backend`` fixture runs twice, on SQLite and on PostgreSQL (ids
``sqlite`` and ``postgres``: ``pytest -k postgres`` selects every PostgreSQL run).

``make test`` runs the suite over pytest-xdist's workers. Each worker is its own process with
its own PostgreSQL schema (``_RunSchema``: a uniquely named one per process), and every test
writes under its own ``tmp_path``, so workers never meet.

Hypothesis has two profiles: ``ci`` (CI=true; derandomized, so a run tries the same examples
each time, their count fixed by each test's ``max_examples``; no example database) and ``dev``
(random examples, remembered in .hypothesis/ so a failure is tried first next time).
``HYPOTHESIS_PROFILE`` picks one explicitly.
"""

import asyncio
import os
from pathlib import Path

import asyncpg
import pytest
from hypothesis import HealthCheck, settings

from tests.backends import (
    HOW,
    Backend,
    Schema,
    drop_schema,
    in_ci,
    migrated_schema,
    postgres_backend,
    postgres_url,
    sqlite_backend,
)

os.environ.setdefault("RENDER_WORKERS", "-1")
os.environ.setdefault("AI_WORKERS", "-1")
# An AI seat's decision in a test is its level's effort, never the clock's cap: on a busy
# machine (CI's, two workers) the cap would cut a search short now and then, and the game a
# test plays would change with the load (a Street Kings deal took 3.5 taps a turn, not 3).
os.environ.setdefault("AI_BUDGET_SECONDS", "60")
# The web table is on by default (WEB_PORT 8080); tests that want it start their own on a free
# port, so bots built side by side never fight over one.
os.environ.setdefault("WEB_PORT", "0")

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if in_ci() else "dev"))


class _RunSchema:
    """This run's migrated schema on the TEST_POSTGRES_URL server, made by the first
    PostgreSQL test that needs it (so a SQLite-only run never asks for a server), dropped when
    the run ends; a server that could not be reached fails every later test at once."""

    schema: Schema | None = None
    failure: str = ""

    @classmethod
    async def get(cls, server: str) -> Schema:
        if cls.failure:
            pytest.fail(cls.failure)
        if cls.schema is None:
            try:
                cls.schema = await migrated_schema(server)
            except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
                cls.failure = f"TEST_POSTGRES_URL names a server that cannot be used: {exc}"
                pytest.fail(cls.failure)
        return cls.schema


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """A fresh database for this test: a SQLite file, or the run's PostgreSQL schema emptied.
    Without a server the PostgreSQL runs skip locally and fail in CI."""
    if request.param == "sqlite":
        return sqlite_backend(tmp_path)
    server = postgres_url()
    if not server:
        if in_ci():
            pytest.fail("CI=true but TEST_POSTGRES_URL is not set: .ci/run starts a server")
        pytest.skip(HOW)
    return await postgres_backend(await _RunSchema.get(server))


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _RunSchema.schema is not None:
        asyncio.run(drop_schema(_RunSchema.schema.server, _RunSchema.schema.name))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line, once, saying how to run the PostgreSQL tests a local run skipped (counted from
    the reports, so the skips of every xdist worker count)."""
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if isinstance(report.longrepr, tuple) and report.longrepr[-1].endswith(HOW)
    ]
    if skipped:
        terminalreporter.write_line(f"{len(skipped)} {HOW}")
