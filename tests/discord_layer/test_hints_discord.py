"""Hints and "why not?" on the hand panel (issue 39), through the real dispatch: the Hint button
where hints are allowed (step 1, then "Show the move"), none at a rated table of humans, and
"Why not…?" listing the refused places and answering with the engine's sentence, the hand
page's own."""

from __future__ import annotations

from pathlib import Path

from bot import hints
from bot.presentation import build
from tests.discord_layer.test_street_art_discord import ANA, BO, BY_ID, CY, GUILD, TABLE, table
from tests.harness.harness import Harness
from tests.harness.models import SeenMessage

pytest_plugins = ["tests.harness.fixtures"]


async def begin(h: Harness, game: str, with_ai: bool) -> SeenMessage:
    """A started table of Ana, Bo and an AI seat (or Cy): its newest board."""
    lobby = (await h.slash(ANA, "game new", game=game)).message
    await h.click(BO, h.message(lobby), label="Join")
    if with_ai:
        await h.click(ANA, h.message(lobby), label="Add AI")
    else:
        await h.click(CY, h.message(lobby), label="Join")
    return (await h.click(ANA, h.message(lobby), label="Start")).public_messages[-1]


async def test_a_hint_in_two_steps_beside_an_ai_seat(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    board = await begin(h, "street-art", with_ai=True)
    (mover_id,) = board.mentions
    mover = BY_ID[mover_id]
    panel = (await h.click(mover, board, label="My hand")).message
    labels = [b.label for b in panel.buttons]
    assert "Hint (no rating change)" in labels, labels
    first = await h.click(mover, panel, label="Hint (no rating change)")
    assert first.deferred, "a hint may think: the click is acknowledged first"
    step1 = first.ephemeral_messages[-1]
    assert step1.visible_to == mover.id
    look, costs = step1.text().splitlines()
    assert look.startswith("💡 Where to look") and "no rating change" not in look
    assert costs == "You took a hint: this game will not change your rating."
    second = await h.click(mover, step1, label="Show the move")
    both = h.message(step1)
    assert both.text().splitlines()[0] == look and not both.buttons
    move = both.text().splitlines()[1]
    assert move.startswith("💡 The move: **")
    service = h.bot.service
    record = await service.resolve(str(GUILD), str(TABLE.id), str(mover.id))
    assert await service.store.hinted(record.id) == {str(mover.id)}
    offered = [b.label for b in panel.buttons] + [
        o["label"] for s in panel.selects for o in s.options
    ]
    named = move.removeprefix("💡 The move: **").removesuffix("**")
    assert named in offered, "the move is one the panel offers, in its words"
    assert second.acknowledged


async def test_a_rated_table_of_humans_offers_no_hint(harness_factory, tmp_path: Path) -> None:
    h = await table(harness_factory, tmp_path)
    board = await begin(h, "street-art", with_ai=False)
    (mover_id,) = board.mentions
    panel = (await h.click(BY_ID[mover_id], board, label="My hand")).message
    assert not [b for b in panel.buttons if (b.label or "").startswith("Hint")]


async def test_why_not_answers_with_the_hand_pages_sentence(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    board = await begin(h, "street-kings", with_ai=False)
    service = h.bot.service
    (mover_id,) = board.mentions
    record = await service.resolve(str(GUILD), str(TABLE.id), str(mover_id))
    for _ in range(40):  # until the mover's step has places the rules refuse
        read = service.read(record)
        mover = read.to_move[0]
        if hints.why_not(read, mover):
            break
        result = await service.move(
            str(GUILD), str(TABLE.id), mover, read.legal(mover)[0], record.id
        )
        record = result.record
    refused = hints.why_not(read, mover)
    assert refused
    player = BY_ID[int(mover)]
    panel = (await h.slash(player, "game hand")).message
    asked = await h.click(player, panel, label="Why not…?")
    listing = asked.ephemeral_messages[-1]
    (why,) = listing.selects
    assert why.option_labels == [entry.name for entry in refused]
    answer = await h.select(player, listing, why.custom_id, ["0"])
    text = answer.ephemeral_messages[-1].text()
    turn = build(read.engine, read.state, mover, read.names, [])
    dim = [t for t in turn.targets if t.why is not None]
    assert text == f"**{dim[0].name}**: {dim[0].why}", "the same sentence as the hand page's"
