"""The table's memory through discord.py's real dispatch: a finished game's final posts show each
player's rating change, `/game stats` tells a player their record (only to them), and
`/game season season:all` ranks the server's players, AI levels marked, for the whole channel."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.i18n import use
from bot.results import display_rating
from bot.store.base import FINISHED, GameRecord, Rating
from cogs import memory
from tests.discord_layer import test_mural_discord as mural
from tests.discord_layer.test_threads import (
    ANA,
    BO,
    TABLE,
    WATCHER,
    boards,
    new_bot,
    open_table,
    play_out,
    record_of,
    table,
)
from tests.harness import FakeDiscord, Harness

pytest_plugins = ["tests.harness.fixtures"]

#: "Ana 1,000 → 1,082 (+82)": a rating before and after, in whole points on the display
#: scale, and the change between them.
CHANGE = r"{name} (\d[\d,]*) → (\d[\d,]*) \(([+−]\d[\d,]*|±0)\)"


def whole(shown: str) -> int:
    return int(shown.replace(",", "").replace("−", "-").replace("±", ""))


def changes(text: str, name: str) -> tuple[int, int, int]:
    found = re.search(CHANGE.format(name=re.escape(name)), text)
    assert found, f"no rating change for {name} in {text!r}"
    before, after, delta = found.groups()
    return whole(before), whole(after), whole(delta)


async def finished_game(h: Harness, *, thread: bool) -> GameRecord:
    h.bot.service.remind_after, h.bot.service.timeout_after = None, 60.0
    lobby = await open_table(h, "artsee", ANA, BO, thread=thread, ai_level="easy")
    await h.click(ANA, lobby, label="Add AI")
    await h.click(ANA, h.message(lobby), label="Start")
    record = await record_of(h, lobby)
    await play_out(h, record)
    record = await h.bot.service.get(record.id)
    assert record.status == FINISHED
    return record


async def test_the_final_posts_show_each_player_s_rating_change(harness_factory, tmp_path: Path):
    h = await table(harness_factory, tmp_path)
    record = await finished_game(h, thread=True)
    _lobby, result = h.channel_messages(TABLE)
    text = result.text()
    assert "Final scores" in text and "**Ratings:**" in text
    deltas = {}
    for user in (ANA, BO):
        before, after, delta = changes(text, user.global_name)
        assert before == 1000, "a newcomer's rating starts at 1,000"
        assert after - before == delta and after != before
        deltas[str(user.id)] = delta
    changes(text, "AI 1 (easy)")
    # Ana and Bo started level, so their places decide: a better place never gains less.
    places = {r.player: r.rank for r in await h.bot.service.results.of_game(record.id)}
    (ana, bo) = (str(ANA.id), str(BO.id))
    if places[ana] != places[bo]:
        better, worse = (ana, bo) if places[ana] < places[bo] else (bo, ana)
        assert deltas[better] > deltas[worse]
    final_board = boards(h.channel_messages(h.thread(TABLE)))[-1]
    assert "**Ratings:**" in final_board.text(), "the thread's final board says it too"


async def test_a_game_played_in_the_channel_ends_on_a_board_with_the_ratings(
    harness_factory, tmp_path: Path
):
    h = await table(harness_factory, tmp_path)
    await finished_game(h, thread=False)
    assert h.threads(TABLE) == []
    final = boards(h.channel_messages(TABLE))[-1]
    text = final.text()
    assert "Game over" in text and "**Ratings:**" in text
    changes(text, "Ana")
    changes(text, "Bo")


async def test_stats_tell_a_player_their_record_only_to_them(harness_factory, tmp_path: Path):
    h = await table(harness_factory, tmp_path)
    none_yet = await h.slash(ANA, "game stats")
    (line,) = none_yet.ephemeral_messages
    assert "Ana has not finished a game on this server yet" in line.text()
    assert "/game new" in line.text() and none_yet.public_messages == []

    await finished_game(h, thread=True)
    mine = await h.slash(ANA, "game stats")
    (answer,) = mine.ephemeral_messages
    assert mine.public_messages == []
    (embed,) = answer.embeds
    assert embed["title"] == "Ana on this server"
    (field,) = embed["fields"]
    assert field["name"] == "ArtSee"
    assert "Played **1**" in field["value"] and "average place" in field["value"]
    assert "best score" in field["value"] and "Rating **" in field["value"]

    # Someone else's record, and one game only: a game never played is the empty answer.
    other = await h.slash(WATCHER, "game stats", options={"user": BO, "game": "artsee"})
    assert "Bo on this server" in other.ephemeral_messages[0].embeds[0]["title"]
    never = await h.slash(WATCHER, "game stats", options={"user": BO, "game": "street-kings"})
    assert "Bo has not finished a game of Street Kings on this server yet" in never.ephemeral_text()


async def test_the_leaderboard_ranks_the_server_s_players_with_ai_marked(
    harness_factory, tmp_path: Path
):
    h = await table(harness_factory, tmp_path)
    empty = await h.slash(WATCHER, "game season", game="artsee", season="all")
    assert empty.public_messages == []
    assert "Nobody is rated at ArtSee on this server yet" in empty.ephemeral_text()

    await finished_game(h, thread=True)
    board = await h.slash(WATCHER, "game season", game="artsee", season="all")
    (post,) = board.public_messages
    (embed,) = post.embeds
    assert embed["title"] == "ArtSee: leaderboard"
    lines = embed["description"].splitlines()
    assert len(lines) == 3 and lines[0].startswith("**1.** ")
    assert any(f"<@{ANA.id}>" in line for line in lines)
    assert any(f"<@{BO.id}>" in line for line in lines)
    assert any("🤖 AI (easy)" in line for line in lines), "the AI seat, rated by its level"
    ratings = [whole(re.search(r"· \*\*(\d[\d,]*)\*\* ·", line).group(1)) for line in lines]
    assert ratings == sorted(ratings, reverse=True) and all(x.endswith("· played 1") for x in lines)

    later = await h.slash(WATCHER, "game season", game="artsee", season="all", page=2)
    assert "There is no page 2 of the ArtSee leaderboard yet" in later.ephemeral_text()
    other = await h.slash(WATCHER, "game season", game="street-art-mural", season="all")
    assert "Nobody is rated at Street Art: Mural" in other.ephemeral_text()


async def test_results_a_stop_left_unwritten_are_recorded_when_the_scheduler_starts(
    harness_factory, tmp_path: Path
):
    fake = FakeDiscord()
    first = await table(harness_factory, tmp_path, fake)

    async def stopped(game_id: str, rate: object) -> bool:
        raise OSError("the bot stopped before the results")

    first.bot.service.store.record_results = stopped
    record = await finished_game(first, thread=False)
    _lobby, *_, final = first.channel_messages(TABLE)
    assert "Game over" in final.text() and "Ratings" not in final.text(), "nothing to show"
    await first.close()

    second = await harness_factory(new_bot(tmp_path), fake)  # same database, same Discord
    await second.bot.get_cog("Scheduler").wait_until_ready()  # the loop's start
    rows = await second.bot.service.results.of_game(record.id)
    assert sorted(r.player for r in rows) == sorted(s.user for s in record.seats)
    board = await second.slash(WATCHER, "game season", game="artsee", season="all")
    assert f"<@{ANA.id}>" in board.public_messages[0].embeds[0]["description"]


def test_a_change_is_whole_points_signed_and_never_minus_zero() -> None:
    assert memory.change(1000, 1066) == "+66"
    assert memory.change(1000, 944) == "−56"
    assert memory.change(1010, 1010) == "±0"


def test_a_newcomer_starts_at_a_thousand_on_every_screen() -> None:
    # Issue 24: "0.0 → −2.8" after one game told a newcomer nothing. Everyone starts at the
    # same friendly number, in whole points, grouped as the language writes numbers.
    newcomer = Rating("g", "artsee", "1", 25.0, 25.0 / 3, name="Ana")
    assert memory.shown(newcomer.mu, newcomer.sigma) == "1,000"
    with use("pt_BR"):
        assert memory.shown(newcomer.mu, newcomer.sigma) == "1.000"
    # The display follows the ordinal, so the leaderboard's order is the same.
    assert display_rating(27.0, 3.0) > display_rating(25.0, 25.0 / 3) > display_rating(20.0, 7.0)


def test_no_rating_line_before_the_results_are_recorded() -> None:
    assert memory.rating_line([], {"1": "Ana"}) == ""


async def test_a_game_won_by_clicks_ends_on_a_board_with_the_ratings(
    harness_factory, tmp_path: Path
):
    # The last move comes from a player's panel (not a timeout): the move's own post says it.
    h = await mural.table(harness_factory, tmp_path, "memory-mural")
    board = await mural.start(h)
    rng = random.Random(5)
    for _turn in range(300):
        if "Game over" in board.text():
            break
        player = mural.mover(board)
        response = await h.click(player, board, label="My hand")
        for _ in range(60):
            posted = mural.board_of(response)
            if posted is not None:
                break
            response = await mural.on_panel(h, player, response, rng)
        else:
            raise AssertionError("a turn never ended")
        board = posted
    text = board.text()
    assert "Final scores" in text and "**Ratings:**" in text
    (_, ana_after, _), (_, bo_after, _) = changes(text, "Ana"), changes(text, "Bo")
    outcome = h.bot.service.outcome(await mural.record(h))
    assert outcome is not None and len(outcome.winners) == 1
    winner, loser = (
        (ana_after, bo_after)
        if outcome.winners == [str(mural.ANA.id)]
        else (
            bo_after,
            ana_after,
        )
    )
    assert winner > loser
