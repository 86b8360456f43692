"""The level of the seats Add AI fills (issue 14): chosen by the host with `/game new
ai_level:`, shown on the lobby, and the level those seats then play at."""

from __future__ import annotations

from pathlib import Path

from bot.ai import level_of
from tests.discord_layer.test_street_art_discord import ANA, table
from tests.discord_layer.test_threads import record_of

pytest_plugins = ["tests.harness.fixtures"]


async def test_the_host_picks_the_level_of_the_ai_seats_at_the_new_lobby(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = (await h.slash(ANA, "game new", game="street-art", ai_level="hard")).message
    assert "level **hard**" in lobby.text()
    await h.click(ANA, h.message(lobby), label="Add AI")
    record = await record_of(h, lobby)
    assert [level_of(seat.user) for seat in record.seats if seat.ai] == ["hard"]
    bot = h.bot  # AI seats decide in a pool of their own, never in the pictures' workers
    assert bot.ai_pool is not None and bot.ai_pool is not bot.pool
    assert bot.service.decide.func == bot.ai_pool.run


async def test_without_a_choice_the_ai_seats_play_at_normal(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = (await h.slash(ANA, "game new", game="street-art")).message
    assert "level **normal**" in lobby.text()
    await h.click(ANA, h.message(lobby), label="Add AI")
    record = await record_of(h, lobby)
    assert [level_of(seat.user) for seat in record.seats if seat.ai] == ["normal"]
