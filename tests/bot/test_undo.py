"""`/game undo` in the service, for every game: a decision that revealed nothing is taken back
with the others' consent (the replayed state is the one before it, the log is cut, the audit
keeps it); one after which something hidden was revealed is refused, saying what."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot import undo
from bot.ai import RandomAgent
from bot.errors import ServiceError
from bot.read_model import turn_version
from bot.service import GameService
from bot.store.base import ACTIVE, GameRecord, Store
from tests.backends import Backend

G, C = "guild", "chan"
ANA, BO, CY = "101", "102", "103"
GAMES = ["street-art", "artsee", "street-art-mural", "street-kings"]


class Clock:
    """A clock the test moves by hand (proposals lapse after ``undo.WINDOW`` seconds)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    """A store on this test's backend (SQLite, then PostgreSQL)."""
    store = await backend.opened()
    yield store
    await store.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store: Store, clock: Clock) -> GameService:
    return GameService(store, seed_factory=lambda: "undo-seed", clock=clock)


async def started(service: GameService, game: str, humans: tuple[str, ...], ais: int = 0):
    record = await service.new_game(game, G, C, humans[0], "Ana")
    for i, player in enumerate(humans[1:], 1):
        record = await service.join(G, C, player, f"P{i}", record.id)
    for _ in range(ais):
        record = await service.add_ai(G, C, humans[0], record.id, level="easy")
    return (await service.start(G, C, humans[0], record.id)).record


def button(request) -> tuple[int, int]:
    """What a proposal's Accept and Decline buttons carry: the game's version and the ticket."""
    return request.version, undo.ticket(request)


def reveals(service: GameService, record: GameRecord, steps) -> bool:
    game = service.engine(record)
    return any(game.reveals(event) for step in steps for event in step.events)


async def play_until(service: GameService, record: GameRecord, wanted: bool, seed: str = "u"):
    """Play seeded random moves until one (with what followed it) reveals something
    (``wanted`` True) or nothing (False); return the record before it, the move's result and
    the log's length before it."""
    agent = RandomAgent(seed)
    for _ in range(400):
        assert record.status == ACTIVE
        player = service.to_move(record)[0]
        action = agent.choose(service.engine(record), service.state(record), player)
        before, logged = record, len(await service.store.actions(record.id))
        result = await service.move(G, C, player, action, ref=record.id)
        if reveals(service, result.record, result.steps) == wanted:
            return before, result, logged
        record = result.record
    raise AssertionError("no such move in 400")


@pytest.mark.parametrize("game", GAMES)
async def test_a_decision_that_revealed_nothing_is_undone_with_consent(
    service: GameService, clock: Clock, game: str
) -> None:
    record = await started(service, game, (ANA, BO, CY))
    before, result, logged = await play_until(service, record, wanted=False)
    mover = result.steps[0].player
    first, last = [p for p in (ANA, BO, CY) if p != mover]
    undone = [(s.player, s.action) for s in result.steps]

    proposal = await service.propose_undo(G, C, mover, record.id)
    assert proposal.status == undo.PENDING and proposal.waiting == [first, last]
    request = proposal.request
    half = await service.answer_undo(G, record.id, first, True, *button(request))
    assert half.status == undo.PENDING and half.waiting == [last]
    assert (await service.get(record.id)).state == result.record.state
    clock.now += 60
    done = await service.answer_undo(G, record.id, last, True, *button(request))

    assert done.status == undo.DONE
    after = await service.get(record.id)
    assert after.state == before.state
    assert after.to_move == service.to_move(after) == service.to_move(before)
    assert after.journal == before.journal
    assert turn_version(after) > turn_version(result.record)
    log = await service.store.actions(record.id)
    assert len(log) == logged
    audit = await service.store.undone_actions(record.id)
    assert [(a.player, a.action) for a in audit] == undone
    assert [a.seq for a in audit] == list(range(logged + 1, logged + 1 + len(undone)))
    assert all(a.requested_by == mover and a.undone_at == clock.now for a in audit)
    assert done.audit == audit
    # The game goes on from there: the same player owes the decision again.
    assert mover in service.to_move(after)
    assert await service.store.undo_request(record.id) is None


@pytest.mark.parametrize("game", GAMES)
async def test_a_decision_after_which_something_was_revealed_is_refused(
    service: GameService, game: str
) -> None:
    record = await started(service, game, (ANA, BO, CY))
    _, result, logged = await play_until(service, record, wanted=True)
    mover = result.steps[0].player
    with pytest.raises(ServiceError, match="something hidden was revealed since"):
        await service.propose_undo(G, C, mover, record.id)
    assert len(await service.store.actions(record.id)) == logged + len(result.steps)
    assert await service.store.undone_actions(record.id) == []
    assert await service.store.undo_request(record.id) is None


