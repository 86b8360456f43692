"""The pytest fixture that starts harnesses inside a test and validates them at teardown.

Enable it with ``pytest_plugins = ["tests.harness.fixtures"]`` (in ``tests/conftest.py`` or a
test module); a test then calls ``harness = await harness_factory(bot, fake, members=[...])``.
Test code should not import this module itself: pytest must be the first to import a plugin to
rewrite its asserts.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from .fake_discord import FakeDiscord
from .harness import Harness, HarnessFactory


@pytest.fixture
async def harness_factory() -> AsyncIterator[HarnessFactory]:
    """Start harnesses inside a test; all are closed and validated at teardown."""
    started: list[Harness] = []

    async def start(
        bot: discord.Client, fake: FakeDiscord | None = None, **options: Any
    ) -> Harness:
        harness = await Harness.start(bot, fake or FakeDiscord(), **options)
        started.append(harness)
        return harness

    yield start
    for harness in reversed(started):
        await harness.close()
    for harness in started:
        harness.assert_all_valid()
