"""Tournaments that run themselves (issue 38), through discord.py's real dispatch and the
scheduler's fake clock: eight players sign up with the Join button, the scheduler starts the
tournament, every round's games are created in threads of their own, nobody moves, the round's
deadline has the clock decide each game (the AI standing in), the standings are posted after
each round and the final post names the winner. Nobody but the players acts: no admin, no
command between the sign-up and the result."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from bot.ai import EASY, decide_in_thread
from bot.store.base import FINISHED
from bot.tournaments.model import Tournament
from bot.tournaments.standings import Game, standings
from tests.discord_layer.test_threads import GUILD, TABLE, new_bot
from tests.harness import FakeDiscord, Harness, SeenMessage, User

pytest_plugins = ["tests.harness.fixtures"]

PLAYERS = [User(id=1101 + i, name=f"p{i}", global_name=f"Player {i}") for i in range(8)]
HOUR = 3600.0
#: Street Kings: the quickest of the two-player games for the AI to play to its end.
GAME = "street-kings"


async def easy_stand_in(
    game_id: str, level: str, view: dict[str, Any], legal: list[dict[str, Any]], *rest: Any
) -> dict[str, Any]:
    """The AI standing in for players who never move plays at easy: the tournament is under
    test, not the AI's strength, and easy decides at once."""
    return await decide_in_thread(game_id, EASY, view, legal, *rest)


async def players_table(
    harness_factory, tmp_path: Path, fake: FakeDiscord | None = None
) -> Harness:
    return await harness_factory(
        new_bot(tmp_path), fake or FakeDiscord(), guild_id=GUILD, channels=[TABLE], members=PLAYERS
    )


async def sign_up(h: Harness, format: str, **terms: object) -> tuple[SeenMessage, Tournament]:
    """Player 0 opens the sign-up; the seven others press Join."""
    opened = await h.slash(
        PLAYERS[0],
        "game tournament new",
        game=GAME,
        format=format,
        cap=8,
        start_hours=1,
        round_days=1,
        **terms,
    )
    (post,) = opened.public_messages
    for player in PLAYERS[1:]:
        joined = await h.click(player, h.message(post), label="Join")
        assert "You are in tournament" in joined.ephemeral_text()
    (t,) = await h.bot.tournaments.store.tournaments_in_guild(str(GUILD), 5)
    assert "Players (8/8)" in h.message(post).text()
    return post, t


async def run_to_the_end(h: Harness, t: Tournament) -> tuple[int, list[SeenMessage]]:
    """Tick the scheduler at the start, then at each round's deadline, until it is over:
    the rounds played and the standings posts."""
    scheduler = h.bot.get_cog("Scheduler")
    at = t.starts_at
    for _tick in range(20):
        await scheduler.tick(at)
        await h.settle()
        t = await h.bot.tournaments.get(t.id)
        if t.status == "finished":
            break
        at = t.current.deadline
    posts = [m for m in h.channel_messages(TABLE) if "Standings after round" in m.text()]
    return len(t.played), posts


def expected_table(t: Tournament, results: dict[str, dict[str, int]]) -> list[tuple[str, float]]:
    """The standings worked from the stored results, the players' places in each game."""
    games = [Game(places) for places in results.values()]
    byes = [p for r in t.played for p in r.byes]
    lines = standings([e.user for e in t.entries], games, byes)
    return [(t.names[line.player], line.points) for line in lines]


async def places_of(h: Harness, t: Tournament) -> dict[str, dict[str, int]]:
    found = {}
    for rnd in t.played:
        for table in rnd.tables:
            rows = await h.bot.service.results.of_game(table.game_id)
            found[table.game_id] = {row.player: row.rank for row in rows}
    return found


def posted_table(post: SeenMessage) -> list[tuple[str, float]]:
    """(name, points) per line of a standings post's table (place 2, name 12, points 4)."""
    rows = []
    for line in post.text().split("```")[1].strip("\n").splitlines()[1:]:
        name, score = line[3:15].rstrip(" ×"), line[16:20].strip()
        rows.append((name, float(score.rstrip("½") or 0) + 0.5 * score.endswith("½")))
    return rows


