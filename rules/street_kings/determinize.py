"""A Street Kings table consistent with one seat's view: what that player cannot see dealt anew.

For search by AI seats (information-set sampling). Hidden from the viewer: the other location
hands, face-down location cards they did not place, the order of every deck, the D cars put out
of the game, and with Hidden Upgrades the upgrades under the other players' cars (only their
count shows). Those are dealt again from the cards the viewer has not seen, into the same places
and counts; a hidden car is never given two upgrades of one colour, nor a crew card.

What the view leaves out as bookkeeping follows from the table where it can: the crew that went
into the race with each car, where the race stands (from its log), the classes shown at the
dealership. The race log is not used to narrow the hidden upgrades down further.
Pure: the same view and generator give the same state.
"""

from __future__ import annotations

import random
from typing import Any

from rules.jsoncopy import json_copy
from rules.protocol import View
from rules.street_kings.data import (
    CARS_BY_CLASS,
    CLASSES,
    LOCATIONS,
    upgrade_deck,
    upgrade_of,
)
from rules.street_kings.table import (
    ACTION,
    CLASS,
    DEALER_BUY,
    DEALER_SELL,
    FORMAT_VERSION,
    GAME_ID,
    OVER,
    PLACE,
    SHOP_BUY,
    SHOP_SELL,
)

#: Random deals of hidden upgrades tried before dealing them one colour at a time.
TRIES = 50
#: The phases in which the player to move is the table's current player.
TURN_PHASES = (CLASS, ACTION, SHOP_SELL, SHOP_BUY, DEALER_SELL, DEALER_BUY, PLACE)


def _take(pool: list[str], count: int) -> list[str]:
    taken = pool[:count]
    del pool[:count]
    return taken


def _hidden_cars(view: View, player: str) -> list[dict[str, Any]]:
    """The cars of other players whose upgrades the viewer does not see."""
    return [
        car
        for entry in view["players"]
        if entry["id"] != player
        for car in entry["cars"]
        if car["upgrades"] is None
    ]


def _deal_upgrades(
    cars: list[dict[str, Any]], pool: list[str], generator: random.Random
) -> list[list[str]]:
    """Upgrades for each hidden car, at most one of a colour and no crew; from ``pool``, which
    loses them. The real table is one such deal, so a deal exists; random ones are tried first."""
    for _ in range(TRIES):
        left = list(pool)
        generator.shuffle(left)
        dealt = []
        for car in cars:
            chosen: list[str] = []
            for card in list(left):
                if len(chosen) == car["hidden_upgrades"]:
                    break
                info = upgrade_of(card)
                if info.kind != "crew" and all(upgrade_of(c).colour != info.colour for c in chosen):
                    chosen.append(card)
                    left.remove(card)
            if len(chosen) < car["hidden_upgrades"]:
                break
            dealt.append(chosen)
        else:
            pool[:] = left
            return dealt
    raise ValueError("no deal of the hidden upgrades fits the view")


