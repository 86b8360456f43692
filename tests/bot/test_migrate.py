"""``python -m bot migrate``: every game of every status with its seats, log and messages, and
every server's settings, copied from one store to another as they are; the counts and each
game's replay checked; a second run skips what is there, catches up what moved, and never
overwrites a game that is further on in the target.

From a SQLite file (the move issue 16 is about; a test damages it with sqlite3) to this test's
``backend``: a second SQLite file, then PostgreSQL. The copy uses the Store protocol alone, and
the ``stores`` fixture is the only place that names a backend."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import asdict
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.__main__ import main
from bot.migrate import migrate
from bot.service import GameService
from bot.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    LOBBY,
    GameRecord,
    SqliteStore,
    Store,
    replay_snapshot,
)
from bot.store.base import OutboxRow
from bot.store.titles_sql import KeptTitle
from bot.store.web_tables import WebTable
from cogs.delivery import Delivery
from tests.backends import Backend
from tests.store.games import GUILD, play, started


@pytest.fixture
async def stores(tmp_path: Path, backend: Backend) -> AsyncIterator[dict[str, Store]]:
    """The ``source`` of the copy, a SQLite file, and its ``target`` on the backend."""
    opened = {
        "source": SqliteStore(tmp_path / "source.db", rebuild=replay_snapshot),
        "target": backend.store(),
    }
    for store in opened.values():
        await store.open()
    yield opened
    for store in opened.values():
        await store.close()


@pytest.fixture
def source_store(stores: dict[str, Store]) -> Store:
    return stores["source"]


@pytest.fixture
def target_store(stores: dict[str, Store]) -> Store:
    return stores["target"]


async def dealt(store: Store) -> list[GameRecord]:
    """The store's games that were dealt (have a snapshot), oldest first."""
    records = [await store.get_game(game_id) for game_id in await store.all_game_ids()]
    return [r for r in records if r is not None and r.state is not None]


@pytest.fixture
async def source(source_store: Store) -> GameService:
    """A source with a game of every kind: an open lobby, a lobby closed unstarted, games in
    progress (of each title), one abandoned half way, one played to its end; messages
    remembered, two servers' settings and two players' vacation days spent."""
    service = GameService(source_store, seed_factory=lambda: "migrate", remind_after=60)
    lobby = await service.new_game("artsee", GUILD, "10", "101", "P0")
    closed = await service.new_game("street-art", GUILD, "11", "101", "P0")
    await service.expire_lobby(closed.id, closed.deadline or 0)
    for n, game in enumerate(("street-art", "artsee", "street-kings", "street-art-mural")):
        record = await play(service, await started(service, str(20 + n), game), 6, seed=game)
        await service.remember_message(record, "board", record.channel, str(900 + n))
        await source_store.save_web_table(WebTable(record.id, f"page{n}", public=n % 2 == 0))
    gone = await play(service, await started(service, "30"), 3)
    await service.abandon(GUILD, gone.channel, gone.host, is_admin=False, ref=gone.id)
    done = await play(service, await started(service, "31"), 3000, seed="to the end")
    assert done.status == FINISHED
    await service.remember_message(done, "lobby", done.channel, "950")
    await service.remember_message(lobby, "lobby", lobby.channel, "951")
    await source_store.save_guild_settings(GUILD, {"threads": False, "lobby_hours": 6})
    await source_store.save_guild_settings("other", {"clock": "fast"})
    await source_store.import_vacation_days([(GUILD, "101", 2026, 3), ("other", "102", 2027, 1)])
    return service


async def test_everything_is_copied_as_it_is_and_checked(
    source: GameService, source_store: Store, target_store: Store
) -> None:
    report = await migrate(source_store, target_store)
    ids = await source_store.all_game_ids()
    assert report.ok, report.lines()
    assert report.copied == ids and len(ids) == 8
    statuses = {(await source.get(i)).status for i in ids}
    assert {LOBBY, ABANDONED, FINISHED} < statuses
    for game_id in ids:
        original, copy = await source_store.get_game(game_id), await target_store.get_game(game_id)
        assert copy is not None and original is not None and asdict(copy) == asdict(original)
        assert await target_store.actions(game_id) == await source_store.actions(game_id)
        assert await target_store.messages_of(game_id) == await source_store.messages_of(game_id)
        page = await source_store.web_table_of(game_id)
        assert await target_store.web_table_of(game_id) == page  # the page keeps its address
    assert await target_store.all_guild_settings() == await source_store.all_guild_settings()
    actions = sum([len(await source_store.actions(i)) for i in ids])
    assert report.counts["games"] == [8, 8] and report.counts["actions"] == [actions, actions]
    assert report.counts["messages"] == [6, 6] and report.counts["guild settings"] == [2, 2]
    assert report.counts["web table"] == [4, 4]
    assert report.counts["vacation days"] == [2, 2]
    assert await target_store.all_vacation_days() == await source_store.all_vacation_days()
    assert report.replayed == 6  # every game dealt; the two lobbies have nothing to replay
    assert "Copied 8 games" in report.lines()[0]


