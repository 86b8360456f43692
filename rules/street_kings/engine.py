"""The Street Kings game object: the protocol (start, to_move, legal, play, view, outcome, dump,
load) over the table (``table.py``, its queries; ``rounds.py`` and ``race.py``, its course), and
the move table ``APPLY`` that ``play`` dispatches a checked move through.

Source of truth: the rulebook (retold in docs/rules/street-kings.md); where it is silent, the
readings of §3 of its component notes (cited "§3.n"). Readings of our own, each also stated
where it is implemented:

- A class choice with one possible answer (round 1: only D cars) is made without asking; so is a
  race car when only one car is eligible, and a turn whose only possible move is Pass.
- Crew: every racer takes one crew card of each artwork they hold (crew only add stars).
- The NOZ standing policy (``ask``, ``first chance``, ``never``), default ``ask``, may be changed
  in any decision of a player who owns a NOZ; changing it while being asked answers at once.
- Shorter Game: the 5th gold must be won by racing, as the 7th is in the normal game, and the
  game ends after the race in which someone reaches 5 golds.
- Custom Finish Line: the token goes on any space of the track (1 to 24) whose closest letter is
  a class the chooser may choose; halfway between two letters counts as the lower class.
- Betting is not offered: see ``OPTIONS_LEFT_OUT``.
- ``round_cap`` ends the game after that many rounds (``ended_by: "round_cap"``): a safety net.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.jsoncopy import json_copy
from rules.protocol import (
    Action,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Refusal,
    View,
    load_dict_state,
    merge_options,
    turn_after,
)
from rules.street_kings.data import FINISH_LINE
from rules.street_kings.moves import accepted, legal, to_move
from rules.street_kings.refusals import refusal
from rules.street_kings.rounds import Round
from rules.street_kings.scoring import outcome_of
from rules.street_kings.table import (
    FORMAT_VERSION,
    GAME_ID,
    NOZ,
    OVER,
    SHOP_SELL,
    Table,
    classify_finish,
    new_state,
    noz_policies,
)
from rules.street_kings.views import view_of

DEFAULT_OPTIONS: dict[str, Any] = {
    "custom_finish_line": False,
    "no_crew": False,
    "no_noz": False,
    "hidden_upgrades": False,
    "shorter_game": False,
    "super_store": False,
    "infinite_actions": False,
    "elite_class": False,
    "round_cap": 100,
}

#: Variants of the rulebook that are not options, and why.
OPTIONS_LEFT_OUT = {
    "betting": (
        '"players can bet credits, cars and even trophies on who will finish in first place" '
        "names no stakes, odds, limits or counterparty: a bet is a deal two players negotiate, "
        "which the rules do not structure, and betting trophies conflicts with the rule that the "
        "7th gold must be won by racing."
    )
}

State = dict[str, Any]


def _options_from(merged: dict[str, Any]) -> dict[str, Any]:
    for key, default in DEFAULT_OPTIONS.items():
        if isinstance(default, bool) and not isinstance(merged[key], bool):
            raise IllegalAction(Refusal("The option {key} must be true or false.", key=key))
    cap = merged["round_cap"]
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise IllegalAction("The option round_cap must be a whole number of at least 1.")
    if merged["shorter_game"] and merged["elite_class"]:
        raise IllegalAction(
            "shorter_game and elite_class each set up the cars differently: choose one of them."
        )
    return merged


#: The events that make nothing hidden known (``StreetKings.reveals``); every other one does,
#: and ``location_drawn`` does when a card was drawn.
REVEALS_NOTHING = frozenset(
    {
        "class_chosen",
        "turn",
        "passed",
        "qualified",
        "car_show",
        "location_placed",
        "shop",
        "sale",
        "bought_upgrade",
        "dealer",
        "sold_car",
        "bought_car",
        "bought_nothing",
        "noz_policy",
    }
)


class StreetKings(Game):
    """The Street Kings game object registered in ``rules.GAMES``."""

    id = GAME_ID
    title = "Street Kings"
    min_players = 2
    max_players = 4
    #: Ending one's actions for the round, leaving the shop empty-handed (protocol: an AI's
    #: last resort). Selling is not passive but neither is it preferred: "done selling" stays
    #: a normal choice so an AI does not sell every upgrade it owns.
    passive_actions = frozenset({"pass", "buy_nothing"})

    @property
    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def start(self, players: list[str], seed: str, options: dict[str, Any] | None = None) -> State:
        opts = _options_from(merge_options(self, options))
        players = list(players)
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction("Street Kings needs 2 to 4 players.")
        if len(set(players)) != len(players):
            raise IllegalAction("Each player may take only one seat.")
        table = Round(new_state(players, str(seed), opts))
        table.setup()
        return table.s

    # -- queries ---------------------------------------------------------------------------------

    def to_move(self, state: State) -> list[str]:
        return to_move(_Reader(state))

    def legal(self, state: State, player: str) -> list[Action]:
        return legal(_Reader(state), player)

    def outcome(self, state: State) -> Outcome | None:
        return outcome_of(state) if state["phase"] == OVER else None

    def view(self, state: State, player: str | None) -> View:
        return view_of(_Reader(state), player, self.to_move(state), self.outcome(state))

    # -- moves -----------------------------------------------------------------------------------

    def play(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]:
        if not isinstance(action, dict):
            raise IllegalAction("That is not a Street Kings move: pick one from the list.")
        if state["phase"] == OVER:
            raise IllegalAction("The game is over.")
        if player not in state["players"]:
            raise IllegalAction("You are not playing in this game.")
        table = Round(state)
        action = {key: value for key, value in action.items() if value is not None}
        if self.is_standing_order(action) and player not in to_move(table):
            _set_standing_policy(table, player, action)
            return table.s, json_copy(table.events)
        movers = to_move(table)
        if player not in movers:
            raise IllegalAction("It is not your turn.")
        if action not in accepted(table, player):
            raise IllegalAction(refusal(table, player, action))
        APPLY[action["type"]](table, player, action)
        turn = turn_after(self.turn(state), player, movers, to_move(table), table.events)
        table.s["turn_number"] = turn
        return table.s, json_copy(table.events)

    def turn(self, state: State) -> int:
        """The protocol's turn number (a state saved before it was kept is on turn 1)."""
        return int(state.get("turn_number", 1))

    def reveals(self, event: Event) -> bool:
        """Cards drawn or turned up (a location card drawn, the dealership and the shop
        refilled, a deck reshuffled), and every step of a race and of the new round after it
        (locations turned face up, Hidden Upgrades shown by the moves, the shop dealt anew)
        make something hidden known. A sold upgrade counts too: with Hidden Upgrades it was
        hidden under its car, and its event does not say whether it was (protocol,
        ``reveals``)."""
        kind = event.get("type")
        if kind == "location_drawn":
            return event.get("drew") is not False
        return kind not in REVEALS_NOTHING

    def is_standing_order(self, action: Action) -> bool:
        """The NOZ policy is a standing answer (docs/architecture.md, "Standing orders"): any
        seated player may set it at any time, so a race never waits on someone who would
        always answer the same."""
        return isinstance(action, dict) and action.get("type") == "noz_policy"

    # -- storage ---------------------------------------------------------------------------------

    def dump(self, state: State) -> dict[str, Any]:
        return json_copy(state)

    def load(self, data: dict[str, Any]) -> State:
        return load_dict_state(data, GAME_ID, self.title, FORMAT_VERSION)


