"""Teaching tables through Discord (`/game learn`): a newcomer plays a whole table against the
AI by the panels alone, following the advice (``bot.ai.advice.hint``) at every decision, and
meets every rule of the game's course on the panel where it matters.

Street Art: Mural runs in the default suite (its advice is quick); a whole table of the other
games takes a minute or more of advice and is marked slow.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bot.ai.advice import appraise, hint
from bot.i18n import _
from bot.store.base import GameRecord
from bot.teaching import TAUGHT, TEACHING
from bot.teaching.courses import COURSES
from bot.teaching.notes import judge, seed_of
from bot.words import WORDS
from cogs.app import create_bot
from tests.harness import Channel, Harness, Response, SeenMessage, User
from tests.harness.steps import take_move

pytest_plugins = ["tests.harness.fixtures"]

ANA = User(id=1301, name="ana", global_name="Ana")
BO = User(id=1302, name="bo", global_name="Bo")
TABLE = Channel(id=2301, name="learning")
GUILD = 3301
LESSON = "📘 "


async def learner_table(harness_factory, tmp_path: Path) -> Harness:
    bot = create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", discord_token="")
    return await harness_factory(bot, guild_id=GUILD, channels=[TABLE], members=[ANA, BO])


def lessons_in(messages: list[SeenMessage]) -> list[str]:
    """The lesson lines the learner read on their panels."""
    return [
        line.removeprefix(LESSON)
        for message in messages
        for line in message.content.splitlines()
        if line.startswith(LESSON)
    ]


class Newcomer:
    """Plays a teaching table on its panels, taking the advised move at each decision."""

    def __init__(self, h: Harness, game: str) -> None:
        self.h, self.game = h, game
        self.read: list[SeenMessage] = []
        self.notes: list[str] = []
        self.decisions = 0
        #: Each decision met (view and moves) and how often; how often a circle was left.
        self.met: dict[str, int] = {}
        self.circles = 0
        #: Each lesson's text -> the decision (counted from 1) whose panel first showed it.
        self.first_shown: dict[str, int] = {}

    def seen(self, response: Response) -> Response:
        self.read += response.ephemeral_messages
        for text in lessons_in(response.ephemeral_messages):
            self.first_shown.setdefault(text, self.decisions + 1)
        self.notes += [m.content for m in response.ephemeral_messages if "📝" in m.content]
        return response

    def latest_board(self) -> SeenMessage:
        posts = [m for thread in self.h.threads(TABLE) for m in self.h.channel_messages(thread)]
        return next(
            m for m in reversed(posts) if any(":hand:" in (b.custom_id or "") for b in m.buttons)
        )

    async def take(self, index: int) -> None:
        """The move at ``index`` of ``legal()``, on a panel opened with My hand."""
        h, user = self.h, ANA
        board = self.latest_board()
        hand = next(b for b in board.buttons if ":hand:" in (b.custom_id or ""))
        panel = self.seen(await h.click(user, board, hand.custom_id)).ephemeral_messages[-1]
        for response in await take_move(h, user, panel, index):
            self.seen(response)

    def advised(self, view: dict, legal: list[dict], version: int) -> dict:
        """The advice's move (``advice.hint``). A decision met again with the same view (Street
        Kings: a shop visit with nothing to buy changes nothing, and the advice kept choosing
        it) takes the advice's next best, as a player would who sees they went in a circle."""
        key = json.dumps([view, legal], sort_keys=True)
        again = self.met.get(key, 0)
        self.met[key] = again + 1
        if again == 0:
            return hint(self.game, view, legal, f"newcomer:{version}").move
        self.circles += 1
        ranked = appraise(self.game, view, legal, f"newcomer:{version}").moves
        return ranked[min(again, len(ranked) - 1)]

    async def play(self) -> GameRecord:
        h, service = self.h, self.h.bot.service
        opened = await h.slash(ANA, "game learn", game=self.game)
        assert "begins" in opened.public_text()
        (record,) = await service.channel_games(str(GUILD), str(TABLE.id))
        assert record.prefs[TEACHING] and record.status == "active" and record.thread
        for _decision in range(1000):
            record = await service.get(record.id)
            # No clock: nothing reminds the learner, nothing decides for them, whenever they
            # come back.
            assert record.deadline is None and record.remind_at is None and not record.clocks
            if record.status != "active":
                break
            read = service.read(record)
            learner = str(ANA.id)
            assert read.to_move == [learner], "AI seats move by themselves"
            legal, view = read.legal(learner), read.view(learner)
            await self.take(legal.index(self.advised(view, legal, record.version)))
            self.decisions += 1
        else:
            raise AssertionError("the teaching table never ended")
        return record


