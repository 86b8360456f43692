"""A Street Art table consistent with one seat's view: what that player cannot see dealt anew.

For search by AI seats (information-set sampling): the cards the player has not seen (the other
hands, every card under a pile's top, the draw pile) are shuffled and dealt back into the same
places and sizes. The view does not carry the play timestamps of the piles' tops; they are set
by seat order (the player to the current one's right played last), which is how a table that
saw no Rain plays out. Pure: the same view and generator give the same state.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from rules.protocol import View
from rules.street_art.data import DECK
from rules.street_art.engine import (
    AIM,
    BRASS,
    DEFAULT_OPTIONS,
    OVER,
    Options,
    Seat,
    StreetArtState,
)


def unseen_cards(view: View) -> list[str]:
    """The deck less the viewer's hand and every visible pile top, in a fixed order."""
    unseen = Counter(DECK)
    unseen.subtract(view.get("hand", []))
    unseen.subtract(entry["top"] for entry in view["players"] if entry["top"] is not None)
    if any(count < 0 for count in unseen.values()):
        raise ValueError("the view shows more copies of a card than the deck holds")
    return sorted(unseen.elements())


def options_of(view: View) -> Options:
    """The table's options as far as the view tells them: its ``options`` when present, else
    the defaults with ``two_players`` read off the seat count."""
    given = view.get("options")
    if given is not None:
        return Options(**given)
    return Options(**{**DEFAULT_OPTIONS, "two_players": len(view["players"]) == 2})


def determinize(view: View, player: str, generator: random.Random) -> StreetArtState:
    """A full state whose view for ``player`` is ``view``; hidden cards dealt by ``generator``."""
    entries = view["players"]
    players = [entry["id"] for entry in entries]
    hidden = unseen_cards(view)
    generator.shuffle(hidden)
    current = players.index(view["current"]) if view["current"] in players else 0
    n = len(players)
    clock = sum(entry["pile"] for entry in entries) + n
    seats = []
    for index, entry in enumerate(entries):
        if entry["id"] == player:
            hand = tuple(sorted(view["hand"]))
        else:
            hand = tuple(sorted(hidden[: entry["hand_size"]]))
            del hidden[: entry["hand_size"]]
        beneath = max(0, entry["pile"] - 1)
        pile = tuple(hidden[:beneath]) + ((entry["top"],) if entry["top"] is not None else ())
        del hidden[:beneath]
        back = (current - index) % n
        if back == 0 and view["phase"] not in (AIM, BRASS):
            back = n  # the current player's top card is from their previous turn
        seats.append(
            Seat(
                player=entry["id"],
                hand=hand,
                pile=pile,
                hearts=entry["hearts"],
                played_at=clock - back if pile else 0,
            )
        )
    if len(hidden) != view["draw_pile"]:
        raise ValueError("the view's card counts do not add up to the deck")
    outcome = view.get("outcome")
    last = view.get("last")
    return StreetArtState(
        seed=f"{generator.getrandbits(64):016x}",
        options=options_of(view),
        seats=tuple(seats),
        draw_pile=tuple(hidden),
        middle=view["middle"],
        box=view["box"],
        current=current,
        phase=view["phase"],
        turn=view["turn"],
        clock=clock,
        rng_counter=1,
        ended_by=outcome["details"]["ended_by"] if view["phase"] == OVER and outcome else None,
        last_action=None if last is None else json.dumps(last),
    )
