"""ArtSee in words: event sentences, action labels, the hand, a rules summary."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, _, _n
from bot.words.common import game_over, join_names, name_of
from rules.artsee.data import CATEGORY_BONUS, CATEGORY_NAMES, EXHIBITS, MASTERPIECES

RULES = N_("""\
**ArtSee** — 2 to 5 players. Build the most prestigious gallery.
Every exhibit card has a **featured category** (its colour, also on its back: Abstract, \
Landscape, Portrait, Still life), 2–3 **art pieces** and an **arrow** ← or →. Card backs are \
public: everyone sees the categories in every hand and on top of both draw piles.
**Your turn**
1. **Play a card** onto one of your columns or into a new column at the left or right end \
(`/artsee play card: column:`).
2. **Opponents welcome visitors**: each may put one visitor on each of their *front* cards \
of the category you played. Your standing answer is `/artsee visitors policy:` — `always` \
(default), `never`, or `ask` (you are mentioned and choose under **My hand**).
3. **Earn prestige**: 1 per visitor on the card you covered (they come back to you), and 1 per \
piece of the played category in the column the arrow points to. At an end of your gallery the \
arrow looks into your neighbour's nearest column (with 2 players the opponent is on both sides).
4. **Claim a masterpiece** (optional, `/artsee claim`): one token of the played category whose \
requirement (5–9) is at most the prestige you earned *this turn*; one per category per player; \
place it in a free slot between or beside your columns. A matching masterpiece in the gap an \
arrow points across gives +1 (also to the neighbour facing an end slot).
5. **Draw** the top card of pile 1 or 2 (`/artsee draw pile:`).
**End**: after the turn that leaves both piles and all hands empty (the player to the right of \
the start player plays last). Add masterpiece values (requirement − 5) and a bonus for \
categories held ({bonus} for 1–4). Ties: most visitors still in the gallery, then a shared win.""")
#: The bonus for categories held, as the rules summary quotes it.
BONUS = " / ".join(str(b) for b in CATEGORY_BONUS[1:])


def rules() -> str:
    """The rules summary in the current language, with the bonus table filled in."""
    return _(RULES).format(bonus=BONUS)


PLAYERS = N_("2–5 players")

#: ArtSee has no variants: the rulebook and the component notes offer none.
OPTIONS: dict[str, str] = {}

ARROWS = {"L": "←", "R": "→"}
POLICY_SENTENCES = {
    "always": N_("{who} will now always welcome visitors."),
    "never": N_("{who} will now never welcome visitors."),
    "ask": N_("{who} will now be asked about visitors."),
}
#: A standing answer's name as players choose it (`/artsee visitors policy:`).
POLICY_NAMES = {"always": N_("always"), "never": N_("never"), "ask": N_("ask")}


def category(code: str) -> str:
    return _(CATEGORY_NAMES[code])


def starts_with_vowel(code: str) -> bool:
    """Whether a category's English name takes "an" (the English sentence picks its article;
    a translation has a sentence of its own for each)."""
    return CATEGORY_NAMES[code][0] in "AEIOU"


def policy_name(policy: str) -> str:
    return _(POLICY_NAMES[policy]) if policy in POLICY_NAMES else policy


def card_label(card: str) -> str:
    """ "Portrait (Abstract, Landscape, Still life; arrow ←)"."""
    info = EXHIBITS[card]
    pieces = ", ".join(category(p) for p in info.pieces)
    return _("{featured} ({pieces}; arrow {arrow})").format(
        featured=category(info.featured), pieces=pieces, arrow=ARROWS[info.arrow]
    )


def card_short(card: str) -> str:
    """ "Portrait ←": the featured category and the arrow, all a post needs to say of a card
    the board draws whole."""
    info = EXHIBITS[card]
    return f"{category(info.featured)} {ARROWS[info.arrow]}"


def token_label(token: str) -> str:
    """ "Portrait 7 (worth 2)"."""
    info = MASTERPIECES[token]
    return _("{category} {requirement} (worth {value})").format(
        category=category(info.category), requirement=info.requirement, value=info.value
    )


def slot_label(slot: int) -> str:
    if slot == 0:
        return _("slot 0, the left end")
    return _("slot {n}, right of column {n}").format(n=slot)


def _place(target: str) -> int | str:
    """A ``previews`` key back to a ``place`` target (JSON keys are text)."""
    return int(target) if target.isdigit() else target


def place_label(column: int | str) -> str:
    if column == "left":
        return _("a new column at the left end")
    if column == "right":
        return _("a new column at the right end")
    return _("column {n}").format(n=column)


# -- events -------------------------------------------------------------------------------------


def describe(events: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
    """One sentence per placed card with what it scored, then claims, draws, visitors, the end.
    The prestige (step 3) joins the sentence of its card, after the visitors welcomed in step 2;
    a card placed in an earlier post scores in a sentence of its own."""
    lines: list[str] = []
    welcomed: dict[str, list[int]] = {}
    placed: int | None = None  # the line of the card placed in these events
    for event in events:
        kind = event["type"]
        if kind == "welcomed":
            welcomed.setdefault(event["player"], []).append(event["column"])
            continue
        if welcomed:
            lines.append(_welcomed(welcomed, names))
            welcomed = {}
        if kind in ("visitors_scored", "arrow"):
            if placed is None:  # placed before the opponents were asked: a sentence of its own
                lines.append(_("{who}'s card scored.").format(who=name_of(names, event["player"])))
                placed = len(lines) - 1
            lines[placed] = lines[placed][:-1] + _scored(event, names)
            continue
        line = _describe_one(event, names)
        if line:
            lines.append(line)
            placed = len(lines) - 1 if kind == "placed" else placed
    if welcomed:
        lines.append(_welcomed(welcomed, names))
    return lines


def _welcomed(welcomed: dict[str, list[int]], names: dict[str, str]) -> str:
    parts = []
    for player, columns in welcomed.items():
        where = join_names([str(c) for c in columns])
        on = _n("{who} on column {columns}", "{who} on columns {columns}", len(columns))
        parts.append(on.format(who=name_of(names, player), columns=where))
    return _("Visitors welcomed: {parts}.").format(parts="; ".join(parts))


def _scored(event: dict[str, Any], names: dict[str, str]) -> str:
    """The scoring part of the placed card's sentence."""
    if event["type"] == "visitors_scored":
        return _(", +{n} from visitors.").format(n=event["prestige"])
    if not event["prestige"]:  # an arrow at nothing scores nothing: not worth a word
        return "."
    own = event["owner"] == event["player"]
    pieces = ""
    if event["masterpieces"]:  # then the sum is worth its parts; else +n is n pieces
        pieces = _n("{n} piece", "{n} pieces", event["pieces"]).format(n=event["pieces"])
        extra = _n("{n} masterpiece", "{n} masterpieces", event["masterpieces"])
        pieces += " + " + extra.format(n=event["masterpieces"])
        text = (
            _(", +{n} ({pieces} in column {column}).")
            if own
            else _(", +{n} ({pieces} in {owner}'s column {column}).")
        )
    else:
        text = (
            _(", +{n} from column {column}.")
            if own
            else _(", +{n} from {owner}'s column {column}.")
        )
    return text.format(
        owner=name_of(names, event["owner"]),
        column=event["column"],
        pieces=pieces,
        n=event["prestige"],
    )


