"""Faults stay in their game: a damaged row, snapshot or log costs that game alone (on both
backends), and a damaged SQLite file is refused at start-up with what to do."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ai import RandomAgent
from bot.errors import ServiceError
from bot.service import GameService
from bot.store import DamagedDatabase, GameRecord, SqliteStore, StoreError, replay_snapshot
from tests.backends import Backend
from tests.store.games import GUILD, play, started

CHANNEL = "chan"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
async def service(backend: Backend) -> AsyncIterator[GameService]:
    store = await backend.opened()
    yield GameService(store, seed_factory=lambda: "faults", remind_after=60, timeout_after=120)
    await store.close()


async def damage(backend: Backend, game_id: str, sql: str, *params: object) -> None:
    """Change one row behind the store's back, as a disk fault or a bad hand edit would."""
    await backend.tamper(sql, *params, game_id)


async def three_games(service: GameService) -> list:
    """Three running games in one channel, a few moves into each."""
    games = []
    for i in range(3):
        players = tuple(f"{i}0{seat}" for seat in range(3))
        record = await started(service, CHANNEL, players=players)
        games.append(await play(service, record, 4, seed=str(i)))
    return games


async def test_an_unreadable_snapshot_is_rebuilt_from_the_seed_and_the_log(
    service: GameService, backend: Backend
) -> None:
    games = await three_games(service)
    await damage(backend, games[1].id, "UPDATE games SET state = '{\"broken' WHERE id = ?")
    listed = await service.store.games_in_channel(GUILD, CHANNEL)
    assert [r.id for r in listed] == [r.id for r in games]
    assert listed[1].state == games[1].state and listed[1].version == games[1].version
    assert await service.store.needing_attention(GUILD, CHANNEL) == []
    # the rebuilt snapshot was written back
    stored = await backend.fetchval("SELECT state FROM games WHERE id = ?", games[1].id)
    assert stored.startswith("{") and "broken" not in stored
    moved = await play(service, listed[1], 2)  # and the game plays on
    assert moved.version > games[1].version


async def test_a_log_that_does_not_replay_marks_only_its_own_game(
    service: GameService, backend: Backend
) -> None:
    games = await three_games(service)
    await damage(backend, games[0].id, "UPDATE games SET state = 'not json' WHERE id = ?")
    await damage(
        backend,
        games[0].id,
        'UPDATE actions SET action = \'{"type":"nonsense"}\' WHERE game_id = ?',
    )
    listed = await service.store.games_in_channel(GUILD, CHANNEL)
    assert [r.id for r in listed] == [r.id for r in games[1:]]
    (flagged,) = await service.store.needing_attention(GUILD, CHANNEL)
    assert flagged.id == games[0].id and flagged.host == games[0].host
    assert "snapshot" in flagged.reason and "log" in flagged.reason
    assert await service.store.get_game(games[0].id) is None
    due = [r.id for r in await service.store.due_games(float("inf"))]
    assert sorted(due) == sorted(r.id for r in games[1:])  # the scheduler skips it too
    await play(service, listed[0], 2)  # its neighbours keep working


async def refuse(service: GameService, backend: Backend, record: GameRecord) -> None:
    """Damage ``record``'s snapshot so that it is still JSON but its engine refuses it: a
    field it holds is lost."""
    stored = json.loads(await backend.fetchval("SELECT state FROM games WHERE id = ?", record.id))
    stored.pop(next(iter(stored)))
    with pytest.raises(Exception):  # noqa: B017 (whatever the engine raises)
        service.engine(record).load(stored)
    await damage(backend, record.id, "UPDATE games SET state = ? WHERE id = ?", json.dumps(stored))


