"""How good a position is for one player, per game: the game's score, relative to the best
opponent, plus the obvious positional terms. Search calls these on determinized states only
(``rules/<game>/determinize.py``), so an evaluation may read the whole state it is given: what
is hidden there was dealt at random from what the player has not seen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules import Game
from rules.artsee.engine import final_scores
from rules.mural.data import CARDS as MURAL_CARDS
from rules.mural.state import can_pay, free_cells
from rules.mural.state import scores as mural_scores
from rules.street_art.data import BEATBOXER, BRASS_BAND, CARDS, FIREWORKS
from rules.street_kings.data import CARS, LOCATIONS, STATS, TROPHIES, upgrade_of
from rules.street_kings.table import (
    ACTION,
    DEALER_BUY,
    DEALER_SELL,
    PLACE,
    SHOP_BUY,
    SHOP_SELL,
    class_below,
)

#: What a finished game is worth beyond its score: winning is all that counts in the end.
WIN = 1000.0

Evaluation = Callable[[Any, str], float]


def terminal(game: Game, state: Any, player: str) -> float | None:
    """A finished game: a win (shared: half) or a loss, the score margin breaking ties."""
    outcome = game.outcome(state)
    if outcome is None:
        return None
    margin = outcome.scores[player] - max(s for p, s in outcome.scores.items() if p != player)
    if player not in outcome.winners:
        return -WIN + margin
    return WIN / len(outcome.winners) + margin


def relative(values: dict[str, float], player: str) -> float:
    """One's value less the best opponent's, and a little less the opponents' mean: ahead of
    everyone counts, and with three or more, so does keeping the field down."""
    others = [v for p, v in values.items() if p != player]
    return values[player] - max(others) + 0.25 * (values[player] - sum(others) / len(others))


# -- Street Art ---------------------------------------------------------------------------------


def street_art(state: Any, player: str) -> float:
    """Hearts, and the best gain one's hand offers next turn. (A term for the risk on one's
    top card, a matching star or a Rain, made the league results worse: left out.)"""
    values = {seat.player: seat.hearts + 0.4 * hand_gain(seat, state) for seat in state.seats}
    return relative(values, player)


def hand_gain(seat: Any, state: Any) -> float:
    """The most hearts one card of the hand could bring next turn. (Every evaluation of every
    seat calls this: the table is read once, not once per card.)"""
    rival_tops = set()
    rivals_hearts = False
    beatboxers = 0
    for other in state.seats:
        beatboxers += other.top == BEATBOXER
        if other.player != seat.player:
            rival_tops.add(other.top)
            rivals_hearts = rivals_hearts or other.hearts > 0
    best = 0.0
    for card in set(seat.hand):
        info = CARDS[card]
        if info.kind == "star":
            gain = float(info.value or 0)
            if card in rival_tops:
                gain *= 2  # taken from a rival: the margin moves twice
        elif card == BEATBOXER:
            gain = 1 + beatboxers
        elif card == BRASS_BAND:
            gain = seat.hand.count(BRASS_BAND)
        elif card == FIREWORKS:
            gain = 4.0 if rivals_hearts else 0
        else:
            gain = 1.0
        best = max(best, gain)
    return min(best, state.middle)


# -- ArtSee -------------------------------------------------------------------------------------


def artsee(state: Any, player: str) -> float:
    """Final prestige so far (with masterpieces and their category bonus); visitors on front
    cards (each scores when covered) and visitors still to welcome."""
    values = {}
    for gallery in state.galleries:
        total = final_scores(gallery)["total"]
        values[gallery.player] = total + 0.6 * sum(gallery.visitors) + 0.15 * gallery.supply
    return relative(values, player)


# -- Street Art: Mural --------------------------------------------------------------------------


def mural(state: Any, player: str) -> float:
    """The score sheet so far; paints held count beyond their leftover points while there is a
    card to pay with them, and so does a display card one can already pay."""
    return relative(mural_values(state, _payable_worth), player)


def mural_values(state: Any, cards: Callable[[list[str], list[str]], float]) -> dict[str, float]:
    """Each seat's score sheet, paints held, grafiteiros, and the ``cards`` term of its backpack
    against the display (``hard``'s own Mural judgement, ``bot.ai.mural``, differs there)."""
    sheet = mural_scores(state)
    open_cells = bool(free_cells(state))
    values = {}
    for seat in state["seats"]:
        value = float(sheet[seat["player"]]["total"])
        if open_cells and seat["sprays"]:
            value += 0.5 * len(seat["backpack"])
            value += 0.3 * cards(seat["backpack"], state["display"])
        value += 0.2 * seat["grafiteiros"]
        values[seat["player"]] = value
    return values


def mural_worth(card_id: str) -> int:
    """A card's points; a flexible one's least (its base and a basic paint a space)."""
    card = MURAL_CARDS[card_id]
    return card.points or 2 + card.spaces


def _payable_worth(backpack: list[str], display: list[str]) -> float:
    """The most points of a display card ``backpack`` pays as it is (0: none)."""
    payable = [c for c in display if can_pay(backpack, MURAL_CARDS[c], False)]
    return float(max((mural_worth(c) for c in payable), default=0))


# -- Street Kings -------------------------------------------------------------------------------

#: Trophy points in the trade-up ratio (two of a place make one of the place above).
TROPHY_POINTS = dict(zip(TROPHIES, (8, 4, 2, 1), strict=True))
CREDIT = 0.5
#: The phases of the action round, while the race ahead is still to be won.
BEFORE_RACE = (ACTION, SHOP_SELL, SHOP_BUY, DEALER_SELL, DEALER_BUY, PLACE)
#: Per star of the best car, averaged over the four stats: stars win races, and races golds.
STAR = 6.0
#: The race ahead, by the place one's car is likely to take among those who may race; a seat
#: not yet on the grid counts it at a discount, so qualifying beats an idle action.
RACE = 0.8
UNQUALIFIED = 0.5


def street_kings(state: Any, player: str) -> float:
    """Trophies (a gold is what wins); credits; the stars of one's best car for the race ahead;
    during the action phase, the place one's car is likely to take among the racers."""
    racing = _race_strengths(state)
    values = {}
    for name, seat in zip(state["players"], state["seats"], strict=True):
        value = sum(TROPHY_POINTS[t] * n for t, n in seat["trophies"].items())
        value += CREDIT * seat["credits"]
        value += STAR * max((_car_stars(seat, car, STATS) for car in seat["cars"]), default=0)
        if name in racing:
            beaten = sum(1 for other, s in racing.items() if other != name and s < racing[name])
            ties = sum(1 for other, s in racing.items() if other != name and s == racing[name])
            place = len(racing) - beaten - ties / 2
            prospect = TROPHY_POINTS["gold"] / 2 ** (place - 1)
            value += RACE * prospect * (1 if seat["lane"] is not None else UNQUALIFIED)
        values[name] = value
    return relative(values, player)


def _car_stars(
    seat: dict[str, Any], car: dict[str, Any], stats: tuple[str, ...] | list[str]
) -> float:
    """The stars a car (its parts and one's crew) brings over ``stats``, per stat."""
    extras = [*car["upgrades"], *seat["crew"]]
    total = 0
    for stat in stats:
        total += CARS[car["id"]].stars[stat]
        total += sum(upgrade_of(c).stars for c in extras if upgrade_of(c).stat == stat)
    return total / len(stats)


def _race_strengths(state: dict[str, Any]) -> dict[str, float]:
    """During the action phase, each player still able to race: their best eligible car's
    stars over the race's stats (the location cards placed, else every stat)."""
    if state["phase"] not in BEFORE_RACE:
        return {}
    cls = state["race_class"]
    if cls is None:
        return {}
    stats = [
        s
        for spot in state["spots"]
        if spot["card"]
        for s in (LOCATIONS[spot["card"]].first, LOCATIONS[spot["card"]].second)
    ]
    allowed = {cls} if state["championship"] else {cls, class_below(cls)}
    strengths = {}
    for name, seat in zip(state["players"], state["seats"], strict=True):
        if seat["passed"] and seat["lane"] is None:
            continue
        parked = {slot["car"] for slot in state["show"] if slot and slot["player"] == name}
        cars = [c for c in seat["cars"] if CARS[c["id"]].cls in allowed and c["id"] not in parked]
        if cars:
            strengths[name] = max(_car_stars(seat, c, stats or STATS) for c in cars)
    return strengths


EVALUATIONS: dict[str, Evaluation] = {
    "street-art": street_art,
    "artsee": artsee,
    "street-art-mural": mural,
    "street-kings": street_kings,
}
