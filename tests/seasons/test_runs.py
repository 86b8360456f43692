"""Seasons run by the service on both backends: a season opens with a server's first finished
game, closes at its end once (a restart in the middle loses nothing and makes no season twice),
freezes its table and owes one results post; a game still running at the cut counts for no
season; a timeout is kept, and is a loss for the season; a forgotten player leaves no line, nor
a role the bot gave them."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from bot.ai import EASY, decide_in_thread
from bot.seasons.model import CLOSED, OPEN, Season, SeasonLine
from bot.seasons.service import WEEK, Seasons
from bot.service import GameService
from bot.store.base import ACTIVE, FINISHED, Seat, Store
from tests.backends import Backend

GUILD, CHANNEL, GAME = "8001", "8002", "street-kings"


class Clock:
    """The time the service and the seasons read, moved by the test (from now: the store
    stamps a game's last change with the real time, which a result's time is)."""

    def __init__(self) -> None:
        self.now = self.start = time.time()

    def __call__(self) -> float:
        return self.now


async def easy(game_id: str, level: str, view: Any, legal: Any, *rest: Any) -> dict[str, Any]:
    return await decide_in_thread(game_id, EASY, view, legal, *rest)


def services(store: Store, clock: Clock) -> tuple[GameService, Seasons]:
    games = GameService(store, decide=easy, clock=clock, seed_factory=lambda: "season-seed")
    return games, Seasons(games, clock)


async def begun(games: GameService, game_id: str, a: str, b: str) -> str:
    seats = [Seat(user=a, name=f"P{a}"), Seat(user=b, name=f"P{b}")]
    await games.open_seated(game_id, GAME, GUILD, CHANNEL, seats, {"thread": False})
    return game_id


async def decided(games: GameService, game_id: str) -> list[str]:
    """The game played to its end by the clock: whoever owed a move timed out."""
    result = await games.decide_on_time(game_id)
    assert result.record.status == FINISHED
    return list(result.timed_out)


async def test_a_season_closes_once_across_a_restart_and_a_game_astride_the_cut_counts_nowhere(
    backend: Backend,
) -> None:
    clock = Clock()
    store = await backend.opened()
    games, seasons = services(store, clock)
    timed_out = [await decided(games, await begun(games, f"s1g{n}", "11", "12")) for n in (1, 2)]
    astride = await begun(games, "s1g3", "11", "13")  # still running at the cut
    first = await seasons.current(GUILD, GAME)
    assert (first.number, first.status, first.starts_at) == (1, OPEN, clock.start)
    assert first.ends_at == clock.start + 8 * WEEK, "eight weeks by default"
    before = await seasons.lines(first)
    assert sorted(line.games for line in before) == [2, 2]
    for line in before:  # a timeout is a loss: a player's wins are the games they did not
        assert line.wins == sum(line.player not in t for t in timed_out)
    await store.close()  # the process stops in the middle of the season

    store = await backend.opened()  # another starts on the same database
    games, seasons = services(store, clock)
    assert await seasons.lines(await seasons.current(GUILD, GAME)) == before
    clock.now = first.ends_at
    due = await seasons.due(clock.now)
    assert [(s.number, s.status) for s in due] == [(1, OPEN)]
    closed = await seasons.close(due[0], clock.now)
    assert (closed.status, closed.games, closed.lines) == (CLOSED, 2, before)
    assert closed.channel == CHANNEL and closed.due_at == clock.now, "its results post is owed"
    assert closed.minimum == 5 and closed.ranked == [], "two games rank nobody (5 needed)"
    assert await seasons.close(due[0], clock.now) == closed, "closing again changes nothing"
    second = await seasons.current(GUILD, GAME)
    assert (second.number, second.starts_at) == (2, first.ends_at)
    assert [s.number for s in await seasons.past(GUILD, GAME)] == [2, 1]

    assert (await games.get(astride)).status == ACTIVE
    clock.now += 3600
    await decided(games, astride)
    assert await seasons.lines(second) == [], "begun before the cut: not this season's"
    assert (await seasons.get(GUILD, GAME, 1)).lines == before, "nor the frozen one's"
    assert [s.number for s in await seasons.due(clock.now)] == [1]  # the post still owed
    await seasons.posted(closed, None, {})
    assert await seasons.due(clock.now) == []
    await store.close()


async def test_a_forgotten_player_leaves_no_trace_in_a_season_nor_its_roles(
    backend: Backend,
) -> None:
    store = await backend.opened()
    season = Season(GUILD, GAME, 1, 0.0, WEEK, due_at=WEEK)
    await store.create_season(season)
    lines = [SeasonLine(p, f"P{p}", 30.0, 2.0, 5, 3) for p in ("11", "12")]
    closed = replace(
        season,
        status=CLOSED,
        version=2,
        lines=lines,
        roles="Roles given: <@11>, <@12>.",
        crowned={"11": "901", "12": "902"},
    )
    await store.save_season(closed, 1)
    assert await store.forget_in_seasons("11") == 1
    kept = await store.get_season(GUILD, GAME, 1)
    assert kept is not None and [line.player for line in kept.lines] == ["12"]
    assert kept.crowned == {"12": "902"} and kept.roles is None, "the role given them, too"
    await store.close()
