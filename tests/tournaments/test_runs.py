"""A tournament run by the service on both backends: a restart in the middle of a round
loses nothing and creates nothing twice, a player who times out of two games is withdrawn,
too few players cancel it, and a cup starts as soon as it is full."""

from __future__ import annotations

from typing import Any

from bot.ai import EASY, decide_in_thread
from bot.migrate import migrate
from bot.service import GameService
from bot.store import SqliteStore
from bot.store.base import ACTIVE, FINISHED, Store
from bot.tournaments.model import CANCELLED, CANCELLED_POST, FINAL, RUNNING, STANDINGS
from bot.tournaments.service import Tournaments, current_standings, timeouts
from tests.backends import Backend

GUILD, CHANNEL = "7001", "7002"
GAME = "street-kings"
NAMES = {"11": "Ana", "12": "Bo", "13": "Cy", "14": "Di"}


async def easy(game_id: str, level: str, view: Any, legal: Any, *rest: Any) -> dict[str, Any]:
    """The AI standing in plays at easy: quick, and the tournament is under test."""
    return await decide_in_thread(game_id, EASY, view, legal, *rest)


def services(store: Store) -> tuple[GameService, Tournaments]:
    games = GameService(
        store, decide=easy, timeout_after=24 * 3600.0, seed_factory=lambda: "tournament-seed"
    )
    return games, Tournaments(games)


async def signed_up(tournaments: Tournaments, format: str = "swiss", **terms: Any):
    chosen = {
        "game": GAME,
        "format": format,
        "rounds": 2,
        "clock": "24h",
        "cap": 4,
        "start_hours": 1,
        "round_hours": 24,
        "withdraw_after": 2,
        **terms,
    }
    t = await tournaments.create(GUILD, CHANNEL, "11", "Ana", **chosen)
    for user in ("12", "13", "14")[: chosen["cap"] - 1]:
        t = await tournaments.join(t.id, GUILD, user, NAMES[user])
    return t


async def test_a_restart_mid_round_loses_nothing_and_creates_nothing_twice(
    backend: Backend,
) -> None:
    first = await backend.opened()
    games, tournaments = services(first)
    t = await signed_up(tournaments)
    step = await tournaments.advance(t.id, t.starts_at)
    assert step.tournament.status == RUNNING and len(step.started) == 2
    made = [table.game_id for table in step.tournament.played[0].tables]
    assert [(await games.get(g)).status for g in made] == [ACTIVE, ACTIVE]
    await first.close()  # the process stops in the middle of round 1

    second = await backend.opened()  # and another starts on the same database
    games, tournaments = services(second)
    again = await tournaments.advance(t.id, t.starts_at + 3600)
    assert again.started == [] and again.decide == [], "nothing created twice, nothing due"
    assert [tb.game_id for tb in again.tournament.played[0].tables] == made
    deadline = again.tournament.current.deadline
    due = await tournaments.advance(t.id, deadline)
    assert sorted(due.decide) == sorted(made)
    for game_id in due.decide:
        assert (await games.decide_on_time(game_id)).record.status == FINISHED
    closed = await tournaments.advance(t.id, deadline)
    assert {"kind": STANDINGS, "round": 1} in closed.tournament.owed
    assert len(closed.started) == 2 and len(closed.tournament.played) == 2
    seconds = {tb.game_id for tb in closed.tournament.played[1].tables}
    assert not seconds & set(made)
    met = [frozenset(tb.seats) for r in closed.tournament.played for tb in r.tables]
    assert len(set(met)) == 4, "the Swiss second round pairs nobody again"
    await second.close()


async def test_a_player_who_times_out_of_two_games_is_withdrawn(backend: Backend) -> None:
    """Ana plays her own moves; the others never move, so the deadline decides their games
    and counts a timeout for each of them. After two rounds, two timeouts: withdrawn."""
    store = await backend.opened()
    games, tournaments = services(store)
    t = await signed_up(tournaments, rounds=3)
    t = (await tournaments.advance(t.id, t.starts_at)).tournament
    for number in (1, 2):
        for table in t.current.tables:
            record = await games.get(table.game_id)
            while record.status == ACTIVE and "11" in games.to_move(record):
                action = games.legal(record, "11")[0]
                record = (await games.move(GUILD, CHANNEL, "11", action, record.id)).record
            if record.status == ACTIVE:
                await games.decide_on_time(record.id)
        t = (await tournaments.advance(t.id, t.current.deadline)).tournament
        assert t.played[number - 1].closed
    assert timeouts(t, "11") == 0 and not t.entry("11").withdrawn
    counted = {u: timeouts(t, u) for u in ("12", "13", "14")}
    assert sum(counted.values()) >= 3, counted  # each game with Ana timed one out, at least
    assert {u for u, n in counted.items() if n >= 2} == {
        u for u in counted if t.entry(u).withdrawn
    }, "withdrawn exactly at two timeouts"
    assert any(n >= 2 for n in counted.values())
    if len(t.active) >= 2:
        assert t.current.number == 3 and all(
            set(tb.seats) <= set(t.active) for tb in t.current.tables
        )
    else:
        assert t.status == "finished" and {"kind": FINAL} in t.owed
    await store.close()


