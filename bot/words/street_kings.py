"""Street Kings in words: event sentences, action labels, the hand, a rules summary.

Money is counted in thousands, as on the rulebook's credit track: "3k" is 3000 credits. A race is
many pawn steps; it is told by what players care about (the cars entered, the locations revealed,
the NOZ fired, who crosses the line, the prizes), never step by step: the board shows the pawns.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, _, _n
from bot.words.common import join_names, name_of
from rules.street_kings.data import CARS, LOCATIONS, STAT_NAMES, upgrade_of
from rules.street_kings.table import classify_finish

RULES = N_("""\
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
Play with `/kings …` or the **My hand** button under the board.""")

PLAYERS = N_("2–4 players")

#: One sentence per option of ``STREET_KINGS.default_options``: what it changes.
OPTIONS: dict[str, str] = {
    "custom_finish_line": N_(
        "The first player puts the finish line on any space 1–24 whose nearest class letter is "
        "a class they own; that letter sets the race class."
    ),
    "no_crew": N_("No crew cards in the upgrade deck."),
    "no_noz": N_("No NOZ cards in the upgrade deck."),
    "hidden_upgrades": N_(
        "Upgrades on other players' cars are hidden; only their number shows. A race never "
        "stops to ask about a NOZ: your NOZ policy (first chance or never) answers."
    ),
    "shorter_game": N_(
        "Start with a D and a C car, each with a random upgrade; the first to race a 5th gold "
        "wins, with no championship."
    ),
    "super_store": N_("Each upgrade bought at the shop is replaced at once from the deck."),
    "infinite_actions": N_(
        "The action phase goes on, even once everyone qualified, until all pass."
    ),
    "elite_class": N_(
        "Start with one car of each class, each upgraded, and 5k; the class cycles D, C, B, A "
        "by itself."
    ),
    "round_cap": N_("A safety net: the game ends after this many rounds (default 100)."),
}

TROPHY_NAMES = {
    "gold": N_("gold"),
    "silver": N_("silver"),
    "bronze": N_("bronze"),
    "fourth": N_("fourth-place"),
}
#: Two trophies traded for a better one, a sentence per kind given (its plural differs).
TRADES = {
    "fourth": N_("{who} trades two fourth-place trophies for a {got}."),
    "bronze": N_("{who} trades two bronze trophies for a {got}."),
    "silver": N_("{who} trades two silver trophies for a {got}."),
}
PLACES = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("4th")}
POLICY_MEANING = {
    "ask": N_("ask me each time"),
    "first chance": N_("fire at the first chance"),
    "never": N_("never fire"),
}
#: A NOZ policy's name as players choose it.
POLICY_NAMES = {"ask": N_("ask"), "first chance": N_("first chance"), "never": N_("never")}
DECKS = {"locations": N_("location cards"), "upgrades": N_("upgrades of the junk yard")}
#: Events that belong to a shop or dealership visit, told in the visit's one sentence.
VISIT_PARTS = ("sold_upgrade", "sold_car", "sale", "bought_upgrade", "bought_car", "bought_nothing")


def money(k: int) -> str:
    return f"{k}k"


def trophy(kind: str) -> str:
    return _(TROPHY_NAMES[kind])


def place_name(place: int) -> str:
    return _(PLACES[place]) if place in PLACES else str(place)


def policy_text(policy: str) -> str:
    """A NOZ policy with what it means: "never (never fire)"."""
    return _("{policy} ({meaning})").format(
        policy=_(POLICY_NAMES.get(policy, policy)), meaning=_(POLICY_MEANING[policy])
    )


def car_label(car: str) -> str:
    """A car's name and class, e.g. "Grey Hatch (D)"."""
    return f"{CARS[car].name} ({CARS[car].cls})"


def stat_name(stat: str) -> str:
    return _(STAT_NAMES[stat]) if stat in STAT_NAMES else stat


#: Each stat's letters in the player's language (the rules' keys are English letters).
STAT_LETTERS = {"TS": N_("TS"), "AC": N_("AC"), "HA": N_("HA"), "BR": N_("BR")}


def stat_letters(stat: str) -> str:
    return _(STAT_LETTERS[stat]) if stat in STAT_LETTERS else stat


def upgrade_name(card: str) -> str:
    """An upgrade's name in the player's language: a crew member's is "Crew: <name>" said
    once, in that language (the data's English prefix never leaks)."""
    info = upgrade_of(card)
    if info.kind == "crew":
        return _("Crew: {crew}").format(crew=info.name.removeprefix("Crew: "))
    return info.name


