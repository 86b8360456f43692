"""ArtSee in words: event sentences, action labels, the hand, a rules summary."""

from __future__ import annotations

from typing import Any

from bot.words.common import game_over, join_names, name_of
from rules.artsee.data import CATEGORY_BONUS, CATEGORY_NAMES, EXHIBITS, MASTERPIECES

RULES = f"""\
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
categories held ({" / ".join(str(b) for b in CATEGORY_BONUS[1:])} for 1–4). Ties: most visitors \
still in the gallery, then a shared win."""

PLAYERS = "2–5 players"

#: ArtSee has no variants: the rulebook and the component notes offer none.
OPTIONS: dict[str, str] = {}

ARROWS = {"L": "←", "R": "→"}
POLICY_SENTENCES = {
    "always": "will now always welcome visitors",
    "never": "will now never welcome visitors",
    "ask": "will now be asked about visitors",
}


def category(code: str) -> str:
    return CATEGORY_NAMES[code]


def a_or_an(word: str) -> str:
    return f"{'an' if word[0] in 'AEIOU' else 'a'} {word}"


def card_label(card: str) -> str:
    """ "Portrait (Abstract, Landscape, Still life; arrow ←)"."""
    info = EXHIBITS[card]
    pieces = ", ".join(category(p) for p in info.pieces)
    return f"{category(info.featured)} ({pieces}; arrow {ARROWS[info.arrow]})"


def token_label(token: str) -> str:
    """ "Portrait 7 (worth 2)"."""
    info = MASTERPIECES[token]
    return f"{category(info.category)} {info.requirement} (worth {info.value})"


def slot_label(slot: int) -> str:
    return "slot 0, the left end" if slot == 0 else f"slot {slot}, right of column {slot}"


def _place(target: str) -> int | str:
    """A ``previews`` key back to a ``place`` target (JSON keys are text)."""
    return int(target) if target.isdigit() else target


def place_label(column: int | str) -> str:
    if column in ("left", "right"):
        return f"a new column at the {column} end"
    return f"column {column}"


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
                lines.append(f"{name_of(names, event['player'])}'s card scored.")
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
        plural = "s" if len(columns) > 1 else ""
        parts.append(f"{name_of(names, player)} on column{plural} {where}")
    return f"Visitors welcomed: {'; '.join(parts)}."


def _scored(event: dict[str, Any], names: dict[str, str]) -> str:
    """The scoring part of the placed card's sentence."""
    if event["type"] == "visitors_scored":
        return f", +{event['prestige']} from visitors on the covered card."
    owner = "" if event["owner"] == event["player"] else f"{name_of(names, event['owner'])}'s "
    extra = f" + {event['masterpieces']} masterpiece" if event["masterpieces"] else ""
    return (
        f"; arrow {ARROWS[event['direction']]} to {owner}column {event['column']}: "
        f"{event['pieces']} piece{'s' if event['pieces'] != 1 else ''}{extra} = "
        f"+{event['prestige']}."
    )


def _describe_one(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    if kind == "placed":
        where = place_label(event["new"] or event["column"])
        return f"{who} played **{card_label(event['card'])}** onto {where}."
    if kind == "claimed":
        return (
            f"{who} claimed the masterpiece **{token_label(event['token'])}** into "
            f"{slot_label(event['slot'])}."
        )
    if kind == "passed":
        return f"{who} claimed no masterpiece."
    if kind == "drew":
        return f"{who} drew {a_or_an(category(event['category']))} from pile {event['pile']}."
    if kind == "moved":
        return (
            f"Pile {event['to']} ran out: the top card of pile {event['from']} "
            f"({category(event['category'])}) moved over."
        )
    if kind == "policy":
        return f"{who} {POLICY_SENTENCES[event['policy']]}."
    if kind == "skipped":
        return f"{who} has no cards left and is skipped."
    if kind == "game_over":
        return game_over(event, names, lambda n: f"{n} prestige")
    return ""  # "turn" is shown by the board and the mention


# -- actions ------------------------------------------------------------------------------------


def action_label(action: dict[str, Any], names: dict[str, str]) -> str:
    kind = action["type"]
    if kind == "card":
        return f"Play {card_label(action['card'])}"
    if kind == "place":
        return f"Onto {place_label(action['column'])}"
    if kind == "play":
        return f"Play {card_label(action['card'])} onto {place_label(action['column'])}"
    if kind == "back":
        return "↩ Choose again"
    if kind == "claim":
        label = f"Claim {token_label(action['token'])}"
        return f"{label} into {slot_label(action['slot'])}" if "slot" in action else label
    if kind == "slot":
        return f"Masterpiece into {slot_label(action['slot'])}"
    if kind == "pass":
        return "Claim no masterpiece"
    if kind == "draw":
        return f"Draw from pile {action['pile']}"
    if kind == "welcome":
        return f"Welcome a visitor on column {action['column']}"
    if kind == "enough":
        return "No more visitors this turn"
    if kind == "policy":
        return f"Visitors: {action['policy']}"
    return kind


# -- the private hand ---------------------------------------------------------------------------


def question(view: dict[str, Any]) -> str | None:
    """The turn post's button for players on ``ask`` whose front cards match the played card."""
    return "Welcome visitors?" if view.get("asking") else None


def hand_text(view: dict[str, Any]) -> str:
    cards = view.get("hand_cards")
    if cards is None:
        return "You are watching: you hold no cards in this game."
    me = next(p for p in view["players"] if p["id"] == view["viewer"])
    lines = [
        "Your hand: " + ("; ".join(card_label(c) for c in cards) if cards else "empty"),
        f"Visitors in your supply: {me['supply']} · policy **{me['policy']}** "
        "(`/artsee visitors` changes it)",
    ]
    if view.get("chosen"):
        lines.append(f"Chosen to play: **{card_label(view['chosen'])}** — now pick its column.")
    if view.get("previews"):
        gains = ", ".join(f"{place_label(_place(t))} +{n}" for t, n in view["previews"].items())
        lines.append(f"It would earn: {gains}.")
    if view.get("token"):
        lines.append(f"Chosen masterpiece: **{token_label(view['token'])}** — now pick its slot.")
    if view["phase"] in ("claim", "slot") and view["current"] == view["viewer"]:
        lines.append(f"Prestige earned this turn: {view['earned']}.")
    if view["phase"] == "draw" and view["current"] == view["viewer"]:
        tops = [
            f"pile {n}: {category(p['top'])} on top ({p['size']} cards)"
            for n, p in enumerate(view["piles"], 1)
            if p["top"]
        ]
        lines.append("Draw " + ", ".join(tops) + ".")
    asked = view["asking"].get(view["viewer"])
    if asked and view["played"]:
        played = category(EXHIBITS[view["played"]].featured)
        columns = join_names([str(c) for c in asked])
        article = a_or_an(played)
        lines.append(
            f"{article[0].upper()}{article[1:]} was played: you may welcome a visitor on "
            f"column(s) {columns}."
        )
    return "\n".join(lines)
