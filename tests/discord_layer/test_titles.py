"""Titles through discord.py's real dispatch: a finished game's result post carries "Best move"
and "Good sport"; a player gives one to another player of the game (the select lists the
others, never themselves nor an AI seat), once a game; `/game stats` shows the titles held."""

from __future__ import annotations

from pathlib import Path

from tests.discord_layer.test_memory import finished_game
from tests.discord_layer.test_threads import ANA, BO, TABLE, WATCHER, table

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
