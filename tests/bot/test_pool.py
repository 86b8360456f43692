"""The worker pool: jobs cross the process line, and a dead worker costs one retry, not the bot."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.config import Settings
from bot.pool import WorkerPool, default_workers


def add(a: int, b: int) -> int:
    return a + b


def crash_once(marker: str) -> str:
    """Kill the worker running this the first time (as the OOM killer would), then succeed."""
    path = Path(marker)
    if not path.exists():
        path.write_text("crashed")
        os.kill(os.getpid(), signal.SIGKILL)
    return f"ran in {os.getpid()}"


def crash_always() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.fixture
async def pool():
    pool = WorkerPool(1, initializer=None)
    pool.start()
    yield pool
    await pool.close()


async def test_a_job_runs_in_another_process(pool: WorkerPool) -> None:
    assert await pool.run(add, 2, 3) == 5
    assert await pool.run(os.getpid) != os.getpid()


async def test_a_killed_worker_is_replaced_and_the_job_retried_once(
    pool: WorkerPool, tmp_path: Path
) -> None:
    marker = tmp_path / "crashed"
    answer = await pool.run(crash_once, str(marker))
    assert marker.read_text() == "crashed"  # the first attempt did kill its worker
    assert answer.startswith("ran in ") and pool.rebuilds == 1
    assert await pool.run(add, 1, 1) == 2


async def test_a_job_that_kills_every_worker_fails_and_the_next_job_still_runs(
    pool: WorkerPool,
) -> None:
    with pytest.raises(BrokenProcessPool):
        await pool.run(crash_always)
    assert pool.rebuilds == 2  # the first death, then the retry's
    assert await pool.run(add, 20, 22) == 42


async def test_inline_mode_runs_in_this_process_with_copied_arguments() -> None:
    pool = WorkerPool(inline=True, initializer=None)
    numbers = [1, 2]
    assert await pool.run(os.getpid) == os.getpid()
    assert await pool.run(sorted, numbers) == [1, 2]
    with pytest.raises(Exception, match="pickle"):  # a lambda could never reach a worker
        await pool.run(lambda: 1)
    await pool.close()


async def test_a_closed_pool_takes_no_more_jobs(pool: WorkerPool) -> None:
    await pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        await pool.run(add, 1, 2)


def test_ai_workers_size_a_pool_of_their_own_and_a_bad_count_is_refused() -> None:
    assert WorkerPool.for_ai(Settings(ai_workers=2)).workers == 2
    default = WorkerPool.for_ai(Settings())
    assert not default.inline and default.workers == default_workers() and not default.initializer
    assert WorkerPool.for_ai(Settings(ai_workers=-1)).inline
    for name in ("render_workers", "ai_workers"):
        with pytest.raises(ValueError, match=f"{name.upper()} must be -1"):
            Settings.load(env_file="/nonexistent", **{name: "-2"})


def think_until(flag: str) -> bool:
    """A think that lasts until ``flag`` exists (a minute at most): it ends only once the test
    has seen the picture, so the picture cannot have waited for it, however busy the machine."""
    deadline = time.monotonic() + 60
    while not os.path.exists(flag) and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.path.exists(flag)


async def test_a_long_think_holds_no_worker_a_picture_waits_for(tmp_path: Path) -> None:
    pictures, thinking = WorkerPool(1, initializer=None), WorkerPool(1, initializer=None)
    flag = tmp_path / "picture-done"
    try:
        await asyncio.gather(pictures.ready(), thinking.ready())
        think = asyncio.ensure_future(thinking.run(think_until, str(flag)))
        assert await pictures.run(add, 1, 2) == 3
        assert not think.done()
        flag.touch()
        assert await think
    finally:
        await asyncio.gather(pictures.close(), thinking.close())


def test_render_workers_sizes_the_pool_and_minus_one_keeps_it_in_process() -> None:
    assert WorkerPool.from_settings(Settings(render_workers=3)).workers == 3
    default = WorkerPool.from_settings(Settings())
    assert not default.inline and default.workers == default_workers() >= 1
    inline = WorkerPool.from_settings(Settings(render_workers=-1))
    assert inline.inline and inline.initializer is None
    assert Settings.load(env_file="/nonexistent", render_workers="-1").render_workers == -1