async def test_a_second_run_skips_what_is_there_and_catches_up_what_moved(
    source: GameService, source_store: Store, target_store: Store
) -> None:
    first = await migrate(source_store, target_store)
    again = await migrate(source_store, target_store)
    assert again.ok and again.copied == again.recopied == []
    assert again.present == first.copied
    assert again.counts == first.counts  # the rows written again were kept, not doubled

    # The bot played on in the source meanwhile: that game is copied again, whole.
    moving = next(r for r in await source.store.games_in_guild(GUILD, limit=50) if r.to_move)
    whole = await source.store.get_game(moving.id)
    assert whole is not None
    moved = await play(source, whole, 2, seed="after the first run")
    third = await migrate(source_store, target_store)
    assert third.ok and third.recopied == [moved.id]
    copy = await target_store.get_game(moved.id)
    assert copy is not None and copy.version == moved.version
    assert await target_store.actions(moved.id) == await source_store.actions(moved.id)


async def test_a_reminder_sent_since_the_last_run_is_copied_too(
    source: GameService, source_store: Store, target_store: Store
) -> None:
    await migrate(source_store, target_store)
    # A reminder stops a seat's clock without a new version: the copy would remind again.
    waiting = next(r for r in await dealt(source_store) if r.remind_at is not None)
    assert await source_store.set_timers(waiting.id, waiting.version, None, waiting.deadline)
    again = await migrate(source_store, target_store)
    assert again.ok and again.recopied == [waiting.id]
    copy = await target_store.get_game(waiting.id)
    assert copy is not None and copy.remind_at is None and copy.clocks == {}


