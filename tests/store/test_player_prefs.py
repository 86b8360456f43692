"""Players' own choices in the store (issue 27), on both backends: a player's games over
every server, their alert choices, and a daily digest claimed once with its DM owed."""

from __future__ import annotations

from bot import outbox
from bot.store.base import ACTIVE, GameRecord, Seat
from tests.backends import Backend


def record(game_id: str, guild: str, updated: float) -> GameRecord:
    return GameRecord(
        id=game_id,
        game="street-art",
        guild=guild,
        channel="200",
        host="1",
        status=ACTIVE,
        seats=[Seat("1", name="Ann"), Seat("2", name="Bo")],
        version=1,
        updated_at=updated,
    )


async def test_a_players_games_over_every_server_and_their_choices(backend: Backend) -> None:
    store = await backend.opened()
    try:
        for n, guild in enumerate(("10", "20", "20")):
            await store.create_game(record(f"game{n}", guild, updated=float(n)))
        mine = await store.games_of_player(None, "1", limit=10)
        assert sorted(r.id for r in mine) == ["game0", "game1", "game2"]
        on_one = await store.games_of_player("20", "1", limit=10)
        assert sorted(r.id for r in on_one) == ["game1", "game2"]

        assert await store.player_prefs(["1", "2"]) == {}
        await store.save_player_prefs("1", {"alerts": "dm", "digest_at": 100.0})
        await store.save_player_prefs("2", {"alerts": "off"})
        await store.save_player_prefs("2", {"alerts": "thread"})
        assert await store.player_prefs(["1", "2", "3"]) == {
            "1": {"alerts": "dm", "digest_at": 100.0},
            "2": {"alerts": "thread"},
        }
        assert await store.digests_due(99.0, 10) == {}
        assert list(await store.digests_due(100.0, 10)) == ["1"]
        row = outbox.alert({"user": "1", "mode": "digest"}, 100.0)
        following = {"alerts": "dm", "digest_at": 200.0}
        assert await store.claim_digest("1", 100.0, following, "game0", row)
        assert not await store.claim_digest("1", 100.0, following, "game0", row)  # once
        assert await store.digests_due(150.0, 10) == {}
        (owed,) = await store.unsent("game0")
        assert owed.kind == outbox.ALERT and owed.payload["mode"] == "digest"
    finally:
        await store.close()
