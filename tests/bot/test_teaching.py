"""Teaching tables (`/game learn`, issue 39): the courses' seeds bring every lesson early; a
table starts dealt from its course with no clock, teaches each lesson once (kept with the
move, on both stores), is unrated, and notes a clear mistake privately, once a turn."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.ai import EASY, decide
from bot.read_model import ReadModel
from bot.results import rate
from bot.service import GameService
from bot.store.base import ACTIVE, GameRecord, Seat
from bot.teaching import TAUGHT, TEACHING, due
from bot.teaching.courses import COURSES
from bot.teaching.notes import judge, seed_of
from bot.words import WORDS
from rules import GAMES
from tests.backends import Backend

GUILD, CHANNEL, LEARNER = "g", "c", "101"
DAY = 86400.0


def learner_decisions_to_learn(game_id: str) -> tuple[int | None, list[str]]:
    """Play the course's table with the learner deciding as the AI seats do (easy, seeded by
    the step): at which of the learner's decisions every lesson had come up, and the order."""
    course, game = COURSES[game_id], GAMES[game_id]
    players = ["me", *(f"ai:easy:{n}" for n in range(1, course.ai_seats + 1))]
    state = game.start(players, course.seed, dict(game.default_options))
    taught: list[str] = []
    decisions = 0
    for step in range(2000):
        if game.outcome(state) is not None:
            break
        player = game.to_move(state)[0]
        view, legal = game.view(state, player), game.legal(state, player)
        if player == "me":
            decisions += 1
            taught += [lesson.key for lesson in due(course, view, legal, taught)]
            if len(taught) == len(course.lessons):
                return decisions, taught
        action = decide(game_id, EASY, view, legal, f"x:{step}:{player}", 0.05)
        state = game.play(state, player, action)[0]
    return None, taught


@pytest.mark.parametrize("game_id", sorted(COURSES))
def test_each_course_seed_brings_every_rule_within_its_first_decisions(game_id: str) -> None:
    course = COURSES[game_id]
    decisions, taught = learner_decisions_to_learn(game_id)
    assert decisions is not None, f"never taught: {set(course.keys) - set(taught)}"
    assert decisions <= course.within
    assert taught[:2] == ["goal", "turn"]


def test_every_game_has_a_course_whose_lessons_start_with_the_goal_and_the_turn() -> None:
    assert set(COURSES) == set(GAMES)
    for course in COURSES.values():
        assert course.keys[:2] == ("goal", "turn")
        assert len(set(course.keys)) == len(course.keys)


def test_a_teaching_table_is_unrated_and_a_real_one_is_rated() -> None:
    game = GAMES["street-art"]
    seats = [Seat(user="101", name="Ana"), Seat(user="ai:easy:1", ai=True, name="AI 1")]
    record = GameRecord(
        id="g1",
        game=game.id,
        guild=GUILD,
        channel=CHANNEL,
        host="101",
        status="finished",
        seats=seats,
        prefs={TEACHING: True},
    )
    outcome = type("O", (), {"scores": {"101": 9, "ai:easy:1": 4}, "winners": ["101"]})()
    rows, ratings = rate(record, outcome, {}, at=1.0)  # type: ignore[arg-type]
    assert ratings == []
    assert all((r.mu_before, r.sigma_before) == (r.mu_after, r.sigma_after) for r in rows)
    record.prefs = {}
    rows, ratings = rate(record, outcome, {}, at=1.0)  # type: ignore[arg-type]
    assert ratings and rows[0].mu_after > rows[0].mu_before


@pytest.fixture
async def service(backend: Backend) -> AsyncIterator[GameService]:
    """A service whose own clock would remind at a minute and decide at two."""
    store = await backend.opened()
    yield GameService(store, remind_after=60.0, timeout_after=120.0, clock=lambda: 1000.0)
    await store.close()


async def learning(service: GameService, game_id: str = "street-art") -> GameRecord:
    lobby = await service.learn(game_id, GUILD, CHANNEL, LEARNER, "Ana")
    assert service.ready_to_start(lobby), "the learner is all it awaits"
    result = await service.autostart(lobby.id)
    assert result is not None
    return result.record


