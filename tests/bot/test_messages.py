"""Message builders: within Discord's limits by construction, whatever a game offers."""

from __future__ import annotations

from pathlib import Path

from bot.service import GameService
from bot.store import SqliteStore
from cogs import messages


async def test_a_decision_with_more_moves_than_a_select_holds_says_so(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "m.db"))
    await store.open()
    try:
        service = GameService(store, seed_factory=lambda: "m")
        record = await service.new_game("street-art", "g", "c", "1", "Ana")
        for user, name in (("2", "Bo"), ("3", "Cy")):
            record = await service.join("g", "c", user, name, record.id)
        record = (await service.start("g", "c", "1")).record
        player = service.to_move(record)[0]
        service.legal = lambda _record, _player: [{"type": "play", "card": "juggler"}] * 30  # type: ignore[method-assign]
        panel = messages.hand_panel(service, record, player)
        (select,) = panel.view.children
        assert len(select.item.options) == 25
        assert "5 more moves than fit here" in panel.content
        assert len(panel.content) <= 2000
    finally:
        await store.close()


async def test_a_games_extra_pictures_ride_on_the_turn_post(tmp_path: Path, monkeypatch) -> None:
    """``images.EXTRAS``: a game may add pictures of what just happened to the public post,
    beside the board; a turn that makes none posts the board alone."""
    import images
    from bot.service import Step

    store = SqliteStore(str(tmp_path / "x.db"))
    await store.open()
    try:
        service = GameService(store, seed_factory=lambda: "x")
        record = await service.new_game("street-art", "g", "c", "1", "Ana")
        for user, name in (("2", "Bo"), ("3", "Cy")):
            record = await service.join("g", "c", user, name, record.id)
        record = (await service.start("g", "c", "1")).record
        seen = []

        def extra(view, events):
            seen.append((view["viewer"], events))
            return {"replay.gif": b"GIF89a"} if events else {}

        monkeypatch.setitem(images.EXTRAS, "street-art", extra)
        step = Step("1", {"type": "play"}, [{"type": "took", "player": "1", "hearts": 1}])
        post = await messages.board_post(service, record, [step])
        assert post.file is None
        assert [f.filename for f in post.kwargs()["files"]] == ["board.png", "replay.gif"]
        assert seen == [(None, step.events)], "drawn from the public view and the turn's events"
        plain = await messages.board_post(service, record, [])
        assert plain.file is not None and "files" not in plain.kwargs()
    finally:
        await store.close()