class _Reader(Table):
    """A table for queries only: no copy of the state (nothing is changed)."""

    def __init__(self, state: State) -> None:
        self.s = state
        self.events = []


# -- the move table: one handler per action type, each doing a move ``play`` checked ----------


def _class(t: Round, player: str, action: Action) -> None:
    t.set_class(action["class"], FINISH_LINE[action["class"]], player)


def _finish_line(t: Round, player: str, action: Action) -> None:
    t.set_class(classify_finish(action["space"]), action["space"], player)


def _shop(t: Round, player: str, action: Action) -> None:
    t.open_shop(player)


def _dealer(t: Round, player: str, action: Action) -> None:
    t.open_dealer(player)


def _show(t: Round, player: str, action: Action) -> None:
    t.car_show(player, action["car"])


def _location(t: Round, player: str, action: Action) -> None:
    t.choose_location(player)


def _place(t: Round, player: str, action: Action) -> None:
    t.place_location(player, action["card"], action["spot"])


def _qualify(t: Round, player: str, action: Action) -> None:
    t.qualify(player, action["lane"])


def _pass(t: Round, player: str, action: Action) -> None:
    t.pass_turn(player)


def _sell(t: Round, player: str, action: Action) -> None:
    t.sell_upgrade(player, action["card"])


def _sell_car(t: Round, player: str, action: Action) -> None:
    t.sell_car(player, action["car"])


