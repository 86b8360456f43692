"""Street Kings in words: event sentences, action labels, the private panel, a rules summary."""

from __future__ import annotations

from typing import Any

from bot.words.common import join_names, name_of
from rules.street_kings.data import CARS, LOCATIONS, STAT_NAMES, upgrade_of

RULES = """\
**Street Kings** — 2 to 4 players. Race your cars to win **gold trophies**.
Each round: the first player chooses the race class (a class of a car they own). Then, in turn, \
each player takes **one action** until everyone has qualified or passed:
• **Shop** (`/kings shop`): sell upgrades/crew (half price, rounded up), then buy one upgrade \
for a car (one per colour per car; crew wait beside you).
• **Dealership** (`/kings dealer`): sell a car with its upgrades for half, then buy a car one \
class above one you own.
• **Car show** (`/kings show`): earn the beauty of a car and its upgrades; it stays there all round.
• **Location** (`/kings location`): draw a location card and place one face down on an empty spot.
• **Qualify** (`/kings qualify`): take a free lane; lane 1 moves first. • **Pass** (`/kings pass`).
**Race**: each racer picks a car of the class or one below (`/kings race`), crew join it. Cars \
move by their stars for each stat of location 1, then location 2, lane by lane, in laps until \
all finish. NOZ: +3 spaces once, right after your move (`/kings noz` sets ask / first chance / \
never). Location 2 pays the prizes; its red stat costs the winner that part.
Trophies trade up (2 fourth → bronze, 2 bronze → silver, 2 silver → gold), but the **7th gold** \
must be won racing. It triggers a final **championship** (class A only). Most gold wins; ties: \
silver, bronze, fourth, credits.
Variants (`/game new options:`): shorter_game, elite_class, custom_finish_line, no_crew, no_noz, \
hidden_upgrades, super_store, infinite_actions."""

PLAYERS = "2–4 players"


def money(k: int) -> str:
    return f"{k * 1000:,} cr"


def car_name(car_id: str) -> str:
    return f"{CARS[car_id].name} ({CARS[car_id].cls})"


def card_name(card: str) -> str:
    return upgrade_of(card).name


def stars_text(card: str) -> str:
    info = upgrade_of(card)
    if info.kind == "noz":
        return "+3 spaces once"
    return f"+{info.stars} {info.stat}"


