"""Forgetting a player, on both backends: their finished games keep every move under "Former
player n" and still replay onto every stored snapshot, their running game goes on with an AI in
their seat, their lobby lets them go, their results and ratings are gone (the others' stay), and
their id and name are nowhere in the store afterwards, nor in what the bot logs from then on."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.service import GameService, replay
from bot.store.base import ACTIVE, FINISHED, LOBBY
from bot.store.forget import renamed
from tests.backends import Backend
from tests.store.games import GUILD, play

#: A snowflake-long id and a name no other value in the store could contain by chance.
GONE = "731000000000000042"
NAME = "Zebulon Quixotic"
OTHERS = ("731000000000000001", "731000000000000002")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def service(backend: Backend) -> AsyncIterator[GameService]:
    store = await backend.opened()
    yield GameService(store, seed_factory=lambda: "forget", remind_after=None, timeout_after=None)
    await store.close()


async def seat(service: GameService, channel: str, game: str = "artsee") -> str:
    """A game in ``channel`` with the two others and the player to forget (as seat 2)."""
    record = await service.new_game(game, GUILD, channel, OTHERS[0], "Ana")
    await service.join(GUILD, channel, GONE, NAME, record.id)
    await service.join(GUILD, channel, OTHERS[1], "Bo", record.id)
    return record.id


async def snapshots(service: GameService, game_id: str) -> list:
    """Every state of a game replayed from its log, checked against its stored snapshot."""
    record = await service.get(game_id)
    states: list = []
    rows = await service.store.actions(game_id)
    _steps, exact = replay(service.engine(record), record, rows, states)
    assert exact, "the replay lands on the stored snapshot"
    return [service.engine(record).dump(state) for state in states]


async def everything(backend: Backend, service: GameService) -> str:
    """Every value the store holds, as text (SQLite: the file's very bytes and its WAL)."""
    if backend.name == "sqlite":
        assert backend.path is not None
        files = [backend.path, Path(f"{backend.path}-wal")]
        return "".join(f.read_bytes().decode("latin-1") for f in files if f.exists())
    conn = await asyncpg.connect(backend.url)
    try:
        tables = await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        dump = []
        for (table,) in tables:
            dump += [json.dumps(list(map(str, row))) for row in await conn.fetch(f"TABLE {table}")]
        return "\n".join(dump)
    finally:
        await conn.close()


async def test_a_forgotten_player_is_nowhere_and_every_replay_holds(
    service: GameService, backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    finished = await seat(service, "c1")
    await service.start(GUILD, "c1", OTHERS[0], finished)
    record = await play(service, await service.get(finished), 5000)
    assert record.status == FINISHED
    running = await seat(service, "c2")
    await service.start(GUILD, "c2", OTHERS[0], running)
    await play(service, await service.get(running), 7)
    lobby = (await service.new_game("artsee", GUILD, "c3", GONE, NAME)).id
    await service.set_alerts(GONE, alerts_mode="dm", zone="Europe/Lisbon", quiet="22-7")
    before = {g: await snapshots(service, g) for g in (finished, running)}
    assert await service.results.standing(GUILD, GONE)
    assert GONE in await everything(backend, service) and NAME in await everything(backend, service)

    caplog.clear()  # only what is logged from the forgetting on (an earlier test's level aside)
    with caplog.at_level(logging.DEBUG):
        forgotten, moved = await service.forget(GONE)
        # The running game goes on, its seat played by the AI.
        after_running = await service.get(running)
        assert after_running.status == ACTIVE
        former = after_running.seats[1]
        assert former.ai and former.user == "former:2" and former.name == "Former player 2 (AI)"
        await play(service, after_running, 5)

    assert sorted(g for g, _ in forgotten.seats) == sorted([finished, running, lobby])
    assert forgotten.results == 1 and forgotten.ratings == 1
    assert moved, "the running game's seat passed to the AI"
    gone_lobby = await service.get(lobby)
    assert gone_lobby.seats == [] and gone_lobby.status != LOBBY

    # Replays stay exact: every snapshot is the old one with the player renamed.
    assert await snapshots(service, finished) == renamed(before[finished], GONE, "former:2")
    assert (await snapshots(service, running))[: len(before[running])] == renamed(
        before[running], GONE, "former:2"
    )
    assert [s.name for s in (await service.get(finished)).seats] == [
        "Ana",
        "Former player 2",
        "Bo",
    ]

    # Results and ratings: theirs are gone, the others' stay.
    assert await service.results.standing(GUILD, GONE) == []
    assert await service.results.standing(GUILD, OTHERS[0])
    rows = await service.results.of_game(finished)
    assert sorted(r.player for r in rows) == sorted(OTHERS)

    assert await service.alert_prefs(GONE) == {}, "their alert choices go too"
    stored = await everything(backend, service)
    assert GONE not in stored and NAME not in stored
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert GONE not in logged and NAME not in logged


async def test_forgetting_someone_unknown_changes_nothing(service: GameService) -> None:
    game = await seat(service, "c1")
    forgotten, moved = await service.forget("731000000000000099")
    assert forgotten.seats == [] and moved == []
    assert [s.user for s in (await service.get(game)).seats] == [OTHERS[0], GONE, OTHERS[1]]


def test_an_admin_forgets_a_player_from_the_command_line(backend: Backend, tmp_path: Path) -> None:
    """`python -m bot forget USER_ID` on the bot's database: the same forgetting, one line."""

    async def prepare() -> str:
        store = await backend.opened()
        try:
            service = GameService(store, seed_factory=lambda: "cli")
            game = await seat(service, "c1")
            await service.start(GUILD, "c1", OTHERS[0], game)
            return game
        finally:
            await store.close()

    game = asyncio.run(prepare())
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "forget", GONE],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT), "DATABASE_URL": backend.url},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "1 games now show a former player" in done.stdout
    assert GONE not in done.stdout + done.stderr

    async def check() -> None:
        store = await backend.opened()
        try:
            record = await store.get_game(game)
            assert record is not None and record.seats[1].user == "former:2"
            assert record.seats[1].ai
        finally:
            await store.close()

    asyncio.run(check())
    refused = subprocess.run(
        [sys.executable, "-m", "bot", "forget", "me"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT), "DATABASE_URL": backend.url},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 1 and "not a Discord user id" in refused.stderr
