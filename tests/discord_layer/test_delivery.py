"""Delivery (issue 22) through discord.py's real dispatch with faults injected in the fake
Discord: every post a saved change owes reaches the table once, through a crash between the
save and the post, Discord's 5xx and 429 on each route, and interaction tokens that died.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import outbox
from bot.ai import RandomAgent
from bot.service import MoveResult
from bot.store.base import ACTIVE, FINISHED
from cogs import delivery
from cogs.delivery import Delivery
from tests.backends import sqlite_backend
from tests.discord_layer.test_threads import (
    ANA,
    BO,
    CY,
    GUILD,
    TABLE,
    boards,
    game_id,
    open_table,
    table,
)
from tests.harness import Harness, SeenMessage
from tests.harness.settle import BotError

pytest_plugins = ["tests.harness.fixtures"]

FOLLOWUP = "/webhooks/{application_id}/{interaction_token}"
THREADS = "/channels/{channel_id}/messages/{message_id}/threads"
MESSAGE = "/channels/{channel_id}/messages/{message_id}"
POSTS = "/channels/{channel_id}/messages"


class TenfoldFaster:
    """``asyncio`` as discord.py's HTTP clients (the bot's, and the interaction webhooks')
    see it, with every sleep ten times shorter."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(delay / 10, result)


def worker(h: Harness) -> Delivery:
    cog = delivery.worker(h.bot)
    assert cog is not None
    return cog


def channel_boards(h: Harness, channel: int = TABLE.id) -> list[SeenMessage]:
    return boards(h.fake.channel_messages(channel))


async def one_turn(h: Harness, game: str) -> MoveResult:
    """A whole turn saved by the service, as a front door would, without posting it."""
    service = h.bot.service
    while True:
        record = await service.get(game)
        player = service.to_move(record)[0]
        action = service.legal(record, player)[0]
        result = await service.move(str(GUILD), str(TABLE.id), player, action, ref=game)
        if result.turn_over:
            return result


async def test_a_crash_between_save_and_post_is_posted_once_within_a_tick_of_the_restart(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO, thread=False)
    await h.click(ANA, lobby, label="Start")
    game = game_id(lobby)
    assert await h.bot.service.store.unsent(game) == []  # the start's board was posted: sent
    result = await one_turn(h, game)  # saved; the process dies before posting it
    assert len(await h.bot.service.store.unsent(game)) == len(result.owed) == 1
    before = len(channel_boards(h))
    await h.close()

    restarted = await table(harness_factory, tmp_path, fake=h.fake)
    await restarted.settle()  # the start-up round: the dead front door's lease still runs
    assert len(channel_boards(restarted)) == before
    started = time.monotonic()
    # The first tick once the lease ran out sends it, once.
    assert await worker(restarted).drain(time.time() + outbox.FRONT_LEASE + 1) == 1
    seconds = time.monotonic() - started
    assert len(channel_boards(restarted)) == before + 1
    assert await worker(restarted).drain(time.time() + 10 * outbox.FRONT_LEASE) == 0
    assert len(channel_boards(restarted)) == before + 1
    assert await restarted.bot.service.store.unsent(game) == []
    print(f"restart -> owed post: {seconds:.3f} s of the tick; duplicates: 0")


@pytest.mark.parametrize(
    ("method", "route", "status", "code"),
    [
        ("POST", FOLLOWUP, 429, 20028),  # the route's limit
        ("POST", FOLLOWUP, 429, 0),  # the global limit
        ("POST", THREADS, 503, 0),
        ("POST", THREADS, 429, 20028),
        ("PATCH", MESSAGE, 503, 0),
        ("PATCH", MESSAGE, 429, 0),
        ("POST", POSTS, 503, 0),
        ("POST", POSTS, 429, 20028),
        # 500, 502 and 504 discord.py retries itself, after a sleep of a second or more.
        ("POST", FOLLOWUP, 503, 0),
        ("POST", FOLLOWUP, 500, 0),
        ("POST", THREADS, 502, 0),
        ("PATCH", MESSAGE, 504, 0),
        ("POST", POSTS, 500, 0),
    ],
)
async def test_discord_faults_at_the_start_still_post_everything_and_answer_in_time(
    harness_factory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    route: str,
    status: int,
    code: int,
) -> None:
    """One fault of each kind on the first board (a follow-up, or the thread's message),
    the thread's creation and the lobby's edit: the game starts whole, the board arrives
    once, and the host is answered within 3 s. discord.py's own waits before a retry are
    cut tenfold: the harness takes a task asleep for a second or more for an idle bot."""
    monkeypatch.setattr(discord.http, "asyncio", TenfoldFaster())
    monkeypatch.setattr(discord.webhook.async_, "asyncio", TenfoldFaster())
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO)
    h.fake.fail_next(method, route, status=status, code=code, message="Discord's bad moment")
    started = time.monotonic()
    response = await h.slash(ANA, "game start")
    seconds = time.monotonic() - started
    assert [f.times for f in h.fake._injected] == [0]  # the fault did happen
    assert response.acknowledged and seconds < 3
    (thread,) = h.threads(TABLE)
    assert len(channel_boards(h, thread.id)) == 1
    assert "In progress in" in h.message(lobby).text()
    assert await h.bot.service.store.unsent(game_id(lobby)) == []
    print(f"{status}/{code} on {method} {route}: 1 of 1 board, answered in {seconds:.2f} s")


