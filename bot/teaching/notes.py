"""Mistake notes of a teaching table: after a move that loses clearly more than the best one
(``bot.ai.advice.verdict``, the game's threshold), a private note names the better move and
says why, from the engine's events of both moves.

``judge`` is the CPU-heavy part: a top-level function of plain JSON arguments, so it runs in
the AI's worker pool as an AI seat's decision does. ``note`` words its answer.
"""

from __future__ import annotations

from typing import Any

from bot.ai.advice import verdict
from bot.i18n import _
from bot.words import WORDS, tell
from rules import Game

Action = dict[str, Any]
#: Events that say nothing about what a move was worth (who moves next, a card drawn).
UNTOLD = frozenset({"turn", "drew", "game_over"})


def seed_of(game_seed: str, version: int, player: str) -> str:
    """The verdict's seed for a decision: the same for the same play of the same deal."""
    return f"{game_seed}:{version}:{player}:verdict"


def judge(
    game_id: str, view: dict[str, Any], legal: list[Action], move: Action, seed: str
) -> dict[str, Any] | None:
    """The verdict on ``move`` from the seat's view, as plain JSON: ``{"best", "loss"}`` when
    it is a mistake for this game (the deeper search agreeing), else None."""
    found = verdict(game_id, view, legal, move, seed)
    if not found.mistake or found.best == move:
        return None
    return {"best": found.best, "loss": round(found.loss, 1)}


def told(game: Game, state: Any, player: str, move: Action, names: dict[str, str]) -> list[str]:
    """What ``move`` would tell, played on ``state`` (the state the learner chose from; only
    the events a table's post tells are kept, so nothing hidden is said)."""
    events = [e for e in game.play(state, player, move)[1] if e.get("type") not in UNTOLD]
    return tell(game.id, [(player, events)], names)


def note(
    game: Game,
    state: Any,
    player: str,
    move: Action,
    found: dict[str, Any],
    names: dict[str, str],
) -> str:
    """The private note: the better move, what it was worth, and the reason from the events
    of the move made and of the better one, both played on the state the learner saw."""
    words = WORDS[game.id]
    best: Action = found["best"]
    mine, better = words.action_label(move, names), words.action_label(best, names)
    lines = [
        _(
            "📝 **{better}** was the stronger move: about {loss} points more by the end than "
            "**{mine}**, as the AI reckons it."
        ).format(better=better, mine=mine, loss=f"{found['loss']:g}")
    ]
    yours, theirs = told(game, state, player, move, names), told(game, state, player, best, names)
    if yours and theirs and yours != theirs:
        lines.append(_("Yours: {what}").format(what=" ".join(yours)))
        lines.append(_("With {better}: {what}").format(better=better, what=" ".join(theirs)))
    else:
        lines.append(_("Its gain comes in the turns ahead, as the AI's look ahead plays them."))
    return "\n".join(lines)
