"""Hand-built Street Art: Mural tables for the rules tests: a fresh game whose discs, backpacks,
queue, display and mural a test sets explicitly, never by hunting for a seed."""

from __future__ import annotations

from typing import Any

from rules.mural import MURAL
from rules.mural.data import BASICS, PAINTS

PLAYERS = ["A", "B", "C", "D"]

#: Discs for geometry tests, P1..P4 (colours clockwise from segment 0, orientation).
#: Contact 0: P1 slot 0 = segment 0 (R) against P2 slot 4 = segment 0 (B): not aligned;
#: turning P2 one step counter-clockwise (o 4 -> 3) brings its segment 1 (R) to slot 4.
#: Contact 1: P2 slot 0 (segment 4, B) against P3 slot 4 (Y): not aligned.
#: Contact 2: P3 and P4 are all yellow: aligned since before the turn.
GEOMETRY = [
    ("RYBWRYBW", 0),
    ("BRBBBBBB", 4),
    ("YYYYYYYY", 0),
    ("YYYYYYYY", 0),
]


def table(
    players: int = 2,
    *,
    discs: list[tuple[str, int]] | None = None,
    cubes: list[list[str | None]] | None = None,
    backpacks: dict[str, list[str]] | None = None,
    queue: list[str] | None = None,
    display: list[str] | None = None,
    deck: list[str] | None = None,
    current: str = "A",
    first: str = "A",
    techniques: list[str] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A game at the start of ``current``'s turn in round 1, with the given components.
    Discs default to a full cube on every segment in the segment's colour."""
    names = PLAYERS[:players]
    state = MURAL.start(names, "table", options or {})
    if discs is not None:
        for disc, (colours, orientation) in zip(state["discs"], discs, strict=True):
            disc.update(colours=colours, orientation=orientation, cubes=list(colours))
    if cubes is not None:
        for disc, row in zip(state["discs"], cubes, strict=True):
            disc["cubes"] = list(row)
    for player, paints in (backpacks or {}).items():
        state["seats"][names.index(player)]["backpack"] = list(paints)
    if queue is not None:
        state["queue"] = list(queue)
    if display is not None:
        state["display"] = list(display)
    if deck is not None:
        state["deck"] = list(deck)
    if techniques is not None:
        state["techniques"] = list(techniques)
    state["current"] = names.index(current)
    state["first"] = state["round_first"] = names.index(first)
    return recount(state)


def recount(state: dict[str, Any]) -> dict[str, Any]:
    """Set the stock ledger to what is in play, as if every cube had come from the stock."""
    state["taken"] = {paint: 0 for paint in PAINTS}
    for paint in in_play(state):
        state["taken"][paint] += 1
    return state


def in_play(state: dict[str, Any]) -> list[str]:
    """Every cube on the table: discs, queue, backpacks and flexible cards."""
    paints = [p for disc in state["discs"] for p in disc["cubes"] if p is not None]
    paints += state["queue"]
    paints += [p for seat in state["seats"] for p in seat["backpack"]]
    paints += [
        p
        for cells in state["mural"]
        for cell in cells
        if cell is not None
        for p in cell["paints"]
        if p is not None
    ]
    return paints


def play(state: dict[str, Any], *actions: dict[str, Any]) -> tuple[dict[str, Any], list]:
    """The current player's actions in a row; returns the state and all events."""
    events: list = []
    for action in actions:
        player = MURAL.to_move(state)[0]
        state, more = MURAL.play(state, player, action)
        events += more
    return state, events


def seat(state: dict[str, Any], player: str) -> dict[str, Any]:
    return state["seats"][state["players"].index(player)]


def empty_discs() -> list[list[str | None]]:
    return [[None] * 8 for _ in range(4)]


def all_basics() -> list[str]:
    return list(BASICS)


def choice(state: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The one legal action of the player to move that has these fields."""
    player = MURAL.to_move(state)[0]
    found = [a for a in MURAL.legal(state, player) if all(a.get(k) == v for k, v in fields.items())]
    assert len(found) == 1, (fields, MURAL.legal(state, player))
    return found[0]