def determinize(view: View, player: str, generator: random.Random) -> dict[str, Any]:
    """A full state whose view for ``player`` is ``view``; hidden cards dealt by ``generator``."""
    entries = view["players"]
    players = [entry["id"] for entry in entries]
    options = dict(view["options"])
    spots = [dict(spot) for spot in view["spots"]]

    locations = set(LOCATIONS) - set(view.get("hand", [])) - set(view["location_discard"])
    locations -= {spot["card"] for spot in spots if spot["card"] is not None}
    location_pool = sorted(locations)
    generator.shuffle(location_pool)
    state_spots = []
    for spot in spots:
        card = spot["card"]
        if spot["filled"] and card is None:
            card = location_pool.pop()
        state_spots.append({"card": card, "by": spot["by"], "revealed": spot["revealed"]})

    upgrades = set(upgrade_deck(options["no_crew"], options["no_noz"]))
    for entry in entries:
        upgrades -= set(entry["crew"])
        for car in entry["cars"]:
            upgrades -= set(car["upgrades"] or [])
    upgrades -= set(view["shop"]) | set(view["junk"])
    upgrade_pool = sorted(upgrades)
    hidden = _hidden_cars(view, player)
    dealt = iter(_deal_upgrades(hidden, upgrade_pool, generator))
    generator.shuffle(upgrade_pool)

    seats = []
    for entry in entries:
        if entry["id"] == player:
            hand = sorted(view["hand"])
        else:
            hand = sorted(_take(location_pool, entry["hand_size"]))
        seats.append(
            {
                "credits": entry["credits"],
                "cars": [
                    {
                        "id": car["id"],
                        "upgrades": list(car["upgrades"])
                        if car["upgrades"] is not None
                        else next(dealt),
                    }
                    for car in entry["cars"]
                ],
                "crew": list(entry["crew"]),
                "hand": hand
                if hand is not None
                else sorted(_take(location_pool, entry["hand_size"])),
                "trophies": dict(entry["trophies"]),
                "lane": entry["lane"],
                "passed": entry["passed"],
                "noz_policy": entry["noz_policy"],
            }
        )
    location_deck = _take(location_pool, view["decks"]["locations"])
    if location_pool:
        raise ValueError("the view's location cards do not add up")
    if len(upgrade_pool) != view["decks"]["upgrades"]:
        raise ValueError("the view's upgrade cards do not add up")

    car_decks, car_discard, out_of_game = _deal_cars(view, generator)
    phase = view["phase"]
    movers = view["to_move"]
    current = players.index(movers[0]) if phase in TURN_PHASES else players.index(view["first"])
    outcome = view.get("outcome")
    return {
        "game": GAME_ID,
        "version": FORMAT_VERSION,
        "seed": f"{generator.getrandbits(64):016x}",
        "options": options,
        "rng": 0,
        "players": players,
        "seats": seats,
        "car_decks": car_decks,
        "car_discard": car_discard,
        "out_of_game": out_of_game,
        "dealership": {cls: list(cars) for cls, cars in view["dealership"].items() if cars},
        "revealed": [cls for cls in CLASSES if cls == "C" or view["dealership"].get(cls)],
        "upgrade_deck": upgrade_pool,
        "shop": list(view["shop"]),
        "junk": list(view["junk"]),
        "location_deck": location_deck,
        "location_discard": list(view["location_discard"]),
        "spots": state_spots,
        "show": [dict(slot) if slot else None for slot in view["show"]],
        "round": view["round"],
        "first": players.index(view["first"]),
        "current": current,
        "phase": phase,
        "race_class": view["race_class"],
        "finish_line": view["finish_line"],
        "championship": view["championship"],
        "championship_next": view["championship_next"],
        "pending": json_copy(view["visit"]),
        "race": _race(view, seats, players),
        "last_race": json_copy(view["last_race"]),
        "ended_by": outcome["details"]["ended_by"] if phase == OVER and outcome else None,
    }


def _deal_cars(
    view: View, generator: random.Random
) -> tuple[dict[str, list[str]], dict[str, list[str]], list[str]]:
    """Each class deck of its shown size from the cars nobody holds or offers; the rest of a
    class is its discard pile, and the rest of the D cars are out of the game."""
    held = {car["id"] for entry in view["players"] for car in entry["cars"]}
    held.update(car for cars in view["dealership"].values() for car in cars)
    decks: dict[str, list[str]] = {}
    discard: dict[str, list[str]] = {}
    out: list[str] = []
    for cls in CLASSES:
        pool = [car for car in CARS_BY_CLASS[cls] if car not in held]
        generator.shuffle(pool)
        decks[cls] = _take(pool, view["decks"]["cars"][cls])
        if cls == "D":
            out, discard[cls] = sorted(pool), []
        else:
            discard[cls] = pool
    return decks, discard, out


def _race(view: View, seats: list[dict[str, Any]], players: list[str]) -> dict[str, Any] | None:
    """The race in progress: its crew as ``enter_car`` takes it, its step and lane from the log
    (a race waits only right after moving the racer it asks about NOZ)."""
    race = view["race"]
    if race is None:
        return None
    crew = {}
    for racer in race["cars"]:
        by_kind: dict[str, str] = {}
        for card in sorted(seats[players.index(racer)]["crew"]):
            by_kind.setdefault(upgrade_of(card).id, card)
        crew[racer] = sorted(by_kind.values())
    log = race["log"]
    return {
        "to_pick": list(race["to_pick"]),
        "cars": dict(race["cars"]),
        "crew": crew,
        "order": list(race["order"]),
        "pos": dict(race["pos"]),
        "finished": list(race["finished"]),
        "step": log[-1]["step"] if log else 0,
        "lane": race["order"].index(log[-1]["player"]) if log else 0,
        "asking": race["asking"],
        "log": [dict(entry) for entry in log],
    }