def short_effect(card: str) -> str:
    """What an upgrade adds, in the stat's letters ("+2 TS"), for a phone's short label."""
    info = upgrade_of(card)
    if info.kind == "noz":
        return _("+3 spaces once")
    return f"+{info.stars} {stat_letters(info.stat or '')}"


def upgrade_effect(card: str) -> str:
    info = upgrade_of(card)
    if info.kind == "noz":
        return _("+3 spaces once")
    return f"+{info.stars} {stat_name(info.stat or '')}"


def upgrade_label(card: str) -> str:
    """An upgrade with what it does and costs, e.g. "Engine Tune I (+1 Top Speed, 2k)"."""
    info = upgrade_of(card)
    return f"{upgrade_name(card)} ({upgrade_effect(card)}, {money(info.price)})"


def location_label(card: str) -> str:
    """A location with its two stats in order and its red stat, e.g. "Tunnel Exit: AC → BR"."""
    info = LOCATIONS[card]
    first, second = stat_letters(info.first), stat_letters(info.second)
    red = ", " + _("red {stat}").format(stat=stat_letters(info.red)) if info.red else ""
    return f"{info.name}: {first} → {second}{red}"


def location_sentence(card: str) -> str:
    """A revealed location, short: "**Tunnel Exit** (AC → BR, red BR · 6k/4k/3k/2k)"; the
    race's picture draws the same route."""
    info = LOCATIONS[card]
    prizes = "/".join(money(p) for p in reversed(info.prizes))
    first, second = stat_letters(info.first), stat_letters(info.second)
    if info.red:
        red = stat_letters(info.red)
        return _("**{name}** ({first} → {second}, red {red} · {prizes})").format(
            name=info.name, first=first, second=second, red=red, prizes=prizes
        )
    return _("**{name}** ({first} → {second} · {prizes})").format(
        name=info.name, first=first, second=second, prizes=prizes
    )


# -- events -------------------------------------------------------------------------------------