def _done_selling(t: Round, player: str, action: Action) -> None:
    """The shop and the dealership both end their selling with this one move."""
    (t.to_shop_buy if t.s["phase"] == SHOP_SELL else t.to_dealer_buy)(player)


def _buy(t: Round, player: str, action: Action) -> None:
    t.buy_upgrade(player, action["card"], action.get("car"))


def _buy_car(t: Round, player: str, action: Action) -> None:
    t.buy_car(player, action["car"])


def _buy_nothing(t: Round, player: str, action: Action) -> None:
    t.emit("bought_nothing", player=player)
    t.end_action()


def _race(t: Round, player: str, action: Action) -> None:
    t.pick_car(player, action["car"])


def _noz(t: Round, player: str, action: Action) -> None:
    t.answer_noz(player, action["use"])


def _narrow(t: Round, player: str, action: Action) -> None:
    t.s["pending"]["narrow"] = action["to"]


def _noz_policy(t: Round, player: str, action: Action) -> None:
    _set_policy(t, player, action["policy"])


def _set_policy(t: Round, player: str, policy: str) -> None:
    """A standing answer to "fire your NOZ?"; set while being asked, it answers at once."""
    t.seat(player)["noz_policy"] = policy
    t.emit("noz_policy", player=player, policy=policy)
    if t.s["phase"] == NOZ and t.s["race"]["asking"] == player and policy != "ask":
        t.answer_noz(player, policy == "first chance")


def _set_standing_policy(t: Round, player: str, action: Action) -> None:
    """A NOZ policy set out of turn: checked here, since ``legal`` lists moves of the player to
    move only."""
    policy = action.get("policy")
    if t.options["no_noz"]:
        raise IllegalAction("This game is played without NOZ cards (the No NOZ variant).")
    if policy not in noz_policies(t.options):
        raise IllegalAction(refusal(t, player, action))
    if t.seat(player)["noz_policy"] == policy:
        raise IllegalAction(Refusal("Your NOZ policy is already {policy}.", policy=policy))
    _set_policy(t, player, policy)


APPLY: dict[str, Callable[[Round, str, Action], None]] = {
    "class": _class,
    "finish_line": _finish_line,
    "shop": _shop,
    "dealer": _dealer,
    "show": _show,
    "location": _location,
    "place": _place,
    "qualify": _qualify,
    "pass": _pass,
    "sell": _sell,
    "sell_car": _sell_car,
    "done_selling": _done_selling,
    "buy": _buy,
    "buy_car": _buy_car,
    "buy_nothing": _buy_nothing,
    "race": _race,
    "noz": _noz,
    "narrow": _narrow,
    "noz_policy": _noz_policy,
}

STREET_KINGS = StreetKings()
