"""Street Kings in words: event sentences, action labels, the hand, a rules summary.

Money is counted in thousands, as on the rulebook's credit track: "3k" is 3000 credits. A race is
many pawn steps; it is told by what players care about (the cars entered, the locations revealed,
the NOZ fired, who crosses the line, the prizes), never step by step: the board shows the pawns.
"""

from __future__ import annotations

from typing import Any

from bot.words.common import join_names, name_of
from rules.street_kings.data import CARS, LOCATIONS, STAT_NAMES, upgrade_of
from rules.street_kings.table import classify_finish

RULES = """\
**Street Kings** — 2 to 4 players. Buy, upgrade and race cars; win gold trophies. \
Money is in thousands: 3k = 3000 credits.
**Setup:** two D cars and 2k each, 3 location cards in hand, 3 C cars at the dealership, \
players + 1 upgrades in the shop.
**Each round:**
1. The first player chooses the race class (`/kings class`: D, C, B or A) — only a class \
they own a car of. You may race a car of that class or one class below.
2. **Actions**, one per turn, round the table until everyone has qualified or passed:
• `/kings shop` — sell any upgrades and crew (half their price, rounded up), then buy **one** \
upgrade for a car: one upgrade per colour per car; crew stay with you and join every race.
• `/kings dealer` — sell one car with its upgrades (half, rounded up), then buy one car **one \
class above** a car you own. Buying the first C car shows the B cars, the first B shows the A.
• `/kings show` — park a car at the car show for the round: earn its beauty plus its upgrades' \
(3k+1k+1k+1k+0 = 6k). Parked cars cannot race or be upgraded.
• `/kings location` — draw a location card, then place one from your hand face down on an \
empty spot (1 or 2).
• `/kings qualify` — take a free lane 1–4 (lane order is move order); you keep taking actions.
• `/kings pass` — you are out of this round's actions (you still race if you qualified).
3. **Race:** empty spots get cards from the deck; each racer picks a car (`/kings race`). \
Pawns move by the stars of location 1's first stat, then its second, in lane order, then \
location 2, and lap again until all finish. After your move you may fire a **NOZ** for +3 \
spaces (`/kings noz`: ask, first chance or never). Prizes come from the **second** location \
only; its red stat makes the winner discard a part of that stat (never crew or NOZ).
4. **Clean-up:** trophies trade up (2 fourth → bronze, 2 bronze → silver, 2 silver → gold), \
the shop is refreshed, the dealership refilled, the first player passes left.
**The end:** the 7th gold must be won by racing; it brings one **championship** round (A cars \
only, random track, sell any number of cars, the shop restocks). Most gold wins; ties go to \
silver, bronze, fourth, then credits.
**Options** (`/game new options:`): custom_finish_line, no_crew, no_noz, hidden_upgrades, \
shorter_game (5 golds, no championship), super_store, infinite_actions, elite_class, round_cap. \
Betting is not offered: the rulebook gives it no stakes or limits.
Play with `/kings …` or the **My hand** button under the board."""

PLAYERS = "2–4 players"

#: One sentence per option of ``STREET_KINGS.default_options``: what it changes.
OPTIONS: dict[str, str] = {
    "custom_finish_line": (
        "The first player puts the finish line on any space 1–24 whose nearest class letter is "
        "a class they own; that letter sets the race class."
    ),
    "no_crew": "No crew cards in the upgrade deck.",
    "no_noz": "No NOZ cards in the upgrade deck.",
    "hidden_upgrades": (
        "Upgrades on other players' cars are hidden; only their number shows. A race never "
        "stops to ask about a NOZ: your NOZ policy (first chance or never) answers."
    ),
    "shorter_game": (
        "Start with a D and a C car, each with a random upgrade; the first to race a 5th gold "
        "wins, with no championship."
    ),
    "super_store": "Each upgrade bought at the shop is replaced at once from the deck.",
    "infinite_actions": "The action phase goes on, even once everyone qualified, until all pass.",
    "elite_class": (
        "Start with one car of each class, each upgraded, and 5k; the class cycles D, C, B, A "
        "by itself."
    ),
    "round_cap": "A safety net: the game ends after this many rounds (default 100).",
}

