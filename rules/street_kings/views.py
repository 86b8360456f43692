"""What a Street Kings player may know (docs/architecture.md, "Secrets live in views").

Public: credits, trophies, cars and their upgrades ("Upgrades on cars are always visible to all
players"), crew ("kept face up in front of you"), the shop, the dealership, the car show, the
grid, the race. Secret: location hands, face-down location cards (known to whoever placed them),
the order of every deck, and with Hidden Upgrades ("Upgrades are hidden under the cars") the
upgrades on other players' cars, of which only the count shows.
"""

from __future__ import annotations

from typing import Any

from rules.jsoncopy import json_copy
from rules.protocol import Outcome, View
from rules.street_kings.data import CLASSES
from rules.street_kings.table import Table


def view_of(t: Table, viewer: str | None, movers: list[str], outcome: Outcome | None) -> View:
    s = t.s
    seated = viewer if viewer in t.players else None
    view: View = {
        "game": s["game"],
        "viewer": viewer,
        "round": s["round"],
        "phase": s["phase"],
        "championship": s["championship"],
        "championship_next": s["championship_next"],
        "race_class": s["race_class"],
        "finish_line": s["finish_line"],
        "golds_to_win": t.golds_to_win(),
        "options": dict(s["options"]),
        "first": t.players[s["first"]],
        "to_move": movers,
        "players": [_player(t, p, seated) for p in t.players],
        "dealership": {cls: list(s["dealership"].get(cls, [])) for cls in CLASSES},
        "shop": list(s["shop"]),
        "show": [dict(slot) if slot else None for slot in s["show"]],
        "spots": [_spot(spot, seated) for spot in s["spots"]],
        "decks": {
            "locations": len(s["location_deck"]),
            "upgrades": len(s["upgrade_deck"]),
            "cars": {cls: len(s["car_decks"][cls]) for cls in CLASSES},
        },
        "junk": list(s["junk"]),
        "location_discard": list(s["location_discard"]),
        "pending": None if s["pending"] is None else s["pending"]["kind"],
        #: The visit in progress, all public: its running sale, the classes it may buy from.
        "visit": json_copy(s["pending"]),
        "race": _race(s["race"]),
        "last_race": s["last_race"],
        "outcome": None if outcome is None else outcome.to_json(),
    }
    if seated is not None:
        view["hand"] = sorted(t.seat(seated)["hand"])
    return view


def _player(t: Table, player: str, viewer: str | None) -> dict[str, Any]:
    seat = t.seat(player)
    hidden = t.options["hidden_upgrades"] and player != viewer
    parked = t.at_show(player)
    cars = []
    for car in seat["cars"]:
        entry: dict[str, Any] = {"id": car["id"], "at_show": car["id"] in parked}
        if hidden:
            entry["upgrades"] = None
            entry["hidden_upgrades"] = len(car["upgrades"])
        else:
            entry["upgrades"] = list(car["upgrades"])
        cars.append(entry)
    return {
        "id": player,
        "credits": seat["credits"],
        "trophies": dict(seat["trophies"]),
        "cars": cars,
        "crew": list(seat["crew"]),
        "hand_size": len(seat["hand"]),
        "lane": seat["lane"],
        "passed": seat["passed"],
        "noz_policy": seat["noz_policy"],
    }


def _spot(spot: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    known = spot["revealed"] or (viewer is not None and spot["by"] == viewer)
    return {
        "filled": spot["card"] is not None,
        "card": spot["card"] if known else None,
        "revealed": spot["revealed"],
        "by": spot["by"],
    }


def _race(race: dict[str, Any] | None) -> dict[str, Any] | None:
    if race is None:
        return None
    return {
        "order": list(race["order"]),
        "to_pick": list(race["to_pick"]),
        "cars": dict(race["cars"]),
        "pos": dict(race["pos"]),
        "finished": list(race["finished"]),
        "asking": race["asking"],
        "log": [dict(entry) for entry in race["log"]],
    }
