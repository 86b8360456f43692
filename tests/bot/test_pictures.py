"""The picture cache: drawn once per game, version, viewer and kind; never another's picture."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import images
from bot.pictures import BOARD, HAND, PictureKey, Pictures, RenderCache
from bot.pool import WorkerPool
from rules import GAMES

PLAYERS = ["101", "102", "103"]
NAMES = {"101": "Ana", "102": "Bo", "103": "Cy"}


def street_art(seed: str = "pictures") -> tuple[Any, Any]:
    game = GAMES["street-art"]
    return game, game.start(PLAYERS, seed, dict(game.default_options))


def inline_pictures(max_bytes: int = 2**26) -> Pictures:
    return Pictures(WorkerPool(inline=True, initializer=None), RenderCache(max_bytes))


async def test_inline_and_worker_processes_draw_the_same_bytes() -> None:
    game, state = street_art()
    view = game.view(state, None)
    inline = await inline_pictures().board("g1", 1, "street-art", view, NAMES)
    pool = WorkerPool(1)  # with the real initializer: it warms the renderers first
    try:
        drawn = await Pictures(pool, RenderCache(2**26)).board("g1", 1, "street-art", view, NAMES)
    finally:
        await pool.close()
    assert drawn[:8] == b"\x89PNG\r\n\x1a\n"
    assert drawn == inline


async def test_a_hand_is_only_ever_served_to_its_own_viewer() -> None:
    game, state = street_art()
    pictures = inline_pictures()
    hands = {}
    for _ in range(2):  # the second round is served from the cache
        for player in PLAYERS:
            view = game.view(state, player)
            hands[player] = await pictures.hand("g1", 1, "street-art", player, view, NAMES)
    assert pictures.cache.renders == len(PLAYERS)
    assert len(set(hands.values())) == len(PLAYERS)  # three different hands, none mixed up
    for player in PLAYERS:
        alone = inline_pictures()
        own = await alone.hand("g1", 1, "street-art", player, game.view(state, player), NAMES)
        assert hands[player] == own
    board = await pictures.board("g1", 1, "street-art", game.view(state, None), NAMES)
    assert board not in hands.values()  # the public board is a picture of its own


async def test_the_same_key_is_drawn_once_even_when_asked_for_at_once() -> None:
    game, state = street_art()
    view = game.view(state, None)
    pictures = inline_pictures()
    boards = await asyncio.gather(
        *(pictures.board("g1", 1, "street-art", view, NAMES) for _ in range(5))
    )
    again = await pictures.board("g1", 1, "street-art", view, NAMES)
    assert pictures.cache.renders == 1
    assert len(set(boards)) == 1 and again == boards[0]
    await pictures.board("g1", 2, "street-art", view, NAMES)  # a new version is a new picture
    await pictures.board("g2", 1, "street-art", view, NAMES)  # and so is another game
    assert pictures.cache.renders == 3


async def test_the_cache_holds_at_most_its_budget_dropping_the_least_recent() -> None:
    cache = RenderCache(max_bytes=250)

    def key(n: int) -> PictureKey:
        return PictureKey("g1", n, None, BOARD)

    async def draw(n: int) -> bytes:
        async def picture() -> bytes:
            return bytes([n]) * 100

        return await cache.get(key(n), picture)

    await draw(1)
    await draw(2)
    await draw(1)  # 1 is now the most recent
    await draw(3)
    assert cache.bytes == 200 <= cache.max_bytes
    assert key(1) in cache and key(3) in cache and key(2) not in cache
    cache.put(PictureKey("g1", 9, "101", HAND), b"x" * 300)  # too big to keep at all
    assert cache.bytes == 200 and len(cache) == 2


async def test_a_failed_drawing_is_not_kept_and_the_next_request_draws_again() -> None:
    cache = RenderCache(max_bytes=1000)
    key = PictureKey("g1", 1, None, BOARD)

    async def broken() -> bytes:
        raise ValueError("no renderer")

    async def working() -> bytes:
        return b"png"

    with pytest.raises(ValueError, match="no renderer"):
        await cache.get(key, broken)
    assert await cache.get(key, working) == b"png"
    assert cache.renders == 2


async def test_a_turns_extra_pictures_go_to_that_turns_post_not_to_a_board_click(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def told(view: dict, events: list[dict], **_: object) -> list[tuple[str, bytes]]:
        return [("turn.txt", repr(events).encode())] if events else []

    monkeypatch.setitem(images.TURN_EXTRAS, "street-art", told)  # inline: no process to miss it
    game, state = street_art()
    view = game.view(state, None)
    pictures = inline_pictures()
    events = [{"type": "played", "card": "rain"}]
    posted = await pictures.turn_extras("g1", 2, "street-art", view, NAMES, events)
    assert posted == [("turn.txt", repr(events).encode())]
    assert await pictures.turn_extras("g1", 2, "street-art", view, NAMES, []) == []
    assert await pictures.turn_extras("g1", 2, "street-art", view, NAMES, events) == posted
    assert pictures.cache.renders == 1  # the fallback post after an expired answer reuses it