async def test_a_teaching_table_is_dealt_from_its_course_and_never_times_out(
    service: GameService,
) -> None:
    record = await learning(service)
    course = COURSES["street-art"]
    assert record.status == ACTIVE and record.seed == course.seed
    assert record.prefs[TEACHING] and record.prefs["thread"] and record.prefs["clock"] == "off"
    assert [s.ai for s in record.seats] == [False] + [True] * course.ai_seats
    assert record.deadline is None and record.remind_at is None
    assert await service.due(1000.0 + 30 * DAY) == []


async def test_a_decisions_lessons_are_shown_once_and_kept_with_the_move(
    service: GameService,
) -> None:
    record = await learning(service)
    read = service.read(record)
    assert [lesson.key for lesson in read.lessons(LEARNER)] == ["goal", "turn"]
    assert read.lessons("ai:easy:1") == [] or "ai:easy:1" not in read.to_move
    move = read.legal(LEARNER)[0]
    moved = await service.move(GUILD, CHANNEL, LEARNER, move, ref=record.id)
    stored = await service.get(record.id)  # read back from the store
    assert stored.prefs[TAUGHT][:2] == ["goal", "turn"]
    shown = [lesson.key for lesson in service.read(stored).lessons(LEARNER)]
    assert "goal" not in shown and "turn" not in shown
    assert moved.record.version == stored.version


async def test_a_real_game_shows_no_lesson(service: GameService) -> None:
    record = await service.new_game("street-art", GUILD, CHANNEL, LEARNER, "Ana")
    record = await service.add_ai(GUILD, CHANNEL, LEARNER, record.id)
    record = await service.add_ai(GUILD, CHANNEL, LEARNER, record.id)
    record = (await service.start(GUILD, CHANNEL, LEARNER, record.id)).record
    assert service.read(record).lessons(LEARNER) == []


async def test_a_clear_mistake_gets_one_note_a_turn_naming_the_better_move(
    service: GameService,
) -> None:
    """The course's first decision, judged move by move as the service judges it: a move the
    verdict calls a mistake gets a note naming the better move with both moves' events, once
    a turn; a move it does not call one gets none; a real game gets none."""
    record = await learning(service)
    before: ReadModel = service.read(record)
    view, legal = before.view(LEARNER), before.legal(LEARNER)
    seed = seed_of(record.seed or "", before.version, LEARNER)
    judged = [judge("street-art", view, legal, move, seed) for move in legal]
    bad = [(move, found) for move, found in zip(legal, judged, strict=True) if found]
    fine = [move for move, found in zip(legal, judged, strict=True) if found is None]
    assert bad and fine, "the first decision of the course has both"
    assert await service.mistake(before, LEARNER, fine[0]) is None
    move, found = bad[0]
    note = await service.mistake(before, LEARNER, move)
    assert note is not None
    words = WORDS["street-art"]
    first, yours, better = note.splitlines()
    best = words.action_label(found["best"], before.names)
    assert f"**{best}** was the stronger move" in first
    assert f"**{words.action_label(move, before.names)}**" in first
    assert yours.startswith("Yours: **Ana** played") and better.startswith(f"With {best}: **Ana**")
    again = await service.mistake(service.read(record), LEARNER, move)
    assert again is None, "at most one note a turn"
    real = await service.new_game("street-art", GUILD, "other", LEARNER, "Ana")
    real.state, real.status, real.seed = record.state, ACTIVE, record.seed
    assert await service.mistake(service.read(real), LEARNER, move) is None


def test_a_decision_of_one_move_teaches_nothing() -> None:
    """It may be taken for the player with no panel shown: its lesson waits for a real one."""
    course = COURSES["street-art"]
    view = {"viewer": "me", "players": [], "takes": {}}
    assert due(course, view, [{"type": "play", "card": "rain"}], []) == []
    two = [{"type": "play", "card": "rain"}, {"type": "play", "card": "juggler"}]
    assert [lesson.key for lesson in due(course, view, two, ["goal", "turn"])] == ["rain"]
