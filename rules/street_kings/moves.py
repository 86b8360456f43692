"""Which Street Kings decisions a player may take now, each list kept short (docs/architecture.md,
"Small decisions"): a turn's action, then a shop visit's sales and its one purchase, a dealership
visit's sale and purchase, where to place a location card, the racing car, a NOZ answer. What each
action could do is a question of the ``Table``; this module makes the lists."""

from __future__ import annotations

from collections.abc import Callable

from rules.protocol import Action
from rules.street_kings.data import CUSTOM_FINISH_SPACES, upgrade_of
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
    Table,
    classify_finish,
    noz_policies,
)


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
        return [*t.turn_actions(player), *policy_actions(t, player)]
    if phase == SHOP_SELL:
        return [*narrowed(t, t.shop_sales(player), sale_group), {"type": "done_selling"}]
    if phase == SHOP_BUY:
        return [*narrowed(t, t.shop_buys(player), buy_group), {"type": "buy_nothing"}]
    if phase == DEALER_SELL:
        return [*t.dealer_sales(player), {"type": "done_selling"}]
    if phase == DEALER_BUY:
        nothing = [{"type": "buy_nothing"}] if t.seat(player)["cars"] else []
        return [*t.dealer_buys(player), *nothing]
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


def policy_actions(t: Table, player: str) -> list[Action]:
    """The other NOZ policies, offered to a player who owns a NOZ (it matters to no one else;
    ``play`` still takes a policy from anyone, as a standing order). With Hidden Upgrades they
    are offered to everyone, so that setting one gives no hidden NOZ away."""
    seat = t.seat(player)
    owns = any(upgrade_of(c).kind == "noz" for car in seat["cars"] for c in car["upgrades"])
    if not owns and not t.options["hidden_upgrades"]:
        return []
    return [
        {"type": "noz_policy", "policy": policy}
        for policy in noz_policies(t.options)
        if policy != seat["noz_policy"]
    ]


def place_actions(t: Table, player: str) -> list[Action]:
    spots = [i + 1 for i, spot in enumerate(t.s["spots"]) if spot["card"] is None]
    return [
        {"type": "place", "card": card, "spot": spot}
        for card in t.seat(player)["hand"]
        for spot in spots
    ]


#: Above this many choices a shop decision is split in two (a select holds 25:
#: docs/architecture.md, "Small decisions").
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
        moves += t.shop_sales(player)
    elif phase == SHOP_BUY:
        moves += t.shop_buys(player)
    return moves
