"""A server's settings in the store (migration 4) and as the bot reads them back."""

from __future__ import annotations

import pytest

from bot.guild_settings import GuildSettings, clock_seconds
from tests.backends import Backend


async def test_settings_are_saved_per_server_and_replaced_whole(backend: Backend) -> None:
    store = await backend.opened()
    try:
        assert await store.guild_settings("1") == {}
        await store.save_guild_settings("1", {"threads": False})
        await store.save_guild_settings("2", {"lobby_hours": 3})
        await store.save_guild_settings("1", {"clock": "1h"})
        assert await store.guild_settings("1") == {"clock": "1h"}
        assert await store.guild_settings("2") == {"lobby_hours": 3}
    finally:
        await store.close()


def test_what_a_newer_bot_or_a_bad_row_stored_falls_back_to_the_defaults() -> None:
    settings = GuildSettings.from_stored(
        {"threads": "yes", "lobby_hours": 9, "clock": "5h", "colour": "red"}
    )
    assert settings == GuildSettings(threads=True, lobby_hours=9, clock=None)


@pytest.mark.parametrize(
    "change", [{"lobby_hours": 0}, {"lobby_hours": 169}, {"lobby_hours": True}, {"clock": "2h"}]
)
def test_a_bad_change_is_refused_with_its_reason(change: dict) -> None:
    with pytest.raises(ValueError):
        GuildSettings().changed(**change)


def test_a_clock_reminds_at_half_its_time_and_off_is_no_clock() -> None:
    assert clock_seconds("24h") == (12 * 3600, 24 * 3600)
    assert clock_seconds("off") == (None, None)
