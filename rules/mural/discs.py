"""The paint discs: geometry, rotations, which contacts a rotation aligns, the refill (Part C2-C5).

A disc is a dict ``{"disc": "D1", "side": "A", "colours": "RYBWRYBW", "orientation": o,
"cubes": [paint or None] * 8}`` at a position P1..P4 (list index 0..3). Segment ``s`` sits in
slot ``(s + o) % 8`` (slots clockwise from east); one clockwise step is ``o + 1``.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from rules.mural.data import (
    DISCS,
    LEFT_CONTACT_SLOT,
    REFILL_SLOT_ORDER,
    RIGHT_CONTACT_SLOT,
    SLOTS,
)

Disc = dict[str, Any]
#: A rotation: the positions turned and the signed steps of each (+ clockwise).
Rotation = tuple[tuple[int, ...], tuple[int, ...]]

CONTACTS: tuple[int, ...] = tuple(range(DISCS - 1))  # contact k joins P(k+1) and P(k+2)


def segment_at(disc: Disc, slot: int, orientation: int | None = None) -> int:
    """The segment in ``slot``: ``(slot - o) % 8``."""
    o = disc["orientation"] if orientation is None else orientation
    return (slot - o) % SLOTS


def contact_segments(discs: list[Disc], contact: int, orientations: list[int]) -> tuple[int, int]:
    """C2: "at contact k the segment in slot 0 (E) of P_k faces the segment in slot 4 (W) of
    P_k+1": the two facing segments."""
    left, right = contact, contact + 1
    return (
        segment_at(discs[left], LEFT_CONTACT_SLOT, orientations[left]),
        segment_at(discs[right], RIGHT_CONTACT_SLOT, orientations[right]),
    )


def same_colour(discs: list[Disc], contact: int, orientations: list[int]) -> bool:
    a, b = contact_segments(discs, contact, orientations)
    return discs[contact]["colours"][a] == discs[contact + 1]["colours"][b]


def turned(discs: list[Disc], rotation: Rotation) -> list[int]:
    """The orientations after ``rotation``."""
    orientations = [disc["orientation"] for disc in discs]
    for position, steps in zip(*rotation, strict=True):
        orientations[position] = (orientations[position] + steps) % SLOTS
    return orientations


def newly_aligned(discs: list[Disc], rotation: Rotation) -> list[int]:
    """C4: "look at every contact that touches a rotated disc. [...] If the pair is different
    and the two colours are equal, it is eligible": the contacts this rotation aligned."""
    return [k for k, _, _ in _aligned(discs, rotation)]


def collectable(discs: list[Disc], rotation: Rotation) -> list[tuple[int, int]]:
    """(position, segment) of every cube on a pair this rotation aligned: "A tinta obtida deve
    ser dos segmentos que foram alinhados devido à ação de seu turno." """
    found = []
    for k, left, right in _aligned(discs, rotation):
        for position, segment in ((k, left), (k + 1, right)):
            if discs[position]["cubes"][segment] is not None:
                found.append((position, segment))
    return sorted(set(found))


def _aligned(discs: list[Disc], rotation: Rotation) -> list[tuple[int, int, int]]:
    """Each contact ``rotation`` aligned, with its facing segments after it (``newly_aligned``
    and ``collectable`` in one pass: the legal moves ask this of every rotation, every turn)."""
    before = [disc["orientation"] for disc in discs]
    after = turned(discs, rotation)
    moved = rotation[0]
    out = []
    for k in CONTACTS:
        if k not in moved and k + 1 not in moved:
            continue
        left = (LEFT_CONTACT_SLOT - after[k]) % SLOTS
        right = (RIGHT_CONTACT_SLOT - after[k + 1]) % SLOTS
        if (
            left == (LEFT_CONTACT_SLOT - before[k]) % SLOTS
            and right == (RIGHT_CONTACT_SLOT - before[k + 1]) % SLOTS
        ):
            continue
        if discs[k]["colours"][left] == discs[k + 1]["colours"][right]:
            out.append((k, left, right))
    return out


#: The rotations of each kind, before the "must be able to collect" filter.
def simple_rotations() -> list[Rotation]:
    """ "Gire 1 disco, 1 passo em qualquer direção"."""
    return [((d,), (s,)) for d in range(DISCS) for s in (1, -1)]


def big_steps() -> tuple[int, ...]:
    """ "Girar 1 disco, até 4 passos": 1-4 clockwise, 1-3 counter-clockwise (4 back is the
    same position as 4 forward, so it is offered once)."""
    return (1, 2, 3, 4, -1, -2, -3)


def pair_rotations(steps: tuple[int, ...]) -> list[Rotation]:
    """Two adjacent discs, each turned by one of ``steps``; at least one of them moves."""
    return [
        ((k, k + 1), (a, b))
        for k in CONTACTS
        for a, b in product(steps, repeat=2)
        if (a, b) != (0, 0)
    ]


def rotate(discs: list[Disc], rotation: Rotation) -> None:
    """Turn the discs in place (a working copy)."""
    for position, orientation in enumerate(turned(discs, rotation)):
        discs[position]["orientation"] = orientation


def refill(discs: list[Disc], queue: list[str]) -> list[tuple[int, int, str]]:
    """End of round 1, C5: "for P1, then P2, P3, P4, walk the slots in the order 4,5,6,7,0,1,2,3
    [...] Put the next queue cube on each empty segment. If the queue runs dry, fill the
    remaining empty segments from the stock with each segment's own colour." Returns the
    (position, segment, paint) placed from the stock; the queue list is consumed in place."""
    from_stock = []
    for position, disc in enumerate(discs):
        for slot in REFILL_SLOT_ORDER:
            segment = segment_at(disc, slot)
            if disc["cubes"][segment] is not None:
                continue
            if queue:
                disc["cubes"][segment] = queue.pop(0)
            else:
                paint = disc["colours"][segment]
                disc["cubes"][segment] = paint
                from_stock.append((position, segment, paint))
    return from_stock


def aligned_contacts(discs: list[Disc]) -> list[dict[str, Any]]:
    """For the image and the view: each contact's facing segments and whether they match."""
    orientations = [disc["orientation"] for disc in discs]
    out = []
    for k in CONTACTS:
        left, right = contact_segments(discs, k, orientations)
        out.append(
            {
                "contact": k,
                "segments": [left, right],
                "colours": [discs[k]["colours"][left], discs[k + 1]["colours"][right]],
                "same": same_colour(discs, k, orientations),
            }
        )
    return out
