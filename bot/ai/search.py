"""Search over determinized states: a greedy turn (the ``normal`` policy) and playouts of
everyone's turns with that policy (``hard``).

Every state here comes from ``rules.DETERMINIZERS[game.id](view, player, rng)``: a table
consistent with what the deciding player sees, hidden cards dealt at random. A turn is a run of
small decisions by one player (choose a card, then its column, then ...), so a move is judged by
the position at the end of its turn, the rest of the turn taken greedily.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from bot.ai.evaluate import Evaluation, terminal
from bot.ai.rollouts import Playout
from rules import Game, IllegalAction

Action = dict[str, Any]
#: Taking a choice back is never a move worth searching: it only returns to a searched state.
UNDO = "back"
#: Values equal to this many decimals are a tie (means over samples carry rounding noise).
TIE_DIGITS = 9
#: A turn of more decisions than this is cut short and judged where it stands (a safety net).
MAX_TURN_STEPS = 12


@dataclass
class Search:
    """One decision's search: the game, its evaluation, the generator, and the clock."""

    game: Game
    evaluate: Evaluation
    rng: random.Random
    #: Moves tried at each later step of a turn (all of them at the decision itself).
    breadth: int
    deadline: float
    #: How playouts move every seat: a game's rollout policy (``bot.ai.rollouts``), or
    #: (``None``) greedy turns.
    rollout: Playout | None = None
    #: Whether the clock has cut this search short (the cap fired): counted by the benches.
    capped: bool = False
    #: The most moves the search may play (its effort), or ``None``: a level set by effort
    #: stops there as it would at the clock's cap, but at the same point on every machine.
    effort: int | None = None
    #: Moves played so far (``play``).
    plays: int = 0

    def value(self, state: Any, player: str) -> float:
        done = terminal(self.game, state, player)
        return done if done is not None else self.evaluate(state, player)

    def must_stop(self) -> bool:
        """The search stops where it is: its effort is spent, or the clock's cap fired (only
        the clock counts as ``capped``)."""
        if self.effort is not None and self.plays >= self.effort:
            return True
        # Read through the module each time, so a test's clock stands in for the real one.
        late = time.perf_counter() >= self.deadline
        self.capped = self.capped or late
        return late

    def play(self, state: Any, player: str, move: Action) -> tuple[Any, list[dict[str, Any]]]:
        """``move`` played through the rules, counted against the effort."""
        self.plays += 1
        return self.game.play(state, player, move)

    def moves(self, state: Any, player: str) -> list[Action]:
        """The moves worth searching: no taking back, no standing orders (a policy changes no
        position), unless nothing else is legal."""
        legal = self.game.legal(state, player)
        return searchable(self.game, legal)

    def turn_ends(self, state: Any, events: list[dict[str, Any]], player: str) -> bool:
        return (
            self.game.outcome(state) is not None
            or self.game.to_move(state) != [player]
            or any(event.get("type") == "turn" for event in events)
        )

    def greedy(self, state: Any, player: str, moves: list[Action]) -> tuple[Any, list[dict]]:
        """The move of ``moves`` (at most ``breadth`` of them, drawn at random) whose position is
        best for ``player``. Between equals a pass (the game's ``passive_actions``) wins, as in
        ``decide``: the turn it judges is the turn the player would take."""
        if len(moves) > self.breadth:
            moves = self.rng.sample(moves, self.breadth)
        if len(moves) == 1:
            return self.play(state, player, moves[0])  # nothing to judge: a random playout
        passive = self.game.passive_actions
        best: tuple[float, bool, Any, list[dict]] | None = None
        for move in moves:
            child, events = self.play(state, player, move)
            score = round(self.value(child, player), TIE_DIGITS)
            gives_up = move.get("type") in passive
            if best is None or (score, gives_up) > best[:2]:
                best = (score, gives_up, child, events)
        assert best is not None
        return best[2], best[3]

    def finish_turn(self, state: Any, events: list[dict], player: str) -> Any:
        """The rest of ``player``'s turn, each step greedy."""
        for _ in range(MAX_TURN_STEPS):
            if self.turn_ends(state, events, player):
                return state
            state, events = self.greedy(state, player, self.moves(state, player))
        return state

    def after_move(self, state: Any, player: str, move: Action) -> Any | None:
        """The position at the end of the turn that ``move`` starts; ``None`` if this sample
        refuses it (a hidden card dealt so that the move is impossible)."""
        try:
            child, events = self.play(state, player, move)
        except IllegalAction:
            return None
        return self.finish_turn(child, events, player)

    def playout(self, state: Any, turns: int) -> Any | None:
        """``turns`` turns of whoever is to move, one's own included, or up to the game's end:
        greedy turns (random ones at a breadth of 1), or the game's rollout policy when it has
        one; ``None`` if the clock runs out first, so a decision keeps to its budget."""
        if self.rollout is not None:
            return self.rollout(state, turns, self.rng, self.must_stop)
        for _ in range(turns):
            if self.game.outcome(state) is not None:
                break
            if self.must_stop():
                return None
            mover = self.game.to_move(state)[0]
            state, events = self.greedy(state, mover, self.moves(state, mover))
            state = self.finish_turn(state, events, mover)
        return state


def searchable(game: Game, legal: list[Action]) -> list[Action]:
    standing = getattr(game, "is_standing_order", None)
    moves = [
        move
        for move in legal
        if move.get("type") != UNDO and not (standing is not None and standing(move))
    ]
    return moves or list(legal)
