"""`/game undo`: a player takes back their last decision, with the table's consent (issue 15).

What is taken back. "Your last decision" is the proposer's last logged action that is not a
standing order, and every action logged after it (typically the AI seats' moves that followed
it, or standing orders given meanwhile). A standing order is a policy, not a decision (it can
be set again at any time), so it is never the target; one given after the decision is logged
after it and goes with the rest, into the audit. Actions taken for a seat by its AI (away, or
timed out) are that seat's decisions like any other.

When it may be. Only in a running game, and only while no event since the decision (its own
included) reveals anything hidden, as the engine says (``Game.reveals``): a card drawn, a
shuffle, a card turned up. Taking such a step back would let someone decide again knowing
more than they did. The refusal names the first such event, in the game's words. A card its
holder chose to show (played from their hand) does not count: the others saw it, and they are
the ones asked. One case is left open on purpose: an AI seat's turn after the decision could
show a card of its hand without anything being drawn, which only happens once the draw piles
are empty (every other AI turn that plays a card ends by drawing, which refuses the undo).

Who consents. Every other seated human who plays their own seat (not away, not handed to the
AI) accepts, with buttons, within ``WINDOW`` seconds; AI seats and away seats accept by
themselves, so with nobody to ask the undo applies at once. One decline cancels it, and so
does the proposer declining (a withdrawal). A proposal is tied to the game's version: any
change to the game meanwhile makes it moot. Expiry is checked lazily, on the next click or
proposal; the proposal is stored (``Store.save_undo_request``), so a restart loses neither it
nor the consents given.

How it applies. The kept log is replayed from the seed; the state it reaches, the journal of
the turn then in progress and fresh clocks are written in the same compare-and-swap that moves
the tail to the audit (``Store.undo``). The version rises past every version a button of the
game ever carried, so every old post goes stale. If an AI seat owes the decision in the state
reached, it plays on as after any move.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import Protocol

from bot.errors import ServiceError
from bot.i18n import _
from bot.moves import MoveResult, Step
from bot.read_model import turn_steps
from bot.store.base import (
    ACTIVE,
    GameRecord,
    LoggedAction,
    Store,
    UndoneAction,
    UndoRequest,
    VersionConflict,
)
from bot.store.recovery import replay_snapshot
from bot.words import WORDS
from rules import Game


class Table(Protocol):
    """What an undo needs of the game service (bot/service.py), and no more: the game, its
    engine, its players' names and its replayed log to read; and to write, the undo as any
    change is written (the clocks of whoever now owes a decision armed, one compare-and-swap)
    and the AI seats playing on after it. The service calls this module under the game's lock,
    passing itself."""

    @property
    def store(self) -> Store: ...

    @property
    def games(self) -> dict[str, Game]: ...

    def engine(self, record: GameRecord) -> Game: ...

    def names(self, record: GameRecord) -> dict[str, str]: ...

    async def history(self, record: GameRecord) -> list[Step]: ...

    async def log_of(self, record: GameRecord) -> list[LoggedAction]: ...

    async def get(self, game_id: str, guild: str | None = None) -> GameRecord: ...

    async def write_undo(
        self, record: GameRecord, expected: int, request: UndoRequest, now: float
    ) -> list[UndoneAction]:
        """Write ``record`` (its replayed state, journal and new version) over version
        ``expected``, the log cut at ``request.keep`` with its tail moved to the audit;
        VersionConflict if the game changed meanwhile. Returns the audit rows."""
        ...

    async def play_on(self, record: GameRecord) -> MoveResult:
        """The AI seats decide, as after any move, until a human owes a decision."""
        ...


#: Seconds the other players have to accept a proposal.
WINDOW = 600.0

#: What became of a proposal after a request.
PENDING, DONE, DECLINED, LAPSED = "pending", "done", "declined", "lapsed"


@dataclass(frozen=True)
class Plan:
    """What an undo takes back: the log is kept up to ``keep`` (a seq), ``undone`` are the
    steps after it, and replaying the kept steps reaches ``state`` with ``journal``."""

    keep: int
    undone: list[Step]
    state: dict
    journal: list[dict]


@dataclass
class Outcome:
    """The answer to a proposal or a click: the request as it now stands, what became of it
    (``status``), who must still accept (``waiting``), and, once done, the game after
    (``result``) and the audit rows written."""

    request: UndoRequest
    status: str
    record: GameRecord
    undone: list[Step] = field(default_factory=list)
    result: MoveResult | None = None
    audit: list[UndoneAction] = field(default_factory=list)
    #: An earlier proposal found lapsed on the way, whose post still shows its buttons.
    lapsed: UndoRequest | None = None

    @property
    def waiting(self) -> list[str]:
        return waiting(self.request)


def ticket(request: UndoRequest) -> int:
    """The number a proposal's buttons carry besides the game's version, so the buttons of
    an earlier proposal at the same version (one that lapsed) never answer a later one."""
    return int(request.at) % 1_000_000_000


def waiting(request: UndoRequest) -> list[str]:
    """The players who must still accept ``request``."""
    return [p for p in request.awaiting if p not in request.accepted]


def target(game: Game, steps: list[Step], player: str) -> int | None:
    """The index of ``player``'s last decision among the replayed ``steps`` (None: none): a
    standing order is none, whether given out of turn or while the player was to move."""
    mine = [
        i
        for i, step in enumerate(steps)
        if step.player == player and not game.is_standing_order(step.action)
    ]
    return mine[-1] if mine else None


def journal_of(steps: list[Step]) -> list[dict]:
    """The journal the service keeps after ``steps`` (``GameService._commit``): the steps of
    the turn in progress, each standing order counted without its content."""
    journal: list[dict] = []
    for step in steps:
        if step.standing:
            journal.append({"player": step.player, "standing": True})
        elif step.ends_turn:
            journal = []
        else:
            journal.append({"player": step.player, "action": step.action, "events": step.events})
    return journal


def refusal(game: Game, record: GameRecord, steps: list[Step], player: str) -> int:
    """The index among the replayed ``steps`` of ``player``'s last decision, or a
    ServiceError saying why it cannot be taken back: there is none, or an event since (its
    own included) revealed something hidden, named in the game's words."""
    index = target(game, steps, player)
    if index is None:
        raise ServiceError(
            _("You have made no decision in game `{game}` yet: there is nothing to undo.").format(
                game=record.id
            )
        )
    names = {seat.user: seat.name or seat.user for seat in record.seats}
    for step in steps[index:]:
        for event in step.events:
            if game.reveals(event):
                told = " ".join(WORDS[record.game].describe([event], names))
                raise ServiceError(
                    _(
                        "Your last decision cannot be taken back: something hidden was "
                        "revealed since ({what})."
                    ).format(what=told or _("a card was drawn, shuffled or turned up"))
                )
    return index


