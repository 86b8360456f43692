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

import functools
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from bot.ai.evaluate import hand_gain, relative
from bot.ai.memory import STREET_ART, Memory, fingerprint, unseen
from rules.street_art.data import BEATBOXER, BRASS_BAND, CARDS, FIREWORKS, FIREWORKS_HEARTS, RAIN
from rules.street_art.engine import StreetArtState, rain_loss

View = dict[str, Any]
#: Deals tried at most for one table, and the chance of keeping a deal whose rival would not
#: have opened with the card they did (a player sometimes plays for later, or errs).
ATTEMPTS = 6
IMPLAUSIBLE = 0.3
#: How much better another opening must have looked for the one played to be implausible.
SLACK = 0.5
Dealer = Callable[[View, str, random.Random], Any]


def street_art(
    base: StreetArtState, player: str, rng: random.Random, memory: Memory
) -> StreetArtState:
    """``base``, a table the rules dealt from ``player``'s view, dealt again from what the seat
    remembers (``deal_once``); a deal whose rivals would not have opened their last turn with
    the card they did (a player takes the most hearts at once, as the rollout policy reckons
    them) is dealt again, with a chance ``IMPLAUSIBLE`` of being kept, up to ``ATTEMPTS``
    times: the rivals' hands lean to what their play says they hold."""
    table = deal_once(base, player, rng, memory)
    for _ in range(ATTEMPTS - 1):
        if rng.random() < plausibility(table, player, memory):
            break
        table = deal_once(base, player, rng, memory)
    return table


def plausibility(table: StreetArtState, player: str, memory: Memory) -> float:
    """The chance of keeping ``table``: the product over the rivals of ``fit``."""
    kept = 1.0
    for seat in table.seats:
        choice = memory["choices"].get(seat.player)
        if seat.player != player and choice is not None:
            kept *= fit(json.dumps(choice, sort_keys=True), seat.player, tuple(sorted(seat.hand)))
    return kept


@functools.lru_cache(maxsize=4096)
def fit(choice: str, rival: str, hand: tuple[str, ...]) -> float:
    """Over the ways ``hand`` (a rival's dealt hand) can have been their hand when they made
    ``choice`` (JSON: the card that opened their last turn, the table then, the cards drawn
    since), the share where that card was (near) the best opening by ``opening_worth``, the
    others counting ``IMPLAUSIBLE``. The same hands come up again and again in one decision's
    deals: it is kept."""
    made = json.loads(choice)
    if not 0 <= made["drawn"] <= 1:
        return 1.0  # a run of Brass Bands since: too many ways to tell
    drawn = sorted(set(hand)) if made["drawn"] else [None]
    share = 0.0
    for card in drawn:
        then = list(hand)
        if card is not None:
            then.remove(card)
        then.append(made["card"])
        worth = {c: opening_worth(choice, rival, then, c) for c in set(then)}
        fits = worth[made["card"]] >= max(worth.values()) - SLACK
        share += (1.0 if fits else IMPLAUSIBLE) / len(drawn)
    return share


def opening_worth(choice: str, player: str, hand: list[str], card: str) -> float:
    """How good opening a turn with ``card`` from ``hand`` looked at the table of ``choice``
    (JSON: a rival's recorded choice, with the tops, play times, hearts and middle then), as
    ``normal`` judges a turn without playing it: hearts after it, against the best rival's,
    and the best gain the rest of the hand offers next turn (the evaluation's terms)."""
    rest = list(hand)
    rest.remove(card)
    brass = rest.count(BRASS_BAND) if card == BRASS_BAND else 0
    if brass:
        rest = [c for c in rest if c != BRASS_BAND]
    after = _opened(choice, player, card, brass)
    gain = hand_gain(SimpleNamespace(player=player, hand=rest), after)
    values = {seat.player: float(seat.hearts) for seat in after.seats}
    values[player] += 0.4 * gain
    return relative(values, player)


@functools.lru_cache(maxsize=1024)
def _opened(choice: str, player: str, card: str, brass: int) -> SimpleNamespace:
    """The table (seats with their tops and hearts, the middle) after ``player`` opened with
    ``card`` (and ``brass`` more Brass Bands) at the table of ``choice``."""
    table = json.loads(choice)
    hearts = dict(table["hearts"])
    tops = dict(table["tops"])
    middle = table["middle"]
    rivals = [p for p in hearts if p != player]

    def take(amount: int) -> None:
        nonlocal middle
        taken = min(amount, middle)
        hearts[player] += taken
        middle -= taken

    def steal(victim: str, amount: int) -> None:
        stolen = min(amount, hearts[victim])
        hearts[victim] -= stolen
        hearts[player] += stolen

    info = CARDS[card]
    if info.kind == "star":
        showing = [p for p in rivals if tops[p] == card]
        if showing:
            steal(max(showing, key=lambda p: table["stamps"][p]), info.value or 0)
        else:
            take(info.value or 0)
    elif card == BEATBOXER:
        take(1 + sum(1 for p in rivals if tops[p] == BEATBOXER))
    elif card == BRASS_BAND:
        take(1 + brass)
    elif card == FIREWORKS and rivals:
        steal(max(rivals, key=lambda p: hearts[p]), FIREWORKS_HEARTS)
    elif card == RAIN:
        beatboxers = sum(1 for p in hearts if tops[p] == BEATBOXER)
        for p in rivals:
            hearts[p] -= min(rain_loss(tops[p], beatboxers), hearts[p])
    tops[player] = card
    return SimpleNamespace(
        middle=middle,
        seats=[SimpleNamespace(player=p, top=tops[p], hearts=hearts[p]) for p in hearts],
    )


def deal_once(
    base: StreetArtState, player: str, rng: random.Random, memory: Memory
) -> StreetArtState:
    """``base`` dealt again from the memory: piles as they were played (with their play
    order), the draw pile's known parts at its bottom, the rest dealt to the rivals and the
    front. ``ValueError`` if the memory cannot explain the table."""
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
