"""The interaction pipeline through the real dispatch: slash errors reach one tree handler,
every change or picture is acknowledged first, and hostile input is answered privately.

Raw INTERACTION_CREATE payloads go through discord.py's own gateway parsing; the HTTP layer is
recorded (tests/harness), so the order of what the bot sent is what a test reads.
"""

from __future__ import annotations

from pathlib import Path

from cogs.app import GameTree
from cogs.flows import OOPS
from tests.discord_layer.test_street_art_discord import ANA, BO, CY, open_lobby, start_game, table

pytest_plugins = ["tests.harness.fixtures"]


async def test_a_crashing_slash_command_reaches_the_tree_handler_as_a_sentence(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    assert isinstance(h.bot.tree, GameTree)
    await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)

    async def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the store fell over")

    h.bot.service.resolve = broken
    crashed = await h.slash(BO, "game status", allow_errors=True)
    assert crashed.ephemeral_text() == OOPS and crashed.public_messages == []
    assert "the store fell over" in "\n".join(crashed.errors)  # logged for us, not shown
