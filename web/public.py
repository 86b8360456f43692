"""Which games the world may see: those whose table is public (a channel everyone on its server
can view, as the Discord layer records it in ``web_tables``). Every page that tells of games it
does not link, a season table or a player's titles, leaves the others out with this."""

from __future__ import annotations

from bot.store.base import Store


async def private(store: Store, game_ids: set[str]) -> set[str]:
    """The games among ``game_ids`` the world may not see (no public table, or none at all)."""
    left_out = set()
    for game_id in game_ids:
        row = await store.web_table_of(game_id)
        if row is None or not row.public:
            left_out.add(game_id)
    return left_out
