"""A season's and a tournament's row under a version, on both backends (``bot.store.documents``,
the one compare-and-swap both are written with): a write from the version read lands, a second
write from that same version is refused and names the row, and the row the scheduler sees due
is the one last written."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.seasons.model import Season
from bot.seasons.service import WEEK
from bot.store import Store, VersionConflict
from bot.tournaments.model import Tournament

GUILD, GAME = "8101", "street-art"


async def test_a_stale_write_of_a_season_is_refused(store: Store) -> None:
    season = Season(GUILD, GAME, 1, 0.0, WEEK, due_at=WEEK)
    assert await store.create_season(season)
    await store.save_season(replace(season, version=2, due_at=WEEK + 1), 1)
    with pytest.raises(VersionConflict, match=f"season 1 of {GAME} changed meanwhile"):
        await store.save_season(replace(season, version=2, due_at=WEEK + 2), 1)
    (due,) = await store.due_seasons(WEEK + 5, 10)
    assert (due.version, due.due_at) == (2, WEEK + 1)


async def test_a_stale_write_of_a_tournament_is_refused(store: Store) -> None:
    cup = Tournament("cup1", GUILD, "8102", "1", GAME, "swiss", 3, "fast", 8, 3, 0.0, 24.0)
    await store.create_tournament(replace(cup, due_at=10.0))
    await store.save_tournament(replace(cup, version=2, due_at=11.0), 1)
    with pytest.raises(VersionConflict, match="tournament cup1 changed meanwhile"):
        await store.save_tournament(replace(cup, version=2, due_at=12.0), 1)
    (due,) = await store.due_tournaments(20.0, 10)
    assert (due.version, due.due_at) == (2, 11.0)
