"""`/game undo` through Discord as players use it: the public proposal pinging who must
accept, Accept and Decline on it, the fresh board once everyone accepted, and every refusal
ephemeral. The harness validates every payload against Discord's limits and OpenAPI spec."""

from __future__ import annotations

import time
from pathlib import Path

import discord

from bot import undo
from bot.ai import RandomAgent
from bot.store.base import GameRecord
from cogs.app import create_bot
from tests.harness import Channel, FakeDiscord, Harness, SeenMessage, User

pytest_plugins = ["tests.harness.fixtures"]

ANA = User(id=1201, name="ana", global_name="Ana")
BO = User(id=1202, name="bo", global_name="Bo")
CY = User(id=1203, name="cy", global_name="Cy")
BY_ID = {str(user.id): user for user in (ANA, BO, CY)}
WALL = Channel(id=2201, name="mural")
GUILD = 3201


def new_bot(tmp_path: Path) -> discord.Client:
    return create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", discord_token="")


async def table(harness_factory, tmp_path: Path, fake: FakeDiscord | None = None) -> Harness:
    h = await harness_factory(
        new_bot(tmp_path),
        fake or FakeDiscord(),
        guild_id=GUILD,
        channels=[WALL],
        members=[ANA, BO, CY],
    )
    h.bot.service.seed_factory = lambda: "undo-discord"
    return h


async def started(h: Harness) -> GameRecord:
    """A Mural game of Ana and Bo, started with the lobby's buttons (played in a thread)."""
    lobby = (await h.slash(ANA, "game new", game="street-art-mural")).message
    await h.click(BO, h.message(lobby), label="Join")
    await h.click(ANA, h.message(lobby), label="Start")
    (record,) = await h.bot.service.channel_games(str(GUILD), str(WALL.id))
    return record


async def moves_until(h: Harness, record: GameRecord, reveal: bool) -> tuple[GameRecord, User]:
    """Seeded moves through the service until one reveals something hidden (``reveal``) or
    nothing; returns the game as it was before that move, and who made it."""
    service, agent = h.bot.service, RandomAgent("undo-discord")
    game = service.engine(record)
    for _ in range(300):
        player = service.to_move(record)[0]
        action = agent.choose(game, service.state(record), player)
        result = await service.move(str(GUILD), str(WALL.id), player, action, ref=record.id)
        shown = any(game.reveals(e) for step in result.steps for e in step.events)
        if shown == reveal:
            return record, BY_ID[player]
        record = result.record
    raise AssertionError("no such move in 300")


def other(user: User) -> User:
    return BO if user is ANA else ANA


async def propose(h: Harness, user: User) -> SeenMessage:
    response = await h.slash(user, "game undo", channel=h.thread(WALL))
    assert response.acknowledged
    (proposal,) = [m for m in response.public_messages if m.buttons]  # (and a lapsed one)
    assert [b.label for b in proposal.buttons] == ["Accept", "Decline"]
    return proposal


