"""The Street Kings race (rulebook, Phase 3 and End of Race): location cards on the empty spots,
each racer's car, the pawns moved stat by stat in lane order with NOZ after a move, the prizes,
the red-stat penalty and the trade-up of trophies.

Functions of a ``Table``; the ones that run the race return True when it no longer waits on a
racer, so the round (``rounds.py``) goes on to the clean-up unless the race ended the game.
"""

from __future__ import annotations

from rules.street_kings.data import CARS, LOCATIONS, NOZ_SPACES, TROPHIES, upgrade_of
from rules.street_kings.table import NOZ, RACE_CAR, Table


def start_race(t: Table) -> bool:
    """Rulebook, Phase 3: "if there are empty location spots, fill them with cards from the
    top of the location deck, face down. Starting with the first player, each player now
    chooses one of their available cars"."""
    for spot in t.s["spots"]:
        if spot["card"] is None:
            spot["card"] = t.draw_location()
            spot["by"] = None
    n = len(t.players)
    seats_from_first = [t.players[(t.s["first"] + k) % n] for k in range(n)]
    racers = [p for p in seats_from_first if t.seat(p)["lane"] is not None]
    if not racers:
        t.emit("no_race")
        if t.s["championship"]:  # nobody had an A car: the final round still ends it
            t.finish("championship")
        return True
    t.s["phase"] = RACE_CAR
    t.s["race"] = {
        "to_pick": racers,
        "cars": {},
        "crew": {},
        "order": sorted(racers, key=lambda p: t.seat(p)["lane"]),
        "pos": {p: 0 for p in racers},
        "finished": [],
        "step": 0,
        "lane": 0,
        "asking": None,
        "log": [],
    }
    t.emit("race_setup", racers=list(racers))
    return settle_picks(t)


def settle_picks(t: Table) -> bool:
    """Racers with a single eligible car race it without being asked; the first racer with a
    real choice is asked; when all have a car, the race runs. True when the race is over."""
    race = t.s["race"]
    while race["to_pick"]:
        player = race["to_pick"][0]
        cars = t.eligible_cars(player)
        if len(cars) > 1:
            return False
        enter_car(t, player, cars[0])
    return run_race(t)


def enter_car(t: Table, player: str, car_id: str) -> None:
    """ "Here you can add crew as well." Crew only ever add stars and come back after the race
    (§3.15), so every racer takes one crew card of each artwork they hold ("you can not have
    two cards which contain the same artwork attached to one car")."""
    race = t.s["race"]
    race["to_pick"].remove(player)
    race["cars"][player] = car_id
    crew: dict[str, str] = {}
    for card in sorted(t.seat(player)["crew"]):
        crew.setdefault(upgrade_of(card).id, card)
    race["crew"][player] = sorted(crew.values())
    t.emit("entered", player=player, car=car_id, crew=len(crew))


def stars(t: Table, player: str, stat: str) -> int:
    """Stars of the racing car in ``stat``: the car, its parts, and the crew with it."""
    race = t.s["race"]
    car = t.find_car(player, race["cars"][player])
    assert car is not None
    extras = [*car["upgrades"], *race["crew"][player]]
    bonus = sum(upgrade_of(c).stars for c in extras if upgrade_of(c).stat == stat)
    return CARS[car["id"]].stars[stat] + bonus


def segments(t: Table) -> list[str]:
    """The stats raced in order: location 1's two, then location 2's (§3.20), as laps."""
    stats = []
    for spot in t.s["spots"]:
        if spot["card"] is not None:
            info = LOCATIONS[spot["card"]]
            stats.extend([info.first, info.second])
    return stats


def reveal_spot(t: Table, index: int) -> None:
    spot = t.s["spots"][index]
    if spot["card"] is not None and not spot["revealed"]:
        spot["revealed"] = True
        t.emit("location_revealed", spot=index + 1, card=spot["card"])


def noz_card(t: Table, player: str) -> str | None:
    car = t.find_car(player, t.s["race"]["cars"][player])
    assert car is not None
    return next((c for c in car["upgrades"] if upgrade_of(c).kind == "noz"), None)


def run_race(t: Table) -> bool:
    """Rulebook, Moving Cars: "Each player will now move their pawn a number of spots equal to
    the number of STARS corresponding to the first stat of the location. The pawns are moved
    in order from lane 1 to 4. Then do the same for the second stat [...] If a car does not
    reach the finish line when all 4 location stats have been visited, continue using the
    first location card, as though you're doing laps." Stops to ask a NOZ question; True when
    the race is over."""
    race = t.s["race"]
    t.s["phase"] = RACE_CAR
    reveal_spot(t, 0)
    stats = segments(t)
    while len(race["finished"]) < len(race["order"]):
        index = race["step"] % len(stats)
        if index == 2:
            reveal_spot(t, 1)
        if race["lane"] >= len(race["order"]):
            race["step"] += 1
            race["lane"] = 0
            continue
        player = race["order"][race["lane"]]
        if player not in race["finished"]:
            move(t, player, stats[index], stars(t, player, stats[index]))
            if offer_noz(t, player):
                return False
        race["lane"] += 1
    end_race(t)
    return True


