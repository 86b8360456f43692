"""A game whose stored row cannot be read (issue 10) is set aside, and its host is told where
they look for their games: the other games of the channel go on."""

from __future__ import annotations

from pathlib import Path

from tests.backends import sqlite_backend
from tests.discord_layer.test_street_art_discord import ANA, BO, table
from tests.discord_layer.test_threads import record_of

pytest_plugins = ["tests.harness.fixtures"]


async def test_the_host_of_a_damaged_game_is_told_and_the_other_games_go_on(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    broken = await record_of(h, (await h.slash(ANA, "game new", game="street-art")).message)
    kept = await record_of(h, (await h.slash(BO, "game new", game="artsee")).message)
    await sqlite_backend(tmp_path).tamper(  # the harness's bot keeps games in tmp_path/games.db
        "UPDATE games SET options = 'not json' WHERE id = ?", broken.id
    )

    told = await h.slash(ANA, "game list", allow_errors=True)  # the store logs the damage
    assert told.message.ephemeral and told.public_messages == []
    assert f"Game `{broken.id}` (Street Art) could not be loaded" in told.message.text()
    assert kept.id in told.message.text()
    others = await h.slash(BO, "game list")  # only the host is told
    assert "could not be loaded" not in others.message.text() and kept.id in others.message.text()
