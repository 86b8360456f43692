"""The service: lobby, turns, bad input (a clear sentence, nothing changed), races, restarts."""

from __future__ import annotations

import asyncio

import pytest

from bot.errors import ServiceError, StaleRequest
from bot.read_model import ReadModel
from bot.service import GameService
from bot.store import Store
from bot.store.base import ABANDONED, ACTIVE, FINISHED, LOBBY
from rules.street_art.data import CARDS
from tests.backends import Backend

G, C = "guild", "chan"
ANA, BO, CY, DEE, EVE, FAY = "101", "102", "103", "104", "105", "106"
NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy", DEE: "Dee", EVE: "Eve", FAY: "Fay"}


@pytest.fixture
async def store(backend: Backend):
    store = await backend.opened()
    yield store
    await store.close()


@pytest.fixture
def service(store: Store) -> GameService:
    return GameService(store, seed_factory=lambda: "fixed-seed")


async def lobby(service: GameService, *players: str, channel: str = C):
    record = await service.new_game("street-art", G, channel, players[0], NAMES[players[0]])
    for player in players[1:]:
        record = await service.join(G, channel, player, NAMES[player], record.id)
    return record


async def started(service: GameService, *players: str):
    await lobby(service, *players)
    return (await service.start(G, C, players[0])).record


def current(service: GameService, record) -> str:
    (player,) = service.to_move(record)
    return player


async def refused(coro, *fragments: str) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        await coro
    for fragment in fragments:
        assert fragment in info.value.message
    return info.value


# -- lobby ---------------------------------------------------------------------------------------