def move(t: Table, player: str, stat: str, spaces: int) -> None:
    """Move a pawn; "When a car reaches the finish line of the chosen class, place the pawn on
    the position on which it came in at" (earlier lanes first: §3.22)."""
    race = t.s["race"]
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
    t.emit("moved", player=player, stat=stat, spaces=spaces, to=start + spaces)
    if race["pos"][player] >= t.s["finish_line"]:
        race["finished"].append(player)
        t.emit("finished", player=player, place=len(race["finished"]))


def offer_noz(t: Table, player: str) -> bool:
    """ "After you move your car, you may choose to use & discard a NOZ card attached to it to
    move an extra 3 spaces" (§3.16). The racer's standing policy answers unless it is "ask"
    (never with Hidden Upgrades: ``noz_policies``); True when the race must wait for the
    racer's answer."""
    race = t.s["race"]
    if player in race["finished"] or noz_card(t, player) is None:
        return False
    policy = t.seat(player)["noz_policy"]
    if policy == "never":
        return False
    if policy == "first chance":
        fire_noz(t, player)
        return False
    race["asking"] = player
    t.s["phase"] = NOZ
    return True


def fire_noz(t: Table, player: str) -> None:
    card = noz_card(t, player)
    assert card is not None
    car = t.find_car(player, t.s["race"]["cars"][player])
    assert car is not None
    car["upgrades"].remove(card)
    t.s["junk"].append(card)
    t.emit("noz", player=player)
    move(t, player, "NOZ", NOZ_SPACES)


def answer_noz(t: Table, player: str, use: bool) -> bool:
    """The asked racer's answer; the race goes on. True when it is over."""
    race = t.s["race"]
    race["asking"] = None
    if use:
        fire_noz(t, player)
    race["lane"] += 1
    return run_race(t)


def end_race(t: Table) -> None:
    """Rulebook, End of Race: prizes from the second location card, a trophy per place, and
    "If there is a RED stat icon on that location card, the player who came in 1st discards
    an upgrade of that stat from the car used in the race, (however, this does not apply to
    CREW cards.)" Racers take the prizes of the places they reach (§3.23)."""
    race = t.s["race"]
    prize_card = LOCATIONS[t.s["spots"][1]["card"]]
    places = []
    for place, player in enumerate(race["finished"], 1):
        prize = prize_card.prizes[len(prize_card.prizes) - place]
        trophy = TROPHIES[place - 1]
        seat = t.seat(player)
        seat["credits"] += prize
        seat["trophies"][trophy] += 1
        places.append({"player": player, "place": place, "credits": prize, "trophy": trophy})
    t.emit("results", places=places, location=prize_card.id)
    winner = race["finished"][0]
    if prize_card.red is not None:
        penalise(t, winner, prize_card.red)
    t.s["last_race"] = {
        "round": t.s["round"],
        "cls": t.s["race_class"],
        "finish_line": t.s["finish_line"],
        "order": race["order"],
        "cars": race["cars"],
        "locations": [spot["card"] for spot in t.s["spots"]],
        "log": race["log"],
        "places": places,
    }
    t.s["race"] = None
    trade_up_all(t)
    t.emit("race_over", round=t.s["round"])
    golds = [p for p in t.players if t.seat(p)["trophies"]["gold"] >= t.golds_to_win()]
    if t.s["championship"] or (golds and t.options["shorter_game"]):
        t.finish("championship" if t.s["championship"] else "golds")
        return
    if golds:
        t.s["championship_next"] = True
        t.emit("championship_next", players=golds)


def penalise(t: Table, winner: str, stat: str) -> None:
    """The winner's part of the red stat on the racing car goes to the junk yard; never crew,
    never NOZ (§3.24)."""
    car = t.find_car(winner, t.s["race"]["cars"][winner])
    assert car is not None
    part = next(
        (c for c in car["upgrades"] if upgrade_of(c).kind == "part" and upgrade_of(c).stat == stat),
        None,
    )
    if part is not None:
        car["upgrades"].remove(part)
        t.s["junk"].append(part)
    t.emit("penalty", player=winner, stat=stat, card=part)


def trade_up_all(t: Table) -> None:
    for player in t.players:
        trade_up(t, player)


def trade_up(t: Table, player: str) -> None:
    """Rulebook, Trade Up: "2x Fourth place into 1 Bronze, 2x Bronze into 1 Silver, 2x Silver
    into 1 Gold. You don't trade up to get your 7th Gold trophy. You MUST win that one by
    racing. You can for your 8th gold." Done automatically (§3.25); while a player holds
    exactly one gold less than the target, silver -> gold waits (§3.26)."""
    trophies = t.seat(player)["trophies"]
    lock = t.golds_to_win() - 1
    changed = True
    while changed:
        changed = False
        for low, high in zip(TROPHIES[::-1], TROPHIES[-2::-1], strict=False):
            if trophies[low] < 2 or (high == "gold" and trophies["gold"] == lock):
                continue
            trophies[low] -= 2
            trophies[high] += 1
            t.emit("traded_up", player=player, gave=low, got=high)
            changed = True