TROPHY_NAMES = {"gold": "gold", "silver": "silver", "bronze": "bronze", "fourth": "fourth-place"}
PLACES = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
POLICY_MEANING = {
    "ask": "ask me each time",
    "first chance": "fire at the first chance",
    "never": "never fire",
}
DECKS = {"locations": "location cards", "upgrades": "upgrades of the junk yard"}
#: Events that belong to a shop or dealership visit, told in the visit's one sentence.
VISIT_PARTS = ("sold_upgrade", "sold_car", "sale", "bought_upgrade", "bought_car", "bought_nothing")


def money(k: int) -> str:
    return f"{k}k"


def car_label(car: str) -> str:
    """A car's name and class, e.g. "Grey Hatch (D)"."""
    return f"{CARS[car].name} ({CARS[car].cls})"


def stat_name(stat: str) -> str:
    return STAT_NAMES.get(stat, stat)


def upgrade_effect(card: str) -> str:
    info = upgrade_of(card)
    if info.kind == "noz":
        return "+3 spaces once"
    return f"+{info.stars} {stat_name(info.stat or '')}"


def upgrade_label(card: str) -> str:
    """An upgrade with what it does and costs, e.g. "Engine Tune I (+1 Top Speed, 2k)"."""
    info = upgrade_of(card)
    return f"{info.name} ({upgrade_effect(card)}, {money(info.price)})"


def location_label(card: str) -> str:
    """A location with its two stats in order and its red stat, e.g. "Tunnel Exit: AC → BR"."""
    info = LOCATIONS[card]
    red = f", red {info.red}" if info.red else ""
    return f"{info.name}: {info.first} → {info.second}{red}"


def location_sentence(card: str) -> str:
    info = LOCATIONS[card]
    red = f"; red {stat_name(info.red)}" if info.red else ""
    prizes = "/".join(money(p) for p in reversed(info.prizes))
    return (
        f"**{info.name}** — {stat_name(info.first)}, then {stat_name(info.second)}"
        f"{red}; prizes 1st–4th {prizes}"
    )


# -- events -------------------------------------------------------------------------------------