def _describe_one(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    if kind == "placed":
        where = place_label(event["new"] or event["column"])
        return _("{who} played **{card}** onto {place}.").format(
            who=who, card=card_short(event["card"]), place=where
        )
    if kind == "claimed":
        return _("{who} claimed the masterpiece **{token}** into {slot}.").format(
            who=who, token=token_label(event["token"]), slot=slot_label(event["slot"])
        )
    if kind == "drew":
        drew = (
            _("{who} drew an {category}.")
            if starts_with_vowel(event["category"])
            else _("{who} drew a {category}.")
        )  # from which pile, the board's pile counts show
        return drew.format(who=who, category=category(event["category"]))
    if kind == "moved":
        return _(
            "Pile {to} ran out: the top card of pile {source} ({category}) moved over."
        ).format(to=event["to"], source=event["from"], category=category(event["category"]))
    if kind == "policy":
        return _(POLICY_SENTENCES[event["policy"]]).format(who=who)
    if kind == "skipped":
        return _("{who} has no cards left and is skipped.").format(who=who)
    if kind == "game_over":
        return game_over(event, names, lambda n: _("{n} prestige").format(n=n))
    # "turn" is shown by the board and the mention; "passed" (no masterpiece claimed) is no
    # news: the board shows the masterpieces there are
    return ""


# -- actions ------------------------------------------------------------------------------------


def action_label(action: dict[str, Any], names: dict[str, str]) -> str:
    kind = action["type"]
    if kind == "card":
        return _("Play {card}").format(card=card_label(action["card"]))
    if kind == "place":
        return _("Onto {place}").format(place=place_label(action["column"]))
    if kind == "play":
        return _("Play {card} onto {place}").format(
            card=card_label(action["card"]), place=place_label(action["column"])
        )
    if kind == "back":
        return _("↩ Choose again")
    if kind == "claim":
        token = token_label(action["token"])
        if "slot" in action:
            return _("Claim {token} into {slot}").format(
                token=token, slot=slot_label(action["slot"])
            )
        return _("Claim {token}").format(token=token)
    if kind == "slot":
        return _("Masterpiece into {slot}").format(slot=slot_label(action["slot"]))
    if kind == "pass":
        return _("Claim no masterpiece")
    if kind == "draw":
        return _("Draw from pile {pile}").format(pile=action["pile"])
    if kind == "welcome":
        return _("Welcome a visitor on column {n}").format(n=action["column"])
    if kind == "enough":
        return _("No more visitors this turn")
    if kind == "policy":
        return _("Visitors: {policy}").format(policy=policy_name(action["policy"]))
    return kind


# -- the private hand ---------------------------------------------------------------------------


def question(view: dict[str, Any]) -> str | None:
    """The turn post's button for players on ``ask`` whose front cards match the played card."""
    return _("Welcome visitors?") if view.get("asking") else None


def hand_text(view: dict[str, Any]) -> str:
    """The hand in words, with what the player is asked now (where no picture shows it)."""
    return _hand_lines(view, drawn=False)


def panel_text(view: dict[str, Any]) -> str:
    """The hand panel's words beside its picture: only what the picture does not draw (the
    visitors and their policy, what the player is asked now); the exhibits in hand, and the
    one chosen to play, framed, are drawn."""
    return _hand_lines(view, drawn=True)


def _hand_lines(view: dict[str, Any], drawn: bool) -> str:
    cards = view.get("hand_cards")
    if cards is None:
        return _("You are watching: you hold no cards in this game.")
    me = next(p for p in view["players"] if p["id"] == view["viewer"])
    held = "; ".join(card_label(c) for c in cards) if cards else _("empty")
    lines = [] if drawn else [_("Your hand: {cards}").format(cards=held)]
    lines.append(
        _(
            "Visitors in your supply: {n} · policy **{policy}** (`/artsee visitors` changes it)"
        ).format(n=me["supply"], policy=policy_name(me["policy"]))
    )
    if view.get("chosen") and drawn:
        lines.append(_("The framed card is chosen: now pick its column."))
    elif view.get("chosen"):
        lines.append(
            _("Chosen to play: **{card}** — now pick its column.").format(
                card=card_label(view["chosen"])
            )
        )
    if view.get("previews"):
        gains = ", ".join(f"{place_label(_place(t))} +{n}" for t, n in view["previews"].items())
        lines.append(_("It would earn: {gains}.").format(gains=gains))
    if view.get("token"):
        lines.append(
            _("Chosen masterpiece: **{token}** — now pick its slot.").format(
                token=token_label(view["token"])
            )
        )
    if view["phase"] in ("claim", "slot") and view["current"] == view["viewer"]:
        lines.append(_("Prestige earned this turn: {n}.").format(n=view["earned"]))
    if view["phase"] == "draw" and view["current"] == view["viewer"]:
        tops = [
            _("pile {n}: {category} on top ({size} cards)").format(
                n=n, category=category(p["top"]), size=p["size"]
            )
            for n, p in enumerate(view["piles"], 1)
            if p["top"]
        ]
        lines.append(_("Draw {piles}.").format(piles=", ".join(tops)))
    asked = view["asking"].get(view["viewer"])
    if asked and view["played"]:
        featured = EXHIBITS[view["played"]].featured
        columns = join_names([str(c) for c in asked])
        played = (
            _("An {category} was played: you may welcome a visitor on column(s) {columns}.")
            if starts_with_vowel(featured)
            else _("A {category} was played: you may welcome a visitor on column(s) {columns}.")
        )
        lines.append(played.format(category=category(featured), columns=columns))
    return "\n".join(lines)


#: The step a panel's select asks for, by the type of the moves it offers (its placeholder).
STEPS = {
    "card": N_("Choose a card to exhibit…"),
    "place": N_("Choose a column…"),
    "play": N_("Choose a card and a column…"),
    "claim": N_("Claim a masterpiece?…"),
    "slot": N_("Choose the masterpiece's place…"),
    "draw": N_("Choose a pile to draw from…"),
    "welcome": N_("Welcome a visitor?…"),
}
#: Moves taken for the player when they are the only one (nothing revealed, nothing to weigh).
AUTOMATIC = frozenset({"pass", "enough", "slot"})
#: A few options are buttons, a tap each, even on a turn's first decision (three cards).
BUTTONS = True
#: The decision folded into the move before it (``bot.steps``): a card's column and the pile
#: to draw from are one tap when no masterpiece can be claimed between them.
THEN = frozenset({"draw"})


def consequence(events: list[dict[str, Any]], player: str) -> str | None:
    """What a move would score the player, from the events a dry run of it gives ("+3 ★"),
    or None when it scores nothing yet (the scoring waits on the others' visitors)."""
    scored = [
        e for e in events if e.get("type") in ("arrow", "visitors_scored") and e["player"] == player
    ]
    if not scored:
        return None
    return _("+{n} ★").format(n=sum(int(e["prestige"]) for e in scored))