async def test_a_private_note_discord_refuses_never_posts_the_board_twice(
    harness_factory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board went to the thread, then every try of the host's private "posted in" note
    failed: the board is sent, not owed again, so no worker posts it a second time."""
    monkeypatch.setattr(discord.webhook.async_, "asyncio", TenfoldFaster())
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO)
    h.fake.fail_next("POST", FOLLOWUP, status=503, code=0, message="Unavailable", times=20)
    await h.slash(ANA, "game start")
    await h.settle()
    (thread,) = h.threads(TABLE)
    assert len(channel_boards(h, thread.id)) == 1
    assert await h.bot.service.store.unsent(game_id(lobby)) == []
    assert await worker(h).drain(time.time() + 10 * outbox.FRONT_LEASE) == 0
    assert len(channel_boards(h, thread.id)) == 1


async def test_a_post_discord_keeps_refusing_is_sent_by_the_worker_once(
    harness_factory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Three 503s in a row on the thread's first board: the start's own tries give up, the
    row goes back to the outbox and the worker, woken at once, posts it with the bot."""
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO)
    h.fake.fail_next("POST", POSTS, status=503, code=0, message="Unavailable", times=3)
    response = await h.click(ANA, lobby, label="Start")
    await h.settle()
    assert [f.times for f in h.fake._injected] == [0]  # the faults did happen
    assert response.acknowledged
    (thread,) = h.threads(TABLE)
    assert len(channel_boards(h, thread.id)) == 1
    assert await h.bot.service.store.unsent(game_id(lobby)) == []
    assert "Discord refused" not in caplog.text  # the worker's first try took it


@pytest.mark.parametrize(("status", "code"), [(404, 10062), (401, 50027), (401, 0)])
async def test_a_dead_token_still_gets_the_board_to_the_table(
    harness_factory, tmp_path: Path, status: int, code: int, caplog: pytest.LogCaptureFixture
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO, thread=False)
    h.fake.fail_next("POST", FOLLOWUP, status=status, code=code, message="dead token", times=5)
    try:
        await h.slash(ANA, "game start")
    except BotError as error:  # a dead token cannot be answered: only that is wrong
        assert "never followed up" in str(error)
    await h.settle()
    assert all("never followed up" in p for p in h.take_problems())
    assert len(channel_boards(h)) == 1
    assert await h.bot.service.store.unsent(game_id(lobby)) == []
    assert "unexpected error" not in caplog.text


