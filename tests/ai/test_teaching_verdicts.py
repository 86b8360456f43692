"""Mistake notes of a teaching table against a deeper search (issue 39): on positions sampled
from each course's own deal, a note (``bot.teaching.notes.judge``, what the service sends)
comes only where a search four times as deep, on other tables, agrees that the move lost more
than the game's threshold. Judged at each position: normal's move, and the move a quick look
ranks last (a likely mistake). Slow: each position costs several searches.

``$VERDICT_FIGURES`` (a file), when set, receives the counts for the closing note.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bot.ai import EASY, NORMAL, decide
from bot.ai.advice import MISTAKE, appraise
from bot.teaching.courses import COURSES
from bot.teaching.notes import judge
from rules import GAMES

#: Positions sampled per game (the learner's decisions of two or more moves), and how deep
#: the confirming search looks against the note's own.
POSITIONS = 8
DEEPER = 4


def positions(game_id: str) -> list[tuple[dict, list[dict]]]:
    """The learner's decisions along the course's deal, easy seats all round, every third."""
    course, game = COURSES[game_id], GAMES[game_id]
    players = ["me", *(f"ai:easy:{n}" for n in range(1, course.ai_seats + 1))]
    state = game.start(players, course.seed, dict(game.default_options))
    found: list[tuple[dict, list[dict]]] = []
    for step in range(3000):
        if game.outcome(state) is not None or len(found) == POSITIONS:
            break
        player = game.to_move(state)[0]
        view, legal = game.view(state, player), game.legal(state, player)
        if player == "me" and len(legal) > 1 and step % 3 == 0:
            found.append((view, legal))
        state = game.play(state, player, decide(game_id, EASY, view, legal, f"v:{step}", 0.05))[0]
    return found


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(COURSES))
def test_a_note_comes_only_where_the_deeper_search_agrees(game_id: str) -> None:
    notes = confirmed = judged = agreed = 0
    for n, (view, legal) in enumerate(positions(game_id)):
        normal = decide(game_id, NORMAL, view, legal, f"n:{n}", 0.2)
        worst = appraise(game_id, view, legal, f"pick:{n}").moves[-1]  # a likely mistake
        for move in {json.dumps(m, sort_keys=True) for m in (normal, worst)}:
            chosen = json.loads(move)
            noted = judge(game_id, view, legal, chosen, f"note:{n}") is not None
            deep = appraise(game_id, view, legal, f"deep:{n}", depth=DEEPER)
            lost = deep.loss(chosen) > MISTAKE[game_id]
            judged += 1
            agreed += noted == lost
            notes += noted
            confirmed += noted and lost
    figures = os.environ.get("VERDICT_FIGURES")
    if figures:
        known = json.loads(Path(figures).read_text()) if Path(figures).exists() else {}
        known[game_id] = {
            "judged": judged,
            "agreed": agreed,
            "notes": notes,
            "confirmed": confirmed,
        }
        Path(figures).write_text(json.dumps(known, indent=2))
    assert judged >= POSITIONS
    assert confirmed >= 0.75 * notes, f"{confirmed} of {notes} notes confirmed"
    assert agreed >= 0.8 * judged
