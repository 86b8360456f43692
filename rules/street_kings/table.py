"""The Street Kings table: a mutable working copy of a state for the length of one action.

The state is a plain JSON-able dict (so ``dump``/``load`` are copies and ``load(dump(s)) == s``);
``Table`` deep-copies it, applies one decision and everything that follows from it (the rest of
the action phase that needs nobody, a whole race up to a NOZ question, the clean-up and the next
round), and records structured events. Rulebook: ../shared/rulebooks/street-kings.txt; readings:
§3 of ../shared/rulebooks/street-kings.components.md (cited as "§3.n").
"""

from __future__ import annotations

import copy
import math
from typing import Any

from rules.protocol import Event, rng
from rules.street_kings.data import (
    CAR_SHOW_SLOTS,
    CARS,
    CARS_BY_CLASS,
    CLASSES,
    DEALERSHIP_SIZE,
    ELITE_START_CREDITS,
    FINISH_LINE,
    GOLDS_TO_WIN,
    HAND_SIZE,
    LOCATIONS,
    NOZ_SPACES,
    SHORTER_GAME_GOLDS,
    START_CREDITS,
    TROPHIES,
    upgrade_deck,
    upgrade_of,
)

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
    """One action's working copy of a state dict; ``events`` is what happened, in order."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = copy.deepcopy(state)
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

    # -- setup -----------------------------------------------------------------------------------

    def setup(self) -> None:
        """Rulebook, Setup: two D cars each ("Put the remaining D class cars out of the game"), a
        green cube on 2, three C cars at the dealership, 3 track cards in each hand, players + 1
        upgrades in the store, a first player. Shorter Game: "one D class and one C class car.
        Each player gets one random upgrade to each of those cars." Elite Class: "1 random car
        from each class and 1 random upgrade for each of those cars [...] 5000 credits"."""
        opts = self.options
        n = len(self.players)
        self.s["car_decks"] = {cls: self.shuffled(list(CARS_BY_CLASS[cls])) for cls in CLASSES}
        self.s["upgrade_deck"] = self.shuffled(upgrade_deck(opts["no_crew"], opts["no_noz"]))
        self.s["location_deck"] = self.shuffled(list(LOCATIONS))
        self.s["first"] = rng(self.s["seed"], self.s["rng"]).randrange(n)
        self.s["rng"] += 1
        if opts["elite_class"]:
            start_classes: tuple[str, ...] = CLASSES
        elif opts["shorter_game"]:
            start_classes = ("D", "C")
        else:
            start_classes = ("D", "D")
        upgraded = opts["elite_class"] or opts["shorter_game"]
        for seat in self.s["seats"]:
            seat["credits"] = ELITE_START_CREDITS if opts["elite_class"] else START_CREDITS
            for cls in start_classes:
                car = {"id": self.s["car_decks"][cls].pop(0), "upgrades": []}
                if upgraded:
                    car["upgrades"].append(self.random_part())
                seat["cars"].append(car)
            seat["hand"] = sorted(self.s["location_deck"][:HAND_SIZE])
            del self.s["location_deck"][:HAND_SIZE]
        self.s["out_of_game"] = sorted(self.s["car_decks"]["D"])
        self.s["car_decks"]["D"] = []
        # "Class B cars: Revealed only when a player owns a class C car" (and A for B): a
        # variant that deals C or B cars shows those rows from the start.
        owned = {CARS[car["id"]].cls for seat in self.s["seats"] for car in seat["cars"]}
        self.reveal_cars("C", DEALERSHIP_SIZE)
        for cls in ("C", "B"):
            if cls in owned:
                self.reveal_cars(class_above(cls) or cls, DEALERSHIP_SIZE)
        self.refill_shop()
        self.s["show"] = [None] * CAR_SHOW_SLOTS[n]
        self.events = []  # setup reveals are the board, not news
        self.begin_round()

    # -- the round -------------------------------------------------------------------------------

    def begin_round(self) -> None:
        """Rulebook, Round Summary: the first player chooses the class, actions until everyone
        qualifies, the race, clean-up."""
        if self.s["round"] > self.options["round_cap"]:
            self.finish("round_cap")
            return
        self.emit("round", round=self.s["round"], first=self.players[self.s["first"]])
        if self.s["championship"]:
            self.begin_championship()
            return
        if self.options["elite_class"]:
            cls = ELITE_CYCLE[(self.s["round"] - 1) % len(ELITE_CYCLE)]
            self.set_class(cls, FINISH_LINE[cls], chooser=None)
            return
        chooser = self.class_chooser()
        if chooser is None:  # nobody owns a car (§3.6)
            self.set_class("D", FINISH_LINE["D"], chooser=None)
            return
        self.s["current"] = self.players.index(chooser)
        self.s["phase"] = CLASS
        choices = self.class_choices(chooser)
        if len(choices) == 1 and not self.options["custom_finish_line"]:
            # "for the first round, the race will be a "D" class event": no question to ask.
            self.set_class(choices[0], FINISH_LINE[choices[0]], chooser=chooser)

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

    def set_class(self, cls: str, finish_line: int, chooser: str | None) -> None:
        self.s["race_class"] = cls
        self.s["finish_line"] = finish_line
        self.emit("class_chosen", player=chooser, cls=cls, finish_line=finish_line)
        self.start_actions()

    def begin_championship(self) -> None:
        """Rulebook, End Game Championship: "The class marker is set to class "A" finish line
        [...] Place the top two location cards from the top of the deck, face down on the
        location spots creating a random track. Players can't play location cards this round." """
        for spot in self.s["spots"]:
            spot["card"] = self.draw_location()
            spot["by"] = None
        self.emit("championship")
        self.set_class("A", FINISH_LINE["A"], chooser=None)

    def start_actions(self) -> None:
        """Rulebook, Phase 2: "Starting with the first player, each player in clockwise order
        will do actions until all players have taken the Qualify action or said "Pass"."""
        self.s["phase"] = ACTION
        self.s["current"] = self.s["first"]
        self.settle_turn()

    def actions_over(self) -> bool:
        """Rulebook: "When ALL players have taken the Qualify action or passed, the ACTION phase
        ends" (§3.2);
        Infinite Actions: "the action round continues until all players say "Pass"."""
        seats = self.s["seats"]
        if self.options["infinite_actions"]:
            return all(seat["passed"] for seat in seats)
        return all(seat["passed"] or seat["lane"] is not None for seat in seats)

    def end_action(self) -> None:
        """The current player's action is done: the turn goes clockwise to the next player still
        in the action phase. Each action is a turn of its own (a ``turn`` event), even when the
        same player acts again because everyone else has passed."""
        self.emit("turn", player=self.players[self.s["current"]])
        self.s["pending"] = None
        self.s["phase"] = ACTION
        n = len(self.players)
        for k in range(1, n + 1):
            index = (self.s["current"] + k) % n
            if not self.s["seats"][index]["passed"]:
                self.s["current"] = index
                break
        self.settle_turn()

    def settle_turn(self) -> None:
        """End the phase when it is over; a player whose only possible move is Pass passes
        without being asked (§3.3, §3.13), so the table never waits on a forced move."""
        from rules.street_kings.moves import turn_actions

        while not self.actions_over():
            player = self.players[self.s["current"]]
            if self.s["seats"][self.s["current"]]["passed"]:
                self.end_action()
                return
            if turn_actions(self, player) != [{"type": "pass"}]:
                return
            self.pass_turn(player, forced=True)
            return
        self.start_race()

    def pass_turn(self, player: str, forced: bool = False) -> None:
        """ "When you say pass, you're taken out of the action phase." (§3.3.)"""
        self.seat(player)["passed"] = True
        self.emit("passed", player=player, forced=forced)
        self.end_action()

    # -- actions ---------------------------------------------------------------------------------

    def qualify(self, player: str, lane: int) -> None:
        """Rulebook, Qualify: "you place your pawn on any of the spots available on the starting
        grid of the track (#1-4)." It "does not remove you from the action round"."""
        self.seat(player)["lane"] = lane
        self.emit("qualified", player=player, lane=lane)
        self.end_action()

    def car_show(self, player: str, car_id: str) -> None:
        """Rulebook, Car Show: "you send one of your cars, including its upgrades to an available
        slot at the car show [...] you immediately gain credit equal to the total beauty value"."""
        car = self.find_car(player, car_id)
        assert car is not None
        slot = self.s["show"].index(None)
        self.s["show"][slot] = {"player": player, "car": car_id}
        gain = car_beauty(car)
        self.seat(player)["credits"] += gain
        self.emit("car_show", player=player, car=car_id, slot=slot + 1, credits=gain)
        self.end_action()

    def choose_location(self, player: str) -> None:
        """Rulebook, Location: "draw a location card from the deck. You must then place one of your
        location cards, from your hand, face down on any available location spot"."""
        card = self.draw_location()
        if card is not None:
            self.seat(player)["hand"] = sorted([*self.seat(player)["hand"], card])
        self.emit("location_drawn", player=player, drew=card is not None)
        self.s["phase"] = PLACE

    def place_location(self, player: str, card: str, spot: int) -> None:
        self.seat(player)["hand"].remove(card)
        self.s["spots"][spot - 1] = {"card": card, "by": player, "revealed": False}
        self.emit("location_placed", player=player, spot=spot)
        self.end_action()

    # shop

    def open_shop(self, player: str) -> None:
        """Rulebook, Shop: "You can only buy 1 upgrade during this action but can sell as many as
        you wish. [...] You may sell before you buy." Selling comes first, one card a decision."""
        from rules.street_kings.moves import shop_sales

        self.s["pending"] = {"kind": "shop", "sale": 0, "narrow": None}
        self.emit("shop", player=player)
        if shop_sales(self, player):
            self.s["phase"] = SHOP_SELL
        else:
            self.to_shop_buy(player)

    def sell_upgrade(self, player: str, card: str) -> None:
        """ "At the shop, you can also SELL your upgrades and fire crew members. [...] discard those
        cards to the junk yard". The credits come when the selling is done (§3.11)."""
        from rules.street_kings.moves import shop_sales

        seat = self.seat(player)
        if card in seat["crew"]:
            seat["crew"].remove(card)
        else:
            for car in seat["cars"]:
                if card in car["upgrades"]:
                    car["upgrades"].remove(card)
        self.s["junk"].append(card)
        self.s["pending"]["narrow"] = None
        self.s["pending"]["sale"] += upgrade_of(card).price
        self.emit("sold_upgrade", player=player, card=card)
        if not shop_sales(self, player):
            self.to_shop_buy(player)

    def collect_sale(self, player: str) -> None:
        sale = self.s["pending"]["sale"]
        if sale:
            gain = half_up(sale)
            self.seat(player)["credits"] += gain
            self.emit("sale", player=player, value=sale, credits=gain)
        self.s["pending"]["sale"] = 0

    def to_shop_buy(self, player: str) -> None:
        from rules.street_kings.moves import shop_buys

        self.collect_sale(player)
        self.s["pending"]["narrow"] = None
        if shop_buys(self, player):
            self.s["phase"] = SHOP_BUY
        else:
            self.end_action()

    def buy_upgrade(self, player: str, card: str, car_id: str | None) -> None:
        """ "When you buy an upgrade, place that card under the car you want to install it on";
        crew "are kept face up in front of you". "When you buy an upgrade, do NOT reveal another
        card" except with Super Store and in the championship ("When a part is bought at the
        shop, reveal a new one")."""
        seat = self.seat(player)
        info = upgrade_of(card)
        self.s["shop"].remove(card)
        seat["credits"] -= info.price
        if car_id is None:
            seat["crew"] = sorted([*seat["crew"], card])
        else:
            car = self.find_car(player, car_id)
            assert car is not None
            car["upgrades"].append(card)
        shown = car_id if not self.options["hidden_upgrades"] else None
        self.emit("bought_upgrade", player=player, card=card, car=shown, price=info.price)
        if self.options["super_store"] or self.s["championship"]:
            new = self.draw_upgrade()
            if new is not None:
                self.s["shop"].append(new)
                self.emit("shop_restocked", card=new)
        self.end_action()

    # dealership

    def open_dealer(self, player: str) -> None:
        """Rulebook, Dealership: "You can do both SELL then BUY in one action." Which classes may
        be bought is fixed by the cars owned when the visit starts (§3.7), so a trade-in works."""
        from rules.street_kings.moves import dealer_sales

        owned = sorted({CARS[car["id"]].cls for car in self.seat(player)["cars"]})
        self.s["pending"] = {"kind": "dealer", "sale": 0, "owned": owned, "sold": 0}
        self.emit("dealer", player=player)
        if dealer_sales(self, player):
            self.s["phase"] = DEALER_SELL
        else:
            self.to_dealer_buy(player)

    def sell_car(self, player: str, car_id: str) -> None:
        """ "SELL a car along with all its upgrades. Add the value of the car and all the upgrades
        on it and discard those cards to gain half that amount in credits (rounded up)." One car
        per visit, any number in the championship ("You can SELL as many cars as you want")."""
        from rules.street_kings.moves import dealer_sales

        seat = self.seat(player)
        car = self.find_car(player, car_id)
        assert car is not None
        seat["cars"].remove(car)
        self.s["pending"]["sale"] += car_value(car)
        self.s["pending"]["sold"] += 1
        self.s["junk"].extend(car["upgrades"])
        self.s["car_discard"][CARS[car_id].cls].append(car_id)
        self.emit("sold_car", player=player, car=car_id, upgrades=len(car["upgrades"]))
        if not self.s["championship"] or not dealer_sales(self, player):
            self.to_dealer_buy(player)

    def to_dealer_buy(self, player: str) -> None:
        from rules.street_kings.moves import dealer_buys

        self.collect_sale(player)
        if dealer_buys(self, player):
            self.s["phase"] = DEALER_BUY
        else:
            self.end_action()

    def buy_car(self, player: str, car_id: str) -> None:
        """ "When you buy a car, reveal a new one immediately from the same class and if the class
        above does not have any cars showing, reveal 3 cards from that deck as well." """
        cls = CARS[car_id].cls
        row = self.s["dealership"][cls]
        row.remove(car_id)
        seat = self.seat(player)
        seat["credits"] -= CARS[car_id].price
        seat["cars"].append({"id": car_id, "upgrades": []})
        self.emit("bought_car", player=player, car=car_id, price=CARS[car_id].price)
        self.reveal_cars(cls, len(row) + 1)
        above = class_above(cls)
        if above is not None and not self.s["dealership"].get(above):
            self.reveal_cars(above, DEALERSHIP_SIZE)
        self.end_action()

    # -- the race --------------------------------------------------------------------------------

    def start_race(self) -> None:
        """Rulebook, Phase 3: "if there are empty location spots, fill them with cards from the
        top of the location deck, face down. Starting with the first player, each player now
        chooses one of their available cars"."""
        for spot in self.s["spots"]:
            if spot["card"] is None:
                spot["card"] = self.draw_location()
                spot["by"] = None
        n = len(self.players)
        seats_from_first = [self.players[(self.s["first"] + k) % n] for k in range(n)]
        racers = [p for p in seats_from_first if self.seat(p)["lane"] is not None]
        if not racers:
            self.emit("no_race")
            if self.s["championship"]:  # nobody had an A car: the final round still ends it
                self.finish("championship")
            else:
                self.clean_up()
            return
        self.s["phase"] = RACE_CAR
        self.s["race"] = {
            "to_pick": racers,
            "cars": {},
            "crew": {},
            "order": sorted(racers, key=lambda p: self.seat(p)["lane"]),
            "pos": {p: 0 for p in racers},
            "finished": [],
            "step": 0,
            "lane": 0,
            "asking": None,
            "log": [],
        }
        self.emit("race_setup", racers=list(racers))
        self.settle_picks()

    def settle_picks(self) -> None:
        """Racers with a single eligible car race it without being asked; the first racer with a
        real choice is asked; when all have a car, the race runs."""
        race = self.s["race"]
        while race["to_pick"]:
            player = race["to_pick"][0]
            cars = self.eligible_cars(player)
            if len(cars) > 1:
                return
            self.enter_car(player, cars[0])
        self.run_race()

    def enter_car(self, player: str, car_id: str) -> None:
        """ "Here you can add crew as well." Crew only ever add stars and come back after the race
        (§3.15), so every racer takes one crew card of each artwork they hold ("you can not have
        two cards which contain the same artwork attached to one car")."""
        race = self.s["race"]
        race["to_pick"].remove(player)
        race["cars"][player] = car_id
        crew: dict[str, str] = {}
        for card in sorted(self.seat(player)["crew"]):
            crew.setdefault(upgrade_of(card).id, card)
        race["crew"][player] = sorted(crew.values())
        self.emit("entered", player=player, car=car_id, crew=len(crew))

    def stars(self, player: str, stat: str) -> int:
        """Stars of the racing car in ``stat``: the car, its parts, and the crew with it."""
        race = self.s["race"]
        car = self.find_car(player, race["cars"][player])
        assert car is not None
        extras = [*car["upgrades"], *race["crew"][player]]
        bonus = sum(upgrade_of(c).stars for c in extras if upgrade_of(c).stat == stat)
        return CARS[car["id"]].stars[stat] + bonus

    def segments(self) -> list[str]:
        """The stats raced in order: location 1's two, then location 2's (§3.20), as laps."""
        stats = []
        for spot in self.s["spots"]:
            if spot["card"] is not None:
                info = LOCATIONS[spot["card"]]
                stats.extend([info.first, info.second])
        return stats

    def reveal_spot(self, index: int) -> None:
        spot = self.s["spots"][index]
        if spot["card"] is not None and not spot["revealed"]:
            spot["revealed"] = True
            self.emit("location_revealed", spot=index + 1, card=spot["card"])

    def noz_card(self, player: str) -> str | None:
        car = self.find_car(player, self.s["race"]["cars"][player])
        assert car is not None
        return next((c for c in car["upgrades"] if upgrade_of(c).kind == "noz"), None)

    def run_race(self) -> None:
        """Rulebook, Moving Cars: "Each player will now move their pawn a number of spots equal to
        the number of STARS corresponding to the first stat of the location. The pawns are moved
        in order from lane 1 to 4. Then do the same for the second stat [...] If a car does not
        reach the finish line when all 4 location stats have been visited, continue using the
        first location card, as though you're doing laps." Stops to ask a NOZ question."""
        race = self.s["race"]
        self.s["phase"] = RACE_CAR
        self.reveal_spot(0)
        segments = self.segments()
        while len(race["finished"]) < len(race["order"]):
            index = race["step"] % len(segments)
            if index == 2:
                self.reveal_spot(1)
            if race["lane"] >= len(race["order"]):
                race["step"] += 1
                race["lane"] = 0
                continue
            player = race["order"][race["lane"]]
            if player not in race["finished"]:
                self.move(player, segments[index], self.stars(player, segments[index]))
                if self.offer_noz(player):
                    return
            race["lane"] += 1
        self.end_race()

    def move(self, player: str, stat: str, spaces: int) -> None:
        """Move a pawn; "When a car reaches the finish line of the chosen class, place the pawn on
        the position on which it came in at" (earlier lanes first: §3.22)."""
        race = self.s["race"]
        start = race["pos"][player]
        race["pos"][player] = start + spaces
        race["log"].append(
            {
                "step": race["step"],
                "stat": stat,
                "player": player,
                "from": start,
                "to": start + spaces,
            }
        )
        self.emit("moved", player=player, stat=stat, spaces=spaces, to=start + spaces)
        if race["pos"][player] >= self.s["finish_line"]:
            race["finished"].append(player)
            self.emit("finished", player=player, place=len(race["finished"]))

    def offer_noz(self, player: str) -> bool:
        """ "After you move your car, you may choose to use & discard a NOZ card attached to it to
        move an extra 3 spaces" (§3.16). The racer's standing policy answers unless it is "ask"
        (never with Hidden Upgrades: ``noz_policies``); True when the race must wait for the
        racer's answer."""
        race = self.s["race"]
        if player in race["finished"] or self.noz_card(player) is None:
            return False
        policy = self.seat(player)["noz_policy"]
        if policy == "never":
            return False
        if policy == "first chance":
            self.fire_noz(player)
            return False
        race["asking"] = player
        self.s["phase"] = NOZ
        return True

    def fire_noz(self, player: str) -> None:
        card = self.noz_card(player)
        assert card is not None
        car = self.find_car(player, self.s["race"]["cars"][player])
        assert car is not None
        car["upgrades"].remove(card)
        self.s["junk"].append(card)
        self.emit("noz", player=player)
        self.move(player, "NOZ", NOZ_SPACES)

    def answer_noz(self, player: str, use: bool) -> None:
        race = self.s["race"]
        race["asking"] = None
        if use:
            self.fire_noz(player)
        race["lane"] += 1
        self.run_race()

    def end_race(self) -> None:
        """Rulebook, End of Race: prizes from the second location card, a trophy per place, and
        "If there is a RED stat icon on that location card, the player who came in 1st discards
        an upgrade of that stat from the car used in the race, (however, this does not apply to
        CREW cards.)" Racers take the prizes of the places they reach (§3.23)."""
        race = self.s["race"]
        prize_card = LOCATIONS[self.s["spots"][1]["card"]]
        places = []
        for place, player in enumerate(race["finished"], 1):
            prize = prize_card.prizes[len(prize_card.prizes) - place]
            trophy = TROPHIES[place - 1]
            seat = self.seat(player)
            seat["credits"] += prize
            seat["trophies"][trophy] += 1
            places.append({"player": player, "place": place, "credits": prize, "trophy": trophy})
        self.emit("results", places=places, location=prize_card.id)
        winner = race["finished"][0]
        if prize_card.red is not None:
            self.penalise(winner, prize_card.red)
        self.s["last_race"] = {
            "round": self.s["round"],
            "cls": self.s["race_class"],
            "finish_line": self.s["finish_line"],
            "order": race["order"],
            "cars": race["cars"],
            "locations": [spot["card"] for spot in self.s["spots"]],
            "log": race["log"],
            "places": places,
        }
        self.s["race"] = None
        self.trade_up_all()
        self.emit("race_over", round=self.s["round"])
        golds = [p for p in self.players if self.seat(p)["trophies"]["gold"] >= self.golds_to_win()]
        if self.s["championship"] or (golds and self.options["shorter_game"]):
            self.finish("championship" if self.s["championship"] else "golds")
            return
        if golds:
            self.s["championship_next"] = True
            self.emit("championship_next", players=golds)
        self.clean_up()

    def penalise(self, winner: str, stat: str) -> None:
        """The winner's part of the red stat on the racing car goes to the junk yard; never crew,
        never NOZ (§3.24)."""
        car = self.find_car(winner, self.s["race"]["cars"][winner])
        assert car is not None
        part = next(
            (
                c
                for c in car["upgrades"]
                if upgrade_of(c).kind == "part" and upgrade_of(c).stat == stat
            ),
            None,
        )
        if part is not None:
            car["upgrades"].remove(part)
            self.s["junk"].append(part)
        self.emit("penalty", player=winner, stat=stat, card=part)

    def trade_up_all(self) -> None:
        for player in self.players:
            self.trade_up(player)

    def trade_up(self, player: str) -> None:
        """Rulebook, Trade Up: "2x Fourth place into 1 Bronze, 2x Bronze into 1 Silver, 2x Silver
        into 1 Gold. You don't trade up to get your 7th Gold trophy. You MUST win that one by
        racing. You can for your 8th gold." Done automatically (§3.25); while a player holds
        exactly one gold less than the target, silver -> gold waits (§3.26)."""
        trophies = self.seat(player)["trophies"]
        lock = self.golds_to_win() - 1
        changed = True
        while changed:
            changed = False
            for low, high in zip(TROPHIES[::-1], TROPHIES[-2::-1], strict=False):
                if trophies[low] < 2 or (high == "gold" and trophies["gold"] == lock):
                    continue
                trophies[low] -= 2
                trophies[high] += 1
                self.emit("traded_up", player=player, gave=low, got=high)
                changed = True

    # -- clean-up and the end --------------------------------------------------------------------

    def clean_up(self) -> None:
        """Rulebook, Phase 4: cars back from the car show, pawns back, location cards discarded,
        "Discard ALL cards from the shop and reveal new Upgrades", the dealership refilled "only
        for classes that have been already shown", and "The first player marker moves to the
        player to the left"."""
        self.s["show"] = [None] * len(self.s["show"])
        for seat in self.s["seats"]:
            seat["lane"] = None
            seat["passed"] = False
        for spot in self.s["spots"]:
            if spot["card"] is not None:
                self.s["location_discard"].append(spot["card"])
        self.s["spots"] = [empty_spot() for _ in self.s["spots"]]
        self.s["junk"].extend(self.s["shop"])
        self.s["shop"] = []
        self.refill_shop()
        for cls in list(self.s["revealed"]):
            self.reveal_cars(cls, DEALERSHIP_SIZE)
        self.s["race_class"] = None
        self.s["finish_line"] = None
        self.s["first"] = (self.s["first"] + 1) % len(self.players)
        self.s["round"] += 1
        if self.s["championship_next"]:
            self.s["championship_next"] = False
            self.s["championship"] = True
        self.begin_round()

    def finish(self, ended_by: str) -> None:
        from rules.street_kings.scoring import outcome_of

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
