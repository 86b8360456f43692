"""Titles through discord.py's real dispatch: a finished game's result post carries "Best move"
and "Good sport"; a player gives one to another player of the game (the select lists the
others, never themselves nor an AI seat), once a game; `/game stats` shows the titles held,
those of a private game only to whoever may see that game."""

from __future__ import annotations

from pathlib import Path

from bot.titles.achievements import BEST_MOVE, GOOD_SPORT
from tests.discord_layer.test_memory import finished_game
from tests.discord_layer.test_privacy import ANA as ANA_
from tests.discord_layer.test_privacy import BO as BO_
from tests.discord_layer.test_privacy import OUT, PUBLIC, SECRET, played_game, world
from tests.discord_layer.test_threads import ANA, BO, TABLE, WATCHER, table
from tests.harness import Response

pytest_plugins = ["tests.harness.fixtures"]


async def test_players_give_each_other_one_title_a_game_and_stats_show_them(
    harness_factory, tmp_path: Path
):
    h = await table(harness_factory, tmp_path)
    await finished_game(h, thread=True)
    _lobby, result = h.channel_messages(TABLE)
    labels = [b.label for b in result.buttons]
    assert "🏅 Best move" in labels and "🏅 Good sport" in labels

    opened = await h.click(ANA, result, label="🏅 Best move")
    panel = opened.ephemeral_messages[0]
    (select,) = panel.selects
    assert [o["value"] for o in select.options] == [str(BO.id)], "only the others"
    given = await h.select(ANA, panel, select, [str(BO.id)])
    assert f"You gave <@{BO.id}> the title “Best move”." in given.ephemeral_text()

    again = await h.click(ANA, result, label="🏅 Good sport")
    panel = again.ephemeral_messages[0]
    twice = await h.select(ANA, panel, panel.selects[0], [str(BO.id)])
    assert "You gave a title for this game already." in twice.ephemeral_text()
    outsider = await h.click(WATCHER, result, label="🏅 Good sport")
    assert "Only the players of this game can give its titles." in outsider.ephemeral_text()

    stats = await h.slash(BO, "game stats")
    description = stats.ephemeral_messages[0].embeds[0]["description"]
    assert description == "🏅 First game finished · Best move"


async def test_stats_show_a_private_game_s_title_to_whoever_may_see_that_game(
    harness_factory, tmp_path: Path
):
    h = await world(harness_factory, tmp_path)
    secret, _lobby = await played_game(h, SECRET, finish=True)
    public, _lobby = await played_game(h, PUBLIC, finish=True)
    await h.bot.titles.give(secret, str(BO_.id), str(ANA_.id), BEST_MOVE)
    await h.bot.titles.give(public, str(BO_.id), str(ANA_.id), GOOD_SPORT)

    def titles_line(response: Response) -> str:
        return str(response.ephemeral_messages[0].embeds[0]["description"])

    outside = await h.slash(OUT, "game stats", channel=PUBLIC, options={"user": ANA_})
    assert titles_line(outside) == "🏅 First game finished · Good sport", "not #secret's"
    own = await h.slash(ANA_, "game stats", channel=PUBLIC)
    assert titles_line(own) == "🏅 First game finished · Best move · Good sport"
    inside = await h.slash(BO_, "game stats", channel=PUBLIC, options={"user": ANA_})
    assert titles_line(inside) == titles_line(own), "Bo sees #secret"
