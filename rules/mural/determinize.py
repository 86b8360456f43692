"""A Street Art: Mural table consistent with one seat's view: what nobody can see dealt anew.

For search by AI seats (information-set sampling). Everything on the table is public; hidden are
the deck below its top card and the face-down technique tile. The cards nobody has seen are
shuffled into the deck under its known top, and the face-down tile is drawn from the tiles not
revealed. What the view leaves out because it is bookkeeping follows from the table: the stock
ledger counts the cubes in play, the first pass of round 1 is read off the seats' pass flags.
Pure: the same view and generator give the same state.
"""

from __future__ import annotations

import random

from rules.jsoncopy import json_copy
from rules.mural.data import CARDS, PAINTS, TECHNIQUES
from rules.mural.state import DEFAULT_OPTIONS, FORMAT_VERSION, GAME_ID, OVER, PLAY, State, new_seat
from rules.protocol import View


def unseen_cards(view: View) -> list[str]:
    """Cards neither in the display, on top of the deck nor painted on the mural."""
    seen = set(view["display"])
    if view["deck_top"] is not None:
        seen.add(view["deck_top"])
    seen.update(cell["card"] for row in view["mural"] for cell in row if cell is not None)
    return sorted(card for card in CARDS if card not in seen)


def cubes_in_play(view: View) -> dict[str, int]:
    """The stock ledger: every cube on the discs, in the queue, in backpacks and on cards."""
    paints = [p for disc in view["discs"] for p in disc["cubes"] if p is not None]
    paints += view["queue"]
    paints += [p for entry in view["players"] for p in entry["backpack"]]
    paints += [
        p
        for row in view["mural"]
        for cell in row
        if cell is not None
        for p in cell["paints"]
        if p is not None
    ]
    return {paint: paints.count(paint) for paint in PAINTS}


def options_of(view: View) -> dict[str, object]:
    """The view's ``options`` when present, else the defaults with the disc sides as shown."""
    if view.get("options") is not None:
        return dict(view["options"])
    sides = {disc["side"] for disc in view["discs"]}
    return {**DEFAULT_OPTIONS, "disc_sides": sides.pop() if len(sides) == 1 else "random"}


def determinize(view: View, player: str, generator: random.Random) -> State:
    """A full state whose view for ``player`` is ``view``; hidden parts dealt by ``generator``."""
    players = [entry["id"] for entry in view["players"]]
    deck = unseen_cards(view)
    generator.shuffle(deck)
    deck = deck[: max(0, view["deck_size"] - 1)]
    if view["deck_top"] is not None:
        deck.insert(0, view["deck_top"])
    hidden = sorted(t for t in TECHNIQUES if t not in view["techniques"])
    generator.shuffle(hidden)
    seats = []
    for entry in view["players"]:
        seat = new_seat(entry["id"], len(players))
        seat.update(
            backpack=list(entry["backpack"]),
            grafiteiros=entry["grafiteiros"],
            rotations=dict(entry["rotations"]),
            techniques=list(entry["techniques"]),
            sprays=entry["sprays"],
            passed=entry["passed"],
        )
        seats.append(seat)
    first = players.index(view["first"])
    outcome = view.get("outcome")
    current = players.index(view["current"]) if view["current"] is not None else first
    return {
        "game": GAME_ID,
        "version": FORMAT_VERSION,
        "seed": f"{generator.getrandbits(64):016x}",
        "options": options_of(view),
        "players": players,
        "rng": 2 if view["round"] == 1 else 3,
        "discs": json_copy(view["discs"]),
        "queue": list(view["queue"]),
        "taken": cubes_in_play(view),
        "mural": json_copy(view["mural"]),
        "tokens": dict(view["tokens"]),
        "techniques": list(view["techniques"]) + hidden[: view["hidden_techniques"]],
        "display": list(view["display"]),
        "deck": deck,
        "seats": seats,
        "round": view["round"],
        "first": first,
        "round_first": first,
        "first_passed": view["round"] > 1 or any(entry["passed"] for entry in view["players"]),
        "current": current,
        "phase": OVER if view["outcome"] is not None else PLAY,
        "turn": json_copy(view["turn"]),
        "turns": view["turns"],
        "trigger": json_copy(view["trigger"]),
        "ended_by": outcome["details"]["ended_by"] if outcome else None,
        "last": json_copy(view["last"]),
        "previous": json_copy(view["previous"]),
    }