async def test_a_snapshot_its_engine_refuses_is_rebuilt_and_the_game_plays_on(
    service: GameService, backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    shown, broken, _ = await three_games(service)
    player = service.to_move(broken)[0]
    action = RandomAgent("after").choose(service.engine(broken), service.state(broken), player)
    for record in (shown, broken):
        await refuse(service, backend, record)
    # Read to be shown (a board, `/game mine`): rebuilt and written back at its version.
    read = await service.get(shown.id)
    assert read.version == shown.version and read.state == shown.state
    stored = await backend.fetchval("SELECT state FROM games WHERE id = ?", shown.id)
    assert json.loads(stored) == shown.state
    # A move reads it for play: rebuilt from the seed and the log, then played.
    result = await service.move(GUILD, CHANNEL, player, action, ref=broken.id)
    assert result.record.version > broken.version
    assert caplog.text.count("rebuilt it from the seed and the log") == 2
    assert await service.store.needing_attention(GUILD, CHANNEL) == []
    moved = await play(service, await service.get(broken.id), 2)
    assert moved.version > result.record.version
    replayed = replay_snapshot(moved, await service.store.actions(broken.id))
    assert (await service.get(broken.id)).state == replayed


async def test_a_refused_snapshot_whose_log_does_not_replay_is_set_aside(
    service: GameService, backend: Backend
) -> None:
    games = await three_games(service)
    broken = games[2]
    await refuse(service, backend, broken)
    await damage(
        backend,
        broken.id,
        'UPDATE actions SET action = \'{"type":"nonsense"}\' WHERE game_id = ?',
    )
    with pytest.raises(ServiceError):
        await service.get(broken.id)
    (flagged,) = await service.store.needing_attention(GUILD, CHANNEL)
    assert flagged.id == broken.id
    assert "does not load" in flagged.reason and "log" in flagged.reason
    assert await service.store.get_game(broken.id) is None
    listed = await service.store.games_in_channel(GUILD, CHANNEL)
    assert [r.id for r in listed] == [r.id for r in games[:2]]
    await play(service, listed[0], 2)  # its neighbours keep working


@pytest.mark.parametrize(
    ("sql", "why"),
    [
        ("UPDATE games SET options = '{oops' WHERE id = ?", "options"),
        ("UPDATE games SET journal = '42' WHERE id = ?", "journal"),
        ("UPDATE games SET version = 'seven' WHERE id = ?", "version"),
        ("UPDATE games SET status = 'paused' WHERE id = ?", "status"),
    ],
)
async def test_any_other_bad_column_marks_its_game_and_spares_the_rest(
    service: GameService, backend: Backend, sql: str, why: str
) -> None:
    if backend.name == "postgres" and why == "version":
        pytest.skip("a PostgreSQL bigint column cannot hold a word")
    games = await three_games(service)
    await damage(backend, games[2].id, sql)
    assert await service.store.get_game(games[2].id) is None
    assert [r.id for r in await service.store.games_in_channel(GUILD, CHANNEL)] == [
        r.id for r in games[:2]
    ]
    (flagged,) = await service.store.needing_attention(GUILD, CHANNEL)
    assert flagged.id == games[2].id and why in flagged.reason


async def test_without_a_rebuild_an_unreadable_snapshot_needs_attention(
    backend: Backend,
) -> None:
    store = await backend.opened(rebuild=False)
    try:
        service = GameService(store, seed_factory=lambda: "faults")
        record = await started(service, CHANNEL)
        await damage(backend, record.id, "UPDATE games SET state = '[' WHERE id = ?")
        assert await store.get_game(record.id) is None
        assert [a.id for a in await store.needing_attention(GUILD, CHANNEL)] == [record.id]
    finally:
        await store.close()


async def test_an_unknown_game_type_cannot_be_rebuilt_and_is_marked(
    service: GameService, backend: Backend
) -> None:
    record = await started(service, CHANNEL)
    await damage(backend, record.id, "UPDATE games SET game = 'chess', state = '' WHERE id = ?")
    assert await service.store.games_in_channel(GUILD, CHANNEL) == []
    (flagged,) = await service.store.needing_attention(GUILD, CHANNEL)
    assert "chess" in flagged.reason


# -- a damaged file --------------------------------------------------------------------------


async def filled(path: Path) -> None:
    store = SqliteStore(path)
    await store.open()
    service = GameService(store, seed_factory=lambda: "fill")
    for i in range(40):
        await started(service, f"c{i}", players=(f"{i}a", f"{i}b", f"{i}c"))
    await store.close()


async def test_a_damaged_file_is_found_by_the_full_check_naming_it_and_saying_to_restore(
    path: Path,
) -> None:
    """Pages in the middle of the file are read by ``check`` (``python -m bot check``), not
    at every start: a start costs the same whatever the size of the history."""
    await filled(path)
    size = path.stat().st_size
    with path.open("r+b") as raw:  # scribble over pages of games, in the second half
        raw.seek(size * 3 // 4)  # past the schema's pages, which every start reads
        raw.write(b"\xff" * 8192)
    store = SqliteStore(path)
    await store.open()
    try:
        with pytest.raises(DamagedDatabase) as info:
            await store.check()
    finally:
        await store.close()
    assert str(path) in str(info.value) and "restore a backup" in str(info.value)


async def test_a_sound_file_passes_the_full_check(path: Path) -> None:
    await filled(path)
    store = SqliteStore(path)
    await store.open()
    try:
        await store.check()
    finally:
        await store.close()


async def test_a_file_that_is_no_database_is_refused_the_same_way(path: Path) -> None:
    path.write_bytes(b"these are not the pages you are looking for" * 200)
    with pytest.raises(StoreError) as info:
        await SqliteStore(path).open()
    assert str(path) in str(info.value) and "restore a backup" in str(info.value)


async def test_a_game_type_this_bot_does_not_know_is_unavailable_not_an_error(
    service: GameService, backend: Backend
) -> None:
    gone, kept = [
        await started(service, CHANNEL, players=(f"{i}a", f"{i}b", f"{i}c")) for i in "12"
    ]
    await damage(backend, gone.id, "UPDATE games SET game = 'chess' WHERE id = ?")
    listed = await service.channel_games(GUILD, CHANNEL)
    assert [service.title(r) for r in listed] == ["unavailable (chess)", "Street Art"]
    for ask in (service.engine, service.state, service.to_move):
        with pytest.raises(ServiceError, match="unavailable"):
            ask(listed[0])
    with pytest.raises(ServiceError, match="unavailable"):
        await service.move(GUILD, CHANNEL, gone.host, {"type": "play"}, ref=gone.id)
    assert service.to_move(listed[1]) == service.to_move(kept)


async def test_a_repair_that_cannot_be_written_still_answers_the_read(
    service: GameService, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = await three_games(service)
    await damage(backend, games[0].id, "UPDATE games SET state = '{' WHERE id = ?")
    await damage(backend, games[1].id, "UPDATE games SET options = '{' WHERE id = ?")

    def unwritable() -> None:
        raise StoreError("the disk is full")

    monkeypatch.setattr(service.store, "_write", unwritable)
    listed = await service.store.games_in_channel(GUILD, CHANNEL)
    assert [r.id for r in listed] == [games[0].id, games[2].id]
    assert listed[0].state == games[0].state
