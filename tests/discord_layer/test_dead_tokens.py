"""An interaction's token that dies after the change is saved (issue 34): Discord answers the
panel's or the lobby's edit with 401 "Invalid Webhook Token" (50027), through discord.py's real
dispatch. The public part never needs that token: the board is posted and the lobby edited with
the bot's own, at once, not when the outbox's front-door lease (60 s) runs out.
"""

from __future__ import annotations

import time

from bot.outbox import FRONT_LEASE
from cogs.app import create_bot
from tests.backends import Backend
from tests.discord_layer.test_street_art_discord import (
    ANA,
    BO,
    CY,
    EVERYONE,
    GUILD,
    TABLE,
    assert_is_board,
    current_player,
    open_lobby,
    start_game,
    turn_ending,
)
from tests.discord_layer.test_threads import boards, game_id
from tests.harness import FakeDiscord, Harness, SeenMessage

pytest_plugins = ["tests.harness.fixtures"]

#: The bot's own route for a post (the interaction's are under ``/webhooks/``).
CHANNEL_POST = "/channels/{id}/messages"


async def table(harness_factory, backend: Backend) -> Harness:
    h: Harness = await harness_factory(
        create_bot(database_url=backend.url, discord_token=""),
        FakeDiscord(),
        guild_id=GUILD,
        channels=[TABLE],
        members=EVERYONE,
    )
    seeds = (f"dead-token-{n}" for n in range(1000))
    h.bot.service.seed_factory = lambda: next(seeds)
    return h


def posted_by_the_bot(h: Harness, message: SeenMessage) -> bool:
    """Whether ``message`` was made by the bot's token (a channel's route), not a webhook's."""
    path = CHANNEL_POST.format(id=message.channel_id)
    return any(
        r.method == "POST" and r.path == path and (r.response or {}).get("id") == str(message.id)
        for r in h.fake.requests
    )


async def test_a_move_whose_token_dies_after_the_save_is_posted_at_once(
    harness_factory, backend: Backend
) -> None:
    h = await table(harness_factory, backend)
    lobby = await open_lobby(h, ANA, BO, CY)
    board = await start_game(h, lobby, ANA)
    mover = current_player(board)
    panel = (await h.click(mover, board, label="My hand")).message
    select, value = panel.selects[0], turn_ending(panel)
    thread = h.thread(TABLE)
    before = len(boards(h.channel_messages(thread)))
    h.fake.tokens_die()  # the select's token: its defer is taken, its panel edit is refused
    clicked = time.monotonic()
    response = await h.select(mover, panel, select.custom_id, [value])
    seconds = time.monotonic() - clicked
    refused = [r for r in response.requests if r.status == 401]
    assert refused and all(r.path.startswith("/webhooks/") for r in refused)
    (posted,) = boards(h.channel_messages(thread))[before:]
    assert_is_board(posted)
    assert posted_by_the_bot(h, posted) and current_player(posted) != mover
    assert await h.bot.service.store.unsent(game_id(lobby)) == []  # nothing left to the worker
    lease = f"the outbox's lease alone: {FRONT_LEASE:.0f} s"
    print(f"dead token after a move: the board posted {seconds:.2f} s after the click ({lease})")


async def test_a_join_whose_token_dies_after_the_save_shows_on_the_lobby(
    harness_factory, backend: Backend
) -> None:
    h = await table(harness_factory, backend)
    lobby = (await h.slash(ANA, "game new", game="street-art")).message
    h.fake.tokens_die()
    clicked = time.monotonic()
    response = await h.click(BO, h.message(lobby), label="Join")
    seconds = time.monotonic() - clicked
    assert [r.status for r in response.requests if r.path.startswith("/webhooks/")] == [401]
    shown = h.message(lobby)
    assert "Bo joined" in shown.text() and "2. Bo" in shown.text(), shown.text()
    assert [b.label for b in shown.buttons] == ["Join", "Leave", "Add AI", "Start"]
    assert [m.id for m in h.channel_messages(TABLE)] == [lobby.id]  # edited, not posted again
    print(f"dead token on Join: the lobby shows the player {seconds:.2f} s after the click")
