"""Damage as players meet it, through the real dispatch (issue 34): a page of the database
zeroed deep in a table, found by the background check while a game is played, answers every
player with one sentence and flips ``/readyz``; one game whose snapshot its engine refuses, or
whose log has an entry that does not read, answers ``/game hand`` and ``/game history``
with the game's own sentences, never an apology for a crash."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from bot.store import SqliteStore
from cogs.app import create_bot
from tests.backends import sqlite_backend
from tests.discord_layer.test_health_metrics import free_port, get, sample
from tests.discord_layer.test_street_art_discord import (
    ANA,
    BO,
    CY,
    DEE,
    EVERYONE,
    GUILD,
    TABLE,
    current_player,
    open_lobby,
    play_turn,
    start_game,
    table,
)
from tests.harness import FakeDiscord
from tests.store.damaged_files import history, leaf, zero
from tests.store.test_faults import refuse

pytest_plugins = ["tests.harness.fixtures"]

DAMAGED = "The game store is damaged; an admin has been told."
OOPS = "Something went wrong on our side"
REPLAYED = "its history could not be replayed exactly"


async def test_a_damaged_store_answers_every_player_with_one_sentence(
    harness_factory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.db"
    await history(path)  # a server's history
    port = free_port()
    bot = create_bot(database_url=f"sqlite:///{path}", metrics_port=port)
    h = await harness_factory(
        bot, FakeDiscord(), guild_id=GUILD, channels=[TABLE], members=EVERYONE
    )
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    assert (await get(port, "/readyz"))[0] == 200
    zero(path, leaf(path, "games"))  # a disk fault deep in the history, while the bot runs
    store = h.bot.store
    assert isinstance(store, SqliteStore)
    await store.watch(pause=0)  # what the bot runs after start-up, at low priority

    mover = current_player(board)
    panel = (await h.click(mover, board, label="My hand")).message
    assert panel.ephemeral  # a read that meets no damaged page still answers
    select = panel.selects[0]
    moved = await h.select(
        mover, panel, select.custom_id, [select.options[0]["value"]], allow_errors=True
    )
    opened = await h.slash(DEE, "game new", game="artsee", allow_errors=True)
    for answer in (moved, opened):
        assert answer.ephemeral_messages[-1].text() == DAMAGED
        assert answer.public_messages == []  # nothing written, nothing posted
    assert OOPS not in caplog.text and "unexpected error" not in caplog.text
    told = [r for r in caplog.records if r.levelno >= logging.ERROR and "is damaged" in r.message]
    assert len(told) == 1 and str(path) in told[0].message and "backup" in told[0].message
    status, why = await get(port, "/readyz")
    assert status == 503 and "store" in why
    assert sample((await get(port, "/metrics"))[1], "tabletop_store_damaged_total") >= 1


async def test_hand_and_history_of_one_damaged_game_answer_its_own_sentences(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    board = await play_turn(h, board, random.Random(34), use_slash=False)  # a log to replay
    (record,) = await h.bot.service.store.games_in_channel(str(GUILD), str(TABLE.id))
    mover = current_player(board)
    await h.click(mover, board, label="My hand")  # this process now knows its state
    backend = sqlite_backend(tmp_path)  # the harness's bot keeps games in tmp_path/games.db
    await refuse(h.bot.service, backend, record)  # a snapshot its engine refuses

    hand = await h.slash(mover, "game hand", allow_errors=True)  # no game: given
    assert hand.message.ephemeral and OOPS not in hand.message.text()
    assert "Your hand:" in hand.message.alt_text  # rebuilt from the seed and the log

    await backend.tamper("UPDATE actions SET action = '{not json' WHERE game_id = ?", record.id)
    told = await h.slash(BO, "game replay", view="story", allow_errors=True)
    assert told.message.ephemeral and REPLAYED in told.message.text()