async def test_everyone_accepts_and_the_board_before_the_move_is_posted(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    before, mover = await moves_until(h, await started(h), reveal=False)
    proposal = await propose(h, mover)
    assert "asks to take back their last decision" in proposal.text()
    assert proposal.mentions == [other(mover).id]
    assert "accept within 10 minutes" in proposal.text()
    assert "Steps taken back: " in proposal.text()

    stranger = await h.click(CY, proposal, label="Accept")
    refusal = f"Only the players asked can answer this undo: {other(mover).global_name}."
    assert refusal in stranger.ephemeral_text()
    assert stranger.public_messages == []
    assert [b.label for b in h.message(proposal).buttons] == ["Accept", "Decline"]

    done = await h.click(other(mover), h.message(proposal), label="Accept")
    closed = h.message(proposal)
    assert closed.text().startswith("✅ Undone") and closed.buttons == []
    *retired, board = [m for m in done.public_messages if m.files.get("board.png")]
    assert all("My hand" not in [b.label for b in m.buttons] for m in retired)
    assert "last decision was taken back" in board.text()
    assert board.mentions == [mover.id]
    after = await h.bot.service.get(before.id)
    assert after.state == before.state
    audit = await h.bot.service.store.undone_actions(before.id)
    assert audit and audit[0].player == str(mover.id)


async def test_one_decline_cancels_and_the_game_stays(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    before, mover = await moves_until(h, await started(h), reveal=False)
    now = await h.bot.service.get(before.id)
    proposal = await propose(h, mover)
    declined = await h.click(other(mover), proposal, label="Decline")
    declined_by = other(mover).global_name
    assert h.message(proposal).text().startswith(f"❌ {declined_by} declined")
    assert h.message(proposal).buttons == []
    assert not [m for m in declined.public_messages if m.files.get("board.png")]
    assert (await h.bot.service.get(before.id)).state == now.state
    assert await h.bot.service.store.undone_actions(before.id) == []


async def test_refusals_are_ephemeral_and_say_why(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    record = await started(h)
    thread = h.thread(WALL)
    first = BY_ID[h.bot.service.to_move(record)[0]]
    nothing = await h.slash(other(first), "game undo", channel=thread)
    assert nothing.public_messages == []
    assert "no decision" in nothing.ephemeral_text()
    stranger = await h.slash(CY, "game undo", game=record.id, channel=thread)
    assert stranger.public_messages == [] and "not playing" in stranger.ephemeral_text()

    _, mover = await moves_until(h, record, reveal=True)
    revealed = await h.slash(mover, "game undo", channel=thread)
    assert revealed.public_messages == []
    assert "something hidden was revealed since" in revealed.ephemeral_text()


async def test_a_second_proposal_waits_for_the_first(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    _, mover = await moves_until(h, await started(h), reveal=False)
    await propose(h, mover)
    again = await h.slash(other(mover), "game undo", channel=h.thread(WALL))
    assert again.public_messages == []
    assert "already proposed" in again.ephemeral_text()


async def test_a_proposal_made_from_the_channel_goes_to_the_thread(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    _, mover = await moves_until(h, await started(h), reveal=False)
    response = await h.slash(mover, "game undo")
    assert "Your proposal is posted in" in response.ephemeral_text()
    (proposal,) = response.public_messages
    assert proposal.channel_id == h.thread(WALL).id
    assert [b.label for b in proposal.buttons] == ["Accept", "Decline"]


async def test_a_restarted_bot_takes_the_consent_on_a_proposal_the_first_one_posted(
    harness_factory, tmp_path: Path
) -> None:
    fake = FakeDiscord()
    first = await table(harness_factory, tmp_path, fake)
    before, mover = await moves_until(first, await started(first), reveal=False)
    proposal = await propose(first, mover)
    await first.close()

    second = await harness_factory(new_bot(tmp_path), fake)  # same database, same Discord
    done = await second.click(other(mover), proposal, label="Accept")
    assert second.message(proposal).text().startswith("✅ Undone")
    assert [m for m in done.public_messages if m.files.get("board.png")]
    assert (await second.bot.service.get(before.id)).state == before.state


async def test_a_proposal_left_ten_minutes_lapses_on_the_next_click_or_proposal(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    before, mover = await moves_until(h, await started(h), reveal=False)
    first = await propose(h, mover)
    later = time.time() + undo.WINDOW + 5
    h.bot.service._clock = lambda: later  # ten minutes on, nobody answered

    second = await propose(h, mover)  # the lapsed proposal is closed, a new one posted
    assert h.message(first).text().startswith("⌛") and h.message(first).buttons == []
    assert second.id != first.id

    h.bot.service._clock = lambda: later + undo.WINDOW + 5
    click = await h.click(other(mover), h.message(second), label="Accept")
    assert "lapsed" in h.message(second).text() and h.message(second).buttons == []
    assert not [m for m in click.public_messages if m.files.get("board.png")]
    assert await h.bot.service.store.undone_actions(before.id) == []


async def test_the_proposer_may_withdraw_it(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    _, mover = await moves_until(h, await started(h), reveal=False)
    proposal = await propose(h, mover)
    await h.click(mover, proposal, label="Decline")
    assert (
        h.message(proposal).text()
        == f"{mover.global_name} withdrew the proposal to undo their last decision."
    )
    assert h.message(proposal).buttons == []