@pytest.mark.parametrize(("format", "rounds", "games"), [("swiss", 3, 12), ("round-robin", 7, 28)])
async def test_eight_players_play_a_whole_tournament_with_no_admin_action(
    format: str, rounds: int, games: int, harness_factory, tmp_path: Path
) -> None:
    h = await players_table(harness_factory, tmp_path)
    h.bot.service.decide = easy_stand_in
    post, t = await sign_up(h, format, rounds=3, withdraw_after=0)
    played, posts = await run_to_the_end(h, t)
    t = await h.bot.tournaments.get(t.id)

    assert t.status == "finished" and played == rounds
    assert len(h.threads(TABLE)) == games, "every game in a thread of its own, none twice"
    ids = [table.game_id for r in t.played for table in r.tables]
    assert len(set(ids)) == games
    for game_id in ids:
        record = await h.bot.service.get(game_id)
        assert record.status == FINISHED and record.thread is not None
    met = [frozenset(table.seats) for r in t.played for table in r.tables]
    assert len(set(met)) == len(met), "no rematch"
    if format == "round-robin":
        assert len(met) == 28, "every pair met once"
    assert [int(p.text().split("round ")[1].split(" ")[0]) for p in posts] == list(range(1, rounds))
    final = [m for m in h.channel_messages(TABLE) if "wins tournament" in m.text()]
    assert len(final) == 1
    expected = expected_table(t, await places_of(h, t))
    assert posted_table(final[0]) == expected
    assert f"**{expected[0][0]}** wins tournament `{t.id}`!" in final[0].text()
    assert h.message(post).buttons == [], "the sign-up closed"
    bundle = os.environ.get("POST_BUNDLES")
    if bundle:  # the channel's posts, to look at as a player (see test_post_figures)
        shown = [m for m in h.channel_messages(TABLE) if "Tournament" in m.text()]
        names = {str(u.id): u.global_name for u in PLAYERS}
        out = {"messages": [m.raw for m in shown], "attachments": {}, "names": names}
        Path(bundle).mkdir(parents=True, exist_ok=True)
        (Path(bundle) / f"tournament-{format}.json").write_text(
            json.dumps({**out, "title": "games"})
        )


async def test_a_player_withdraws_with_the_standings_post_s_button(
    harness_factory, tmp_path: Path
) -> None:
    """Issue 38: Withdraw on a round's standings post takes the player out of the rounds still
    to be paired (the one already paired plays on); the standings mark them ×."""
    h = await players_table(harness_factory, tmp_path)
    h.bot.service.decide = easy_stand_in
    _post, t = await sign_up(h, "swiss", rounds=3, withdraw_after=0)
    scheduler = h.bot.get_cog("Scheduler")
    await scheduler.tick(t.starts_at)
    t = await h.bot.tournaments.get(t.id)
    await scheduler.tick(t.current.deadline)
    await h.settle()
    (standings,) = [m for m in h.channel_messages(TABLE) if "Standings after round 1" in m.text()]
    leaving = PLAYERS[7]
    said = await h.click(leaving, standings, label="Withdraw")
    assert "You withdrew from tournament" in said.ephemeral_text()
    t = await h.bot.tournaments.get(t.id)
    assert t.entry(str(leaving.id)).withdrawn and len(t.played) == 2
    await scheduler.tick(t.current.deadline)
    await h.settle()
    t = await h.bot.tournaments.get(t.id)
    third = t.played[2]
    assert str(leaving.id) not in [p for table in third.tables for p in table.seats]
    assert len(third.byes) == 1, "seven players: one has the bye"
    (after,) = [m for m in h.channel_messages(TABLE) if "Standings after round 2" in m.text()]
    assert "× withdrawn" in after.text()
    again = await h.click(leaving, after, label="Withdraw")
    assert "You are not in tournament" in again.ephemeral_text()