async def test_new_join_start_makes_an_active_game(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    assert record.status == ACTIVE
    assert [s.user for s in record.seats] == [ANA, BO, CY]
    assert current(service, record) in (ANA, BO, CY)


async def test_unknown_game_and_unknown_option_are_refused(service: GameService) -> None:
    await refused(service.new_game("chess", G, C, ANA, "Ana"), "no game called `chess`")
    await refused(
        service.new_game("street-art", G, C, ANA, "Ana", {"colour": "red"}), "no option colour"
    )


async def test_joining_a_full_game_is_refused(service: GameService) -> None:
    record = await lobby(service, ANA, BO, CY, DEE, EVE)
    await refused(service.join(G, C, FAY, "Fay", record.id), "is full")
    assert len((await service.get(record.id)).seats) == 5


async def test_joining_a_started_game_is_refused(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    await refused(service.join(G, C, DEE, "Dee", record.id), "already started")


async def test_joining_twice_or_two_games_in_one_channel_is_refused(service: GameService) -> None:
    record = await lobby(service, ANA, BO)
    await refused(service.join(G, C, BO, "Bo", record.id), "already in game")
    await refused(service.new_game("street-art", G, C, BO, "Bo"), "already in game")


async def test_starting_with_too_few_players_or_not_host_is_refused(service: GameService) -> None:
    record = await lobby(service, ANA, BO)
    await refused(service.start(G, C, ANA), "3 to 5 players")
    await service.join(G, C, CY, "Cy", record.id)
    await refused(service.start(G, C, BO), "Only the host (Ana)")
    assert (await service.get(record.id)).status == LOBBY


async def test_two_players_start_with_the_option(service: GameService) -> None:
    record = await service.new_game("street-art", G, C, ANA, "Ana", {"two_players": True})
    await service.join(G, C, BO, "Bo", record.id)
    assert (await service.start(G, C, ANA)).record.status == ACTIVE


async def test_host_leaving_a_lobby_passes_the_host_on(service: GameService) -> None:
    record = await lobby(service, ANA, BO)
    result = await service.leave(G, C, ANA)
    assert result.record.host == BO
    assert [s.user for s in result.record.seats] == [BO]
    result = await service.leave(G, C, BO)
    assert result.record.status == ABANDONED
    assert (await service.get(record.id)).status == ABANDONED


async def test_abandon_needs_the_host_or_manage_server(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    await refused(service.abandon(G, C, BO, is_admin=False), "Only the host")
    assert (await service.get(record.id)).status == ACTIVE
    await service.abandon(G, C, BO, is_admin=True)
    assert (await service.get(record.id)).status == ABANDONED


async def test_unknown_game_id_and_other_servers_games_are_not_found(service: GameService) -> None:
    record = await lobby(service, ANA)
    await refused(service.get("zzzzzz", G), "no game `zzzzzz`")
    await refused(service.get(record.id, "another-guild"), "no game")


async def test_add_ai_fills_a_seat_and_ai_plays_its_turns(service: GameService) -> None:
    await lobby(service, ANA)
    await service.add_ai(G, C, ANA)
    record = await service.add_ai(G, C, ANA)
    assert [s.name for s in record.seats] == ["Ana", "AI 1", "AI 2"]
    result = await service.start(G, C, ANA)
    # Whoever started, AI seats have played until it is Ana's turn.
    assert service.to_move(result.record) == [ANA]


# -- turns ---------------------------------------------------------------------------------------


def playable(service: GameService, record, player: str) -> dict:
    """A legal non-Brass, non-Fireworks play if there is one (a turn that ends at once)."""
    actions = service.legal(record, player)
    simple = [a for a in actions if a.get("card") not in ("brass-band", "fireworks")]
    return (simple or actions)[0]


async def test_playing_out_of_turn_names_whose_turn_it_is(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    turn = current(service, record)
    other = next(p for p in (ANA, BO, CY) if p != turn)
    await refused(
        service.move(G, C, other, {"type": "play", "card": "rain"}), f"It is {NAMES[turn]}'s turn"
    )
    assert (await service.get(record.id)).version == record.version


async def test_not_seated_here_points_to_game_list(service: GameService) -> None:
    await started(service, ANA, BO, CY)
    await refused(
        service.move(G, C, DEE, {"type": "play", "card": "rain"}),
        "You are not in a game in this channel",
        "/game list",
    )


async def test_a_card_you_do_not_hold_is_refused_and_changes_nothing(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    turn = current(service, record)
    hand = service.view(record, turn)["hand"]
    missing = next(card for card in CARDS if card not in hand)
    await refused(service.move(G, C, turn, {"type": "play", "card": missing}), "do not hold")
    after = await service.get(record.id)
    assert after.version == record.version and after.state == record.state
    assert await service.store.actions(record.id) == []


async def test_a_move_is_logged_and_tells_the_finished_turn(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    turn = current(service, record)
    action = playable(service, record, turn)
    result = await service.move(G, C, turn, action)
    log = await service.store.actions(record.id)
    assert (log[0].player, log[0].action) == (turn, action)
    if action["card"] not in ("brass-band", "fireworks"):
        assert result.turn_over and result.told[0].action == action
        assert current(service, result.record) != turn


async def test_a_move_loads_its_snapshot_once_and_reads_the_state_it_played(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = await started(service, ANA, BO, CY)
    turn = current(service, record)
    action = playable(service, record, turn)
    engine = service.engine(record)
    loads: list[object] = []
    load = engine.load
    monkeypatch.setattr(engine, "load", lambda data: loads.append(data) or load(data))
    result = await service.move(G, C, turn, action)
    assert len(loads) == 1  # the stored snapshot, read once; its checks, clock and AI reuse
    assert result.read.state == load(result.record.state)  # the post shows what was played
    assert service.read(result.record).state is result.read.state and len(loads) == 1
    fresh = await service.get(record.id)  # a snapshot read again is loaded again
    assert service.read(fresh).state == result.read.state and len(loads) == 2


async def test_an_out_of_date_click_is_refused_with_the_current_game(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    turn = current(service, record)
    with pytest.raises(StaleRequest) as info:
        await service.move(
            G, C, turn, playable(service, record, turn), expected_version=record.version - 1
        )
    assert info.value.record.version == record.version
    assert "out of date" in info.value.message


async def test_a_multi_decision_turn_is_told_whole_when_it_ends(service: GameService) -> None:
    """Brass Bands over several decisions (even across a restart) are narrated in one post."""
    record = await started(service, ANA, BO, CY)
    for _ in range(200):  # play until someone can start a Brass Band turn with two in hand
        turn = current(service, record)
        hand = service.view(record, turn)["hand"]
        if hand.count("brass-band") >= 2:
            break
        record = (await service.move(G, C, turn, playable(service, record, turn))).record
        if record.status != ACTIVE:
            pytest.skip("this seed never dealt two Brass Bands to one hand")
    first = await service.move(G, C, turn, {"type": "play", "card": "brass-band"})
    assert not first.turn_over and first.told == []
    assert len((await service.get(record.id)).journal) == 1  # kept in the store, not in memory
    fresh = GameService(service.store)
    done = await fresh.move(G, C, turn, {"type": "stop"})
    assert done.turn_over
    assert [s.action for s in done.told] == [
        {"type": "play", "card": "brass-band"},
        {"type": "stop"},
    ]
    assert (await service.get(record.id)).journal == []


async def test_leaving_a_running_game_hands_the_seat_to_the_ai(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    leaver = current(service, record)
    result = await service.leave(G, C, leaver)
    seat = result.record.seat_of(leaver)
    assert seat is not None and seat.ai and seat.name.endswith("(AI)")
    assert leaver not in service.to_move(result.record)  # the AI played the turn
    await refused(service.move(G, C, leaver, {"type": "stop"}), "not in a game in this channel")


async def test_several_games_in_one_channel_resolve_by_who_asks(service: GameService) -> None:
    first = await service.new_game("street-art", G, C, ANA, "Ana")
    second = await service.new_game("street-art", G, C, DEE, "Dee")
    await refused(service.join(G, C, BO, "Bo"), "Several games are waiting")
    await service.join(G, C, BO, "Bo", first.id)
    await service.join(G, C, EVE, "Eve", second.id)
    assert (await service.resolve(G, C, BO)).id == first.id
    assert (await service.resolve(G, C, EVE)).id == second.id


async def test_a_whole_game_finishes_with_an_outcome(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    for _ in range(5000):
        if record.status != ACTIVE:
            break
        turn = current(service, record)
        record = (await service.move(G, C, turn, service.legal(record, turn)[0])).record
    assert record.status == FINISHED
    outcome = service.outcome(record)
    assert outcome is not None and outcome.winners
    assert service.to_move(record) == []


# -- races and restarts ----------------------------------------------------------------------------


async def test_two_processes_racing_on_one_move_apply_it_once(backend: Backend) -> None:
    """Two bot processes (two stores on one database) both try the same move: one wins, the
    other re-reads, sees it is no longer that player's turn, and says so; the log has one row."""
    stores = [backend.store(), backend.store()]
    for store in stores:
        await store.open()
    try:
        one, two = (GameService(store, seed_factory=lambda: "race") for store in stores)
        record = await started(one, ANA, BO, CY)
        turn = current(one, record)
        action = playable(one, record, turn)
        results = await asyncio.gather(
            one.move(G, C, turn, action), two.move(G, C, turn, action), return_exceptions=True
        )
        errors = [r for r in results if isinstance(r, Exception)]
        if action["card"] in ("brass-band", "fireworks"):
            pytest.skip("a continuing turn may legally take both")  # not for this seed
        assert len(errors) == 1 and isinstance(errors[0], ServiceError)
        assert len(await stores[0].actions(record.id)) == 1
    finally:
        for store in stores:
            await store.close()


async def test_a_game_continues_after_reopening_the_database(backend: Backend) -> None:
    store = await backend.opened()
    record = await started(GameService(store, seed_factory=lambda: "r"), ANA, BO, CY)
    await store.close()

    store = await backend.opened()
    try:
        service = GameService(store)
        again = await service.get(record.id)
        assert again.state == record.state and again.version == record.version
        turn = current(service, again)
        result = await service.move(G, C, turn, playable(service, again, turn))
        assert result.record.version == record.version + 1
    finally:
        await store.close()


# -- the clock: reminders and timeouts ---------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_a_move_restarts_the_reminder_and_the_deadline(store: Store) -> None:
    clock = Clock()
    service = GameService(store, clock=clock, remind_after=100, timeout_after=1000)
    record = await started(service, ANA, BO, CY)
    assert (record.remind_at, record.deadline) == (clock.now + 100, clock.now + 1000)
    assert await service.due(clock.now + 99) == []
    clock.now += 50
    turn = current(service, record)
    record = (await service.move(G, C, turn, playable(service, record, turn))).record
    assert (record.remind_at, record.deadline) == (clock.now + 100, clock.now + 1000)


async def test_a_reminder_is_sent_once_and_keeps_the_board_current(store: Store) -> None:
    clock = Clock()
    service = GameService(store, clock=clock, remind_after=100, timeout_after=1000)
    record = await started(service, ANA, BO, CY)
    (due,) = await service.due(clock.now + 100)
    assert await service.remind(due, clock.now + 100) == [current(service, record)]
    after = await service.get(record.id)
    assert after.remind_at is None and after.deadline == record.deadline
    assert after.version == record.version  # the buttons on the board stay valid
    assert await service.due(clock.now + 999) == []


async def test_at_the_deadline_the_ai_decides_for_the_late_player(store: Store) -> None:
    clock = Clock()
    service = GameService(store, clock=clock, remind_after=None, timeout_after=1000)
    record = await started(service, ANA, BO, CY)
    late = current(service, record)
    early = await service.time_out(record.id, clock.now + 999)
    assert early.timed_out == [] and early.steps == []
    result = await service.time_out(record.id, clock.now + 1000)
    assert result.timed_out == [late]
    assert result.told and result.told[0].player == late
    assert late not in service.to_move(result.record)
    seat = result.record.seat_of(late)
    assert seat is not None and not seat.ai  # still their seat next turn


async def test_no_clock_runs_while_only_ai_seats_are_to_move(store: Store) -> None:
    service = GameService(store, clock=Clock(), remind_after=100, timeout_after=1000)
    await lobby(service, ANA)
    await service.add_ai(G, C, ANA)
    await service.add_ai(G, C, ANA)
    record = (await service.start(G, C, ANA)).record
    assert service.to_move(record) == [ANA] and record.deadline is not None
    result = await service.leave(G, C, ANA)  # the last human leaves: AI seats only
    assert result.record.status == ABANDONED
    assert (result.record.remind_at, result.record.deadline) == (None, None)


async def test_history_replays_the_log_onto_the_snapshot(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    played = []
    for _ in range(6):
        turn = current(service, record)
        action = playable(service, record, turn)
        result = await service.move(G, C, turn, action)
        played.extend(result.steps)
        record = result.record
    assert await service.history(record) == played


async def test_history_refuses_a_snapshot_the_log_does_not_explain(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    turn = current(service, record)
    record = (await service.move(G, C, turn, playable(service, record, turn))).record
    record.seed = "another-seed"  # as if the snapshot had been tampered with
    await refused(service.history(record), "could not be replayed")


async def test_a_reminder_read_before_a_move_does_not_touch_the_new_clock(
    store: Store,
) -> None:
    clock = Clock()
    service = GameService(store, clock=clock, remind_after=100, timeout_after=1000)
    record = await started(service, ANA, BO, CY)
    (due,) = await service.due(clock.now + 100)
    clock.now += 100
    turn = current(service, record)
    moved = (await service.move(G, C, turn, playable(service, record, turn))).record
    assert await service.remind(due, clock.now) == []  # for a turn already taken
    after = await service.get(record.id)
    assert (after.remind_at, after.deadline) == (moved.remind_at, moved.deadline)


# -- the read model -------------------------------------------------------------------------------


class CountingEngine:
    """An engine wrapper that counts each call the read model makes."""

    def __init__(self, engine) -> None:
        self.engine = engine
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str):
        real = getattr(self.engine, name)
        if not callable(real):
            return real

        def counted(*args, **kwargs):
            self.calls[name] = self.calls.get(name, 0) + 1
            return real(*args, **kwargs)

        return counted


async def test_a_read_model_loads_once_and_computes_each_piece_once_per_viewer(
    service: GameService,
) -> None:
    record = await started(service, ANA, BO, CY)
    engine = CountingEngine(service.engine(record))
    read = ReadModel(record, engine, service.pictures)  # type: ignore[arg-type]
    for _ in range(3):
        mover = read.to_move[0]
        assert read.view(mover) is read.view(mover)
        read.view(None), read.legal(mover), read.legal(BO), read.outcome, read.turn_message()
    assert engine.calls == {"load": 1, "to_move": 1, "view": 2, "legal": 2, "outcome": 1}
    assert read.names == {p: NAMES[p] for p in (ANA, BO, CY)}


async def test_the_view_stays_as_the_engine_returned_it(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    engine = service.engine(record)
    state = engine.load(record.state)
    assert service.view(record, None) == engine.view(state, None)
    assert "names" not in service.view(record, ANA)


async def test_a_move_hands_back_the_read_model_of_the_game_it_left(service: GameService) -> None:
    record = await started(service, ANA, BO, CY)
    mover = current(service, record)
    result = await service.move(G, C, mover, service.legal(record, mover)[0])
    assert result.read.record is result.record
    assert result.read.to_move == service.to_move(await service.get(record.id))
