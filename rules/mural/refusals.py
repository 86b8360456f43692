"""Why an action is not legal now: a sentence that says what to do instead."""

from __future__ import annotations

from typing import Any

from rules.mural.data import (
    ADVANCED_ROTATION_USES,
    BASICS,
    CARDS,
    TECHNIQUES,
)
from rules.mural.effects import APPLY
from rules.mural.state import (
    State,
    cell_name,
    free_cells,
    layout,
    revealed,
)
from rules.protocol import Action

# -- refusals ----------------------------------------------------------------------------------


def why_not(state: State, action: Any) -> str:
    """A sentence saying why ``action`` is not legal now and what to do instead."""
    if not isinstance(action, dict) or action.get("type") not in APPLY:
        return "That is not a Street Art: Mural move; pick one from your list of moves."
    kind = action["type"]
    pending = state["turn"]["pending"]
    seat = state["seats"][state["current"]]
    if pending is not None and kind in ("rotate", "mix", "pass", "end_turn", "technique"):
        return "Finish the choice you started first: " + _pending_hint(pending)
    if kind == "rotate":
        return _why_not_rotate(state, seat, action)
    if kind == "paint":
        return _why_not_paint(state, seat, action)
    if kind == "cell":
        return _why_not_cell(state, action)
    if kind == "mix":
        basics = sum(1 for p in seat["backpack"] if p in BASICS)
        if basics < 2:
            return f"Mixing needs two basic paints in your backpack; you have {basics}."
        return "You do not hold those two basic paints; mix two basics from your backpack."
    if kind == "technique":
        return _why_not_technique(state, seat, action)
    if kind == "disc" and pending is not None and pending["do"] == "rotate":
        return (
            "No turn of that disc aligns a same-colour pair with a paint on it, so there would "
            "be nothing to collect; choose another disc or go back."
        )
    if kind == "turn":
        return (
            "That rotation aligns no same-colour pair holding a paint, so there would be nothing "
            "to collect; choose another rotation."
        )
    if kind == "pass":
        if state["turn"]["main"]:
            return "You already took your main action this turn; end your turn instead."
        return "You cannot take a free action and pass in the same turn; take a main action."
    if kind == "end_turn":
        return "Take your main action first (rotate, paint, a main technique), or pass."
    return "That choice is not available now; " + (
        _pending_hint(pending) if pending else "pick one from your list of moves."
    )


def _pending_hint(pending: dict[str, Any]) -> str:
    return {
        "rotate": "choose the disc and how far to turn it.",
        "collect": "choose the paint to collect.",
        "paint": "choose the card, its cell and the paints for it.",
        "order": "choose which paint goes to the end of the queue next.",
        "insert": "choose where your paints go in the queue, after its first 3.",
        "discard": "choose a paint to discard down to 5.",
        "swap": "choose the paint to swap.",
        "copy": "choose the paint to copy.",
        "pick": "choose a paint from the front of the queue.",
        "transfer": "choose where the paint moves from and to.",
    }[pending["do"]]


def _why_not_rotate(state: State, seat: dict[str, Any], action: Action) -> str:
    kind = action.get("kind")
    if state["turn"]["main"]:
        return "You already took your main action this turn; end your turn."
    if kind not in ("simple", "big", "double"):
        return "A rotation is simple, big or double."
    if kind != "simple" and seat["grafiteiros"] == 0:
        return f"A {kind} rotation needs a grafiteiro and you have none left; try a simple one."
    if kind != "simple" and seat["rotations"][kind] >= ADVANCED_ROTATION_USES:
        return f"You already used the {kind} rotation twice this round; choose another action."
    return (
        f"No {kind} rotation aligns a same-colour pair with a paint on it, so there would be "
        "nothing to collect; paint, use a technique, or pass."
    )


def _why_not_paint(state: State, seat: dict[str, Any], action: Action) -> str:
    card: str = action.get("card", "")
    if state["turn"]["main"] and state["turn"]["pending"] is None:
        return "You already took your main action this turn; end your turn."
    if state["deck"] and card == state["deck"][0]:
        return "The top card of the deck cannot be painted; choose one of the display cards."
    if card not in state["display"]:
        return "That card is not in the display; choose one of the display cards."
    if seat["sprays"] == 0:
        return "You have no spray left to mark a card, so you cannot paint."
    if not free_cells(state):
        return "The mural is full; there is no cell left to paint."
    need = CARDS[card]
    if need.flexible:
        return f"{card} needs {need.spaces} paints and your backpack holds {len(seat['backpack'])}."
    return f"You cannot pay {card} ({' '.join(need.cost or '')}) with your backpack; collect more."


def _why_not_cell(state: State, action: Action) -> str:
    row, col = action.get("row"), action.get("col")
    grid = layout(state)
    if not (isinstance(row, int) and isinstance(col, int)):
        return "Choose a cell of the mural, such as A1."
    if not (0 <= row < grid.rows and 0 <= col < grid.cols):
        return "That cell is outside the mural; choose a free cell."
    if state["mural"][row][col] is not None:
        return f"{cell_name(row, col)} is already painted; choose a free cell."
    return "Choose a card to paint first."


def _why_not_technique(state: State, seat: dict[str, Any], action: Action) -> str:
    tile = action.get("tile")
    if tile not in TECHNIQUES:
        return "There is no such technique; pick one of the revealed tiles."
    name = TECHNIQUES[tile].name
    if tile not in revealed(state):
        return f"{name} is not revealed in this game or this round; use a revealed technique."
    if tile in seat["techniques"]:
        return f"You already used {name} this round; each technique once per round."
    if seat["grafiteiros"] == 0:
        return f"You have no grafiteiro left to place on {name} this round."
    if TECHNIQUES[tile].main and state["turn"]["main"]:
        return f"{name} counts as your main action and you already took one this turn."
    return f"{name} has nothing to work on right now; choose another action."