def describe(events: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
    """One sentence per event worth telling; a shop or dealership visit is one sentence, and a
    race is told by its cars, locations, NOZ, finishes and prizes, not pawn step by step."""
    lines: list[str] = []
    visit: dict[str, Any] | None = None
    positions: dict[str, int] = {}
    finishers: list[dict[str, Any]] = []  # told by the prizes that follow, else in one line
    placed = {e.get("player") for e in events if e["type"] == "location_placed"}
    for event in events:
        kind = event["type"]
        if kind == "finished":
            finishers.append(event)
            positions.clear()
            continue
        if finishers and kind not in RACE_TAIL:
            lines.append(_across_the_line(finishers, names))
            finishers = []
        if kind == "results":
            finishers = []
        if kind == "location_drawn" and event["drew"] and event["player"] in placed:
            continue  # the card placed says it: one line per action, not per sub-step
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
    if finishers:
        lines.append(_across_the_line(finishers, names))
    if positions:  # the race stopped for a question: say where the pawns are
        where = ", ".join(
            _("{who} on space {n}").format(who=name_of(names, p), n=n) for p, n in positions.items()
        )
        lines.append(_("The race so far: {where}.").format(where=where))
    return lines


#: What may come between the racers crossing the line and the prizes that name their places.
RACE_TAIL = frozenset({"results", "race_over", "penalty", "moved", "noz"})


def _across_the_line(finishers: list[dict[str, Any]], names: dict[str, str]) -> str:
    """The racers who crossed the line, in one line: "🏁 1st **Bo** · 2nd **Ana**"."""
    places = " · ".join(
        f"{place_name(e['place'])} {name_of(names, e['player'])}" for e in finishers
    )
    return _("🏁 Across the line: {places}.").format(places=places)


def _visit_sentence(visit: dict[str, Any], names: dict[str, str]) -> str:
    """ "**Ana** went to the shop: sold Engine Tune I for 1k; bought Turbo Kit II for Grey
    Hatch (4k)." """
    dealership = visit["place"] == "dealer"
    if visit["place"] in VISIT_PARTS:  # the visit began in an earlier message
        dealership = visit["place"] in ("sold_car", "bought_car")
    sold: list[str] = []
    deals: list[str] = []
    for part in visit["parts"]:
        kind = part["type"]
        if kind == "sold_upgrade":
            sold.append(upgrade_name(part["card"]))
        elif kind == "sold_car":
            car = car_label(part["car"])
            if part["upgrades"]:
                n = part["upgrades"]
                with_them = _n("{car} with {n} upgrade", "{car} with {n} upgrades", n)
                car = with_them.format(car=car, n=n)
            sold.append(car)
        elif kind == "sale":
            credits = money(part["credits"])
            deals.append(
                _("sold {what} for {credits}").format(what=join_names(sold), credits=credits)
                if sold
                else _("sold for {credits}").format(credits=credits)
            )
            sold = []
        elif kind == "bought_upgrade":
            deals.append(_bought_upgrade(part))
        elif kind == "bought_car":
            deals.append(
                _("bought {car} for {price}").format(
                    car=car_label(part["car"]), price=money(part["price"])
                )
            )
        elif kind == "bought_nothing":
            deals.append(_("bought nothing"))
    if sold:
        deals.append(_("sold {what}").format(what=join_names(sold)))
    who = name_of(names, visit["player"])
    if not deals:
        goes = _("{who} goes to the dealership.") if dealership else _("{who} goes to the shop.")
        return goes.format(who=who)
    went = (
        _("{who} went to the dealership: {deals}.")
        if dealership
        else _("{who} went to the shop: {deals}.")
    )
    return went.format(who=who, deals="; ".join(deals))


def _bought_upgrade(event: dict[str, Any]) -> str:
    card, price = event["card"], money(event["price"])
    info = upgrade_of(card)
    fields = {"name": upgrade_name(card), "effect": upgrade_effect(card), "price": price}
    if info.kind == "crew":
        return _("hired {name} ({effect}) for {price}").format(**fields)
    if event["car"] is None:  # Hidden Upgrades: which car is secret
        return _("bought {name} for {price} and fitted it out of sight").format(**fields)
    return _("bought {name} ({effect}) for {car} ({price})").format(
        car=CARS[event["car"]].name, **fields
    )


def _describe_one(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    if kind == "round":
        return _("**Round {n}** — {first} is first player.").format(
            n=event["round"], first=name_of(names, event["first"])
        )
    if kind == "class_chosen":
        fields = {"who": who, "cls": event["cls"], "space": event["finish_line"]}
        if event["player"] is None:
            return _("This round is a **{cls}** race (finish line on space {space}).").format(
                **fields
            )
        return _("{who} chooses a **{cls}** race (finish line on space {space}).").format(**fields)
    if kind == "championship":
        return _("🏆 **Championship round!** A cars only, on a random track; no location cards.")
    if kind == "championship_next":
        players = join_names([name_of(names, p) for p in event["players"]])
        return _(
            "{players} raced to the winning gold: the next round is the **championship**."
        ).format(players=players)
    if kind == "passed":
        passes = _("{who} passes (nothing else to do).") if event["forced"] else _("{who} passes.")
        return passes.format(who=who)
    if kind == "qualified":
        return _("{who} qualifies in lane {lane}.").format(who=who, lane=event["lane"])
    if kind == "car_show":
        return _("{who} shows their {car} at the car show: +{credits}.").format(
            who=who, car=car_label(event["car"]), credits=money(event["credits"])
        )
    if kind == "location_drawn":
        if not event["drew"]:
            return _("{who} finds no location card to draw.").format(who=who)
        return _("{who} draws a location card.").format(who=who)
    if kind == "location_placed":
        return _("{who} places a location card face down on spot {spot}.").format(
            who=who, spot=event["spot"]
        )
    if kind == "noz_policy":
        policy = _(POLICY_NAMES.get(event["policy"], event["policy"]))
        return _("{who} sets their NOZ policy to “{policy}”.").format(who=who, policy=policy)
    if kind == "dealership_revealed":
        cars = join_names([CARS[car].name for car in event["cars"]])
        return _("New at the dealership ({cls} cars): {cars}.").format(cls=event["cls"], cars=cars)
    if kind == "shop_restocked":
        return _("The shop restocks: {card}.").format(card=upgrade_label(event["card"]))
    if kind == "reshuffled":
        deck = _(DECKS[event["deck"]]) if event["deck"] in DECKS else event["deck"]
        return _("The discarded {deck} are shuffled into a new deck.").format(deck=deck)
    return _describe_race(event, names)


def _describe_race(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    if kind == "no_race":
        return _("Nobody qualified: no race this round.")
    if kind == "race_setup":
        return _("🚦 **Race time!** The racers choose their cars.")
    if kind == "entered":
        car = car_label(event["car"])
        if event["crew"]:
            return _("{who} races the {car} with {n} crew.").format(
                who=who, car=car, n=event["crew"]
            )
        return _("{who} races the {car}.").format(who=who, car=car)
    if kind == "location_revealed":
        return _("Location {spot}: {location}.").format(
            spot=event["spot"], location=location_sentence(event["card"])
        )
    if kind == "noz":
        return _("{who} fires a NOZ: 3 spaces more!").format(who=who)
    if kind == "finished":
        return _("🏁 {who} crosses the line **{place}**.").format(
            who=who, place=place_name(event["place"])
        )
    if kind == "results":  # the places, so the racers' crossing needs no line of its own
        places = ", ".join(
            _("{place} {who} ({trophy}, +{credits})").format(
                place=place_name(p["place"]),
                who=name_of(names, p["player"]),
                trophy=trophy(p["trophy"]),
                credits=money(p["credits"]),
            )
            for p in event["places"]
        )
        return _("🏁 Prizes of {location}: {places}.").format(
            location=LOCATIONS[event["location"]].name, places=places
        )
    if kind == "penalty":
        stat = stat_name(event["stat"])
        if event["card"] is None:
            return _("The red {stat} costs {who} nothing: no {stat} part on that car.").format(
                stat=stat, who=who
            )
        return _("The red {stat} costs {who} their {card}.").format(
            stat=stat, who=who, card=upgrade_name(event["card"])
        )
    if kind == "traded_up":
        return _(TRADES[event["gave"]]).format(who=who, got=trophy(event["got"]))
    if kind == "game_over":
        return _game_over(event, names)
    return ""  # "race_over", the pawn steps and "turn" (a new post) are shown by the board


def _game_over(event: dict[str, Any], names: dict[str, str]) -> str:
    winners = join_names([name_of(names, p) for p in event["winners"]])
    golds = max(event["scores"].values(), default=0)
    line = _n(
        "{winners}: the Street King, with {golds} gold.",
        "{winners}: the Street Kings, with {golds} gold.",
        len(event["winners"]),
    ).format(winners=winners, golds=golds)
    why = " " + _("The round cap is reached.") if event["ended_by"] == "round_cap" else ""
    return _("🏁 **Game over!**") + f"{why} {line}"


# -- actions ------------------------------------------------------------------------------------


def action_label(action: dict[str, Any], names: dict[str, str]) -> str:
    """A label of at most 80 characters for each legal action."""
    return _label(action)[:80]


def _label(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "class":
        return _("Race class {cls} (you may race {cls} or one below)").format(cls=action["class"])
    if kind == "finish_line":
        return _("Finish line on space {space} ({cls} race)").format(
            space=action["space"], cls=classify_finish(action["space"])
        )
    if kind == "sell":
        info = upgrade_of(action["card"])
        name = upgrade_name(action["card"])
        return _("Sell {name} (half of {price})").format(name=name, price=money(info.price))
    if kind == "buy":  # the car first: on a phone it is what tells the options apart
        card, info = action["card"], upgrade_of(action["card"])
        fields = {"name": upgrade_name(card), "effect": short_effect(card)}
        fields["price"] = money(info.price)
        if action.get("car"):
            return _("{car}: {name} · {effect} · {price}").format(
                car=CARS[action["car"]].name, **fields
            )
        return _("{name} · {effect} · {price}").format(**fields)
    if kind == "sell_car":
        return _("Sell {car} with its upgrades").format(car=car_label(action["car"]))
    if kind == "buy_car":
        return _("Buy {car} for {price}").format(
            car=car_label(action["car"]), price=money(CARS[action["car"]].price)
        )
    if kind == "show":
        return _("Car show: {car}").format(car=car_label(action["car"]))
    if kind == "place":
        return _("Place {card} on spot {spot}").format(
            card=location_label(action["card"]), spot=action["spot"]
        )
    if kind == "qualify":
        return _("Qualify in lane {lane}").format(lane=action["lane"])
    if kind == "race":
        return _("Race {car}").format(car=car_label(action["car"]))
    if kind == "noz":
        return _("Fire NOZ now (+3 spaces)") if action["use"] else _("Keep the NOZ for later")
    if kind == "noz_policy":
        return _("NOZ policy: {policy}").format(policy=policy_text(action["policy"]))
    if kind == "narrow":  # a long shop list, first narrowed to a car, the crew or a shop card
        target = action["to"]
        if target == "crew":
            return _("Sell crew…")
        if target in CARS:
            return _("Sell from {car}…").format(car=car_label(target))
        return _("Buy {card}…").format(card=upgrade_label(target))
    return _(FIXED_LABELS[kind]) if kind in FIXED_LABELS else kind


FIXED_LABELS = {
    "shop": N_("Go to the shop (sell upgrades, buy one)"),
    "dealer": N_("Go to the dealership (sell a car, buy one)"),
    "location": N_("Draw a location card and place one"),
    "pass": N_("Pass (no more actions this round)"),
    "done_selling": N_("Done selling"),
    "buy_nothing": N_("Buy nothing"),
}


# -- the hand -----------------------------------------------------------------------------------


def question(view: dict[str, Any]) -> str | None:
    """The turn post's button when a race asks a player on ``ask`` whether to fire their NOZ."""
    race = view.get("race") or {}
    return _("Fire your NOZ?") if race.get("asking") else None


def hand_text(view: dict[str, Any]) -> str:
    """The viewer's location cards, cars with upgrades, credits, crew, trophies, NOZ policy."""
    hand = view.get("hand")
    me = next((p for p in view.get("players", []) if p["id"] == view.get("viewer")), None)
    if hand is None or me is None:
        return _("You are watching: you hold nothing in this game.")
    cards = "; ".join(location_label(card) for card in hand) or _("none")
    lines = [
        _("**Credits:** {credits} · **Trophies:** {trophies}").format(
            credits=money(me["credits"]), trophies=_trophies(me["trophies"])
        ),
        _("**Location cards:** {cards}").format(cards=cards),
        _("**Cars:**"),
        *(f"• {_car_line(car)}" for car in me["cars"]),
    ]
    if not me["cars"]:
        lines.append("• " + _("none"))
    if me["crew"]:  # under the "Crew" heading each member by name alone
        members = (upgrade_of(card) for card in me["crew"])
        crew = ", ".join(
            f"{m.name.removeprefix('Crew: ')} (+{m.stars} {stat_letters(m.stat or '')})"
            for m in members
        )
        lines.append(_("**Crew:** {crew}").format(crew=crew))
    lines.append(_("**NOZ policy:** {policy}").format(policy=policy_text(me["noz_policy"])))
    if me["lane"] is not None:
        lines.append(_("You have qualified in lane {lane}.").format(lane=me["lane"]))
    return "\n".join(lines)


def panel_text(view: dict[str, Any]) -> str:
    """The hand panel's words above its picture: only what the picture does not draw (the
    trophies, the NOZ policy, a qualified lane); credits, cards, cars and crew are drawn."""
    me = next((p for p in view.get("players", []) if p["id"] == view.get("viewer")), None)
    if view.get("hand") is None or me is None:
        return hand_text(view)
    lines = [
        _("**Trophies:** {trophies}").format(trophies=_trophies(me["trophies"])),
        _("**NOZ policy:** {policy}").format(policy=policy_text(me["noz_policy"])),
    ]
    if me["lane"] is not None:
        lines.append(_("You have qualified in lane {lane}.").format(lane=me["lane"]))
    return "\n".join(lines)


def _trophies(trophies: dict[str, int]) -> str:
    held = [f"{n} {trophy(t)}" for t, n in trophies.items() if n]
    return ", ".join(held) or _("none")


def _car_line(car: dict[str, Any]) -> str:
    info = CARS[car["id"]]
    stars = " ".join(f"{stat_letters(stat)} {n}" for stat, n in info.stars.items())
    upgrades = car["upgrades"] or []
    fitted = ", ".join(f"{upgrade_name(c)} ({upgrade_effect(c)})" for c in upgrades)
    line = _("{car}, beauty {beauty}: {stars}; {fitted}").format(
        car=car_label(car["id"]),
        beauty=money(info.beauty),
        stars=stars,
        fitted=fitted or _("stock"),
    )
    return line + (" — " + _("at the car show") if car["at_show"] else "")


#: The step a panel's select asks for, by the type of the moves it offers (its placeholder).
STEPS = {
    "class": N_("Choose the race class…"),
    "finish_line": N_("Choose the finish line…"),
    "shop": N_("Choose an action…"),
    "sell": N_("Sell an upgrade, or be done…"),
    "buy": N_("Choose an upgrade to buy…"),
    "narrow": N_("Choose an upgrade to buy…"),
    "sell_car": N_("Sell a car?…"),
    "buy_car": N_("Choose a car to buy…"),
    "show": N_("Choose a car for the show…"),
    "place": N_("Choose a location card and spot…"),
    "qualify": N_("Choose a lane…"),
    "race": N_("Choose the car you race…"),
    "noz": N_("Fire your NOZ?…"),
}
#: Moves taken for the player when they are the only one (nothing revealed, nothing to weigh).
AUTOMATIC = frozenset({"done_selling", "buy_nothing"})