async def test_too_few_players_cancel_and_a_full_cup_starts_at_once(backend: Backend) -> None:
    store = await backend.opened()
    _games, tournaments = services(store)
    alone = await tournaments.create(
        GUILD,
        CHANNEL,
        "11",
        "Ana",
        game=GAME,
        format="swiss",
        rounds=2,
        clock="24h",
        cap=4,
        start_hours=1,
        round_hours=24,
        withdraw_after=2,
    )
    cancelled = (await tournaments.advance(alone.id, alone.starts_at)).tournament
    assert cancelled.status == CANCELLED and cancelled.owed == [{"kind": CANCELLED_POST}]
    cup = await signed_up(tournaments, "cup", cap=2)
    assert cup.due_at is not None and cup.due_at < cup.starts_at, "due at once, not at the hour"
    started = await tournaments.advance(cup.id)
    assert started.tournament.status == RUNNING and len(started.started) == 1
    await store.close()


async def test_a_forgotten_player_leaves_no_trace_in_a_tournament(backend: Backend) -> None:
    """`/game forget-me` in the middle of a round: the tournament names them no more, and the
    round they played closes with their places all the same."""
    store = await backend.opened()
    games, tournaments = services(store)
    t = await signed_up(tournaments)
    t = (await tournaments.advance(t.id, t.starts_at)).tournament
    await games.forget("12")
    for table in t.current.tables:
        record = await games.get(table.game_id)
        if record.status == ACTIVE:
            await games.decide_on_time(record.id)
    t = (await tournaments.advance(t.id, t.current.deadline)).tournament
    stored = await store.get_tournament(t.id)
    assert "12" not in [e.user for e in stored.entries] and "Bo" not in stored.names.values()
    assert stored.entries[1].user == "former:t2" and stored.entries[1].name == "Former player 2"
    assert all(table.places is not None for table in stored.played[0].tables)
    assert "former:t2" in {p for table in stored.played[0].tables for p in table.seats}
    await store.close()


async def test_a_migration_copies_every_tournament_once(backend: Backend, tmp_path) -> None:
    """`python -m bot migrate` to another database: each tournament as it is, and a second
    run after it moved on brings the newer version."""
    source = await backend.opened()
    _games, tournaments = services(source)
    t = await signed_up(tournaments)
    target = SqliteStore(tmp_path / "target.db")
    await target.open()
    report = await migrate(source, target)
    assert report.ok and await target.get_tournament(t.id) == t
    moved = await tournaments.start_now(t.id, GUILD, "11")
    assert (await migrate(source, target)).ok
    assert await target.get_tournament(t.id) == moved
    await target.close()
    await source.close()


async def test_a_game_of_three_or_more_seats_is_seated_by_score_groups(backend: Backend) -> None:
    """Street Art needs three: four players sit at one table of four (two tables of two would
    be too small), and after it the standings give each place its share of a point."""
    store = await backend.opened()
    games, tournaments = services(store)
    t = await tournaments.create(
        GUILD,
        CHANNEL,
        "11",
        "Ana",
        game="street-art",
        format="swiss",
        rounds=1,
        clock="24h",
        cap=4,
        start_hours=1,
        round_hours=24,
        withdraw_after=0,
    )
    for user in ("12", "13", "14"):
        t = await tournaments.join(t.id, GUILD, user, NAMES[user])
    assert t.seats == 3
    t = (await tournaments.advance(t.id, t.starts_at)).tournament
    (table,) = t.current.tables
    assert sorted(table.seats) == ["11", "12", "13", "14"] and t.current.byes == []
    await games.decide_on_time(table.game_id)
    t = (await tournaments.advance(t.id, t.current.deadline)).tournament
    assert t.status == "finished"
    shares = sorted((line.points for line in current_standings(t)), reverse=True)
    assert len(shares) == 4 and abs(sum(shares) - 2.0) < 1e-9, "each pair shares a point"
    assert all(share in (0.0, 1 / 6, 1 / 3, 0.5, 2 / 3, 5 / 6, 1.0) for share in shares)
    await store.close()