def describe(events: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
    """One sentence per event worth telling; a shop or dealership visit is one sentence, and a
    race is told by its cars, locations, NOZ, finishes and prizes, not pawn step by step."""
    lines: list[str] = []
    visit: dict[str, Any] | None = None
    positions: dict[str, int] = {}
    for event in events:
        kind = event["type"]
        if kind in ("shop", "dealer") or (kind in VISIT_PARTS and visit is None):
            if visit is not None:
                lines.append(_visit_sentence(visit, names))
            visit = {"player": event["player"], "place": kind, "parts": []}
            if kind in ("shop", "dealer"):
                continue
        if kind in VISIT_PARTS and visit is not None:
            visit["parts"].append(event)
            continue
        if visit is not None:
            lines.append(_visit_sentence(visit, names))
            visit = None
        if kind == "moved":
            positions[event["player"]] = event["to"]
            continue
        if kind in ("finished", "results"):
            positions.clear()
        line = _describe_one(event, names)
        if line:
            lines.append(line)
    if visit is not None:
        lines.append(_visit_sentence(visit, names))
    if positions:  # the race stopped for a question: say where the pawns are
        where = ", ".join(f"{name_of(names, p)} on space {n}" for p, n in positions.items())
        lines.append(f"The race so far: {where}.")
    return lines


def _visit_sentence(visit: dict[str, Any], names: dict[str, str]) -> str:
    """ "**Ana** went to the shop: sold Engine Tune I for 1k; bought Turbo Kit II for Grey
    Hatch (4k)." """
    place = "the shop" if visit["place"] == "shop" else "the dealership"
    if visit["place"] in VISIT_PARTS:  # the visit began in an earlier message
        place = "the dealership" if visit["place"] in ("sold_car", "bought_car") else "the shop"
    sold: list[str] = []
    deals: list[str] = []
    for part in visit["parts"]:
        kind = part["type"]
        if kind == "sold_upgrade":
            sold.append(upgrade_of(part["card"]).name)
        elif kind == "sold_car":
            extra = f" with {part['upgrades']} upgrade(s)" if part["upgrades"] else ""
            sold.append(f"{car_label(part['car'])}{extra}")
        elif kind == "sale":
            what = f" {join_names(sold)}" if sold else ""
            deals.append(f"sold{what} for {money(part['credits'])}")
            sold = []
        elif kind == "bought_upgrade":
            deals.append(_bought_upgrade(part))
        elif kind == "bought_car":
            deals.append(f"bought {car_label(part['car'])} for {money(part['price'])}")
        elif kind == "bought_nothing":
            deals.append("bought nothing")
    if sold:
        deals.append(f"sold {join_names(sold)}")
    who = name_of(names, visit["player"])
    if not deals:
        return f"{who} goes to {place}."
    return f"{who} went to {place}: {'; '.join(deals)}."


def _bought_upgrade(event: dict[str, Any]) -> str:
    card, price = event["card"], money(event["price"])
    info = upgrade_of(card)
    if info.kind == "crew":
        return f"hired {info.name} ({upgrade_effect(card)}) for {price}"
    if event["car"] is None:  # Hidden Upgrades: which car is secret
        return f"bought {info.name} for {price} and fitted it out of sight"
    return f"bought {info.name} ({upgrade_effect(card)}) for {CARS[event['car']].name} ({price})"


def _describe_one(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    if kind == "round":
        return f"**Round {event['round']}** — {name_of(names, event['first'])} is first player."
    if kind == "class_chosen":
        race = f"a **{event['cls']}** race (finish line on space {event['finish_line']})"
        if event["player"] is None:
            return f"This round is {race}."
        return f"{who} chooses {race}."
    if kind == "championship":
        return "🏆 **Championship round!** A cars only, on a random track; no location cards."
    if kind == "championship_next":
        players = join_names([name_of(names, p) for p in event["players"]])
        return f"{players} raced to the winning gold: the next round is the **championship**."
    if kind == "passed":
        return f"{who} passes{' (nothing else to do)' if event['forced'] else ''}."
    if kind == "qualified":
        return f"{who} qualifies in lane {event['lane']}."
    if kind == "car_show":
        return (
            f"{who} shows their {car_label(event['car'])} at the car show: "
            f"+{money(event['credits'])}."
        )
    if kind == "location_drawn":
        if not event["drew"]:
            return f"{who} finds no location card to draw."
        return f"{who} draws a location card."
    if kind == "location_placed":
        return f"{who} places a location card face down on spot {event['spot']}."
    if kind == "noz_policy":
        return f"{who} sets their NOZ policy to “{event['policy']}”."
    if kind == "dealership_revealed":
        cars = join_names([CARS[car].name for car in event["cars"]])
        return f"New at the dealership ({event['cls']} cars): {cars}."
    if kind == "shop_restocked":
        return f"The shop restocks: {upgrade_label(event['card'])}."
    if kind == "reshuffled":
        deck = DECKS.get(event["deck"], event["deck"])
        return f"The discarded {deck} are shuffled into a new deck."
    return _describe_race(event, names)


def _describe_race(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    if kind == "no_race":
        return "Nobody qualified: no race this round."
    if kind == "race_setup":
        return "🚦 **Race time!** The racers choose their cars."
    if kind == "entered":
        crew = f" with {event['crew']} crew" if event["crew"] else ""
        return f"{who} races the {car_label(event['car'])}{crew}."
    if kind == "location_revealed":
        return f"Location {event['spot']}: {location_sentence(event['card'])}."
    if kind == "noz":
        return f"{who} fires a NOZ: 3 spaces more!"
    if kind == "finished":
        return f"🏁 {who} crosses the line **{PLACES.get(event['place'], event['place'])}**."
    if kind == "results":
        places = ", ".join(
            f"{PLACES.get(p['place'], p['place'])} {name_of(names, p['player'])} "
            f"({TROPHY_NAMES[p['trophy']]}, +{money(p['credits'])})"
            for p in event["places"]
        )
        return f"Prizes of {LOCATIONS[event['location']].name}: {places}."
    if kind == "penalty":
        stat = stat_name(event["stat"])
        if event["card"] is None:
            return f"The red {stat} costs {who} nothing: no {stat} part on that car."
        return f"The red {stat} costs {who} their {upgrade_of(event['card']).name}."
    if kind == "traded_up":
        return (
            f"{who} trades two {TROPHY_NAMES[event['gave']]} trophies for a "
            f"{TROPHY_NAMES[event['got']]}."
        )
    if kind == "game_over":
        return _game_over(event, names)
    return ""  # "race_over", the pawn steps and "turn" (a new post) are shown by the board


def _game_over(event: dict[str, Any], names: dict[str, str]) -> str:
    winners = join_names([name_of(names, p) for p in event["winners"]])
    golds = max(event["scores"].values(), default=0)
    title = "the Street King" if len(event["winners"]) == 1 else "the Street Kings"
    why = " The round cap is reached." if event["ended_by"] == "round_cap" else ""
    return f"🏁 **Game over!**{why} {winners}: {title}, with {golds} gold."


# -- actions ------------------------------------------------------------------------------------


def action_label(action: dict[str, Any], names: dict[str, str]) -> str:
    """A label of at most 80 characters for each legal action."""
    return _label(action)[:80]


def _label(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "class":
        return f"Race class {action['class']} (you may race {action['class']} or one below)"
    if kind == "finish_line":
        return f"Finish line on space {action['space']} ({classify_finish(action['space'])} race)"
    if kind == "sell":
        info = upgrade_of(action["card"])
        return f"Sell {info.name} (half of {money(info.price)})"
    if kind == "buy":
        car = f" for {CARS[action['car']].name}" if action.get("car") else " (crew)"
        return f"Buy {upgrade_label(action['card'])}{car}"
    if kind == "sell_car":
        return f"Sell {car_label(action['car'])} with its upgrades"
    if kind == "buy_car":
        return f"Buy {car_label(action['car'])} for {money(CARS[action['car']].price)}"
    if kind == "show":
        return f"Car show: {car_label(action['car'])}"
    if kind == "place":
        return f"Place {location_label(action['card'])} on spot {action['spot']}"
    if kind == "qualify":
        return f"Qualify in lane {action['lane']}"
    if kind == "race":
        return f"Race {car_label(action['car'])}"
    if kind == "noz":
        return "Fire NOZ now (+3 spaces)" if action["use"] else "Keep the NOZ for later"
    if kind == "noz_policy":
        return f"NOZ policy: {action['policy']} ({POLICY_MEANING[action['policy']]})"
    if kind == "narrow":  # a long shop list, first narrowed to a car, the crew or a shop card
        target = action["to"]
        if target == "crew":
            return "Sell crew…"
        if target in CARS:
            return f"Sell from {car_label(target)}…"
        return f"Buy {upgrade_label(target)}…"
    return FIXED_LABELS.get(kind, kind)


FIXED_LABELS = {
    "shop": "Go to the shop (sell upgrades, buy one)",
    "dealer": "Go to the dealership (sell a car, buy one)",
    "location": "Draw a location card and place one",
    "pass": "Pass (no more actions this round)",
    "done_selling": "Done selling",
    "buy_nothing": "Buy nothing",
}


# -- the hand -----------------------------------------------------------------------------------


def question(view: dict[str, Any]) -> str | None:
    """The turn post's button when a race asks a player on ``ask`` whether to fire their NOZ."""
    race = view.get("race") or {}
    return "Fire your NOZ?" if race.get("asking") else None


def hand_text(view: dict[str, Any]) -> str:
    """The viewer's location cards, cars with upgrades, credits, crew, trophies, NOZ policy."""
    hand = view.get("hand")
    me = next((p for p in view.get("players", []) if p["id"] == view.get("viewer")), None)
    if hand is None or me is None:
        return "You are watching: you hold nothing in this game."
    cards = "; ".join(location_label(card) for card in hand) or "none"
    lines = [
        f"**Credits:** {money(me['credits'])} · **Trophies:** {_trophies(me['trophies'])}",
        f"**Location cards:** {cards}",
        "**Cars:**",
        *(f"• {_car_line(car)}" for car in me["cars"]),
    ]
    if not me["cars"]:
        lines.append("• none")
    if me["crew"]:
        lines.append("**Crew:** " + ", ".join(upgrade_label(card) for card in me["crew"]))
    policy = me["noz_policy"]
    lines.append(f"**NOZ policy:** {policy} ({POLICY_MEANING[policy]})")
    if me["lane"] is not None:
        lines.append(f"You have qualified in lane {me['lane']}.")
    return "\n".join(lines)


def _trophies(trophies: dict[str, int]) -> str:
    held = [f"{n} {TROPHY_NAMES[t]}" for t, n in trophies.items() if n]
    return ", ".join(held) or "none"


def _car_line(car: dict[str, Any]) -> str:
    info = CARS[car["id"]]
    stars = " ".join(f"{stat} {n}" for stat, n in info.stars.items())
    upgrades = car["upgrades"] or []
    fitted = ", ".join(f"{upgrade_of(c).name} ({upgrade_effect(c)})" for c in upgrades) or "stock"
    parked = " — at the car show" if car["at_show"] else ""
    return f"{car_label(car['id'])}, beauty {money(info.beauty)}: {stars}; {fitted}{parked}"
