"""Why a Street Kings move is refused, in a sentence a player understands that says what to do
instead. Called only for actions not in ``legal()``, so it explains; it never decides."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.protocol import Refusal
from rules.street_kings.data import (
    CARS,
    CLASSES,
    CUSTOM_FINISH_SPACES,
    LANES,
    LOCATION_SPOTS,
    upgrade_of,
)
from rules.street_kings.moves import class_actions
from rules.street_kings.table import (
    ACTION,
    CLASS,
    DEALER_BUY,
    DEALER_SELL,
    NOZ,
    NOZ_POLICIES,
    PLACE,
    RACE_CAR,
    SHOP_BUY,
    SHOP_SELL,
    Table,
    class_below,
    classify_finish,
    colour_on,
)

Action = dict[str, Any]

#: What each decision accepts, and what to do when another kind of move comes.
PHASES: dict[str, tuple[tuple[str, ...], str]] = {
    CLASS: (("class", "finish_line"), Refusal("First choose the class of this round's race.")),
    ACTION: (
        ("shop", "dealer", "show", "location", "qualify", "pass"),
        Refusal(
            "It is your turn: go to the shop, the dealership or the car show, choose a location, "
            "qualify, or pass."
        ),
    ),
    SHOP_SELL: (
        ("sell", "done_selling"),
        Refusal("You are at the shop: sell an upgrade or finish selling."),
    ),
    SHOP_BUY: (
        ("buy", "narrow", "buy_nothing"),
        Refusal("You are at the shop: buy one upgrade, or buy nothing."),
    ),
    DEALER_SELL: (
        ("sell_car", "done_selling"),
        Refusal("You are at the dealership: sell a car or finish selling."),
    ),
    DEALER_BUY: (
        ("buy_car", "buy_nothing"),
        Refusal("You are at the dealership: buy a car, or nothing."),
    ),
    PLACE: (("place",), Refusal("Place one of your location cards face down on an empty spot.")),
    RACE_CAR: (("race",), Refusal("Choose the car you race this round.")),
    NOZ: (("noz",), Refusal("Your car just moved: fire your NOZ now, or keep it.")),
}
KINDS = {kind for kinds, _ in PHASES.values() for kind in kinds} | {"noz_policy"}


def credits(k: int) -> str:
    return Refusal("{n} credits", n=format(k * 1000, ","))


def either(classes: list[str]) -> str:
    """ "D or C" (one class alone as it is)."""
    if len(classes) < 2:
        return "".join(classes)
    return Refusal("{most} or {last}", most=", ".join(classes[:-1]), last=classes[-1])


def refusal(t: Table, player: str, action: Action) -> str:
    kind = action.get("type")
    if kind not in KINDS:
        return Refusal("That is not a Street Kings move: pick one from the list.")
    accepted, hint = PHASES[t.s["phase"]]
    if kind != "noz_policy" and kind not in accepted:
        return hint
    reason = EXPLAIN[kind](t, player, action) if kind in EXPLAIN else None
    return reason or Refusal("That move is not available now: pick one from the list.")


def _class(t: Table, player: str, action: Action) -> str | None:
    cls = action.get("class")
    if t.options["custom_finish_line"]:
        return Refusal("This game uses the custom finish line: choose a space for the finish line.")
    if cls not in CLASSES:
        return Refusal("There is no such class: choose D, C, B or A.")
    choices = ", ".join(a["class"] for a in class_actions(t, player))
    return Refusal(
        "You own no {cls} car, so you cannot choose a {cls} race: choose {choices}.",
        cls=cls,
        choices=choices,
    )


def _finish_line(t: Table, player: str, action: Action) -> str | None:
    space = action.get("space")
    if not t.options["custom_finish_line"]:
        return Refusal("Choose the class of the race (D, C, B or A).")
    spaces = [a["space"] for a in class_actions(t, player)]
    if not isinstance(space, int) or space not in CUSTOM_FINISH_SPACES:
        return Refusal(
            "Put the finish line on a space from {low} to {high}.", low=spaces[0], high=spaces[-1]
        )
    cls = classify_finish(space)
    return Refusal(
        "A finish line on space {space} makes a {cls} race and you own no {cls} car.",
        space=space,
        cls=cls,
    )


def _shop(t: Table, player: str, action: Action) -> str | None:
    return Refusal(
        "The shop has nothing you can afford and you have nothing to sell: choose another action."
    )


def _dealer(t: Table, player: str, action: Action) -> str | None:
    return Refusal(
        "The dealership has no car you may buy with what you have, and you have no car you may "
        "sell: choose another action."
    )


def _car_problem(
    t: Table, player: str, car_id: Any, verb: str, keep_for_race: bool = True
) -> str | None:
    """The common reasons a car of the player cannot be used: not theirs, parked, or (for a car
    show or a sale) the last car a qualified player could race."""
    if t.find_car(player, car_id) is None:
        return Refusal("You do not own that car: pick one of yours.")
    if car_id in t.at_show(player):
        return Refusal(
            "Your {car} is at the car show this round: it cannot {verb}.",
            car=CARS[car_id].name,
            verb=verb,
        )
    if keep_for_race and t.last_eligible(player, car_id):
        return Refusal(
            "You have qualified and your {car} is the only car you can race: keep it for the race.",
            car=CARS[car_id].name,
        )
    return None


def _show(t: Table, player: str, action: Action) -> str | None:
    if None not in t.s["show"]:
        return Refusal(
            "The car show is full this round (all {n} spots are taken).", n=len(t.s["show"])
        )
    return _car_problem(t, player, action.get("car"), Refusal("go again"))


def _location(t: Table, player: str, action: Action) -> str | None:
    if t.s["championship"]:
        return Refusal("In the championship the track is random: nobody plays location cards.")
    if not t.can_choose_location(player):
        return Refusal("Both location spots already hold a card: choose another action.")
    return None


def _place(t: Table, player: str, action: Action) -> str | None:
    spot = action.get("spot")
    if action.get("card") not in t.seat(player)["hand"]:
        return Refusal("You do not hold that location card: place one from your hand.")
    if spot not in LOCATION_SPOTS:
        return Refusal("Choose location spot 1 or 2.")
    free = [i + 1 for i, s in enumerate(t.s["spots"]) if s["card"] is None]
    return Refusal(
        "Location spot {spot} already holds a card: place yours on spot {free}.",
        spot=spot,
        free=free[0],
    )


def _qualify(t: Table, player: str, action: Action) -> str | None:
    lane = action.get("lane")
    seat = t.seat(player)
    if seat["lane"] is not None:
        return Refusal("You have already qualified in lane {lane}.", lane=seat["lane"])
    if not t.eligible_cars(player):
        return Refusal(
            "You have no {allowed} car free to race (cars at the car show cannot race), so you "
            "cannot qualify: pass, or buy one first.",
            allowed=either(list(t.allowed_classes())),
        )
    if lane not in LANES:
        return Refusal("Choose a lane from 1 to 4.")
    lanes = ", ".join(str(n) for n in t.free_lanes())
    return Refusal("Lane {lane} is taken: choose a free lane ({lanes}).", lane=lane, lanes=lanes)


def _sell(t: Table, player: str, action: Action) -> str | None:
    card = action.get("card")
    seat = t.seat(player)
    for car in seat["cars"]:
        if card in car["upgrades"]:
            return _car_problem(t, player, car["id"], Refusal("change"))
    return Refusal("You do not own that upgrade: sell one of yours.")


def _buy(t: Table, player: str, action: Action) -> str | None:
    card, car_id = action.get("card"), action.get("car")
    if not isinstance(card, str) or card not in t.s["shop"]:
        return Refusal("That card is not in the shop: pick one on display.")
    info = upgrade_of(card)
    have = t.seat(player)["credits"]
    if info.price > have:
        return Refusal(
            "{name} costs {price} and you have {have}: choose something cheaper, or buy nothing.",
            name=info.name,
            price=credits(info.price),
            have=credits(have),
        )
    if info.kind == "crew":
        return Refusal("Crew members are not installed on a car: buy them without choosing a car.")
    if car_id is None:
        return Refusal("Say which of your cars gets the {name}.", name=info.name)
    problem = _car_problem(t, player, car_id, Refusal("be upgraded"), keep_for_race=False)
    if problem:
        return problem
    car = t.find_car(player, car_id)
    assert car is not None
    present = colour_on(car, info.colour)
    assert present is not None
    return Refusal(
        "Your {car} already has a {colour} upgrade ({upgrade}): a car takes one upgrade per "
        "colour. Sell that one at the shop first, or choose another car.",
        car=CARS[car_id].name,
        colour=info.colour,
        upgrade=upgrade_of(present).name,
    )


def _sell_car(t: Table, player: str, action: Action) -> str | None:
    car_id = action.get("car")
    problem = _car_problem(t, player, car_id, Refusal("be sold"))
    if problem:
        return problem
    return Refusal(
        "That is your last car: you may sell it only in a visit where you buy another, and no "
        "car you could buy is within reach."
    )


def _buy_car(t: Table, player: str, action: Action) -> str | None:
    car_id = action.get("car")
    if not isinstance(car_id, str) or not any(car_id in row for row in t.s["dealership"].values()):
        return Refusal("That car is not at the dealership: pick one on display.")
    cls = CARS[car_id].cls
    below = class_below(cls)
    if below not in t.owned_classes(player):
        return Refusal(
            "You can only buy a car one class above a car you own: a {cls} car needs a {below} "
            "car.",
            cls=cls,
            below=below,
        )
    price, have = CARS[car_id].price, t.seat(player)["credits"]
    if price > have:
        return Refusal(
            "The {car} costs {price} and you have {have}: choose a cheaper car, or buy nothing.",
            car=CARS[car_id].name,
            price=credits(price),
            have=credits(have),
        )
    if not t.buyable_cars(player, have):
        return Refusal("No car at the dealership is within reach: buy nothing.")
    return None


def _race(t: Table, player: str, action: Action) -> str | None:
    return Refusal(
        "Race a {allowed} car of yours that is not at the car show.",
        allowed=either(list(t.allowed_classes())),
    )


def _noz(t: Table, player: str, action: Action) -> str | None:
    return Refusal("Answer whether you fire your NOZ: yes or no.")


def _noz_policy(t: Table, player: str, action: Action) -> str | None:
    policy = action.get("policy")
    if t.options["hidden_upgrades"] and policy == "ask":
        return Refusal(
            "With hidden upgrades a race never stops to ask about a NOZ (the stop would show "
            "it): choose first chance or never."
        )
    if policy not in NOZ_POLICIES:
        return Refusal("Choose a NOZ policy: ask, first chance or never.")
    if policy == t.seat(player)["noz_policy"]:
        return Refusal("Your NOZ policy is already “{policy}”.", policy=policy)
    return Refusal("You have no NOZ installed: a NOZ policy matters once you own one.")


EXPLAIN: dict[str, Callable[[Table, str, Action], str | None]] = {
    "class": _class,
    "finish_line": _finish_line,
    "shop": _shop,
    "dealer": _dealer,
    "show": _show,
    "location": _location,
    "place": _place,
    "qualify": _qualify,
    "sell": _sell,
    "buy": _buy,
    "sell_car": _sell_car,
    "buy_car": _buy_car,
    "race": _race,
    "noz": _noz,
    "noz_policy": _noz_policy,
}
