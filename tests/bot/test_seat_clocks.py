"""A clock for each seat that owes a decision (issue 13): at a decision several players owe at
once, each has their own reminder and deadline, kept in the store across a restart.

None of the four games asks two players at once today, so the clocks are shown on a small game
of the protocol that does: every round, each player says "ready" in any order.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.service import GameService
from bot.store import GameRecord, Store
from rules import IllegalAction
from rules.protocol import Game, turn_after
from tests.backends import Backend

ANA, BO, CY = "1001", "1002", "1003"
G, C = "9", "8"
ROUNDS = 3


class ReadyRounds(Game):
    """Each round every player owes one decision, all at once; the game ends after
    ``ROUNDS`` rounds."""

    id = "ready-rounds"
    title = "Ready Rounds"
    min_players = 2
    max_players = 4
    default_options: ClassVar[dict[str, Any]] = {}

    def start(self, players: list[str], seed: str, options: dict[str, Any]) -> dict[str, Any]:
        return {"players": list(players), "round": 0, "ready": [], "turn": 1}

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "ready": list(data["ready"])}

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return {**state, "ready": list(state["ready"])}

    def to_move(self, state: dict[str, Any]) -> list[str]:
        if state["round"] >= ROUNDS:
            return []
        return [p for p in state["players"] if p not in state["ready"]]

    def legal(self, state: dict[str, Any], player: str) -> list[dict[str, Any]]:
        return [{"type": "ready"}] if player in self.to_move(state) else []

    def play(self, state: dict[str, Any], player: str, action: dict[str, Any]):
        if action != {"type": "ready"} or player not in self.to_move(state):
            raise IllegalAction("Not now.")
        before = self.to_move(state)
        state = self.load(state)
        state["ready"].append(player)
        events: list[dict[str, Any]] = [{"type": "ready", "player": player}]
        if not self.to_move(state):
            state["round"] += 1
            state["ready"] = []
            events.append({"type": "turn"})
        state["turn"] = turn_after(state["turn"], player, before, self.to_move(state), events)
        return state, events

    def turn(self, state: dict[str, Any]) -> int:
        return int(state["turn"])

    def view(self, state: dict[str, Any], player: str | None) -> dict[str, Any]:
        return self.dump(state)

    def outcome(self, state: dict[str, Any]):
        return None


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def ana_and_bo(service: GameService) -> GameRecord:
    """A ReadyRounds game of Ana and Bo, started."""
    await service.new_game(ReadyRounds.id, G, C, ANA, "Ana")
    await service.join(G, C, BO, "Bo")
    return (await service.start(G, C, ANA)).record


async def first_legal(game_id: str, level: str, view: Any, legal: list[Any], *_: Any) -> Any:
    """The AI of a game the real agents do not know (``bot.ai.decide`` reads ``rules.GAMES``)."""
    return legal[0]


def service_on(store: Store, clock: Clock) -> GameService:
    return GameService(
        store,
        games={ReadyRounds.id: ReadyRounds()},
        decide=first_legal,
        clock=clock,
        remind_after=100,
        timeout_after=1000,
    )


async def test_each_seat_has_its_own_clock_and_keeps_it_across_a_restart(
    backend: Backend,
) -> None:
    clock = Clock()
    store = await backend.opened()
    service = service_on(store, clock)
    record = await service.new_game(ReadyRounds.id, G, C, ANA, "Ana")
    for user, name in ((BO, "Bo"), (CY, "Cy")):
        await service.join(G, C, user, name)
    record = (await service.start(G, C, ANA)).record
    started = clock.now
    assert record.clocks == {p: [started + 100, started + 1000] for p in (ANA, BO, CY)}

    clock.now += 500  # Ana answers; Bo and Cy keep the time they have had since the start
    record = (await service.move(G, C, ANA, {"type": "ready"})).record
    assert record.clocks == {p: [started + 100, started + 1000] for p in (BO, CY)}
    (due,) = await service.due(clock.now)
    assert sorted(await service.remind(due, clock.now)) == [BO, CY]
    await store.close()

    store = await backend.opened()  # a restart: a new store and service
    service = service_on(store, clock)
    kept = await service.get(record.id)
    # Reminded once (no vacation day spent: None), counted toward a stalled table (issue 27).
    assert kept.clocks == {p: [None, started + 1000, None, 1] for p in (BO, CY)}
    clock.now = started + 900
    record = (await service.move(G, C, BO, {"type": "ready"})).record
    assert record.clocks == {CY: [None, started + 1000, None, 1]}  # Cy's own, not restarted

    result = await service.time_out(record.id, started + 1000)
    assert result.timed_out == [CY]  # only the seat whose time ran out
    # A new round: everyone owes a decision again, each on a fresh clock of their own.
    fresh = [started + 900 + 100, started + 900 + 1000]
    assert result.record.clocks == {p: fresh for p in (ANA, BO, CY)}
    await store.close()


async def test_a_late_seat_times_out_alone_while_the_others_still_have_time(
    backend: Backend,
) -> None:
    clock = Clock()
    store = await backend.opened()
    service = service_on(store, clock)
    record = await ana_and_bo(service)
    clock.now += 600
    record = (await service.move(G, C, ANA, {"type": "ready"})).record
    await service.move(G, C, BO, {"type": "ready"})  # round 2 begins: fresh clocks for both
    clock.now += 600
    record = (await service.move(G, C, ANA, {"type": "ready"})).record  # Ana restarts hers
    early = await service.time_out(record.id, clock.now + 399)
    assert early.timed_out == [] and early.steps == []
    result = await service.time_out(record.id, clock.now + 400)  # Bo's own deadline
    assert result.timed_out == [BO]
    fresh = [clock.now + 100, clock.now + 1000]  # round 3 for both, on fresh clocks
    assert result.record.clocks == {ANA: fresh, BO: fresh}
    await store.close()