def describe(events: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
    """One line per event worth telling; a race's moves are summed up by its result (the board
    image shows them step by step)."""
    lines = [_line(event, names) for event in events]
    return [line for line in lines if line]


def _line(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    if kind == "round":
        return f"🏁 **Round {event['round']}** — first player {name_of(names, event['first'])}."
    if kind == "class_chosen":
        chooser = f"{who} chose a" if event["player"] else "A"
        return f"{chooser} **{event['cls']} class** race (finish line on {event['finish_line']})."
    if kind == "championship":
        return "🏆 **Championship round!** Class A only; the track is two random locations."
    if kind == "passed":
        return f"{who} passed{' (nothing else to do)' if event['forced'] else ''}."
    if kind == "qualified":
        return f"{who} qualified in lane {event['lane']}."
    if kind == "car_show":
        return (
            f"{who} took the {car_name(event['car'])} to the car show: +{money(event['credits'])}."
        )
    if kind == "shop":
        return f"{who} went to the shop."
    if kind == "dealer":
        return f"{who} went to the dealership."
    if kind == "location_drawn":
        return f"{who} drew a location card." if event["drew"] else ""
    if kind == "location_placed":
        return f"{who} placed a location card face down on spot {event['spot']}."
    if kind == "sold_upgrade":
        return f"{who} sold {card_name(event['card'])}."
    if kind == "sale":
        return f"{who} got {money(event['credits'])} for the sale."
    if kind == "bought_upgrade":
        where = f" for the {car_name(event['car'])}" if event["car"] else ""
        return f"{who} bought {card_name(event['card'])}{where} ({money(event['price'])})."
    if kind == "sold_car":
        return f"{who} sold the {car_name(event['car'])}."
    if kind == "bought_car":
        return f"{who} bought the {car_name(event['car'])} ({money(event['price'])})."
    if kind == "bought_nothing":
        return f"{who} bought nothing."
    if kind == "entered":
        crew = f" with {event['crew']} crew" if event["crew"] else ""
        return f"{who} races the {car_name(event['car'])}{crew}."
    if kind == "location_revealed":
        info = LOCATIONS[event["card"]]
        red = f", red {STAT_NAMES[info.red]}" if info.red else ""
        return (
            f"Location {event['spot']}: **{info.name}** "
            f"({STAT_NAMES[info.first]} → {STAT_NAMES[info.second]}{red})."
        )
    if kind == "noz":
        return f"{who} fired a NOZ: +3 spaces!"
    if kind == "noz_policy":
        return f"{who}'s NOZ policy is now “{event['policy']}”."
    if kind == "results":
        places = [
            f"{p['place']}. {name_of(names, p['player'])} {p['trophy']} +{money(p['credits'])}"
            for p in event["places"]
        ]
        return "🏁 Race result: " + " · ".join(places)
    if kind == "penalty":
        lost = card_name(event["card"]) if event["card"] else "nothing (no such part)"
        return f"Red {STAT_NAMES[event['stat']]}: winner {who} loses {lost}."
    if kind == "traded_up":
        return f"{who} traded 2 {event['gave']} for 1 {event['got']}."
    if kind == "championship_next":
        players = join_names([name_of(names, p) for p in event["players"]])
        return f"{players} won a 7th gold: the championship round comes next!"
    if kind == "no_race":
        return "Nobody qualified: no race this round."
    if kind == "game_over":
        winners = join_names([name_of(names, p) for p in event["winners"]])
        verb = "is" if len(event["winners"]) == 1 else "are"
        return f"👑 Game over! {winners} {verb} the Street King."
    return ""


POLICY_LABELS = {
    "ask": "NOZ: ask me each time",
    "first chance": "NOZ: fire at the first chance",
    "never": "NOZ: never fire",
}


def action_label(action: dict[str, Any], names: dict[str, str]) -> str:
    kind = action["type"]
    if kind == "class":
        return f"{action['class']} class race"
    if kind == "finish_line":
        from rules.street_kings.table import classify_finish

        return f"Finish line on space {action['space']} ({classify_finish(action['space'])} race)"
    if kind == "shop":
        return "Go to the shop"
    if kind == "dealer":
        return "Go to the dealership"
    if kind == "show":
        return f"Car show: {car_name(action['car'])}"
    if kind == "location":
        return "Choose a racing location"
    if kind == "place":
        info = LOCATIONS[action["card"]]
        return f"Place {info.name} ({info.first}→{info.second}) on spot {action['spot']}"
    if kind == "qualify":
        return f"Qualify in lane {action['lane']}"
    if kind == "pass":
        return "Pass"
    if kind == "sell":
        info = upgrade_of(action["card"])
        return f"Sell {info.name} ({money(info.price)} value)"
    if kind == "narrow":
        target = action["to"]
        if target == "crew":
            return "Fire a crew member…"
        if target in CARS:
            return f"Sell a part of the {car_name(target)}…"
        return f"Buy {upgrade_of(target).name}…"
    if kind == "done_selling":
        return "Done selling"
    if kind == "buy":
        info = upgrade_of(action["card"])
        target = f" for {CARS[action['car']].name}" if "car" in action else ""
        return f"Buy {info.name} {stars_text(action['card'])}{target} ({money(info.price)})"
    if kind == "buy_nothing":
        return "Buy nothing"
    if kind == "sell_car":
        return f"Sell {car_name(action['car'])} with its upgrades"
    if kind == "buy_car":
        return f"Buy {car_name(action['car'])} ({money(CARS[action['car']].price)})"
    if kind == "race":
        return f"Race the {car_name(action['car'])}"
    if kind == "noz":
        return "Fire NOZ now (+3)" if action["use"] else "Keep the NOZ"
    if kind == "noz_policy":
        return POLICY_LABELS[action["policy"]]
    return kind


def hand_text(view: dict[str, Any]) -> str:
    """The viewer's location cards, credits, trophies and cars."""
    me = next((p for p in view["players"] if p["id"] == view.get("viewer")), None)
    if me is None or "hand" not in view:
        return "You are watching: you hold no cards in this game."
    cards = [
        f"{LOCATIONS[c].name} ({LOCATIONS[c].first}→{LOCATIONS[c].second}"
        f"{', red ' + str(LOCATIONS[c].red) if LOCATIONS[c].red else ''}, "
        f"1st {money(LOCATIONS[c].prizes[-1])})"
        for c in view["hand"]
    ]
    cars = []
    for car in me["cars"]:
        parts = ", ".join(card_name(c) for c in car["upgrades"] or []) or "no upgrades"
        parked = " — at the car show" if car["at_show"] else ""
        cars.append(f"{car_name(car['id'])}: {parts}{parked}")
    trophies = ", ".join(f"{n} {t}" for t, n in me["trophies"].items() if n) or "none"
    lines = [
        f"**Credits:** {money(me['credits'])} · **Trophies:** {trophies}",
        "**Your cars:** " + ("; ".join(cars) or "none"),
        "**Your location cards:** " + ("; ".join(cards) or "none"),
        f"**NOZ policy:** {me['noz_policy']}",
    ]
    mine = [s for s in view["spots"] if s["by"] == me["id"] and s["card"] and not s["revealed"]]
    if mine:
        lines.append("**Placed face down:** " + ", ".join(LOCATIONS[s["card"]].name for s in mine))
    return "Your hand:\n" + "\n".join(lines)
