"""Which Street Kings decisions a player may take now, each list kept short (DESIGN.md, "Small
decisions"): a turn's action, then a shop visit's sales and its one purchase, a dealership
visit's sale and purchase, where to place a location card, the racing car, a NOZ answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.protocol import Action
from rules.street_kings.data import (
    CARS,
    CLASSES,
    CUSTOM_FINISH_SPACES,
    LANES,
    upgrade_of,
)
from rules.street_kings.table import (
    ACTION,
    CLASS,
    DEALER_BUY,
    DEALER_SELL,
    NOZ,
    PLACE,
    RACE_CAR,
    SHOP_BUY,
    SHOP_SELL,
    car_value,
    class_below,
    classify_finish,
    colour_on,
    half_up,
    noz_policies,
)

if TYPE_CHECKING:
    from rules.street_kings.table import Table


def to_move(t: Table) -> list[str]:
    """Who owes a decision: one player at a time, and during a race only a racer with a real
    choice (several eligible cars, or a NOZ with the policy "ask")."""
    phase = t.s["phase"]
    if phase in (CLASS, ACTION, SHOP_SELL, SHOP_BUY, DEALER_SELL, DEALER_BUY, PLACE):
        return [t.players[t.s["current"]]]
    if phase == RACE_CAR:
        return [t.s["race"]["to_pick"][0]]
    if phase == NOZ:
        return [t.s["race"]["asking"]]
    return []


def legal(t: Table, player: str) -> list[Action]:
    if player not in to_move(t):
        return []
    phase = t.s["phase"]
    if phase == CLASS:
        return class_actions(t, player)
    if phase == ACTION:
        return [*turn_actions(t, player), *policy_actions(t, player)]
    if phase == SHOP_SELL:
        return [*narrowed(t, shop_sales(t, player), sale_group), {"type": "done_selling"}]
    if phase == SHOP_BUY:
        return [*narrowed(t, shop_buys(t, player), buy_group), {"type": "buy_nothing"}]
    if phase == DEALER_SELL:
        return [*dealer_sales(t, player), {"type": "done_selling"}]
    if phase == DEALER_BUY:
        nothing = [{"type": "buy_nothing"}] if t.seat(player)["cars"] else []
        return [*dealer_buys(t, player), *nothing]
    if phase == PLACE:
        return place_actions(t, player)
    if phase == RACE_CAR:
        cars = [{"type": "race", "car": car} for car in t.eligible_cars(player)]
        return [*cars, *policy_actions(t, player)]
    return [{"type": "noz", "use": True}, {"type": "noz", "use": False}, *policy_actions(t, player)]


def class_actions(t: Table, player: str) -> list[Action]:
    """The class of a car the chooser owns; with Custom Finish Line, a space for the token whose
    closest letter is such a class."""
    choices = t.class_choices(player)
    if t.options["custom_finish_line"]:
        return [
            {"type": "finish_line", "space": space}
            for space in CUSTOM_FINISH_SPACES
            if classify_finish(space) in choices
        ]
    return [{"type": "class", "class": cls} for cls in choices]


def turn_actions(t: Table, player: str) -> list[Action]:
    """Rulebook, Phase 2: shop, dealership, car show, racing location, qualify, or Pass (always
    legal, §3.3). Only actions that can do something are offered (§3.13)."""
    seat = t.seat(player)
    actions: list[Action] = []
    if shop_sales(t, player) or shop_buys(t, player):
        actions.append({"type": "shop"})
    if dealer_sales(t, player) or dealer_buys(t, player):
        actions.append({"type": "dealer"})
    actions.extend({"type": "show", "car": car} for car in show_cars(t, player))
    if can_choose_location(t, player):
        actions.append({"type": "location"})
    if seat["lane"] is None and t.eligible_cars(player):
        actions.extend({"type": "qualify", "lane": lane} for lane in free_lanes(t))
    actions.append({"type": "pass"})
    return actions


def policy_actions(t: Table, player: str) -> list[Action]:
    """The other NOZ policies, offered only to a player who owns a NOZ (it matters to no one
    else; ``play`` still takes a policy from anyone, as a standing order)."""
    seat = t.seat(player)
    if not any(upgrade_of(c).kind == "noz" for car in seat["cars"] for c in car["upgrades"]):
        return []
    return [
        {"type": "noz_policy", "policy": policy}
        for policy in noz_policies(t.options)
        if policy != seat["noz_policy"]
    ]


def free_lanes(t: Table) -> list[int]:
    taken = {seat["lane"] for seat in t.s["seats"]}
    return [lane for lane in LANES if lane not in taken]


def last_eligible(t: Table, player: str, car_id: str) -> bool:
    """Whether ``car_id`` is the only car a qualified ``player`` could still race (§3.5: a car
    show or a sale that would leave a qualified player with no car is refused)."""
    return t.seat(player)["lane"] is not None and t.eligible_cars(player) == [car_id]


def show_cars(t: Table, player: str) -> list[str]:
    """Rulebook, Car Show: "You can only take this action if there is an available spot"."""
    if None not in t.s["show"]:
        return []
    parked = t.at_show(player)
    return [
        car["id"]
        for car in t.seat(player)["cars"]
        if car["id"] not in parked and not last_eligible(t, player, car["id"])
    ]


def can_choose_location(t: Table, player: str) -> bool:
    """ "You can only take this action if there is an empty location spot"; not in the
    championship ("Players can't play location cards this round")."""
    if t.s["championship"] or all(spot["card"] is not None for spot in t.s["spots"]):
        return False
    return bool(t.seat(player)["hand"] or t.s["location_deck"] or t.s["location_discard"])


def place_actions(t: Table, player: str) -> list[Action]:
    spots = [i + 1 for i, spot in enumerate(t.s["spots"]) if spot["card"] is None]
    return [
        {"type": "place", "card": card, "spot": spot}
        for card in t.seat(player)["hand"]
        for spot in spots
    ]


def shop_sales(t: Table, player: str) -> list[Action]:
    """Parts on cars not at the car show, and one crew card per artwork (identical choices are
    one choice)."""
    seat = t.seat(player)
    parked = t.at_show(player)
    cards = [c for car in seat["cars"] if car["id"] not in parked for c in car["upgrades"]]
    crew: dict[str, str] = {}
    for card in seat["crew"]:
        crew.setdefault(upgrade_of(card).id, card)
    return [{"type": "sell", "card": card} for card in [*cards, *sorted(crew.values())]]


def shop_buys(t: Table, player: str) -> list[Action]:
    """Each affordable shop card for each car it may go on: owned, not at the car show (§3.17),
    without an upgrade of that colour; crew go to no car."""
    seat = t.seat(player)
    parked = t.at_show(player)
    actions: list[Action] = []
    for card in t.s["shop"]:
        info = upgrade_of(card)
        if info.price > seat["credits"]:
            continue
        if info.kind == "crew":
            actions.append({"type": "buy", "card": card})
            continue
        actions.extend(
            {"type": "buy", "card": card, "car": car["id"]}
            for car in seat["cars"]
            if car["id"] not in parked and colour_on(car, info.colour) is None
        )
    return actions


def owned_classes(t: Table, player: str) -> list[str]:
    """Classes counted for buying: those owned when the dealership visit began (§3.7)."""
    pending = t.s["pending"]
    if pending is not None and pending["kind"] == "dealer":
        return pending["owned"]
    return sorted({CARS[car["id"]].cls for car in t.seat(player)["cars"]})


def buyable_cars(t: Table, player: str, credits: int) -> list[str]:
    """Rulebook, Dealership: "You can only buy a car which is one class above a car you own."""
    owned = owned_classes(t, player)
    return [
        car
        for cls in CLASSES
        for car in t.s["dealership"].get(cls, [])
        if class_below(cls) in owned and CARS[car].price <= credits
    ]


