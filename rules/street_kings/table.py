"""The Street Kings table: a state and every question the rules ask of it.

The state is a plain JSON-able dict (so ``dump``/``load`` are copies and ``load(dump(s)) == s``).
``Table`` wraps a deep copy of it with the queries (whose turn, which cars may race, what each
action could do now), the decks and the events of one action; ``rounds.Round`` and ``race.py``
move the game on it, ``moves.py`` lists the legal moves from it. Rulebook:
docs/rules/street-kings.md; readings: §3 of the component notes (cited as "§3.n").
"""

from __future__ import annotations

import math
from typing import Any

from rules.jsoncopy import json_copy
from rules.protocol import Action, Event, rng
from rules.street_kings.data import (
    CARS,
    CLASSES,
    FINISH_LINE,
    GOLDS_TO_WIN,
    LANES,
    SHORTER_GAME_GOLDS,
    TROPHIES,
    upgrade_of,
)
from rules.street_kings.scoring import outcome_of

GAME_ID = "street-kings"
FORMAT_VERSION = 1

# Phases: who owes which decision.
CLASS = "class"  # the first player chooses the race class (or the custom finish line)
ACTION = "action"  # the current player takes one action or passes
SHOP_SELL = "shop-sell"  # a shop visit: sell upgrades and crew, one at a time, then done
SHOP_BUY = "shop-buy"  # ... then buy one upgrade for a car, or nothing
DEALER_SELL = "dealer-sell"  # a dealership visit: sell a car, or not
DEALER_BUY = "dealer-buy"  # ... then buy one car, or nothing
PLACE = "place-location"  # after drawing a location card, place one face down
RACE_CAR = "race-car"  # a racer with several eligible cars chooses one
NOZ = "noz"  # a racer whose policy is "ask" decides whether to fire a NOZ (never hidden upgrades)
OVER = "over"

NOZ_POLICIES = ("ask", "first chance", "never")


def noz_policies(options: dict[str, Any]) -> tuple[str, ...]:
    """The NOZ policies a game offers, the first being every seat's starting one.

    Hidden Upgrades ("Upgrades are hidden under the cars") drops ``ask``: a race that stopped
    only for a racer holding a NOZ would show the hidden card to everyone, and stopping every
    racer after every move would make an asynchronous race wait on each racer for nothing. So
    the race never pauses for a NOZ and a standing policy (``first chance`` or ``never``, which
    any player may set at any time, NOZ or not) answers. This is fair because within one race
    firing earlier never leaves a pawn behind where firing later would have put it (positions
    only grow), so the choice that matters, whether to spend the NOZ in this race, is exactly
    what the policy says; every player plays under the same rule."""
    if options["hidden_upgrades"]:
        return tuple(policy for policy in NOZ_POLICIES if policy != "ask")
    return NOZ_POLICIES


ELITE_CYCLE = ("D", "C", "B", "A")


def half_up(value: int) -> int:
    """Rulebook, Shop: "You then gain half the value in credits (rounded up)." In thousands,
    summed over all the cards sold in one action (§3.11): two 3000 parts give 3000."""
    return math.ceil(value / 2)


def class_below(cls: str) -> str | None:
    index = CLASSES.index(cls)
    return CLASSES[index - 1] if index > 0 else None


def class_above(cls: str) -> str | None:
    index = CLASSES.index(cls)
    return CLASSES[index + 1] if index + 1 < len(CLASSES) else None


def car_value(car: dict[str, Any]) -> int:
    """A car with all its upgrades, at full price (the dealership sells them together)."""
    return CARS[car["id"]].price + sum(upgrade_of(card).price for card in car["upgrades"])


def car_beauty(car: dict[str, Any]) -> int:
    """Rulebook, Car Show: "you immediately gain credit equal to the total beauty value of the car
    and its upgrades"; NOZ "does not add to the car show income value of your car"."""
    return CARS[car["id"]].beauty + sum(upgrade_of(card).beauty for card in car["upgrades"])


def colour_on(car: dict[str, Any], colour: str | None) -> str | None:
    """The upgrade of ``colour`` installed on ``car``, if any ("Each car can only have ONE
    upgrade of the same color")."""
    for card in car["upgrades"]:
        if upgrade_of(card).colour == colour:
            return card
    return None