async def learn_a_whole_game(harness_factory, tmp_path: Path, game: str) -> Newcomer:
    """A whole teaching table of ``game`` by the advice: it ends, every lesson of the course
    was taught on a panel, in the order the service counted them, and the end screen opens a
    real game."""
    h = await learner_table(harness_factory, tmp_path)
    newcomer = Newcomer(h, game)
    record = await newcomer.play()
    course = COURSES[game]
    assert record.status == "finished"
    taught = record.prefs[TAUGHT]
    assert sorted(taught) == sorted(course.keys), "every rule of the course was taught"
    texts = {lesson.key: _(lesson.text) for lesson in course.lessons}
    assert list(dict.fromkeys(lessons_in(newcomer.read))) == [texts[key] for key in taught]
    assert taught[:2] == ["goal", "turn"], "the goal first, then what a turn is"
    posts = [m for thread in h.threads(TABLE) for m in h.channel_messages(thread)]
    posts += h.channel_messages(TABLE)
    real = [(m, b) for m in posts for b in m.buttons if ":realgame:" in (b.custom_id or "")]
    assert real, "a teaching table's end offers a real game"
    assert all(":rematch:" not in (b.custom_id or "") for m in posts for b in m.buttons)
    message, button = real[-1]
    assert button.label == "Play a real game"
    answer = await h.click(ANA, message, button.custom_id)
    assert "waits for players" in answer.ephemeral_text()
    lobby = h.channel_messages(TABLE)[-1]
    assert [b.label for b in lobby.buttons] == ["Join", "Leave", "Add AI", "Start"]
    figures = os.environ.get("TEACHING_FIGURES")
    if figures:  # for the closing note: decisions played, when each lesson came, notes
        known = json.loads(Path(figures).read_text()) if Path(figures).exists() else {}
        known[game] = {
            "decisions": newcomer.decisions,
            "taught": taught,
            "first_shown": [newcomer.first_shown[texts[key]] for key in taught],
            "notes": newcomer.notes,
            "circles": newcomer.circles,
        }
        Path(figures).write_text(json.dumps(known, indent=2, ensure_ascii=False))
    return newcomer


async def test_a_newcomer_learns_mural_by_the_advice(harness_factory, tmp_path: Path) -> None:
    await learn_a_whole_game(harness_factory, tmp_path, "street-art-mural")


@pytest.mark.slow
@pytest.mark.parametrize("game", ["street-art", "artsee", "street-kings"])
async def test_a_newcomer_learns_each_game_by_the_advice(
    harness_factory, tmp_path: Path, game: str
) -> None:
    await learn_a_whole_game(harness_factory, tmp_path, game)


async def test_a_clear_mistake_is_noted_privately_on_the_move_that_made_it(
    harness_factory, tmp_path: Path
) -> None:
    """Street Art's course, first decision: the learner takes a move the verdict calls a
    mistake (judged here as the service judges it) on the panel; the same interaction's
    followup, seen by them alone, names the better move."""
    h = await learner_table(harness_factory, tmp_path)
    service, learner = h.bot.service, str(ANA.id)
    await h.slash(ANA, "game learn", game="street-art")
    (record,) = await service.channel_games(str(GUILD), str(TABLE.id))
    read = service.read(record)
    view, legal = read.view(learner), read.legal(learner)
    seed = seed_of(record.seed or "", read.version, learner)
    index, found = next(
        (i, found)
        for i, move in enumerate(legal)
        if (found := judge("street-art", view, legal, move, seed)) is not None
    )
    newcomer = Newcomer(h, "street-art")
    board = newcomer.latest_board()
    hand = next(b for b in board.buttons if ":hand:" in (b.custom_id or ""))
    panel = (await h.click(ANA, board, hand.custom_id)).ephemeral_messages[-1]
    (response,) = await take_move(h, ANA, panel, index)
    notes = [m for m in response.ephemeral_messages if "📝" in m.content]
    assert len(notes) == 1 and notes[0].visible_to == ANA.id
    best = WORDS["street-art"].action_label(found["best"], read.names)
    assert f"**{best}** was the stronger move" in notes[0].content
    assert not [m for m in response.public_messages if "📝" in m.text()]