def dealer_buys(t: Table, player: str) -> list[Action]:
    return [
        {"type": "buy_car", "car": car}
        for car in buyable_cars(t, player, t.seat(player)["credits"])
    ]


def dealer_sales(t: Table, player: str) -> list[Action]:
    """Cars that may be sold: not at the car show (§3.10), not a qualified player's last eligible
    car (§3.5), and not the last car unless its price buys a replacement now (§3.8)."""
    seat = t.seat(player)
    parked = t.at_show(player)
    pending = t.s["pending"]
    sale = pending["sale"] if pending else 0
    actions: list[Action] = []
    for car in seat["cars"]:
        if car["id"] in parked or last_eligible(t, player, car["id"]):
            continue
        if len(seat["cars"]) == 1:
            credits = seat["credits"] + half_up(sale + car_value(car))
            if not buyable_cars(t, player, credits):
                continue
        actions.append({"type": "sell_car", "car": car["id"]})
    return actions


#: Above this many choices a shop decision is split in two (DESIGN.md: a select holds 25).
MAX_CHOICES = 24


def sale_group(t: Table, action: Action) -> str:
    """Sales are grouped by the car holding the card (crew: "crew")."""
    for seat in t.s["seats"]:
        for car in seat["cars"]:
            if action["card"] in car["upgrades"]:
                return car["id"]
    return "crew"


def buy_group(t: Table, action: Action) -> str:
    """Purchases are grouped by the shop card."""
    return action["card"]


def narrowed(
    t: Table, actions: list[Action], group: Callable[[Table, Action], str]
) -> list[Action]:
    """A long list becomes a first choice of group ({"type": "narrow", "to": ...}), then the
    moves of that group; a short list is offered whole."""
    chosen = (t.s["pending"] or {}).get("narrow")
    if chosen is not None:
        return [a for a in actions if group(t, a) == chosen]
    if len(actions) <= MAX_CHOICES:
        return actions
    groups = dict.fromkeys(group(t, a) for a in actions)
    return [{"type": "narrow", "to": key} for key in groups]


def accepted(t: Table, player: str) -> list[Action]:
    """What ``play`` takes: the legal moves and, while a long shop list is narrowed, every move
    of the whole list, so a command naming the card (and car) directly skips the narrowing."""
    moves = legal(t, player)
    phase = t.s["phase"]
    if phase == SHOP_SELL:
        moves += shop_sales(t, player)
    elif phase == SHOP_BUY:
        moves += shop_buys(t, player)
    return moves
