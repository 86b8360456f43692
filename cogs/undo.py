"""`/game undo` on Discord: the public proposal with Accept and Decline, and what became of it.

The proposal is posted where the game is played, pinging the players who must accept; its
buttons are persistent game buttons (``cogs.items``, verbs ``undoyes``/``undono``) carrying
the game's version and the proposal's ticket, so they work after a restart and never answer a
later proposal. Each click edits the proposal in place; once everyone has accepted, the fresh
board is posted as after a turn. A proposal left unanswered lapses after ten minutes, found
lazily on the next click (or the next proposal), which then says so on the message.
"""

from __future__ import annotations

import logging

import discord

from bot import undo
from bot.i18n import _
from bot.read_model import ReadModel
from cogs import flows, messages, threads
from cogs.items import Click, GameButton
from cogs.messages import Post

log = logging.getLogger(__name__)

ACCEPT, DECLINE = "undoyes", "undono"
#: The ``messages`` kind of a game's latest proposal post.
UNDO_MESSAGE = "undo"
#: Lines of what a proposal takes back, at most (the latest ones).
SHOWN_LINES = 8
#: Discord's limit on a message's content.
CONTENT_LIMIT = 2000


def taken_back(read: ReadModel, outcome: undo.Outcome) -> str:
    """What the undo takes back: how many steps, and what the table saw of them in the game's
    words (never the actions themselves: a choice within a turn can name a card in a hand)."""
    lines = messages.narrate(read, outcome.undone)[-SHOWN_LINES:]
    told = [f"> {messages.clip(line, 300)}" for line in lines]
    return "\n".join([_("Steps taken back: {count}.").format(count=len(outcome.undone)), *told])


def proposal_post(read: ReadModel, outcome: undo.Outcome) -> Post:
    """The public proposal: who asks, what it takes back, who must accept (pinged) and who
    has, with Accept and Decline."""
    request, names = outcome.request, read.names
    asker = names.get(request.requested_by, request.requested_by)
    mentions = " ".join(m for m in (messages.mention(p) for p in outcome.waiting) if m)
    parts = [
        _("↩️ **{name}** asks to take back their last decision in game `{game}`:").format(
            name=asker, game=read.record.id
        ),
        taken_back(read, outcome),
        _("{players}: accept within {minutes} minutes? One decline cancels it.").format(
            players=mentions, minutes=int(undo.WINDOW // 60)
        ),
    ]
    if request.accepted:
        accepted = ", ".join(names.get(p, p) for p in request.accepted)
        parts.append(_("Accepted by {names}.").format(names=accepted))
    view = discord.ui.View(timeout=None)
    number = undo.ticket(request)
    for verb, label, style in (
        (ACCEPT, _("Accept"), discord.ButtonStyle.success),
        (DECLINE, _("Decline"), discord.ButtonStyle.danger),
    ):
        view.add_item(GameButton.make(read.record.id, request.version, verb, label, style, number))
    content = messages.clip("\n".join(part for part in parts if part), CONTENT_LIMIT)
    return Post(content=content, view=view, pings=outcome.waiting)


def closed_text(read: ReadModel, outcome: undo.Outcome, by: str | None = None) -> str:
    """The proposal once it is over: done, declined (``by``: the id of who declined), withdrawn
    (declined by its proposer) or lapsed."""
    request, names = outcome.request, read.names
    asker = names.get(request.requested_by, request.requested_by)
    if outcome.status == undo.DONE:
        if not request.accepted:
            return _("✅ Undone: {name}'s last decision was taken back.").format(name=asker)
        accepted = ", ".join(names.get(p, p) for p in request.accepted)
        return _("✅ Undone: {name}'s last decision was taken back, accepted by {names}.").format(
            name=asker, names=accepted
        )
    if outcome.status == undo.DECLINED:
        if by == request.requested_by:
            return _("{name} withdrew the proposal to undo their last decision.").format(name=asker)
        who = names.get(by or "", by or "?")
        return _("❌ {who} declined: {name}'s last decision stands.").format(who=who, name=asker)
    return _(
        "⌛ This undo proposal lapsed: the game moved on, or not everyone accepted within "
        "{minutes} minutes. `/game undo` proposes it again."
    ).format(minutes=int(undo.WINDOW // 60))


def headline(read: ReadModel, outcome: undo.Outcome) -> str:
    name = read.names.get(outcome.request.requested_by, outcome.request.requested_by)
    return _("↩️ {name}'s last decision was taken back: the game goes on from before it.").format(
        name=name
    )


async def propose(interaction: discord.Interaction, ref: str | None) -> None:
    """`/game undo`: acknowledge, then post the proposal where the game is played (or, with
    nobody to ask, the board after the undo); a refusal reaches the caller ephemerally."""
    service = flows.service_of(interaction)
    guild, channel, user = flows.where(interaction)
    await flows.acknowledge(interaction)
    outcome = await service.propose_undo(guild, channel, user, ref)
    if outcome.lapsed is not None:
        await close_lapsed(interaction, outcome)
    if outcome.result is not None:
        await flows.publish(interaction, outcome.result, headline(outcome.result.read, outcome))
        return
    record = outcome.record
    post = proposal_post(service.read(record), outcome)
    if record.thread is None or str(interaction.channel_id) == record.thread:
        message = await flows.send(interaction, post)
    else:
        message = await threads.post(interaction.client, record, post)
        note = _("Your proposal is posted in {place}, where game `{game}` is played.").format(
            place=threads.link(record), game=record.id
        )
        await flows.send(interaction, Post(content=note), ephemeral=True)
    if message is not None:
        await service.remember_message(
            record, UNDO_MESSAGE, str(message.channel.id), str(message.id)
        )


async def close_lapsed(interaction: discord.Interaction, outcome: undo.Outcome) -> None:
    """The post of an earlier proposal found lapsed says so and loses its buttons."""
    service, record = flows.service_of(interaction), outcome.record
    found = await service.message_of(record, UNDO_MESSAGE)
    if found is None or outcome.lapsed is None:
        return
    lapsed = undo.Outcome(outcome.lapsed, undo.LAPSED, record)
    channel = interaction.client.get_partial_messageable(int(found[0]))
    try:
        await threads.unarchiving(
            interaction.client,
            found[0],
            lambda: channel.get_partial_message(int(found[1])).edit(
                content=closed_text(service.read(record), lapsed),
                view=None,
                allowed_mentions=messages.NO_PINGS,
            ),
        )
    except discord.HTTPException:  # deleted meanwhile: nothing left to close
        log.info("game %s: its undo proposal %s is gone", record.id, found[1])


async def on_click(interaction: discord.Interaction, click: Click) -> None:
    """Accept or Decline on a proposal (inside ``flows.on_click``'s guard): the proposal is
    edited to show where it stands; once done, the fresh board is posted."""
    service = flows.service_of(interaction)
    guild, _where, user = flows.where(interaction)
    await flows.acknowledge(interaction)
    outcome = await service.answer_undo(
        guild, click.game, user, click.verb == ACCEPT, click.version, click.arg
    )
    read = service.read(outcome.record)
    if outcome.status == undo.PENDING:
        post = proposal_post(read, outcome)
        await flows.update(interaction, content=post.content, view=post.view)
        return
    text = closed_text(read, outcome, user)
    await flows.update(interaction, content=text, view=None)
    if outcome.result is not None:
        await flows.publish(interaction, outcome.result, headline(outcome.result.read, outcome))


flows.VERBS[ACCEPT] = flows.VERBS[DECLINE] = on_click
