"""Titles (issue 38, item 3) on both backends: earned at a game's end (a teaching table, a win
at a hard AI's table), read from the results (a first game, ten in a row without a timeout),
and given by one player to another once a game, never to themselves."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.ai import HARD, ai_id
from bot.errors import ServiceError
from bot.store.base import FINISHED, ResultRow, Seat
from bot.titles.achievements import (
    BEST_MOVE,
    CLEAN_TEN,
    FIRST_GAME,
    GOOD_SPORT,
    HARD_WIN,
    TEACHING,
    TOURNAMENT_WON,
    earned_at_end,
    held,
    longest_clean_run,
)
from bot.titles.service import Titles
from bot.tournaments.model import FINISHED as OVER
from bot.tournaments.model import ROUND_ROBIN, Entry, Round, Table, Tournament
from tests.backends import Backend
from tests.seasons.test_runs import GAME, GUILD, Clock, begun, decided, services


def row(game_id: str, player: str = "11", winner: bool = False) -> ResultRow:
    return ResultRow(
        game_id,
        GAME,
        GUILD,
        player,
        player,
        False,
        player,
        1 if winner else 2,
        0,
        winner,
        2,
        {},
        0.0,
        25.0,
        8.0,
        25.0,
        8.0,
    )


def test_ten_finished_games_in_a_row_without_a_timeout_earn_a_title() -> None:
    rows = [row(f"g{n}") for n in range(12)]
    assert longest_clean_run(rows, {"g2"}) == 9
    assert held(rows, {"g2"}, {}, 0) == [(FIRST_GAME, 1)]
    assert held(rows, {"g1"}, {}, 0) == [(FIRST_GAME, 1), (CLEAN_TEN, 1)]
    assert held([], set(), {}, 0) == [], "no game, no title"


async def test_a_game_s_end_keeps_what_it_earned_and_players_give_titles_once(
    backend: Backend,
) -> None:
    clock = Clock()
    store = await backend.opened()
    games, _seasons = services(store, clock)
    titles = Titles(games, clock)
    await decided(games, await begun(games, "t1", "11", "12"))
    record = await games.get("t1")
    assert record.status == FINISHED
    # A teaching table (another part of the bot marks it so): everyone who finished it.
    await titles.heard(replace(record, prefs={**record.prefs, "teaching": True}), [])
    for player in ("11", "12"):
        assert (TEACHING, 1) in await titles.held(GUILD, player)
        assert (FIRST_GAME, 1) in await titles.held(GUILD, player)
    rows = await store.results_of_game("t1")
    hard = replace(record, seats=[*record.seats, Seat(ai_id(HARD, 3), "AI")])
    assert earned_at_end(hard, rows) == [(r.player, HARD_WIN) for r in rows if r.winner]
    assert earned_at_end(record, rows) == [], "no hard AI at the table, no teaching"

    await titles.give("t1", "11", "12", BEST_MOVE)
    with pytest.raises(ServiceError, match="already"):
        await titles.give("t1", "11", "12", GOOD_SPORT)  # one title a player a game
    with pytest.raises(ServiceError, match="another player"):
        await titles.give("t1", "12", "12", GOOD_SPORT)
    with pytest.raises(ServiceError, match="Only the players"):
        await titles.give("t1", "13", "12", GOOD_SPORT)
    await titles.give("t1", "12", "11", GOOD_SPORT)
    assert (BEST_MOVE, 1) in await titles.held(GUILD, "12")
    assert (GOOD_SPORT, 1) in await titles.held(GUILD, "11")
    await games.forget("11")
    assert await titles.held(GUILD, "11") == []
    assert (BEST_MOVE, 1) not in await titles.held(GUILD, "12"), "what they gave goes too"
    await store.close()


async def test_a_tournament_won_is_shown_only_to_who_may_see_each_of_its_games(
    backend: Backend,
) -> None:
    store = await backend.opened()
    games, _seasons = services(store, Clock())
    titles = Titles(games, listen=False)
    table = Table("tg1", ["11", "12"], places={"11": 1, "12": 2})
    won = Tournament(
        "t1", GUILD, "8002", "11", GAME, ROUND_ROBIN, 1, "fast", 8, 2, 0.0, 24.0,
        status=OVER,
        entries=[Entry("11", "P11"), Entry("12", "P12")],
        played=[Round(1, 0.0, [table], closed=True)],
    )  # fmt: skip
    await store.create_tournament(won)
    assert (TOURNAMENT_WON, 1) in await titles.held(GUILD, "11")

    async def private(game_ids: set[str]) -> set[str]:
        return game_ids & {"tg1"}  # its one game was played where the reader may not look

    assert (TOURNAMENT_WON, 1) not in await titles.held(GUILD, "11", private)
    await store.close()