async def test_a_move_landing_while_a_game_is_read_is_read_again(
    source: GameService, source_store: Store, target_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot plays on while the first run copies: the game and its log must be of one
    version, or the copy would not replay."""
    playing = next(r for r in await dealt(source_store) if r.status == "active")
    actions = source_store.actions
    moves = [playing.id]

    async def actions_while_the_bot_plays(game_id: str) -> list[Any]:
        if game_id in moves:
            moves.remove(game_id)  # one move, as the log is first read
            await play(source, await source.get(game_id), 1, seed="meanwhile")
        return await actions(game_id)

    monkeypatch.setattr(source_store, "actions", actions_while_the_bot_plays)
    report = await migrate(source_store, target_store)
    assert report.ok, report.lines()
    moved = await source.get(playing.id)
    copy = await target_store.get_game(playing.id)
    assert moved.version > playing.version and copy is not None
    assert copy.version == moved.version
    assert await target_store.actions(playing.id) == await actions(playing.id)


async def test_a_game_further_on_in_the_target_is_never_overwritten(
    source: GameService, source_store: Store, target_store: Store
) -> None:
    await migrate(source_store, target_store)
    on_target = GameService(target_store, seed_factory=lambda: "target")
    listed = next(r for r in await on_target.store.games_in_guild(GUILD, limit=50) if r.to_move)
    whole = await target_store.get_game(listed.id)
    assert whole is not None
    ahead = await play(on_target, whole, 1, seed="the bot moved to the target")
    report = await migrate(source_store, target_store)
    assert not report.ok and "further on" in report.left[ahead.id]
    kept = await target_store.get_game(ahead.id)
    assert kept is not None and kept.version == ahead.version
    assert any(line.startswith(f"Not copied: game {ahead.id}") for line in report.lines())


async def test_a_game_whose_log_does_not_replay_to_its_snapshot_is_reported(
    source: GameService, source_store: Store, target_store: Store, tmp_path: Path
) -> None:
    games = [r for r in await dealt(source_store) if r.game == "street-art"]
    a, b = games[0], games[-1]
    with sqlite3.connect(tmp_path / "source.db") as db:  # another game's snapshot in a's row
        db.execute(
            "UPDATE games SET state = (SELECT state FROM games WHERE id = ?) WHERE id = ?",
            (b.id, a.id),
        )
    report = await migrate(source_store, target_store)
    assert f"game {a.id}: its log does not replay to its snapshot" in report.problems
    assert not report.ok


async def test_a_game_that_cannot_be_read_is_left_behind_and_named(
    source: GameService, target_store: Store, tmp_path: Path
) -> None:
    broken = next(r for r in await source.store.games_in_guild(GUILD, limit=50) if r.to_move)
    with sqlite3.connect(tmp_path / "source.db") as db:
        db.execute("UPDATE games SET state = '{' WHERE id = ?", (broken.id,))
    plain = SqliteStore(tmp_path / "source.db")  # no rebuild: the row cannot be saved
    await plain.open()
    try:
        report = await migrate(plain, target_store)
    finally:
        await plain.close()
    assert "cannot be read in the source" in report.left[broken.id]
    assert len(report.copied) == 7 and await target_store.get_game(broken.id) is None


async def test_the_command_copies_reports_and_is_safe_to_run_again(
    source: GameService,
    source_store: Store,
    backend: Backend,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    target = backend.url  # a database nothing was copied to yet
    # The command runs its own event loop, as from a shell: off this test's loop.
    await asyncio.to_thread(
        main, ["migrate", "--from", f"sqlite:///{tmp_path / 'source.db'}", "--to", target]
    )
    first = capsys.readouterr().out
    assert "Copied 8 games" in first and "games 8 -> 8" in first and "Problem" not in first
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'source.db'}")
    await asyncio.to_thread(main, ["migrate", "--to", target])  # --from: DATABASE_URL
    assert "found 8 already there unchanged" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("from_url", "to_url", "says"),
    [
        ("sqlite:///same.db", "sqlite:///./same.db", "name the same database"),
        ("sqlite:///missing.db", "sqlite:///new.db", "there is no database at"),
        ("sqlite:///x.db", "mysql://host/db", "unsupported database URL scheme"),
    ],
)
def test_the_command_refuses_what_cannot_work_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, from_url: str, to_url: str, says: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "same.db").touch()
    (tmp_path / "x.db").touch()
    with pytest.raises(SystemExit) as refused:
        main(["migrate", "--from", from_url, "--to", to_url])
    assert str(refused.value).startswith("Cannot migrate: ") and says in str(refused.value)


async def test_results_and_ratings_are_copied_as_they_are(
    source: GameService, source_store: Store, target_store: Store
) -> None:
    (done,) = [r for r in await dealt(source_store) if r.status == FINISHED]
    rows = await source_store.results_of_game(done.id)
    assert rows, "the finished game's results were recorded"
    report = await migrate(source_store, target_store)
    assert report.ok and report.counts["results"] == [len(rows), len(rows)]
    assert await target_store.results_of_game(done.id) == rows
    board = await source_store.leaderboard(done.guild, done.game, limit=50)
    assert await target_store.leaderboard(done.guild, done.game, limit=50) == board
    again = await migrate(source_store, target_store)  # kept, not counted twice
    assert await target_store.leaderboard(done.guild, done.game, limit=50) == board
    assert again.counts["results"] == report.counts["results"]


async def test_the_undo_audit_is_copied_as_it_is(
    source: GameService, source_store: Store, target_store: Store
) -> None:
    record = next(r for r in await dealt(source_store) if r.status != FINISHED)
    logged = await source_store.actions(record.id)
    keep = len(logged) - 1
    record.state = replay_snapshot(record, logged[:keep])  # the game as before its last move
    expected, record.version = record.version, record.version + 1
    undone = await source_store.undo(record, expected, keep, record.host, at=123.5)
    assert undone
    report = await migrate(source_store, target_store)
    assert report.ok, report.lines()
    assert await target_store.undone_actions(record.id) == undone
    assert report.counts["undo audit"] == [len(undone), len(undone)]


class Sending:
    """The target's delivery worker (``cogs.delivery``) on a bot without Discord: it claims
    and marks rows as the real one does; each post it would make is recorded by key."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sent: list[str] = []
        bot = SimpleNamespace(service=GameService(store, seed_factory=lambda: "target"))
        self.worker = Delivery(bot)  # type: ignore[arg-type]

        async def deliver(row: OutboxRow) -> None:
            self.sent.append(row.key)

        monkeypatch.setattr(self.worker, "deliver", deliver)

    async def drain(self) -> int:
        return await self.worker.drain(time.time())


async def test_the_posts_still_owed_are_copied_and_sent_once_by_the_targets_worker(
    source: GameService,
    source_store: Store,
    target_store: Store,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The source bot stopped before sending everything: its unsent rows (each under its front
    door's lease, which died with it) reach the target claimable at once; a sent row stays
    behind."""
    unsent = await source_store.unsent()
    assert len({row.game_id for row in unsent}) > 1  # the fixture's games owe posts
    done = unsent[0]
    await source_store.outbox_sent(done.key, "10", "900")
    owed = [row.key for row in unsent[1:]]

    report = await migrate(source_store, target_store)
    assert report.ok, report.lines()
    assert report.counts["owed posts"] == [len(owed), len(owed)]
    assert [row.key for row in await target_store.unsent()] == owed
    assert await target_store.posts([done.key]) == []
    copies = await target_store.posts(owed)
    assert copies == await source_store.posts(owed)  # the same posts, in the same order
    assert all(post.sent_at is None and post.lease_until == 0 for post in copies)

    # In the source their front door's lease still runs; the target's worker sends them now.
    assert await source_store.claim_outbox("a worker", time.time(), 30, 100) == []
    sending = Sending(target_store, monkeypatch)
    assert await sending.drain() == len(owed)
    assert await sending.drain() == 0
    assert sorted(sending.sent) == sorted(owed)  # each once
    assert await target_store.unsent() == []

    again = await migrate(source_store, target_store)  # the source still owes them: kept sent
    assert again.ok, again.lines()
    assert again.counts["owed posts"] == report.counts["owed posts"]
    assert await target_store.unsent() == []
    assert await sending.drain() == 0 and sorted(sending.sent) == sorted(owed)


async def test_a_post_the_source_sent_since_the_last_run_is_not_owed_in_the_target(
    source: GameService, source_store: Store, target_store: Store
) -> None:
    """The first run copies while the source bot still plays and posts: a post it sends
    after that run is marked sent in the target by the next one, not sent twice."""
    first = await migrate(source_store, target_store)
    assert first.ok, first.lines()
    unsent = await source_store.unsent()
    assert [row.key for row in await target_store.unsent()] == [row.key for row in unsent]
    posted = unsent[0]
    await source_store.outbox_sent(posted.key, "10", "901")

    again = await migrate(source_store, target_store)
    assert again.ok, again.lines()
    assert [row.key for row in await target_store.unsent()] == [row.key for row in unsent[1:]]
    (there,) = await target_store.posts([posted.key])
    assert there.sent_at is not None and (there.channel, there.message) == ("10", "901")
    third = await migrate(source_store, target_store)  # nothing left to add or mark
    assert third.ok and third.counts == again.counts
    assert [row.key for row in await target_store.unsent()] == [row.key for row in unsent[1:]]


async def test_seasons_titles_and_timeouts_are_copied_as_they_are(
    source: GameService, source_store: Store, target_store: Store
) -> None:
    """Issue 38: a season (one closed, its table frozen), the titles kept and who timed out
    of a game are copied, and a second run keeps them as they are."""
    from bot.seasons.service import Seasons

    (done,) = [r for r in await dealt(source_store) if r.status == FINISHED]
    await source_store.note_timeouts(done.id, [done.seats[0].user])
    await source_store.keep_title(KeptTitle(GUILD, done.seats[0].user, "first-game", 5.0))
    seasons = Seasons(source, listen=False)
    first = await seasons.current(GUILD, done.game, done.created_at)
    await seasons.close(first, first.ends_at)
    report = await migrate(source_store, target_store)
    assert report.ok, report.lines()
    assert report.counts["seasons"] == [2, 2] and report.counts["titles"] == [1, 1]
    assert report.counts["timeouts"] == [1, 1]
    assert await target_store.all_seasons() == await source_store.all_seasons()
    assert await target_store.all_titles() == await source_store.all_titles()
    assert await target_store.game_timeouts(done.id) == [done.seats[0].user]
    again = await migrate(source_store, target_store)
    assert again.ok and again.counts["seasons"] == [2, 2]


async def test_hints_taken_in_a_running_game_and_the_kept_secrets_are_copied(
    source: GameService, source_store: Store, target_store: Store
) -> None:
    """A player who took a hint in a game still running gains nothing from it when it ends on
    the target (issue 39), and the web table's kept key (issue 35) is the source's there, so
    the links already posted still open: a target that made its own first keeps the source's."""
    running = next(r for r in await dealt(source_store) if r.status == ACTIVE)
    helped = running.seats[0].user
    await source_store.take_hint(running.id, helped, 7.5)
    secret = await source_store.kept_secret("web", "the source's key")
    await target_store.kept_secret("web", "a key the target made")
    report = await migrate(source_store, target_store)
    assert report.ok, report.lines()
    assert report.counts["hints taken"] == [1, 1] and report.counts["kept secrets"] == [1, 1]
    assert await target_store.hints_taken(running.id) == [(helped, 7.5)]
    assert await target_store.kept_secret("web", "a fresh one") == secret

    moved = GameService(target_store, seed_factory=lambda: "migrate")
    done = await play(moved, running, 3000, seed="on the target")
    assert done.status == FINISHED
    (row,) = [r for r in await target_store.results_of_game(done.id) if r.player == helped]
    assert row.hinted and (row.mu_after, row.sigma_after) == (row.mu_before, row.sigma_before)
    again = await migrate(source_store, target_store)
    assert again.counts["kept secrets"] == [1, 1]
