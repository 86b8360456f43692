"""Test-wide settings and the store backends.

Pictures are drawn inline (in a thread), not in worker processes: a test that patches a
renderer patches it in this process; workers would not see the patch, and starting processes
for every bot a test builds would only make the suite slower.

Every test that takes the ``backend`` fixture runs twice, on SQLite and on PostgreSQL (ids
``sqlite`` and ``postgres``: ``pytest -k postgres`` selects every PostgreSQL run).
"""

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

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

_skipped_postgres: list[str] = []


@pytest.fixture(scope="session")
def postgres_schema() -> Iterator[Schema | None]:
    """This run's migrated schema on the TEST_POSTGRES_URL server (None without a server),
    dropped at the end. Made on an event loop of its own: the tests' loops are theirs."""
    server = postgres_url()
    if not server:
        yield None
        return
    try:
        schema = asyncio.run(migrated_schema(server))
    except (OSError, TimeoutError) as exc:
        pytest.fail(f"TEST_POSTGRES_URL names a server that cannot be reached: {exc}")
    yield schema
    asyncio.run(drop_schema(server, schema.name))


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_schema: Schema | None
) -> Backend:
    """A fresh database for this test: a SQLite file, or the run's PostgreSQL schema emptied.
    Without a server the PostgreSQL runs skip locally and fail in CI."""
    if request.param == "sqlite":
        return sqlite_backend(tmp_path)
    if postgres_schema is None:
        if in_ci():
            pytest.fail("CI=true but TEST_POSTGRES_URL is not set: .ci/run starts a server")
        _skipped_postgres.append(request.node.nodeid)
        pytest.skip(HOW)
    return await postgres_backend(postgres_schema)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line, once, saying how to run the PostgreSQL tests a local run skipped."""
    if _skipped_postgres:
        terminalreporter.write_line(f"{len(_skipped_postgres)} {HOW}")
