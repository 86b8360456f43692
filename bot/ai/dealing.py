"""Determinization that reads a seat's memory: the rivals' unknown cards dealt consistently with
everything the seat saw, not only with its current view.

The rules' ``determinize`` deals every card the view does not show (the other hands, the cards
under each pile's top, the draw pile) at random: a Street Star buried three turns ago may land
in a rival's hand, ready to steal. A seat that watched the game (``bot.ai.memory``) knows each
pile card by card and which cards a Rain or a reshuffle put under the draw pile. ``deal`` puts
those where they are, and deals the rivals' hands and the unknown front of the draw pile from
what is left: only cards that no pile holds and the draw pile's known parts do not claim.
Where a rival drew from a known part, which of its cards they took is drawn at random.

A memory that does not fit the view (``None``, or another table) leaves the rules' dealing as
it was: the AI never guesses beyond what it saw.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.ai.memory import STREET_ART, Memory, fingerprint, unseen
from rules.street_art.engine import StreetArtState

View = dict[str, Any]
Dealer = Callable[[View, str, random.Random], Any]


def street_art(
    base: StreetArtState, player: str, rng: random.Random, memory: Memory
) -> StreetArtState:
    """``base``, a table the rules dealt from ``player``'s view, dealt again from what the seat
    remembers: piles as they were played (with their play order), the draw pile's known parts
    at its bottom, the rest dealt to the rivals and the front. ``ValueError`` if the memory
    cannot explain the table."""
    pool = unseen(memory)
    if any(count < 0 for count in pool.values()):
        raise ValueError("the memory holds more copies of a card than the deck")
    # The known parts, newest last (the bottom of the draw pile): a part nobody drew from is
    # known card by card; one the rivals drew from keeps a random share of what it may hold.
    bottoms: list[list[str]] = []
    for part in reversed(memory["segments"]):
        left = Counter(part["cards"]) - Counter(part["mine"])
        cards = sorted((left & pool).elements())
        if len(cards) < part["left"]:
            raise ValueError("a known part of the draw pile holds cards seen elsewhere")
        rng.shuffle(cards)
        cards = cards[: part["left"]]
        pool.subtract(cards)
        bottoms.insert(0, cards)
    rest = sorted(pool.elements())
    hidden = sum(len(seat.hand) for seat in base.seats if seat.player != player)
    if len(rest) != hidden + memory["front"]:
        raise ValueError("the memory's cards do not add up to the hands and the draw pile")
    rng.shuffle(rest)
    seats = []
    for seat in base.seats:
        pile = tuple(memory["piles"][seat.player])
        stamp = memory["stamps"][seat.player]
        if seat.player == player:
            seats.append(replace(seat, pile=pile, played_at=stamp))
            continue
        size = len(seat.hand)
        hand, rest = tuple(sorted(rest[:size])), rest[size:]
        seats.append(replace(seat, hand=hand, pile=pile, played_at=stamp))
    draw = tuple(rest) + tuple(card for part in bottoms for card in part)
    return replace(base, seats=tuple(seats), draw_pile=draw, clock=memory["clock"])


#: Per game, how a table dealt from the view is dealt again from the seat's memory (games not
#: listed deal from the view alone).
WITH_MEMORY: dict[str, Callable[[Any, str, random.Random, Memory], Any]] = {STREET_ART: street_art}


def dealer(plain: Dealer, game_id: str, memory: Memory | None) -> Dealer:
    """How a decision deals its tables: ``plain`` (the rules' ``determinize``, from the view
    alone), then dealt again from the seat's memory when the game reads one and the memory is
    of this seat and moment."""
    with_memory = WITH_MEMORY.get(game_id)
    if memory is None or with_memory is None:
        return plain

    def deal(view: View, player: str, rng: random.Random) -> Any:
        base = plain(view, player, rng)
        if memory["seen"] != fingerprint(view) or player != view["viewer"]:
            return base  # a memory of another moment or seat
        try:
            return with_memory(base, player, rng, memory)
        except ValueError:
            return base  # the memory cannot explain this table: the view alone

    return deal
