"""The Street Kings game object: the protocol (start, to_move, legal, play, view, outcome, dump,
load) over the table in ``table.py``.

Source of truth: ../shared/rulebooks/street-kings.txt; where it is silent, the readings of §3 of
street-kings.components.md (cited "§3.n"). Readings of our own, each also stated where it is
implemented:

- A class choice with one possible answer (round 1: only D cars) is made without asking; so is a
  race car when only one car is eligible, and a turn whose only possible move is Pass.
- Crew: every racer takes one crew card of each artwork they hold (crew only add stars).
- The NOZ standing policy (``ask``, ``first chance``, ``never``), default ``ask``, may be changed
  in any decision of a player who owns a NOZ; changing it while being asked answers at once.
- Shorter Game: the 5th gold must be won by racing, as the 7th is in the normal game, and the
  game ends after the race in which someone reaches 5 golds.
- Custom Finish Line: the token goes on space 10 to 24; halfway between two letters counts as the
  lower class.
- Betting is not offered: see ``OPTIONS_LEFT_OUT``.
- ``round_cap`` ends the game after that many rounds (``ended_by: "round_cap"``): a safety net.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from rules.protocol import (
    Action,
    Event,
    IllegalAction,
    Outcome,
    View,
    load_dict_state,
    merge_options,
)
from rules.street_kings.data import FINISH_LINE
from rules.street_kings.moves import accepted, legal, to_move
from rules.street_kings.refusals import refusal
from rules.street_kings.scoring import outcome_of
from rules.street_kings.table import (
    FORMAT_VERSION,
    GAME_ID,
    NOZ,
    NOZ_POLICIES,
    OVER,
    SHOP_SELL,
    Table,
    classify_finish,
    new_state,
)

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
            raise IllegalAction(f"The option {key} must be true or false.")
    cap = merged["round_cap"]
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise IllegalAction("The option round_cap must be a whole number of at least 1.")
    if merged["shorter_game"] and merged["elite_class"]:
        raise IllegalAction(
            "shorter_game and elite_class each set up the cars differently: choose one of them."
        )
    return merged


class StreetKings:
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
        table = Table(new_state(players, str(seed), opts))
        table.setup()
        return table.s

    # -- queries ---------------------------------------------------------------------------------

    def to_move(self, state: State) -> list[str]:
        return to_move(_Reader(state))

    def legal(self, state: State, player: str) -> list[Action]:
        return legal(_Reader(state), player)

    def determinize(self, view: View, player: str, generator: random.Random) -> State:
        """A full state consistent with ``view``, what ``player`` cannot see dealt anew by
        ``generator``: for AI search (``rules/street_kings/determinize.py``)."""
        from rules.street_kings.determinize import determinize

        return determinize(view, player, generator)

    def outcome(self, state: State) -> Outcome | None:
        return outcome_of(state) if state["phase"] == OVER else None

    def view(self, state: State, player: str | None) -> View:
        from rules.street_kings.views import view_of

        return view_of(_Reader(state), player, self.to_move(state), self.outcome(state))

    # -- moves -----------------------------------------------------------------------------------

    def play(self, state: State, player: str, action: Action) -> tuple[State, list[Event]]:
        if not isinstance(action, dict):
            raise IllegalAction("That is not a Street Kings move: pick one from the list.")
        if state["phase"] == OVER:
            raise IllegalAction("The game is over.")
        if player not in state["players"]:
            raise IllegalAction("You are not playing in this game.")
        table = Table(state)
        action = {key: value for key, value in action.items() if value is not None}
        if self.is_standing_order(action) and player not in to_move(table):
            _set_standing_policy(table, player, action)
            return table.s, copy.deepcopy(table.events)
        if player not in to_move(table):
            raise IllegalAction("It is not your turn.")
        if action not in accepted(table, player):
            raise IllegalAction(refusal(table, player, action))
        _apply(table, player, action)
        return table.s, copy.deepcopy(table.events)

    def is_standing_order(self, action: Action) -> bool:
        """The NOZ policy is a standing answer (DESIGN.md, out-of-turn decisions): any seated
        player may set it at any time, so a race never waits on someone who would always
        answer the same."""
        return isinstance(action, dict) and action.get("type") == "noz_policy"

    # -- storage ---------------------------------------------------------------------------------

    def dump(self, state: State) -> dict[str, Any]:
        return copy.deepcopy(state)

    def load(self, data: dict[str, Any]) -> State:
        return load_dict_state(data, GAME_ID, self.title, FORMAT_VERSION)


class _Reader(Table):
    """A table for queries only: no copy of the state (nothing is changed)."""

    def __init__(self, state: State) -> None:
        self.s = state
        self.events = []


def _apply(t: Table, player: str, action: Action) -> None:
    """Do a legal action (``play`` checked it against ``legal``)."""
    kind = action["type"]
    if kind == "class":
        t.set_class(action["class"], FINISH_LINE[action["class"]], player)
    elif kind == "finish_line":
        t.set_class(classify_finish(action["space"]), action["space"], player)
    elif kind == "shop":
        t.open_shop(player)
    elif kind == "dealer":
        t.open_dealer(player)
    elif kind == "show":
        t.car_show(player, action["car"])
    elif kind == "location":
        t.choose_location(player)
    elif kind == "place":
        t.place_location(player, action["card"], action["spot"])
    elif kind == "qualify":
        t.qualify(player, action["lane"])
    elif kind == "pass":
        t.pass_turn(player)
    elif kind == "sell":
        t.sell_upgrade(player, action["card"])
    elif kind == "sell_car":
        t.sell_car(player, action["car"])
    elif kind == "done_selling":
        (t.to_shop_buy if t.s["phase"] == SHOP_SELL else t.to_dealer_buy)(player)
    elif kind == "buy":
        t.buy_upgrade(player, action["card"], action.get("car"))
    elif kind == "buy_car":
        t.buy_car(player, action["car"])
    elif kind == "buy_nothing":
        t.emit("bought_nothing", player=player)
        t.end_action()
    elif kind == "race":
        t.enter_car(player, action["car"])
        t.settle_picks()
    elif kind == "noz":
        t.answer_noz(player, action["use"])
    elif kind == "narrow":
        t.s["pending"]["narrow"] = action["to"]
    elif kind == "noz_policy":
        _set_policy(t, player, action["policy"])


def _set_policy(t: Table, player: str, policy: str) -> None:
    """A standing answer to "fire your NOZ?"; set while being asked, it answers at once."""
    t.seat(player)["noz_policy"] = policy
    t.emit("noz_policy", player=player, policy=policy)
    if t.s["phase"] == NOZ and t.s["race"]["asking"] == player and policy != "ask":
        t.answer_noz(player, policy == "first chance")


def _set_standing_policy(t: Table, player: str, action: Action) -> None:
    """A NOZ policy set out of turn: checked here, since ``legal`` lists moves of the player to
    move only."""
    policy = action.get("policy")
    if t.options["no_noz"]:
        raise IllegalAction("This game is played without NOZ cards (the No NOZ variant).")
    if policy not in NOZ_POLICIES:
        raise IllegalAction("Choose a NOZ policy: ask, first chance or never.")
    if t.seat(player)["noz_policy"] == policy:
        raise IllegalAction(f"Your NOZ policy is already {policy}.")
    _set_policy(t, player, policy)


STREET_KINGS = StreetKings()