async def plan_for(table: Table, record: GameRecord, player: str) -> Plan:
    """What ``player``'s undo would take back, from the stored log replayed (off the event
    loop: a long game replays for a while), or a ServiceError saying why there is none."""
    steps = await table.history(record)  # refuses a log that does not replay exactly
    rows: list[LoggedAction] = await table.log_of(record)
    if len(rows) != len(steps):  # another process moved meanwhile
        raise ServiceError(_("The game changed meanwhile; please try again."))
    game = table.engine(record)
    index = refusal(game, record, steps, player)
    state = await asyncio.to_thread(replay_snapshot, record, rows[:index], table.games)
    assert state is not None  # a running game has a state
    keep = rows[index - 1].seq if index else 0
    return Plan(keep, steps[index:], state, journal_of(steps[:index]))


def who(table: Table, record: GameRecord, players: list[str] | tuple[str, ...]) -> str:
    names = table.names(record)
    return ", ".join(names.get(p, p) for p in players)


async def stored(
    table: Table, record: GameRecord, now: float
) -> tuple[UndoRequest | None, UndoRequest | None]:
    """The game's stored proposal as (open, lapsed): open if it was made at the game's
    current version and has not run out, else lapsed (and dropped: its post still shows
    buttons, which the caller closes)."""
    request = await table.store.undo_request(record.id)
    if request is None:
        return None, None
    if request.version != record.version or request.expires_at <= now:
        await table.store.drop_undo_request(record.id)
        return None, request
    return request, None


