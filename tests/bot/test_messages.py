"""Message builders: within Discord's limits by construction, whatever a game offers."""

from __future__ import annotations

from pathlib import Path

import discord

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


async def read_of_a_started_game(store: SqliteStore, game: str = "street-art"):
    service = GameService(store, seed_factory=lambda: "m")
    record = await service.new_game(game, "g", "c", "1", "Ana")
    for user, name in (("2", "Bo"), ("3", "Cy"))[: 1 if game == "street-art-mural" else 2]:
        record = await service.join("g", "c", user, name, record.id)
    return service.read((await service.start("g", "c", "1")).record)


def texts(layout: discord.ui.LayoutView) -> list[str]:
    return [i.content for i in layout.walk_children() if isinstance(i, discord.ui.TextDisplay)]


async def test_a_long_turn_keeps_its_latest_lines_within_4000_characters(tmp_path: Path) -> None:
    """Components V2 allows 4,000 characters across a message's text displays."""
    store = SqliteStore(str(tmp_path / "m.db"))
    await store.open()
    try:
        read = await read_of_a_started_game(store)
        post = await messages.board_post(read, [], headline="x" * 5000 + " the latest line")
    finally:
        await store.close()
    layout = post.view
    assert isinstance(layout, discord.ui.LayoutView) and post.content is None
    assert layout.content_length() <= 4000
    (text,) = [t for t in texts(layout) if "the latest line" in t]
    lines = text.splitlines()
    assert lines[-2].startswith("…") and lines[-2].endswith("the latest line")
    assert lines[-1].endswith(", your move.")  # whose move is never clipped away
    assert post.kwargs()["files"][0].filename == "board.png"


async def test_a_confirm_button_takes_a_row_and_the_choices_the_rest(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "m.db"))
    await store.open()
    try:
        read = await read_of_a_started_game(store, "street-art-mural")
        player = read.to_move[0]
        moves = [{"type": "rotate", "kind": "simple"}] * 130
        moves[3] = {"type": "pass"}
        read.legal = lambda _player: moves  # type: ignore[method-assign]
        panel = await messages.hand_panel(read, player, confirm=3)
        unasked = await messages.hand_panel(read, player, confirm=4)  # a rotation asks nothing
    finally:
        await store.close()
    rows = panel.view.to_components()
    assert len(rows) == 5 and rows[0]["components"][0]["custom_id"].split(":")[2] == "sure"
    assert sum(len(row["components"][0].get("options", [])) for row in rows[1:]) == 100
    assert "30 more moves than fit here" in panel.content and "**Pass?**" in panel.content
    assert len(unasked.view.to_components()) == 5 and "**Pass?**" not in unasked.content
    assert "sure" not in str(unasked.view.to_components())
