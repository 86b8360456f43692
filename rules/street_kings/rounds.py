"""The Street Kings round: one action's working copy of a state that plays the game forward.

``Round`` is the ``Table`` (the state and its queries) with everything that moves the game:
setup, the class of the race, each action of the action phase and the automatic ones that need
nobody, the race (``race.py``), the clean-up and the next round. Rulebook:
docs/rules/street-kings.md; readings: §3 of the component notes (cited as "§3.n").
"""

from __future__ import annotations

from rules.protocol import rng
from rules.street_kings import race
from rules.street_kings.data import (
    CAR_SHOW_SLOTS,
    CARS,
    CARS_BY_CLASS,
    CLASSES,
    DEALERSHIP_SIZE,
    ELITE_START_CREDITS,
    FINISH_LINE,
    HAND_SIZE,
    LOCATIONS,
    START_CREDITS,
    upgrade_deck,
    upgrade_of,
)
from rules.street_kings.table import (
    ACTION,
    CLASS,
    DEALER_BUY,
    DEALER_SELL,
    ELITE_CYCLE,
    OVER,
    PLACE,
    SHOP_BUY,
    SHOP_SELL,
    Table,
    car_beauty,
    car_value,
    class_above,
    empty_spot,
    half_up,
)


class Round(Table):
    """A table that plays: each method is a step of the rules, ending where a player decides."""

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

        while not self.actions_over():
            player = self.players[self.s["current"]]
            if self.s["seats"][self.s["current"]]["passed"]:
                self.end_action()
                return
            if self.turn_actions(player) != [{"type": "pass"}]:
                return
            self.pass_turn(player, forced=True)
            return
        self.race_on(race.start_race(self))

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

        self.s["pending"] = {"kind": "shop", "sale": 0, "narrow": None}
        self.emit("shop", player=player)
        if self.shop_sales(player):
            self.s["phase"] = SHOP_SELL
        else:
            self.to_shop_buy(player)

    def sell_upgrade(self, player: str, card: str) -> None:
        """ "At the shop, you can also SELL your upgrades and fire crew members. [...] discard those
        cards to the junk yard". The credits come when the selling is done (§3.11)."""

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
        if not self.shop_sales(player):
            self.to_shop_buy(player)

    def collect_sale(self, player: str) -> None:
        sale = self.s["pending"]["sale"]
        if sale:
            gain = half_up(sale)
            self.seat(player)["credits"] += gain
            self.emit("sale", player=player, value=sale, credits=gain)
        self.s["pending"]["sale"] = 0

    def to_shop_buy(self, player: str) -> None:

        self.collect_sale(player)
        self.s["pending"]["narrow"] = None
        if self.shop_buys(player):
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

        owned = sorted({CARS[car["id"]].cls for car in self.seat(player)["cars"]})
        self.s["pending"] = {"kind": "dealer", "sale": 0, "owned": owned, "sold": 0}
        self.emit("dealer", player=player)
        if self.dealer_sales(player):
            self.s["phase"] = DEALER_SELL
        else:
            self.to_dealer_buy(player)

    def sell_car(self, player: str, car_id: str) -> None:
        """ "SELL a car along with all its upgrades. Add the value of the car and all the upgrades
        on it and discard those cards to gain half that amount in credits (rounded up)." One car
        per visit, any number in the championship ("You can SELL as many cars as you want")."""

        seat = self.seat(player)
        car = self.find_car(player, car_id)
        assert car is not None
        seat["cars"].remove(car)
        self.s["pending"]["sale"] += car_value(car)
        self.s["pending"]["sold"] += 1
        self.s["junk"].extend(car["upgrades"])
        self.s["car_discard"][CARS[car_id].cls].append(car_id)
        self.emit("sold_car", player=player, car=car_id, upgrades=len(car["upgrades"]))
        if not self.s["championship"] or not self.dealer_sales(player):
            self.to_dealer_buy(player)

    def to_dealer_buy(self, player: str) -> None:

        self.collect_sale(player)
        if self.dealer_buys(player):
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

    # -- clean-up ------------------------------------------------------------------------------

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

    # -- the race (``race.py``) ------------------------------------------------------------------

    def pick_car(self, player: str, car_id: str) -> None:
        """The racer's choice of car; the race runs once every racer has one."""
        race.enter_car(self, player, car_id)
        self.race_on(race.settle_picks(self))

    def answer_noz(self, player: str, use: bool) -> None:
        self.race_on(race.answer_noz(self, player, use))

    def race_on(self, over: bool) -> None:
        """After a step of the race: once it no longer waits on a racer, clean up and begin the
        next round, unless the race ended the game."""
        if over and self.s["phase"] != OVER:
            self.clean_up()