async def test_the_ai_moves_that_followed_go_back_too_and_nobody_is_asked(
    service: GameService,
) -> None:
    """Mural against an AI: the human's turn and the AI's whole turn after it reveal nothing
    (no card painted), and with no other human the undo applies at once."""
    record = await started(service, "street-art-mural", (ANA,), ais=1)
    agent = RandomAgent("ai-follows")
    for _ in range(200):
        before, logged = record, len(await service.store.actions(record.id))
        action = agent.choose(service.engine(record), service.state(record), ANA)
        result = await service.move(G, C, ANA, action, ref=record.id)
        record = result.record
        ai_moved = any(step.player != ANA for step in result.steps)
        if ai_moved and not reveals(service, record, result.steps):
            break
    else:
        raise AssertionError("the AI never followed a move that revealed nothing")
    done = await service.propose_undo(G, C, ANA, record.id)
    assert done.status == undo.DONE and done.request.awaiting == ()
    after = await service.get(record.id)
    assert after.state == before.state
    assert after.to_move == service.to_move(after) == service.to_move(before)
    assert len(await service.store.actions(record.id)) == logged
    audit = await service.store.undone_actions(record.id)
    assert [a.player for a in audit] == [s.player for s in result.steps]
    assert {a.player for a in audit} > {ANA}


async def test_one_decline_cancels_and_nothing_changes(service: GameService) -> None:
    record = await started(service, "artsee", (ANA, BO, CY))
    _, result, logged = await play_until(service, record, wanted=False)
    mover = result.steps[0].player
    others = [p for p in (ANA, BO, CY) if p != mover]
    proposal = await service.propose_undo(G, C, mover, record.id)
    request = proposal.request
    half = await service.answer_undo(G, record.id, others[0], True, *button(request))
    assert half.status == undo.PENDING and half.waiting == [others[1]]
    with pytest.raises(ServiceError, match="already"):
        await service.answer_undo(G, record.id, others[0], True, *button(request))
    declined = await service.answer_undo(G, record.id, others[1], False, *button(request))
    assert declined.status == undo.DECLINED
    assert (await service.get(record.id)).state == result.record.state
    assert len(await service.store.actions(record.id)) == logged + len(result.steps)
    with pytest.raises(ServiceError, match="closed already"):
        await service.answer_undo(G, record.id, others[0], True, *button(request))


async def test_refusals_say_why(service: GameService, clock: Clock) -> None:
    record = await started(service, "street-art-mural", (ANA, BO))
    first = service.to_move(record)[0]
    second = BO if first == ANA else ANA
    assert first != second
    with pytest.raises(ServiceError, match="no decision in game"):
        await service.propose_undo(G, C, second, record.id)
    with pytest.raises(ServiceError, match="not playing"):
        await service.propose_undo(G, C, CY, record.id)
    _, result, _ = await play_until(service, record, wanted=False)
    mover = result.steps[0].player
    other = BO if mover == ANA else ANA
    proposal = await service.propose_undo(G, C, mover, record.id)
    with pytest.raises(ServiceError, match="already proposed"):
        await service.propose_undo(G, C, other, record.id)
    with pytest.raises(ServiceError, match="Only"):
        await service.answer_undo(G, record.id, CY, True, *button(proposal.request))
    # Ten minutes later the proposal has lapsed: a click says so, and a new one may be made.
    clock.now += undo.WINDOW + 1
    lapsed = await service.answer_undo(G, record.id, other, True, *button(proposal.request))
    assert lapsed.status == undo.LAPSED
    assert (await service.get(record.id)).state == result.record.state
    again = await service.propose_undo(G, C, mover, record.id)
    assert again.status == undo.PENDING
    # The lapsed proposal's buttons never answer the new one.
    with pytest.raises(ServiceError, match="closed already"):
        await service.answer_undo(G, record.id, other, True, *button(proposal.request))
    assert (
        await service.answer_undo(G, record.id, other, True, *button(again.request))
    ).status == undo.DONE


async def test_a_move_meanwhile_makes_the_proposal_lapse(service: GameService) -> None:
    record = await started(service, "street-art-mural", (ANA, BO))
    _, result, _ = await play_until(service, record, wanted=False)
    record = result.record
    mover = result.steps[0].player
    other = BO if mover == ANA else ANA
    proposal = await service.propose_undo(G, C, mover, record.id)
    player = service.to_move(record)[0]
    action = RandomAgent("x").choose(service.engine(record), service.state(record), player)
    await service.move(G, C, player, action, ref=record.id)
    lapsed = await service.answer_undo(G, record.id, other, True, *button(proposal.request))
    assert lapsed.status == undo.LAPSED
    assert await service.store.undone_actions(record.id) == []


async def test_standing_orders_are_no_decision_and_go_back_with_the_tail(
    service: GameService,
) -> None:
    """ArtSee's visitor policy is a standing order: given after the decision by the mover it
    is not the decision taken back, and given by someone else it goes back with the rest
    (audited); the restored turn's buttons are newer than any posted before."""
    record = await started(service, "artsee", (ANA, BO, CY))
    before, result, logged = await play_until(service, record, wanted=False)
    mover = result.steps[0].player
    others = [p for p in (ANA, BO, CY) if p != mover]
    await service.move(G, C, mover, {"type": "policy", "policy": "never"}, ref=record.id)
    last = await service.move(G, C, others[0], {"type": "policy", "policy": "ask"}, ref=record.id)
    assert last.steps[0].standing  # given out of turn

    proposal = await service.propose_undo(G, C, mover, record.id)
    for player in others:
        done = await service.answer_undo(G, record.id, player, True, *button(proposal.request))
    assert done.status == undo.DONE
    after = await service.get(record.id)
    assert after.state == before.state and after.journal == before.journal
    audit = await service.store.undone_actions(record.id)
    assert [a.action.get("type") for a in audit][-2:] == ["policy", "policy"]
    assert len(audit) == len(result.steps) + 2
    assert len(await service.store.actions(record.id)) == logged
    assert turn_version(after) > turn_version(last.record)