def classify_finish(space: int) -> str:
    """Custom Finish Line: "The class of the race is the letter which is closest to the token."
    Reading: halfway between two letters counts as the lower class (the nearer to the start)."""
    return min(CLASSES, key=lambda cls: (abs(FINISH_LINE[cls] - space), CLASSES.index(cls)))


class Table:
    """A working copy of a state dict and its queries; ``events`` is what happened, in order."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = json_copy(state)
        self.events: list[Event] = []

    # -- basic queries ---------------------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        return self.s["players"]

    @property
    def options(self) -> dict[str, Any]:
        return self.s["options"]

    def seat(self, player: str) -> dict[str, Any]:
        return self.s["seats"][self.players.index(player)]

    def emit(self, kind: str, **fields: Any) -> None:
        self.events.append({"type": kind, **fields})

    def shuffled(self, cards: list[str]) -> list[str]:
        cards = list(cards)
        rng(self.s["seed"], self.s["rng"]).shuffle(cards)
        self.s["rng"] += 1
        return cards

    def at_show(self, player: str) -> set[str]:
        return {slot["car"] for slot in self.s["show"] if slot and slot["player"] == player}

    def find_car(self, player: str, car_id: str) -> dict[str, Any] | None:
        return next((car for car in self.seat(player)["cars"] if car["id"] == car_id), None)

    def allowed_classes(self) -> tuple[str, ...]:
        """Rulebook, Phase 1: "The car chosen must be of the same class or 1 class lower as the
        race." Championship: "only class "A" cars are allowed during this final race" (§3.28)."""
        cls = self.s["race_class"]
        if cls is None:
            return ()
        if self.s["championship"]:
            return (cls,)
        below = class_below(cls)
        return (cls,) if below is None else (cls, below)

    def eligible_cars(self, player: str) -> list[str]:
        """Cars ``player`` could race now: of an allowed class and not at the car show (§3.4)."""
        parked = self.at_show(player)
        allowed = self.allowed_classes()
        return [
            car["id"]
            for car in self.seat(player)["cars"]
            if CARS[car["id"]].cls in allowed and car["id"] not in parked
        ]

    def golds_to_win(self) -> int:
        return SHORTER_GAME_GOLDS if self.options["shorter_game"] else GOLDS_TO_WIN

    # -- decks -----------------------------------------------------------------------------------

    def draw_location(self) -> str | None:
        """Rulebook, Location: "If the deck is empty, shuffle the discard and make a new deck."
        ``None`` when no card is left anywhere."""
        if not self.s["location_deck"] and self.s["location_discard"]:
            self.s["location_deck"] = self.shuffled(self.s["location_discard"])
            self.s["location_discard"] = []
            self.emit("reshuffled", deck="locations")
        return self.s["location_deck"].pop(0) if self.s["location_deck"] else None

    def draw_upgrade(self) -> str | None:
        """Upgrade deck exhaustion (§3.18): shuffle the junk yard into a new deck."""
        if not self.s["upgrade_deck"] and self.s["junk"]:
            self.s["upgrade_deck"] = self.shuffled(self.s["junk"])
            self.s["junk"] = []
            self.emit("reshuffled", deck="upgrades")
        return self.s["upgrade_deck"].pop(0) if self.s["upgrade_deck"] else None

    def draw_car(self, cls: str) -> str | None:
        """A car from a class deck; an empty deck takes back that class's discards (§3.9)."""
        deck = self.s["car_decks"][cls]
        if not deck and self.s["car_discard"][cls]:
            deck.extend(self.shuffled(self.s["car_discard"][cls]))
            self.s["car_discard"][cls] = []
            self.emit("reshuffled", deck=f"{cls} cars")
        return deck.pop(0) if deck else None

    def reveal_cars(self, cls: str, up_to: int) -> None:
        """Fill the dealership row of ``cls`` up to ``up_to`` cars, marking the class shown."""
        row = self.s["dealership"].setdefault(cls, [])
        if cls not in self.s["revealed"]:
            self.s["revealed"].append(cls)
        added = []
        while len(row) < up_to:
            car = self.draw_car(cls)
            if car is None:
                break
            row.append(car)
            added.append(car)
        if added:
            self.emit("dealership_revealed", cls=cls, cars=added)

    def refill_shop(self) -> None:
        """Rulebook, Clean Up: "reveal new Upgrades according to the number of players plus 1"."""
        while len(self.s["shop"]) < len(self.players) + 1:
            card = self.draw_upgrade()
            if card is None:
                return
            self.s["shop"].append(card)

    def random_part(self) -> str:
        """A random upgrade for a starting car (Shorter Game, Elite Class): the first card of the
        shuffled deck that installs on a car; crew, which never sit on a car, stay in the deck."""
        deck = self.s["upgrade_deck"]
        index = next(i for i, card in enumerate(deck) if upgrade_of(card).kind != "crew")
        return deck.pop(index)

    # -- the round -------------------------------------------------------------------------------

    def class_chooser(self) -> str | None:
        """The first player, or (§3.6) the next player clockwise who owns a car."""
        n = len(self.players)
        for k in range(n):
            player = self.players[(self.s["first"] + k) % n]
            if self.seat(player)["cars"]:
                return player
        return None

    def class_choices(self, player: str) -> list[str]:
        """Rulebook: "You can only choose a class in which you own a car"."""
        owned = {CARS[car["id"]].cls for car in self.seat(player)["cars"]}
        return [cls for cls in CLASSES if cls in owned]

    def actions_over(self) -> bool:
        """Rulebook: "When ALL players have taken the Qualify action or passed, the ACTION phase
        ends" (§3.2);
        Infinite Actions: "the action round continues until all players say "Pass"."""
        seats = self.s["seats"]
        if self.options["infinite_actions"]:
            return all(seat["passed"] for seat in seats)
        return all(seat["passed"] or seat["lane"] is not None for seat in seats)

    # -- what a player could do now (``moves.py`` lists it, ``rounds.py`` skips forced passes) ---

    def turn_actions(self, player: str) -> list[Action]:
        """Rulebook, Phase 2: shop, dealership, car show, racing location, qualify, or Pass (always
        legal, §3.3). Only actions that can do something are offered (§3.13)."""
        seat = self.seat(player)
        actions: list[Action] = []
        if self.shop_sales(player) or self.shop_buys(player):
            actions.append({"type": "shop"})
        if self.dealer_sales(player) or self.dealer_buys(player):
            actions.append({"type": "dealer"})
        actions.extend({"type": "show", "car": car} for car in self.show_cars(player))
        if self.can_choose_location(player):
            actions.append({"type": "location"})
        if seat["lane"] is None and self.eligible_cars(player):
            actions.extend({"type": "qualify", "lane": lane} for lane in self.free_lanes())
        actions.append({"type": "pass"})
        return actions

    def free_lanes(self) -> list[int]:
        taken = {seat["lane"] for seat in self.s["seats"]}
        return [lane for lane in LANES if lane not in taken]

    def last_eligible(self, player: str, car_id: str) -> bool:
        """Whether ``car_id`` is the only car a qualified ``player`` could still race (§3.5: a car
        show or a sale that would leave a qualified player with no car is refused)."""
        return self.seat(player)["lane"] is not None and self.eligible_cars(player) == [car_id]

    def show_cars(self, player: str) -> list[str]:
        """Rulebook, Car Show: "You can only take this action if there is an available spot"."""
        if None not in self.s["show"]:
            return []
        parked = self.at_show(player)
        return [
            car["id"]
            for car in self.seat(player)["cars"]
            if car["id"] not in parked and not self.last_eligible(player, car["id"])
        ]

    def can_choose_location(self, player: str) -> bool:
        """ "You can only take this action if there is an empty location spot"; not in the
        championship ("Players can't play location cards this round")."""
        if self.s["championship"] or all(spot["card"] is not None for spot in self.s["spots"]):
            return False
        hand = self.seat(player)["hand"]
        return bool(hand or self.s["location_deck"] or self.s["location_discard"])

    def shop_sales(self, player: str) -> list[Action]:
        """Parts on cars not at the car show, and one crew card per artwork (identical choices are
        one choice)."""
        seat = self.seat(player)
        parked = self.at_show(player)
        cards = [c for car in seat["cars"] if car["id"] not in parked for c in car["upgrades"]]
        crew: dict[str, str] = {}
        for card in seat["crew"]:
            crew.setdefault(upgrade_of(card).id, card)
        return [{"type": "sell", "card": card} for card in [*cards, *sorted(crew.values())]]

    def shop_buys(self, player: str) -> list[Action]:
        """Each affordable shop card for each car it may go on: owned, not at the car show (§3.17),
        without an upgrade of that colour; crew go to no car."""
        seat = self.seat(player)
        parked = self.at_show(player)
        actions: list[Action] = []
        for card in self.s["shop"]:
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

    def owned_classes(self, player: str) -> list[str]:
        """Classes counted for buying: those owned when the dealership visit began (§3.7)."""
        pending = self.s["pending"]
        if pending is not None and pending["kind"] == "dealer":
            return pending["owned"]
        return sorted({CARS[car["id"]].cls for car in self.seat(player)["cars"]})

    def buyable_cars(self, player: str, credits: int) -> list[str]:
        """Rulebook, Dealership: "You can only buy a car which is one class above a car you own."""
        owned = self.owned_classes(player)
        return [
            car
            for cls in CLASSES
            for car in self.s["dealership"].get(cls, [])
            if class_below(cls) in owned and CARS[car].price <= credits
        ]

    def dealer_buys(self, player: str) -> list[Action]:
        return [
            {"type": "buy_car", "car": car}
            for car in self.buyable_cars(player, self.seat(player)["credits"])
        ]

    def dealer_sales(self, player: str) -> list[Action]:
        """Cars that may be sold: not at the car show (§3.10), not a qualified player's last
        eligible car (§3.5), and not the last car unless its price buys a replacement now
        (§3.8)."""
        seat = self.seat(player)
        parked = self.at_show(player)
        pending = self.s["pending"]
        sale = pending["sale"] if pending else 0
        actions: list[Action] = []
        for car in seat["cars"]:
            if car["id"] in parked or self.last_eligible(player, car["id"]):
                continue
            if len(seat["cars"]) == 1:
                credits = seat["credits"] + half_up(sale + car_value(car))
                if not self.buyable_cars(player, credits):
                    continue
            actions.append({"type": "sell_car", "car": car["id"]})
        return actions

    # -- the end -------------------------------------------------------------------------------

    def finish(self, ended_by: str) -> None:
        self.s["phase"] = OVER
        self.s["ended_by"] = ended_by
        result = outcome_of(self.s)
        self.emit("game_over", ended_by=ended_by, scores=result.scores, winners=result.winners)


