"""The interaction pipeline through the real dispatch: slash errors reach one tree handler,
every change or picture is acknowledged first, and hostile input is answered privately.

Raw INTERACTION_CREATE payloads go through discord.py's own gateway parsing; the HTTP layer is
recorded (tests/harness), so the order of what the bot sent is what a test reads.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

import images
from cogs.app import GameTree
from cogs.flows import OOPS
from tests.discord_layer.test_street_art_discord import (
    ANA,
    BO,
    CY,
    DEE,
    board_of,
    current_player,
    open_lobby,
    start_game,
    table,
)
from tests.harness import ComponentInfo, Harness, RecordedRequest, Response

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


# -- acknowledge first ------------------------------------------------------------------------

WRITES = ("create_game", "save_lobby", "commit_move")
RENDERS = ("render", "render_hand", "turn_extras")


def marking(h: Harness, label: str, real: Any) -> Any:
    """``real``, marking ``label`` on the fake's timeline each time before it starts."""
    if inspect.iscoroutinefunction(real):

        async def marked_async(*args: Any) -> Any:
            h.fake.mark(label)
            return await real(*args)

        return marked_async

    def marked(*args: Any) -> Any:
        h.fake.mark(label)
        return real(*args)

    return marked


def trace_work(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mark every store write and every render on the fake's timeline, where the HTTP requests
    are recorded too."""
    store = h.bot.service.store
    for name in WRITES:
        monkeypatch.setattr(store, name, marking(h, f"store:{name}", getattr(store, name)))
    for name in RENDERS:
        monkeypatch.setattr(images, name, marking(h, f"render:{name}", getattr(images, name)))


async def acknowledged_first(h: Harness, act: Awaitable[Response]) -> Response:
    """Run one interaction; its first response must come before any write or render it did."""
    start = len(h.fake.timeline)
    response = await act
    events = h.fake.timeline[start:]
    work = [i for i, event in enumerate(events) if isinstance(event, str)]
    answers = [
        i
        for i, event in enumerate(events)
        if isinstance(event, RecordedRequest) and event.path.endswith("/callback")
    ]
    assert work, "this interaction was expected to write or render"
    assert answers and answers[0] < work[0], [str(e) for e in events]
    return response


def quick_card(select: ComponentInfo) -> str:
    """A card that ends the turn at once (not Fireworks or Brass Band, which ask more)."""
    return next(
        o["value"]
        for o in select.options
        if "Fireworks" not in o["label"] and "Brass" not in o["label"]
    )


async def test_every_change_and_picture_is_acknowledged_before_the_store_or_renderer_works(
    harness_factory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await table(harness_factory, tmp_path)
    trace_work(h, monkeypatch)
    first = acknowledged_first
    lobby = (await first(h, h.slash(ANA, "game new", game="street-art"))).message
    await first(h, h.click(BO, h.message(lobby), label="Join"))
    await first(h, h.slash(CY, "game join"))
    await first(h, h.slash(ANA, "game settings", options={"options": "turn_cap=40"}))
    await first(h, h.click(ANA, h.message(lobby), label="Add AI"))
    board = (await first(h, h.click(ANA, h.message(lobby), label="Start"))).public_messages[-1]

    mover = current_player(board)
    panel = (await first(h, h.click(mover, board, label="My hand"))).message
    select = panel.selects[0]
    played = await first(h, h.select(mover, panel, select.custom_id, [quick_card(select)]))
    board = board_of(played)
    assert board is not None
    await first(h, h.click(DEE, board, label="Board"))
    await first(h, h.slash(current_player(board), "game leave"))
    await first(h, h.slash(ANA, "game board"))


async def test_a_refusal_found_after_a_public_defer_is_a_private_follow_up(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    waiting = next(p for p in (ANA, BO, CY) if p != current_player(board))
    refused = await h.slash(waiting, "streetart play", card="rain")
    assert refused.callback_type == 5  # acknowledged first, publicly ("thinking…")
    assert "turn" in refused.message.text() and refused.message.ephemeral
    assert refused.public_messages == [] and len(refused.deleted_ids) == 1


async def test_a_start_by_command_closes_the_newest_lobby_message(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    await open_lobby(h, ANA, BO)
    newest = (await h.slash(CY, "game join")).message
    assert [b.label for b in newest.buttons] == ["Join", "Leave", "Add AI", "Start"]
    started = await h.slash(ANA, "game start")
    assert board_of(started) is not None
    closed = h.message(newest)
    assert closed.buttons == [] and "Started!" in closed.text()


# -- one read model per interaction -------------------------------------------------------------


async def test_a_board_or_hand_click_loads_the_state_once(
    harness_factory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    engine = h.bot.service.games["street-art"]
    loads: list[object] = []
    real_load = engine.load

    def load(snapshot: Any) -> Any:
        loads.append(snapshot)
        return real_load(snapshot)

    monkeypatch.setattr(engine, "load", load)
    shown = await h.click(DEE, board, label="Board")
    assert shown.message.embed_image() and len(loads) == 1
    loads.clear()
    hand = await h.click(current_player(board), board, label="My hand")
    assert hand.message.selects and len(loads) == 1