async def test_an_unloadable_snapshot_leaves_every_listing_of_the_other_games_whole(
    harness_factory, tmp_path: Path
) -> None:
    """A snapshot that is valid JSON but that its engine refuses: `/game list`, `/game list
    scope:server` and `/game mine` still answer, with the other games. A list shows what is
    stored beside the snapshot (whose move it is) and never loads it; `/game mine` loads the
    game waiting for its reader (to say what it asks): the snapshot is rebuilt from the seed
    and the log, as for play, and only a game whose log does not replay either is named as
    needing attention."""
    h = await table(harness_factory, tmp_path)
    broken = await open_table(h, "artsee", ANA, BO, thread=False)
    await h.click(ANA, broken, label="Start")
    kept = await open_table(h, "artsee", CY, thread=False)
    await h.click(CY, kept, label="Start")
    await sqlite_backend(tmp_path).tamper(
        'UPDATE games SET state = \'{"not": "a state"}\' WHERE id = ?', game_id(broken)
    )
    for command, options in (("game list", {}), ("game list", {"scope": "server"})):
        for user in (ANA, CY):
            listed = await h.slash(user, command, options=options)
            text = listed.message.text()
            assert game_id(kept) in text and game_id(broken) in text
            assert "waiting for" in text
    stored = await h.bot.service.store.get_game(game_id(broken))
    assert stored is not None
    (waiting,) = [user for user in (ANA, BO) if str(user.id) in stored.to_move]
    mine = (await h.slash(waiting, "game mine")).message.text()
    assert game_id(broken) in mine and "needs attention" not in mine
    rebuilt = await h.bot.service.store.get_game(game_id(broken))
    assert rebuilt is not None and rebuilt.state != {"not": "a state"}
    await sqlite_backend(tmp_path).tamper(
        'UPDATE games SET state = \'{"not": "a state"}\' WHERE id = ?', game_id(broken)
    )
    await sqlite_backend(tmp_path).tamper(
        "INSERT INTO actions (game_id, seq, player, action, at) "
        "VALUES (?, 999, 'nobody', '{\"type\": \"nonsense\"}', 0)",
        game_id(broken),
    )
    set_aside = await h.slash(waiting, "game mine", allow_errors=True)  # logged: an error
    assert any("needs attention" in error for error in set_aside.errors)
    mine = set_aside.message.text()
    assert game_id(broken) in mine and "needs attention" in mine
    assert game_id(kept) in (await h.slash(CY, "game mine")).message.text()


async def test_a_game_that_ends_while_the_process_dies_still_tells_its_end_once(
    harness_factory, tmp_path: Path
) -> None:
    """The last move is saved, then the process dies before any post: after the restart the
    worker posts the last board, then the game's end (its lobby edit and the result post in
    the channel), each once."""
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "street-art", ANA, BO, options="two_players=true, turn_cap=4")
    await h.click(ANA, lobby, label="Start")
    game = game_id(lobby)
    service, agent = h.bot.service, RandomAgent("the end")
    for _move in range(5000):
        record = await service.get(game)
        if record.status != ACTIVE:
            break
        player = service.to_move(record)[0]
        action = agent.choose(service.engine(record), service.state(record), player)
        await service.move(str(GUILD), record.home, player, action, ref=game)
    assert record.status == FINISHED
    kinds = [r.kind for r in await service.store.unsent(game)]
    assert kinds[-1] == outbox.FINAL and set(kinds) == {outbox.TURN, outbox.FINAL}
    (thread,) = h.threads(TABLE)
    before = len(channel_boards(h, thread.id))
    await h.close()

    restarted = await table(harness_factory, tmp_path, fake=h.fake)
    await restarted.settle()
    assert await worker(restarted).drain(time.time() + outbox.FRONT_LEASE + 1) == len(kinds)
    assert len(channel_boards(restarted, thread.id)) == before + len(kinds) - 1
    channel = restarted.fake.channel_messages(TABLE.id)
    results = [m for m in channel if "The whole game" in m.text()]
    assert len(results) == 1  # the result post, in the channel, once
    assert "In progress" not in restarted.message(lobby).text()
    assert await worker(restarted).drain(time.time() + 10 * outbox.FRONT_LEASE) == 0


async def test_the_worker_prunes_posts_sent_over_a_week_ago_and_keeps_the_rest(
    harness_factory, tmp_path: Path
) -> None:
    """A game's first board, sent by the front door, stays a week (``outbox.SENT_KEPT``),
    then a worker's round deletes it; a post still owed is never deleted, however old."""
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA, BO)
    await h.slash(ANA, "game start")
    await h.settle()
    db = sqlite_backend(tmp_path)
    sent = await db.fetchval("SELECT COUNT(*) FROM outbox WHERE sent_at IS NOT NULL")
    assert sent >= 1 and await h.bot.service.store.unsent(game_id(lobby)) == []
    await db.execute(
        "INSERT INTO outbox (key, game_id, kind, payload, created_at) "
        "VALUES ('still-owed', ?, 'turn', '{}', 1.0)",
        game_id(lobby),
    )
    now = time.time()
    assert await worker(h).tidy(now) == 0  # sent a moment ago: kept
    assert await worker(h).tidy(now + outbox.SENT_KEPT + 60) == sent
    assert await db.fetchval("SELECT group_concat(key) FROM outbox") == "still-owed"
