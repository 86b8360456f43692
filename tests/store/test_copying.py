"""The store methods a whole-store copy (``python -m bot migrate``) is built on: every game's
id, a game's messages, every server's settings, and a game stored as it is elsewhere (its
version, times and log with each action's seq and time); on both backends (``backend``)."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from bot.store import (
    ACTIVE,
    FINISHED,
    GameRecord,
    LoggedAction,
    Seat,
    Store,
    StoreError,
)
from bot.store.base import UndoneAction, UndoRequest
from tests.backends import Backend


def record(game_id: str, **fields: object) -> GameRecord:
    values: dict[str, object] = {
        "id": game_id,
        "game": "street-art",
        "guild": "100",
        "channel": "200",
        "host": "1",
        "status": ACTIVE,
        "seed": "s",
        "seats": [Seat("1", name="Ann"), Seat("ai:normal:1", ai=True, name="AI 1")],
        "state": {"turn": 3},
        "version": 7,
        "created_at": 10.5,
        "updated_at": 20.25,
        "journal": [{"player": "1", "standing": True}],
        "clocks": {"1": [30.0, None]},
        "remind_at": 30.0,
    }
    values.update(fields)
    return GameRecord(**values)  # type: ignore[arg-type]


LOG = [
    LoggedAction(seq=1, player="1", action={"type": "play", "card": 2}, at=11.0),
    LoggedAction(seq=2, player="ai:normal:1", action={"type": "pass"}, at=12.5),
]


async def test_every_game_id_oldest_first_whatever_its_status(store: Store) -> None:
    await store.create_game(record("b", created_at=2.0, status=FINISHED))
    await store.create_game(record("a", created_at=1.0))
    await store.create_game(record("c", created_at=3.0, status="abandoned"))
    assert await store.all_game_ids() == ["a", "b", "c"]
    # The same rows counted by status (the tabletop_games metric).
    assert await store.games_by_status() == {ACTIVE: 1, FINISHED: 1, "abandoned": 1}


async def test_a_game_needing_attention_is_listed_too(store: Store, backend: Backend) -> None:
    await store.create_game(record("ok"))
    await store.create_game(record("bad", created_at=11.0))
    await backend.execute("UPDATE games SET state = '{' WHERE id = 'bad'")
    assert await store.get_game("bad") is None  # marked: out of every other read
    assert await store.all_game_ids() == ["ok", "bad"]


async def test_a_games_messages_by_kind(store: Store) -> None:
    await store.create_game(record("g"))
    assert await store.messages_of("g") == {}
    await store.save_message("g", "lobby", "200", "1")
    await store.save_message("g", "board", "300", "2")
    await store.save_message("g", "board", "300", "3")  # the latest replaces the last
    assert await store.messages_of("g") == {"board": ("300", "3"), "lobby": ("200", "1")}


async def test_every_servers_settings_and_an_unreadable_row_left_out(
    store: Store, backend: Backend
) -> None:
    assert await store.all_guild_settings() == {}
    await store.save_guild_settings("1", {"threads": False})
    await store.save_guild_settings("2", {"lobby_hours": 6, "clock": "fast"})
    await store.save_guild_settings("3", {})
    await backend.execute("UPDATE guild_settings SET settings = '[' WHERE guild = '3'")
    assert await store.all_guild_settings() == {
        "1": {"threads": False},
        "2": {"lobby_hours": 6, "clock": "fast"},
    }


async def test_an_imported_game_reads_back_as_it_was_with_its_log(store: Store) -> None:
    original = record("g")
    await store.import_game(original, LOG)
    copy = await store.get_game("g")
    assert copy is not None and asdict(copy) == asdict(original)
    assert await store.actions("g") == LOG


async def test_importing_a_game_twice_is_refused_unless_replacing_it(store: Store) -> None:
    await store.import_game(record("g"), LOG[:1])
    await store.save_message("g", "board", "300", "9")
    await store.import_undone([UndoneAction("g", 2, "1", {"type": "pass"}, 12.5, 13.0, "1")])
    await store.save_undo_request(UndoRequest("g", "1", 7, 1, ("2",), at=14.0, expires_at=15.0))
    with pytest.raises(StoreError, match="already exists"):
        await store.import_game(record("g"), LOG)
    assert await store.actions("g") == LOG[:1]  # the refused import wrote nothing
    newer = record("g", version=9, state={"turn": 4}, seats=[Seat("1", name="Ann")])
    await store.import_game(newer, LOG, replace=True)
    copy = await store.get_game("g")
    assert copy is not None and asdict(copy) == asdict(newer)
    assert await store.actions("g") == LOG
    # A replaced game's rows went with it (its log's too, past the log's delete guard).
    assert await store.messages_of("g") == {}
    assert await store.undone_actions("g") == [] and await store.undo_request("g") is None


async def test_imported_undo_audit_rows_read_back_and_a_second_import_keeps_them(
    store: Store,
) -> None:
    await store.import_game(record("g"), LOG[:1])
    rows = [UndoneAction("g", 2, "1", {"type": "pass"}, 12.5, 13.0, "1")]
    await store.import_undone(rows)
    await store.import_undone(rows)
    assert await store.undone_actions("g") == rows
