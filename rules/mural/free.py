"""Main actions, and the free actions that leave one possible.

Rulebook, "Passar a Vez": "O jogador não pode realizar uma ação livre e passar a vez." Before
the main action, a free action (a mix, a free technique) is therefore offered only when a main
action can still follow it, at once or after more free actions (two mixes may make the two
advanced paints a card needs); each choice inside a free technique likewise. So a player who
took a free action always has a way on to a main action, and "pass" stays for a turn with no
free action in it.
"""

from __future__ import annotations

import json

from rules.jsoncopy import json_copy
from rules.mural.choices import PENDING_CHOICES
from rules.mural.data import TECHNIQUES
from rules.mural.effects import APPLY
from rules.mural.state import (
    BACK,
    State,
    advanced_rotation_free,
    mix_options,
    paintable,
    revealed,
    rotation_possible,
    technique_usable,
)
from rules.protocol import Action

#: The pending decisions of the free techniques (1-4), whose choices are filtered too.
FREE_PENDINGS = frozenset({"swap", "copy", "pick", "transfer"})


def main_actions(state: State) -> list[Action]:
    """The current player's main actions now: the rotations that let them collect, painting a
    card they can pay, a main technique."""
    seat = state["seats"][state["current"]]
    actions: list[Action] = []
    for kind in ("simple", "big", "double"):
        if kind != "simple" and not advanced_rotation_free(seat, kind):
            continue
        if rotation_possible(state, kind):
            actions.append({"type": "rotate", "kind": kind})
    actions.extend({"type": "paint", "card": c} for c in paintable(state, thrift=False))
    actions.extend(
        {"type": "technique", "tile": t}
        for t in revealed(state)
        if TECHNIQUES[t].main and technique_usable(state, t)
    )
    return actions


def free_actions(state: State) -> list[Action]:
    """Every free action the current player could start now: the mixes, the free techniques."""
    seat = state["seats"][state["current"]]
    actions: list[Action] = list(mix_options(seat["backpack"]))
    actions.extend(
        {"type": "technique", "tile": t}
        for t in revealed(state)
        if not TECHNIQUES[t].main and technique_usable(state, t)
    )
    return actions


def free_choices(state: State, choices: list[Action]) -> list[Action]:
    """``choices`` of a free action before the main action, without those after which no main
    action could follow ("back" always stays)."""
    if state["turn"]["main"]:
        return choices
    seen: dict[str, bool] = {}
    return [c for c in choices if c == BACK or _main_follows(_after(state, c), seen)]


def _main_follows(state: State, seen: dict[str, bool]) -> bool:
    """Whether some main action is possible in ``state``, at once or after free actions (and
    the further steps of the one under way). ``seen`` remembers the states already searched:
    two mixes in either order reach the same one."""
    key = json.dumps([state["discs"], state["seats"], state["queue"], state["turn"]])
    if key not in seen:
        seen[key] = False  # a state being searched leads nowhere new from itself
        pending = state["turn"]["pending"]
        if pending is None:
            steps = free_actions(state)
            found = bool(main_actions(state))
        else:
            steps = [c for c in PENDING_CHOICES[pending["do"]](state, pending) if c != BACK]
            found = False
        seen[key] = found or any(_main_follows(_after(state, step), seen) for step in steps)
    return seen[key]


def _after(state: State, action: Action) -> State:
    """``state`` after ``action``, on a copy without the news and the turn's log, which no
    rule reads."""
    light = {k: v for k, v in state.items() if k not in ("last", "previous")}
    light["turn"] = {k: v for k, v in state["turn"].items() if k != "log"}
    table = json_copy(light)
    table["turn"]["log"] = []
    APPLY[action["type"]](table, action, [])
    return table
