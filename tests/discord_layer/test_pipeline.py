"""The interaction pipeline through the real dispatch: slash errors reach one tree handler,
every change or picture is acknowledged first, and hostile input is answered privately.

Raw INTERACTION_CREATE payloads go through discord.py's own gateway parsing; the HTTP layer is
recorded (tests/harness), so the order of what the bot sent is what a test reads.
"""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

import images
from cogs.app import GameTree
from cogs.flows import OOPS, STRAY
from tests.discord_layer import test_artsee_discord as artsee
from tests.discord_layer import test_mural_discord as mural
from tests.discord_layer.test_street_art_discord import (
    ANA,
    BO,
    CY,
    DEE,
    TABLE,
    board_of,
    current_player,
    open_lobby,
    start_game,
    table,
)
from tests.harness import ComponentInfo, Harness, RecordedRequest, Response, SeenMessage

pytest_plugins = ["tests.harness.fixtures"]


async def test_a_crashing_slash_command_reaches_the_tree_handler_as_a_sentence(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    assert isinstance(h.bot.tree, GameTree)
    await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)

    async def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("the store fell over")

    h.bot.service.resolve = h.bot.service.watch = broken
    crashed = await h.slash(BO, "game status", allow_errors=True)
    assert crashed.ephemeral_text() == OOPS and crashed.public_messages == []
    assert "the store fell over" in "\n".join(crashed.errors)  # logged for us, not shown


# -- acknowledge first ------------------------------------------------------------------------

WRITES = ("create_game", "save_lobby", "commit_move")
RENDERS = ("render", "render_hand", "turn_extras")


def marking(h: Harness, label: str, real: Any) -> Any:
    """``real``, marking ``label`` on the fake's timeline each time before it starts."""
    if inspect.iscoroutinefunction(real):

        async def marked_async(*args: Any, **kwargs: Any) -> Any:
            h.fake.mark(label)
            return await real(*args, **kwargs)

        return marked_async

    def marked(*args: Any, **kwargs: Any) -> Any:
        h.fake.mark(label)
        return real(*args, **kwargs)

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


async def drawn_before(h: Harness, act: Awaitable[Response]) -> Response:
    """Run one interaction that shows a board already drawn: it answers with the picture from
    the cache, writing and rendering nothing."""
    start = len(h.fake.timeline)
    response = await act
    assert not [event for event in h.fake.timeline[start:] if isinstance(event, str)]
    assert any("board.png" in message.files for message in response.messages)
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
    await first(h, h.slash(ANA, "game rules", options={"options": "turn_cap=40"}))
    await first(h, h.click(ANA, h.message(lobby), label="Add AI"))
    board = (await first(h, h.click(ANA, h.message(lobby), label="Start"))).public_messages[-1]

    mover = current_player(board)
    panel = (await first(h, h.click(mover, board, label="My hand"))).message
    select = panel.selects[0]
    played = await first(h, h.select(mover, panel, select.custom_id, [quick_card(select)]))
    board = board_of(played)
    assert board is not None
    # The turn post drew this version's board: Board and `/game board` reuse that picture.
    await drawn_before(h, h.click(DEE, board, label="Board"))
    await first(h, h.slash(current_player(board), "game leave"))
    await drawn_before(h, h.slash(ANA, "game board"))


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
    lobby = await open_lobby(h, ANA, BO)
    joined = await h.slash(CY, "game join")
    (newest,) = [m for m in joined.public_messages if m.buttons]  # the lobby, edited in place
    assert newest.id == lobby.id
    assert [b.label for b in newest.buttons] == ["Join", "Leave", "Add AI", "Start"]
    started = await h.slash(ANA, "game start")
    assert board_of(started) is not None
    closed = h.message(newest)
    assert closed.buttons == [] and "Started!" in closed.text()
    assert not any(m.buttons for m in h.channel_messages(TABLE) if m.id != closed.id)


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
    assert shown.message.image() and len(loads) == 1
    loads.clear()
    hand = await h.click(current_player(board), board, label="My hand")
    assert hand.message.selects and len(loads) == 1


# -- hostile and outdated input (issue 10, the Discord layer's half) ------------------------------


