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
from rules.protocol import Action, Refusal

# -- refusals ----------------------------------------------------------------------------------

#: An advanced rotation's kind, as a refusal names it.
ROTATION_KINDS = {
    "simple": Refusal("simple"),
    "big": Refusal("big"),
    "double": Refusal("double"),
}


def why_not(state: State, action: Any) -> str:
    """A sentence saying why ``action`` is not legal now and what to do instead."""
    if not isinstance(action, dict) or action.get("type") not in APPLY:
        return Refusal("That is not a Street Art: Mural move; pick one from your list of moves.")
    kind = action["type"]
    pending = state["turn"]["pending"]
    seat = state["seats"][state["current"]]
    if pending is not None and kind in ("rotate", "mix", "pass", "end_turn", "technique"):
        return Refusal("Finish the choice you started first: {hint}", hint=_pending_hint(pending))
    if kind == "rotate":
        return _why_not_rotate(state, seat, action)
    if kind == "paint":
        return _why_not_paint(state, seat, action)
    if kind == "cell":
        return _why_not_cell(state, action)
    if kind == "mix":
        basics = sum(1 for p in seat["backpack"] if p in BASICS)
        if basics < 2:
            return Refusal(
                "Mixing needs two basic paints in your backpack; you have {n}.", n=basics
            )
        return Refusal("You do not hold those two basic paints; mix two basics from your backpack.")
    if kind == "technique":
        return _why_not_technique(state, seat, action)
    if kind == "disc" and pending is not None and pending["do"] == "rotate":
        return Refusal(
            "No turn of that disc aligns a same-colour pair with a paint on it, so there would "
            "be nothing to collect; choose another disc or go back."
        )
    if kind == "turn":
        return Refusal(
            "That rotation aligns no same-colour pair holding a paint, so there would be nothing "
            "to collect; choose another rotation."
        )
    if kind == "pass":
        if state["turn"]["main"]:
            return Refusal("You already took your main action this turn; end your turn instead.")
        return Refusal(
            "You cannot take a free action and pass in the same turn; take a main action."
        )
    if kind == "end_turn":
        return Refusal("Take your main action first (rotate, paint, a main technique), or pass.")
    hint = _pending_hint(pending) if pending else Refusal("pick one from your list of moves.")
    return Refusal("That choice is not available now; {hint}", hint=hint)


def _pending_hint(pending: dict[str, Any]) -> str:
    return {
        "rotate": Refusal("choose the disc and how far to turn it."),
        "collect": Refusal("choose the paint to collect."),
        "paint": Refusal("choose the card, its cell and the paints for it."),
        "order": Refusal("choose which paint goes to the end of the queue next."),
        "insert": Refusal("choose where your paints go in the queue, after its first 3."),
        "discard": Refusal("choose a paint to discard down to 5."),
        "swap": Refusal("choose the paint to swap."),
        "copy": Refusal("choose the paint to copy."),
        "pick": Refusal("choose a paint from the front of the queue."),
        "transfer": Refusal("choose where the paint moves from and to."),
    }[pending["do"]]


def _why_not_rotate(state: State, seat: dict[str, Any], action: Action) -> str:
    kind = action.get("kind")
    if state["turn"]["main"]:
        return Refusal("You already took your main action this turn; end your turn.")
    if kind not in ("simple", "big", "double"):
        return Refusal("A rotation is simple, big or double.")
    if kind != "simple" and seat["grafiteiros"] == 0:
        return Refusal(
            "A {kind} rotation needs a grafiteiro and you have none left; try a simple one.",
            kind=ROTATION_KINDS[kind],
        )
    if kind != "simple" and seat["rotations"][kind] >= ADVANCED_ROTATION_USES:
        return Refusal(
            "You already used the {kind} rotation twice this round; choose another action.",
            kind=ROTATION_KINDS[kind],
        )
    return Refusal(
        "No {kind} rotation aligns a same-colour pair with a paint on it, so there would be "
        "nothing to collect; paint, use a technique, or pass.",
        kind=ROTATION_KINDS[kind],
    )


def _why_not_paint(state: State, seat: dict[str, Any], action: Action) -> str:
    card: str = action.get("card", "")
    if state["turn"]["main"] and state["turn"]["pending"] is None:
        return Refusal("You already took your main action this turn; end your turn.")
    if state["deck"] and card == state["deck"][0]:
        return Refusal(
            "The top card of the deck cannot be painted; choose one of the display cards."
        )
    if card not in state["display"]:
        return Refusal("That card is not in the display; choose one of the display cards.")
    if seat["sprays"] == 0:
        return Refusal("You have no spray left to mark a card, so you cannot paint.")
    if not free_cells(state):
        return Refusal("The mural is full; there is no cell left to paint.")
    need = CARDS[card]
    if need.flexible:
        return Refusal(
            "{card} needs {n} paints and your backpack holds {held}.",
            card=card,
            n=need.spaces,
            held=len(seat["backpack"]),
        )
    return Refusal(
        "You cannot pay {card} ({cost}) with your backpack; collect more.",
        card=card,
        cost=" ".join(need.cost or ""),
    )


def _why_not_cell(state: State, action: Action) -> str:
    row, col = action.get("row"), action.get("col")
    grid = layout(state)
    if not (isinstance(row, int) and isinstance(col, int)):
        return Refusal("Choose a cell of the mural, such as A1.")
    if not (0 <= row < grid.rows and 0 <= col < grid.cols):
        return Refusal("That cell is outside the mural; choose a free cell.")
    if state["mural"][row][col] is not None:
        return Refusal("{cell} is already painted; choose a free cell.", cell=cell_name(row, col))
    return Refusal("Choose a card to paint first.")


def _why_not_technique(state: State, seat: dict[str, Any], action: Action) -> str:
    tile = action.get("tile")
    if tile not in TECHNIQUES:
        return Refusal("There is no such technique; pick one of the revealed tiles.")
    name = TECHNIQUES[tile].name
    if tile not in revealed(state):
        return Refusal(
            "{name} is not revealed in this game or this round; use a revealed technique.",
            name=name,
        )
    if tile in seat["techniques"]:
        return Refusal(
            "You already used {name} this round; each technique once per round.", name=name
        )
    if seat["grafiteiros"] == 0:
        return Refusal("You have no grafiteiro left to place on {name} this round.", name=name)
    if TECHNIQUES[tile].main and state["turn"]["main"]:
        return Refusal(
            "{name} counts as your main action and you already took one this turn.", name=name
        )
    return Refusal("{name} has nothing to work on right now; choose another action.", name=name)
