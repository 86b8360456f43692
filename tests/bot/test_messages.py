"""Message builders: within Discord's limits by construction, whatever a game offers."""

from __future__ import annotations

from pathlib import Path

from bot.service import GameService
from bot.store import SqliteStore
from cogs import messages


async def panel_for(tmp_path: Path, moves: int):
    """The hand panel of the player to move when they have ``moves`` legal actions."""
    store = SqliteStore(str(tmp_path / "m.db"))
    await store.open()
    try:
        service = GameService(store, seed_factory=lambda: "m")
        record = await service.new_game("street-art", "g", "c", "1", "Ana")
        for user, name in (("2", "Bo"), ("3", "Cy")):
            record = await service.join("g", "c", user, name, record.id)
        record = (await service.start("g", "c", "1")).record
        read = service.read(record)
        player = read.to_move[0]
        read.legal = lambda _player: [{"type": "play", "card": "juggler"}] * moves  # type: ignore[method-assign]
        return await messages.hand_panel(read, player)
    finally:
        await store.close()


async def test_a_long_decision_is_split_over_selects_of_25_with_distinct_ids(
    tmp_path: Path,
) -> None:
    panel = await panel_for(tmp_path, 30)
    first, second = (child.item for child in panel.view.children)
    assert [o.value for o in first.options] == [str(i) for i in range(25)]
    assert [o.value for o in second.options] == ["25", "26", "27", "28", "29"]
    assert first.custom_id != second.custom_id
    assert "(26–30 of 30)" in second.placeholder
    assert "more moves than fit" not in panel.content


async def test_a_decision_with_more_moves_than_a_message_holds_says_so(tmp_path: Path) -> None:
    panel = await panel_for(tmp_path, 130)
    assert len(panel.view.children) == 5  # Discord's limit of action rows
    assert sum(len(child.item.options) for child in panel.view.children) == 125
    assert "5 more moves than fit here" in panel.content
    assert len(panel.content) <= 2000
