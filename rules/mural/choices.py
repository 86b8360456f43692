"""The choices of each pending decision of a turn ("which disc", "which cell", ...), each a
short list that fits a Discord select menu."""

from __future__ import annotations

from typing import Any

from rules.mural.data import (
    BASICS,
    CARDS,
    DISCS,
    PAINTS,
    QUEUE_ON_BOARD,
    SLOTS,
)
from rules.mural.state import (
    BACK,
    INSERT_RANGE,
    MAX_CHOICES,
    State,
    free_cells,
    insert_positions,
    paintable,
    rotation_options,
    segment_choice,
    thrift_skips,
    unordered_tail,
)
from rules.protocol import Action

# -- pending decisions -------------------------------------------------------------------------


def _rotation_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    options = rotation_options(state, pending["kind"])
    if "discs" not in pending:
        firsts = sorted({r[0] for r in options})
        return [{"type": "disc", "discs": list(d)} for d in firsts] + [BACK]
    chosen = tuple(pending["discs"])
    return [
        {"type": "turn", "discs": list(d), "steps": list(s)} for d, s in options if d == chosen
    ] + [BACK]


def _collect_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    return [segment_choice(state, "collect", d, s) for d, s in pending["options"]]


def _paint_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    seat = state["seats"][state["current"]]
    if "card" not in pending:  # Thrift: which card
        return [{"type": "paint", "card": c} for c in paintable(state, thrift=True)] + [BACK]
    if "cell" not in pending:
        return [{"type": "cell", "row": r, "col": c} for r, c in free_cells(state)] + [BACK]
    card = CARDS[pending["card"]]
    if not card.flexible:  # only Thrift on a fixed cost asks: which basic to leave unpaid
        return [{"type": "skip", "paint": p} for p in thrift_skips(seat["backpack"], card)]
    left = list(seat["backpack"])
    for p in pending["paints"]:
        if p is not None:
            left.remove(p)
    may_skip = pending["thrift"] and None not in pending["paints"]
    # can_pay checked there are enough paints; each choice keeps that true.
    out: list[Action] = [{"type": "fill", "paint": p} for p in PAINTS if p in left]
    if may_skip:
        out.append({"type": "fill", "paint": None})
    return out


def _order_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    return [{"type": "queue", "paint": p} for p in PAINTS if p in unordered_tail(state)]


def _insert_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    """Which waiting paint next, then its place: every place after the queue's first 3, as a
    range first and a place in it when they are more than a select menu holds."""
    if pending["paint"] is None:
        return [{"type": "place", "paint": p} for p in PAINTS if p in unordered_tail(state)]
    places = insert_positions(len(state["queue"]), pending["count"])
    inserts = [{"type": "insert", "paint": pending["paint"], "position": i} for i in places]
    if pending.get("places") is not None:
        first, last = pending["places"]
        return [a for a in inserts if first <= a["position"] <= last] + [BACK]
    if len(places) <= MAX_CHOICES:
        return inserts
    ranges = [places[i : i + INSERT_RANGE] for i in range(0, len(places), INSERT_RANGE)]
    return [{"type": "places", "first": r[0], "last": r[-1]} for r in ranges]


def _discard_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    backpack = state["seats"][state["current"]]["backpack"]
    return [{"type": "discard", "paint": p} for p in PAINTS if p in backpack]


def _swap_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    """Technique 1: "Troque 1 tinta qualquer de sua mochila por uma Tinta Básica"."""
    backpack = state["seats"][state["current"]]["backpack"]
    return [
        {"type": "swap", "give": give, "take": take}
        for give in PAINTS
        if give in backpack
        for take in BASICS
        if take != give
    ] + [BACK]


def _copy_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    """Technique 2: "Pegue uma tinta do estoque [...] igual a uma tinta qualquer [...] na sua
    mochila"."""
    backpack = state["seats"][state["current"]]["backpack"]
    return [{"type": "copy", "paint": p} for p in PAINTS if p in backpack] + [BACK]


def _pick_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    """Technique 3: "Pegue uma das 3 primeiras tintas do começo da fila"."""
    queue = state["queue"][:QUEUE_ON_BOARD]
    return [{"type": "pick", "index": i, "paint": p} for i, p in enumerate(queue)] + [BACK]


def _transfer_choices(state: State, pending: dict[str, Any]) -> list[Action]:
    """Technique 4: "Passe 1 tinta qualquer de um segmento de um disco para um segmento de outro
    disco": source disc, source segment, target disc, target segment."""
    discs = state["discs"]
    steps = pending["steps"]
    if len(steps) == 0:
        choices = [d for d in range(DISCS) if any(p is not None for p in discs[d]["cubes"])]
        return [{"type": "disc", "discs": [d]} for d in choices] + [BACK]
    if len(steps) == 1:
        cubes = discs[steps[0]]["cubes"]
        return [
            segment_choice(state, "segment", steps[0], s)
            for s in range(SLOTS)
            if cubes[s] is not None
        ]
    if len(steps) == 2:
        return [{"type": "disc", "discs": [d]} for d in range(DISCS) if d != steps[0]]
    return [segment_choice(state, "segment", steps[2], s) for s in range(SLOTS)]


PENDING_CHOICES = {
    "rotate": _rotation_choices,
    "collect": _collect_choices,
    "paint": _paint_choices,
    "order": _order_choices,
    "insert": _insert_choices,
    "discard": _discard_choices,
    "swap": _swap_choices,
    "copy": _copy_choices,
    "pick": _pick_choices,
    "transfer": _transfer_choices,
}
