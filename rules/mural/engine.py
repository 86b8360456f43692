"""The Street Art: Mural rules engine: setup, a turn as small decisions, rounds, the end.

Source of truth: the Portuguese rulebook (retold in docs/rules/street-art-mural.md); its
translation, the ambiguity readings and the data are Parts B and C of street-art-mural.en.md.
The state is a plain JSON-able dict (``dump`` is a deep copy), so ``load(dump(s)) == s``.
Shapes of actions, views and events: docs/mural-contract.md.

A turn is a sequence of decisions by one player: free actions (mix, free techniques), one main
action (a rotation, painting, a main technique, or passing), more free actions, then "end
turn". A compound action is a ``pending`` decision in the state (for instance "paint G05" then
"into cell B2"), each with a short ``legal()`` list; "back" leaves a pending choice before it
commits anything.

This module is the protocol object; ``state`` holds the state's shape, options, setup and what
is possible, ``choices`` the lists of each pending decision, ``effects`` what every action does
(and how turns, rounds and the game end), ``refusals`` why an action is not legal.

Readings beyond Part B/C (each also stated where it is implemented):

- The first player is drawn from the seed (the rulebook asks who made art most recently).
- The display cards and the deck top are public in full (cost, points, element, half-discs):
  the cost side faces up and a player must see a card's half-discs to plan its placement.
- The stock is unlimited (C1); the state counts the cubes ever taken from it, so every cube in
  play is accounted for (discs + queue + backpacks + cards == taken).
- Discarded paints go to the queue end one at a time in the order the player picks; the choice
  is asked only while the remaining discards differ.
- "O jogador não pode realizar uma ação livre e passar a vez": a free action is offered before
  the main action only when a main action will still be possible after it (``free``), so a
  free action and passing never share a turn.
- Painting needs a spray to put on the card; a player with no spray left cannot paint.
- The game-end lap: after the trigger the game ends when a finished turn would hand play to
  the first-player-marker holder again (the seat to their right has had its turn, or has passed).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from rules.jsoncopy import json_copy
from rules.mural import discs as geometry
from rules.mural.choices import PENDING_CHOICES
from rules.mural.data import (
    BASICS,
    CARDS,
    DISCS,
    DISPLAY_SIZE,
    ELEMENTS,
    MURALS,
    PAINTS,
    QUEUE_ON_BOARD,
    SIDES,
    TECHNIQUES,
)
from rules.mural.effects import APPLY, remember_turn
from rules.mural.free import FREE_PENDINGS, free_actions, free_choices, main_actions
from rules.mural.refusals import why_not
from rules.mural.scoring import bonus_grid
from rules.mural.state import (
    DEFAULT_OPTIONS,
    FORMAT_VERSION,
    GAME_ID,
    OVER,
    PLAY,
    State,
    layout,
    new_seat,
    options_from,
    outcome_of,
    revealed,
    scores,
    setup_discs,
)
from rules.protocol import (
    Action,
    Event,
    Game,
    IllegalAction,
    Outcome,
    View,
    load_dict_state,
    merge_options,
    rng,
    turn_after,
)

# -- the game object ---------------------------------------------------------------------------


#: The events that make nothing hidden known (``Mural.reveals``); every other one does:
#: ``painted`` (the display refilled from the deck), ``round_over``.
REVEALS_NOTHING = frozenset(
    {
        "rotated",
        "collected",
        "queued",
        "inserted",
        "ordered",
        "mixed",
        "technique",
        "swapped",
        "copied",
        "picked",
        "transferred",
        "passed",
        "first_player",
        "discarded",
        "end_triggered",
        "turn",
        "game_over",
    }
)


class Mural(Game):
    """The Street Art: Mural game object registered in ``rules.GAMES``."""

    id = GAME_ID
    title = "Street Art: Mural"
    min_players = 2
    max_players = 4
    #: Passing for the round, ending the turn early, going back (protocol: an AI's last resort).
    passive_actions = frozenset({"pass", "end_turn", "back"})

    @property
    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def reveals(self, event: Event) -> bool:
        """Painting a card turns the deck's next card face up into the display, and the end
        of round 1 reveals the second technique and queues freshly shuffled paints; every
        other action moves only what the table sees (protocol, ``reveals``)."""
        return event.get("type") not in REVEALS_NOTHING

    def start(self, players: list[str], seed: str, options: dict[str, Any] | None = None) -> State:
        """Setup steps 1-10 for 2-4 players (see the helpers for each step)."""
        opts = options_from(merge_options(self, options))
        players = list(players)
        if not 2 <= len(players) <= 4:
            raise IllegalAction("Street Art: Mural needs 2 to 4 players.")
        if len(set(players)) != len(players):
            raise IllegalAction("Each player may take only one seat.")
        seed = str(seed)
        count = len(players)
        generator = rng(seed, 0)
        queue = list(BASICS)
        generator.shuffle(queue)  # step 4: "coloque aleatoriamente no início da fila"
        tokens = list(ELEMENTS)
        generator.shuffle(tokens)  # step 5
        techniques = sorted(TECHNIQUES)
        generator.shuffle(techniques)  # step 6: reveal 1, 1 face down, the rest to the box
        deck = sorted(CARDS)
        generator.shuffle(deck)  # step 7
        first = generator.randrange(count)  # step 10, drawn (reading)
        size = DISPLAY_SIZE[count]
        grid = MURALS[count]
        taken = {p: 0 for p in PAINTS}
        for basic in BASICS:
            taken[basic] = 2 * DISCS + 1  # two segments per disc, one cube in the queue
        return {
            "game": GAME_ID,
            "version": FORMAT_VERSION,
            "seed": seed,
            "options": asdict(opts),
            "players": players,
            "rng": 2,
            "discs": setup_discs(seed, opts),
            "queue": queue,
            "taken": taken,
            "mural": [[None] * grid.cols for _ in range(grid.rows)],
            "tokens": dict(zip(SIDES, tokens, strict=True)),
            "techniques": techniques[:2],
            "display": deck[:size],
            "deck": deck[size:],
            "seats": [new_seat(p, count) for p in players],
            "round": 1,
            "first": first,
            "round_first": first,
            "first_passed": False,
            "current": first,
            "phase": PLAY,
            "turn": {"main": False, "free": False, "pending": None, "log": []},
            "turns": 1,
            "turn_number": 1,
            "trigger": None,
            "ended_by": None,
            "last": None,
            "previous": None,
        }

    # -- queries -----------------------------------------------------------------------------

    def to_move(self, state: State) -> list[str]:
        if state["phase"] == OVER:
            return []
        return [state["players"][state["current"]]]

    def legal(self, state: State, player: str) -> list[Action]:
        if player not in self.to_move(state):
            return []
        pending = state["turn"]["pending"]
        if pending is None:
            return self._top_level(state)
        choices = PENDING_CHOICES[pending["do"]](state, pending)
        return free_choices(state, choices) if pending["do"] in FREE_PENDINGS else choices

    def _top_level(self, state: State) -> list[Action]:
        """The turn's menu: the main actions while none is taken, the free actions (before the
        main action, only those that leave one possible), pass or end turn."""
        turn = state["turn"]
        free = free_actions(state)
        if turn["main"]:
            return [*free, {"type": "end_turn"}]
        # After a free action a main action can always follow (free_choices), so "pass" is
        # offered only in a turn with no free action yet.
        passing = [] if turn["free"] else [{"type": "pass"}]
        return [*main_actions(state), *free_choices(state, free), *passing]

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != OVER:
            return None
        return outcome_of(state)

    def view(self, state: State, player: str | None) -> View:
        """Everything on the table: discs, queue, mural, display and deck top, the revealed
        techniques, each player's board. Never the deck below its top card, the face-down
        technique or the tiles in the box, nor the seed."""
        result = self.outcome(state)
        sheet = scores(state)
        seats = []
        for index, seat in enumerate(state["seats"]):
            seats.append(
                {
                    "id": seat["player"],
                    "seat": index,
                    "backpack": sorted(seat["backpack"], key=PAINTS.index),
                    "grafiteiros": seat["grafiteiros"],
                    "rotations": dict(seat["rotations"]),
                    "techniques": list(seat["techniques"]),
                    "sprays": seat["sprays"],
                    "passed": seat["passed"],
                    "score": sheet[seat["player"]],
                }
            )
        return {
            "game": GAME_ID,
            "viewer": player,
            "players": seats,
            "discs": [
                {
                    "disc": d["disc"],
                    "side": d["side"],
                    "colours": d["colours"],
                    "orientation": d["orientation"],
                    "cubes": list(d["cubes"]),
                }
                for d in state["discs"]
            ],
            "contacts": geometry.aligned_contacts(state["discs"]),
            "queue": list(state["queue"]),
            "queue_on_board": QUEUE_ON_BOARD,
            "mural": json_copy(state["mural"]),
            "bonuses": bonus_grid(state["mural"], layout(state), state["tokens"]),
            "tokens": dict(state["tokens"]),
            "token_cells": {side: list(cell) for side, cell in layout(state).tokens.items()},
            "display": list(state["display"]),
            "deck_top": state["deck"][0] if state["deck"] else None,
            "deck_size": len(state["deck"]),
            "techniques": revealed(state),
            "hidden_techniques": len(state["techniques"]) - len(revealed(state)),
            "round": state["round"],
            "first": state["players"][state["first"]],
            "phase": state["phase"],
            "current": None if state["phase"] == OVER else state["players"][state["current"]],
            "to_move": self.to_move(state),
            "turn": json_copy(state["turn"]),
            "turns": state["turns"],
            "trigger": json_copy(state["trigger"]),
            "last": json_copy(state["last"]),
            "previous": json_copy(state["previous"]),
            "outcome": None if result is None else result.to_json(),
        }

    # -- moves -------------------------------------------------------------------------------

    def play(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]:
        if state["phase"] == OVER:
            raise IllegalAction("The game is over.")
        if player not in state["players"]:
            raise IllegalAction("You are not playing in this game.")
        if player not in self.to_move(state):
            raise IllegalAction("It is not your turn.")
        if not isinstance(action, dict) or action not in self.legal(state, player):
            raise IllegalAction(why_not(state, action))
        table = json_copy(state)
        events: list[Event] = []
        APPLY[action["type"]](table, action, events)
        table["last"] = {"player": player, "events": json_copy(events)}
        remember_turn(state, table, player, events)
        table["turn_number"] = turn_after(
            self.turn(state), player, self.to_move(state), self.to_move(table), events
        )
        return table, events

    def turn(self, state: State) -> int:
        """The protocol's turn number (a state saved before it was kept is on turn 1)."""
        return int(state.get("turn_number", 1))

    # -- storage -----------------------------------------------------------------------------

    def dump(self, state: State) -> dict[str, Any]:
        return json_copy(state)

    def load(self, data: dict[str, Any]) -> State:
        return load_dict_state(data, GAME_ID, self.title, FORMAT_VERSION)


MURAL = Mural()