async def test_crafted_select_values_and_unknown_components_get_a_private_sentence(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    mover = current_player(board)
    panel = (await h.click(mover, board, label="My hand")).message
    select = panel.selects[0].custom_id
    before = (await h.bot.service.get(board_id(board))).version
    for values in (["abc"], ["99999"], ["-1"], ["²"], ["1" * 90], []):
        data = {"custom_id": select, "component_type": 3, "values": values}
        crafted = await h.raw_component(mover, panel, data)
        assert crafted.ephemeral_text() == "That choice is not available."
    for custom_id in ("zz:nothing", f"g:{board_id(board)}:join:1", "g:abc234:fly:3"):
        stray = await h.raw_component(mover, board, {"custom_id": custom_id, "component_type": 2})
        assert stray.ephemeral_text() == STRAY and stray.public_messages == []
    assert (await h.bot.service.get(board_id(board))).version == before  # nothing changed


def board_id(board: SeenMessage) -> str:
    """The game id a board's buttons carry (inside its thread a post has no heading)."""
    return str(board.button("Board").custom_id).split(":")[1]


async def test_text_a_player_types_pings_nobody(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    await open_lobby(h, ANA, BO)
    refused = await h.slash(ANA, "game rules", options={"options": f"two_players=<@{DEE.id}>"})
    assert refused.message.ephemeral and refused.public_messages == []  # not a yes or no
    await h.slash(ANA, "game new", game="street-art", options={"options": f"<@{DEE.id}>=1"})
    await h.slash(CY, "game join")
    board = board_of(await h.slash(ANA, "game start", allow_errors=True))
    pinged = {user for m in h.channel_messages() for user in m.mentions}
    assert DEE.id not in pinged
    assert board is None or board.mentions == [current_player(board).id]
    for request in h.fake.requests:  # every message says whom it may ping: never "all users"
        body = request.json if isinstance(request.json, dict) else {}
        body = body["data"] if isinstance(body.get("data"), dict) else body
        if "content" in body or "embeds" in body:
            allowed = body.get("allowed_mentions")
            assert allowed is not None and "users" not in allowed.get("parse", []), str(request)


def string_options(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for option in options:
        if option["type"] in (1, 2):  # a subcommand or a group holds options of its own
            out += string_options(option.get("options", []))
        elif option["type"] == 3:
            out.append(option)
    return out


async def test_every_free_text_option_has_a_length_limit(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    free = [
        o for c in h.catalogue for o in string_options(c.get("options", [])) if not o.get("choices")
    ]
    assert len(free) > 30
    assert [o["name"] for o in free if not 0 < o.get("max_length", 0) <= 400] == []


async def test_an_old_lobby_button_never_acts_on_the_started_game(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    old_lobby = await open_lobby(h, ANA, BO)  # then Cy joins by command: the same lobby
    await h.slash(CY, "game join")
    game = board_id(board_of(await h.slash(ANA, "game start")))
    assert h.message(old_lobby).buttons == []  # closed at the start
    for button in old_lobby.buttons:  # a click the client still had from before
        data = {"custom_id": button.custom_id, "component_type": 2}
        old = await h.raw_component(BO, old_lobby, data)
        assert old.public_messages == [] and old.ephemeral_text(), button.label
    record = await h.bot.service.get(game)
    assert not record.seat_of(str(BO.id)).ai and len(record.seats) == 3


async def test_the_service_keeps_no_lock_for_a_game_nobody_is_changing(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    await h.slash(current_player(board), "game leave")
    assert len(h.bot.service._locks) == 0


async def test_history_replays_off_the_event_loop(
    harness_factory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await start_game(h, await open_lobby(h, ANA, BO, CY), ANA)
    await h.slash(current_player(board), "game leave")  # an AI plays: the log has moves
    engine = h.bot.service.games["street-art"]
    threads: list[threading.Thread] = []
    real_play = engine.play

    def play(*args: Any) -> Any:
        threads.append(threading.current_thread())
        return real_play(*args)

    monkeypatch.setattr(engine, "play", play)
    history = await h.slash(ANA, "game replay", view="story")
    assert " played " in history.message.text() and history.message.ephemeral
    assert threads and threading.main_thread() not in threads


async def test_a_standing_order_out_of_turn_leaves_the_movers_open_panel_valid(
    harness_factory, tmp_path: Path
) -> None:
    h, board, mover = await artsee.game_and_mover(harness_factory, tmp_path)
    other = artsee.BO if mover == artsee.ANA else artsee.ANA
    panel = (await h.click(mover, board, label="My hand")).message
    await h.slash(other, "artsee visitors", policy="ask")  # a standing order, out of turn
    chosen = await h.click(mover, panel, panel.buttons[0].custom_id)  # a card: a button
    assert "out of date" not in chosen.text()
    assert h.message(panel).content != panel.content  # the panel moved on to the next step


async def test_a_timed_out_players_ai_finishes_the_turn_owed_then_hands_back(
    harness_factory, tmp_path: Path
) -> None:
    """Mural, two players: the first passes for the round, so the second takes turn after
    turn alone. Their timeout plays one turn for them, not the rest of their round."""
    h = await mural.table(harness_factory, tmp_path, "mural-7")
    # The AI's timeout is tested here: no vacation days (those: test_vacation.py).
    await h.bot.service.configure(str(mural.GUILD), vacation_days=0)
    board = await mural.start(h)
    first = mural.mover(board)
    passed = await h.slash(first, "mural pass")
    late = mural.mover(board_of(passed))
    assert late != first
    service = h.bot.service
    game = h.game_id  # type: ignore[attr-defined]
    logged = len(await service.store.actions(game))
    await h.bot.get_cog("Scheduler").tick(time.time() + 73 * 3600)
    await h.settle()
    record = await service.get(game)
    steps = (await service.history(record))[logged:]
    assert steps and {step.player for step in steps} == {str(late.id)}
    turn_ends = [i for i, s in enumerate(steps) if any(e["type"] == "turn" for e in s.events)]
    assert turn_ends == [len(steps) - 1]  # one turn, ended by its last step
    assert service.to_move(record) == [str(late.id)] and record.deadline is not None