async def propose(table: Table, record: GameRecord, user: str, now: float) -> Outcome:
    """``user`` proposes to take back their last decision (under the game's lock)."""
    seat = record.seat_of(user)
    if seat is None or seat.ai:
        raise ServiceError(
            _("You are not playing in game `{game}`: only its players can undo.").format(
                game=record.id
            )
        )
    if record.status != ACTIVE:
        raise ServiceError(
            _("Game `{game}` is not running: only a move of a running game can be undone.").format(
                game=record.id
            )
        )
    open_request, lapsed = await stored(table, record, now)
    if open_request is not None:
        raise ServiceError(
            _("An undo is already proposed in game `{game}`: waiting for {names}.").format(
                game=record.id, names=who(table, record, waiting(open_request))
            )
        )
    chosen = await plan_for(table, record, user)
    awaiting = tuple(s.user for s in record.seats if s.user != user and not s.played_by_ai)
    request = UndoRequest(
        record.id, user, record.version, chosen.keep, awaiting, (), now, now + WINDOW
    )
    if not awaiting:
        outcome = await apply(table, record, request, chosen, now)
    else:
        await table.store.save_undo_request(request)
        outcome = Outcome(request, PENDING, record, chosen.undone)
    outcome.lapsed = lapsed
    return outcome


async def answer(
    table: Table,
    record: GameRecord,
    user: str,
    accept: bool,
    version: int,
    number: int | None,
    now: float,
) -> Outcome:
    """A click on a proposal's Accept or Decline (under the game's lock): ``version`` and
    ``number`` are the button's, the game's version the proposal was made at and its
    ``ticket``."""
    request = await table.store.undo_request(record.id)
    if request is None or request.version != version or ticket(request) != number:
        raise ServiceError(
            _("That undo proposal is closed already: `/game undo` proposes a new one.")
        )
    if user != request.requested_by and user not in request.awaiting:
        raise ServiceError(
            _("Only the players asked can answer this undo: {names}.").format(
                names=who(table, record, request.awaiting)
            )
        )
    if record.version != request.version or request.expires_at <= now:
        await table.store.drop_undo_request(record.id)
        return Outcome(request, LAPSED, record)
    if not accept:
        await table.store.drop_undo_request(record.id)
        return Outcome(request, DECLINED, record)
    if user == request.requested_by or user in request.accepted:
        raise ServiceError(
            _("Your answer is in already: waiting for {names}.").format(
                names=who(table, record, waiting(request))
            )
        )
    request = replace(request, accepted=(*request.accepted, user))
    chosen = await plan_for(table, record, request.requested_by)
    if waiting(request):
        await table.store.save_undo_request(request)
        return Outcome(request, PENDING, record, chosen.undone)
    return await apply(table, record, request, chosen, now)


async def apply(
    table: Table, record: GameRecord, request: UndoRequest, chosen: Plan, now: float
) -> Outcome:
    """Write the replayed state, the journal and fresh clocks, the log cut at ``chosen.keep``
    with its tail audited, in one compare-and-swap; then let AI seats play as after a move.

    The version rises by one more than the standing orders in the new journal, so the turn
    version buttons carry (``turn_version``) is above every one the game's posts hold."""
    if chosen.keep != request.keep:  # the log changed under the proposal
        await table.store.drop_undo_request(record.id)
        return Outcome(request, LAPSED, record)
    expected = record.version
    standing = len(chosen.journal) - len(turn_steps(chosen.journal))
    record.state, record.journal = chosen.state, chosen.journal
    record.version = expected + 1 + standing
    record.updated_at = now
    try:
        audit = await table.write_undo(record, expected, request, now)
    except VersionConflict:
        await table.store.drop_undo_request(record.id)
        return Outcome(request, LAPSED, await table.get(record.id))
    await table.store.drop_undo_request(record.id)
    result = await table.play_on(record)
    return Outcome(request, DONE, result.record, chosen.undone, result, audit)
