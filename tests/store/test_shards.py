"""The shard filter of the scheduler's reads: a sharded process sees only the games of the
servers on its own shards, by Discord's formula ``(guild_id >> 22) % shard_count``, computed
by the store (not by reading every due game and dropping most), on both backends."""

from __future__ import annotations

import pytest

from bot.store import ACTIVE, LOBBY, GameRecord, Seat, Store
from bot.store.base import Shards


def on_shard(shard: int, near: int) -> str:
    """A server id close to the snowflake ``near`` whose shard of four is ``shard``."""
    return str((((near >> 22) - 4) // 4 * 4 + shard) << 22 | (near & 0x3FFFFF))


#: Server ids on each of four shards: real-looking snowflakes, the last near 2**63.
GUILDS = {
    0: on_shard(0, 81384788765712384),
    1: on_shard(1, 81384788765712384),
    2: on_shard(2, 1042201917342978100),
    3: on_shard(3, 2**63 - 1),
}


def record(game_id: str, guild: str, status: str, **timers: float) -> GameRecord:
    return GameRecord(
        id=game_id,
        game="street-art",
        guild=guild,
        channel="200",
        host="1",
        status=status,
        seats=[Seat("1", name="Ann")],
        version=1,
        **timers,  # type: ignore[arg-type]
    )


def test_the_guilds_sit_on_the_shards_they_are_meant_for() -> None:
    for shard, guild in GUILDS.items():
        assert Shards(4, (shard,)).owns(guild)
        assert (int(guild) >> 22) % 4 == shard


@pytest.fixture
async def due_everywhere(store: Store) -> Store:
    """On every shard: an active game due, a lobby past its deadline, a thread to archive."""
    for shard, guild in GUILDS.items():
        await store.create_game(record(f"due{shard}", guild, ACTIVE, remind_at=10.0))
        await store.create_game(record(f"lobby{shard}", guild, LOBBY, deadline=10.0))
        await store.create_game(record(f"done{shard}", guild, "finished", archive_at=10.0))
    return store


@pytest.mark.parametrize("ids", [(0,), (1, 3), (0, 1, 2, 3), ()])
async def test_each_scheduler_read_keeps_the_games_of_its_shards(
    due_everywhere: Store, ids: tuple[int, ...]
) -> None:
    shards = Shards(4, ids)
    due = await due_everywhere.due_games(20.0, shards)
    lobbies = await due_everywhere.expired_lobbies(20.0, shards)
    archive = await due_everywhere.threads_to_archive(20.0, shards)
    assert sorted(r.id for r in due) == [f"due{i}" for i in ids]
    assert sorted(r.id for r in lobbies) == [f"lobby{i}" for i in ids]
    assert sorted(r.id for r in archive) == [f"done{i}" for i in ids]


async def test_without_shards_every_game_is_read(due_everywhere: Store) -> None:
    assert len(await due_everywhere.due_games(20.0)) == len(GUILDS)
    assert len(await due_everywhere.expired_lobbies(20.0, None)) == len(GUILDS)
    assert len(await due_everywhere.threads_to_archive(20.0)) == len(GUILDS)


async def test_disjoint_ranges_split_the_games_between_processes(due_everywhere: Store) -> None:
    halves = [await due_everywhere.due_games(20.0, Shards(2, (i,))) for i in (0, 1)]
    ids = [{r.id for r in half} for half in halves]
    assert ids[0].isdisjoint(ids[1])
    assert ids[0] | ids[1] == {f"due{i}" for i in GUILDS}