def empty_spot() -> dict[str, Any]:
    return {"card": None, "by": None, "revealed": False}


def new_state(players: list[str], seed: str, options: dict[str, Any]) -> dict[str, Any]:
    """The state before setup: seats and empty places for every component."""
    return {
        "game": GAME_ID,
        "version": FORMAT_VERSION,
        "seed": seed,
        "options": options,
        "rng": 0,
        "players": list(players),
        "seats": [
            {
                "credits": 0,
                "cars": [],
                "crew": [],
                "hand": [],
                "trophies": dict.fromkeys(TROPHIES, 0),
                "lane": None,
                "passed": False,
                "noz_policy": noz_policies(options)[0],
            }
            for _ in players
        ],
        "car_decks": {},
        "car_discard": {cls: [] for cls in CLASSES},
        "out_of_game": [],
        "dealership": {},
        "revealed": [],
        "upgrade_deck": [],
        "shop": [],
        "junk": [],
        "location_deck": [],
        "location_discard": [],
        "spots": [empty_spot(), empty_spot()],
        "show": [],
        "round": 1,
        "turn_number": 1,
        "first": 0,
        "current": 0,
        "phase": CLASS,
        "race_class": None,
        "finish_line": None,
        "championship": False,
        "championship_next": False,
        "pending": None,
        "race": None,
        "last_race": None,
        "ended_by": None,
    }
