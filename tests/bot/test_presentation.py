"""A turn presented once (bot/presentation): what each step shows is what the engine then does,
as far as the seat can know it, and it never depends on what the seat cannot see.

Two checks. Through the service, random games of every game: every step a seat builds is then
confirmed, and the events the service records for it begin with the preview's, all of them
unless the step reveals something (whose event comes next, unguessed). And under a redeal of
everything a seat cannot see (``rules.DETERMINIZERS``, as the views' and AI's tests do it), the
whole presentation of a step, and of the step after it, reads the same.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai import RandomAgent
from bot.errors import ServiceError, StaleRequest
from bot.presentation import Turn, build
from bot.presentation.confirm import confirm
from bot.service import GameService
from bot.store.base import ACTIVE
from rules import DETERMINIZERS, GAMES, Game
from tests.backends import Backend

G, C = "guild", "chan"
SEATS = {"101": "Ana", "102": "Bo", "103": "Cy"}
#: Decisions per game through the service (enough to meet every kind of step).
DECISIONS = 120


@pytest.fixture
async def service(backend: Backend):
    store = await backend.opened()
    yield GameService(store, seed_factory=lambda: "presented")
    await store.close()


async def table(service: GameService, game: str) -> Any:
    (first, *others) = SEATS
    record = await service.new_game(game, G, C, first, SEATS[first])
    for seat in others:
        await service.join(G, C, seat, SEATS[seat], record.id)
    return (await service.start(G, C, first, record.id)).record


def chain(game: Game, state: Any, seat: str, names: dict[str, str], rng: random.Random) -> Turn:
    """A turn built as a player taps: a lit target at random, until the build closes."""
    chosen: list[int] = []
    turn = build(game, state, seat, names, chosen)
    while not turn.closed and turn.targets:
        lit = [t for t in turn.targets if t.index is not None]
        chosen.append(rng.choice(lit).index)  # type: ignore[arg-type]  # lit: set
        turn = build(game, state, seat, names, chosen)
    return turn


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_every_preview_is_what_the_engine_then_does(
    service: GameService, game_id: str
) -> None:
    record = await table(service, game_id)
    rng = random.Random(game_id)
    game = GAMES[game_id]
    confirmed = 0
    while record.status == ACTIVE and confirmed < DECISIONS:
        read = service.read(record)
        seat = read.waiting_humans[0]
        turn = chain(game, read.state, seat, read.names, rng)
        chosen = [step.index for step in turn.built if not step.automatic]
        results = await confirm(service, record, seat, chosen, read.version)
        assert len(results) == len(turn.built)
        for step, result in zip(turn.built, results, strict=True):
            done = result.steps[0]
            assert (done.player, done.action) == (seat, step.action)
            shown = list(step.events)
            assert done.events[: len(shown)] == shown
            if len(done.events) > len(shown):
                assert step is turn.built[-1] and turn.closed
                assert game.reveals(done.events[len(shown)])
        confirmed += len(turn.built)
        record = await service.get(record.id)
    assert confirmed >= min(DECISIONS, 20)


async def test_an_old_or_forged_turn_is_refused_and_nothing_is_applied(
    service: GameService,
) -> None:
    record = await table(service, "artsee")
    read = service.read(record)
    seat = read.waiting_humans[0]
    with pytest.raises(StaleRequest):
        await confirm(service, record, seat, [0], read.version - 1)
    with pytest.raises(ServiceError, match="not on offer"):
        await confirm(service, record, seat, [0, 99], read.version)
    with pytest.raises(ServiceError, match="past what can be known"):
        await confirm(service, record, seat, [0, 0, 0, 0], read.version)
    other = next(s for s in SEATS if s != seat)
    with pytest.raises(ServiceError):
        await confirm(service, record, other, [0], read.version)
    assert (await service.get(record.id)).version == record.version


SETTINGS = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def shown(game: Game, state: Any, seat: str, chosen: list[int]) -> str:
    return json.dumps(build(game, state, seat, {}, chosen).to_json(), sort_keys=True)


@pytest.mark.parametrize("game_id", sorted(GAMES))
@SETTINGS
@given(data=st.data())
def test_a_step_shows_the_same_whatever_the_seat_cannot_see(
    game_id: str, data: st.DataObject
) -> None:
    """The redeal test of the views, for the presentation: the targets, refusals and previews
    of a step, and of the step after the first one that reveals nothing, are a function of
    the seat's view alone (so no other seat's hidden card can reach any of them)."""
    game = GAMES[game_id]
    seed = data.draw(st.text(max_size=4), label="seed")
    players = ["p0", "p1", "p2"]
    state = game.start(players, seed, {})
    agent = RandomAgent(seed)
    for step in range(300):
        if game.outcome(state) is not None:
            break
        seat = game.to_move(state)[0]
        if step % 7 == 0:
            view = game.view(state, seat)
            redealt = DETERMINIZERS[game.id](view, seat, random.Random(f"{seed}:{step}"))
            assert shown(game, redealt, seat, []) == shown(game, state, seat, [])
            turn = build(game, state, seat, {}, [])
            ahead = [t.index for t in turn.targets if t.index is not None and not t.closes]
            if ahead:
                assert shown(game, redealt, seat, ahead[:1]) == shown(game, state, seat, ahead[:1])
        state, _events = game.play(state, seat, agent.choose(game, state, seat))
