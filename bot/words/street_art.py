"""Street Art in words: event sentences, action labels, the hand, a rules summary."""

from __future__ import annotations

from typing import Any

from bot.words.common import game_over, hearts, join_names, name_of
from rules.street_art.data import CARDS, FIREWORKS_HEARTS

RULES = """\
**Street Art** — 3 to 5 players (2 with the `two_players` option). Gather the biggest audience.
On your turn play **one** card face up on your pile, then draw back to 5.
• **Street Star** (value = hearts): if another player shows the same Star, steal that many \
hearts from whoever played it most recently; otherwise take them from the middle.
• **Fireworks**: steal 2 hearts from a player you choose.
• **Beatboxer**: take as many hearts from the middle as Beatboxers are showing (yours counts).
• **Brass Band**: play as many as you like in one turn, 1 heart each from the middle.
• **Rain**: every other player sends hearts to the box by their visible card (Star: its value, \
Fireworks 2, Brass Band 1, Beatboxer: Beatboxers showing); then all piles go under the draw pile.
The game ends when the middle is empty (the last taker gets what is left). Most hearts wins; \
ties share the win.
Play with `/streetart play card:` or the **My hand** button under the board."""


def card_name(card: str) -> str:
    return CARDS[card].name


def card_label(card: str) -> str:
    """A card's name with what it gives, e.g. "Fire Breather (4 ♥)"."""
    info = CARDS[card]
    return f"{info.name} ({hearts(info.value)})" if info.value else info.name


PLAYERS = "3–5 players (2 with the option two_players=true)"

OPTIONS = {
    "two_players": "Allow a game of two (the rulebook's game is for 3–5).",
    "fireworks_may_take_from_middle": "Fireworks may take its 2 ♥ from the middle instead "
    "of a player.",
    "keep_top_on_reshuffle": "When the draw pile runs out, each player keeps their top card "
    "instead of shuffling it in.",
    "turn_cap": "A safety net, not a rule: the game ends after this many turns.",
}

#: What a card's effect may be, told in the same sentence as playing it.
EFFECTS = ("took", "stole", "fizzled")


def describe(events: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
    """One sentence per card played ("Bo played Juggler and took 2 ♥ from the middle."), then
    one per table-wide effect (Rain, reshuffles, the end)."""
    lines: list[str] = []
    played: dict[str, Any] | None = None
    for event in events:
        if event["type"] == "played":
            played = event
            continue
        line = _describe_one(event, names)
        if played is not None and event["type"] in EFFECTS and line:
            line = f"{_describe_one(played, names)[:-1]} and {_effect(event, names)}."
            played = None
        elif played is not None:
            lines.append(_describe_one(played, names))
            played = None
        if line:
            lines.append(line)
    if played is not None:
        lines.append(_describe_one(played, names))
    return lines


def _effect(event: dict[str, Any], names: dict[str, str]) -> str:
    """The effect part of a card's sentence, after "X played Y and"."""
    if event["type"] == "took":
        return f"took {hearts(event['hearts'])} from the middle"
    if event["type"] == "stole":
        return f"stole {hearts(event['hearts'])} from {name_of(names, event['from'])}"
    return "found nobody to steal from"


def _describe_one(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    if kind == "played":
        return f"{who} played **{card_name(event['card'])}**."
    if kind == "took":
        return f"{who} took {hearts(event['hearts'])} from the middle."
    if kind == "stole":
        return (
            f"{name_of(names, event['to'])} stole {hearts(event['hearts'])} "
            f"from {name_of(names, event['from'])}."
        )
    if kind == "fizzled":
        return f"{who}'s {card_name(event['card'])} found nobody to steal from."
    if kind == "rain":
        losses = [f"{name_of(names, p)} {hearts(n)}" for p, n in event["losses"].items() if n > 0]
        if not losses:
            return "Rain! Nobody had hearts to lose."
        return f"Rain! The audience goes home: {join_names(losses)} to the box."
    if kind == "piles_collected":
        return f"All piles ({event['cards']} cards) go under the draw pile."
    if kind == "reshuffled":
        return f"The draw pile ran out: {event['cards']} cards shuffled into a new one."
    if kind == "game_over":
        return game_over(event, names, hearts)
    return ""  # "drew", "turn" and "skipped" are shown by the board and the mention


def action_label(action: dict[str, Any], names: dict[str, str]) -> str:
    kind = action["type"]
    if kind == "play":
        return f"Play {card_label(action['card'])}"
    if kind == "fireworks":
        victim = action["victim"]
        if victim == "middle":
            return f"Take {hearts(FIREWORKS_HEARTS)} from the middle"
        return f"Steal {hearts(FIREWORKS_HEARTS)} from {names.get(victim, victim)}"
    if kind == "stop":
        return "Stop playing Brass Bands (end your turn)"
    return kind


def view_label(action: dict[str, Any], names: dict[str, str], view: dict[str, Any]) -> str:
    """The label in the mover's own view: what the action would give. A Fireworks target says
    what its player has ("Bo has 1 ♥", "Cy has none"); a Street Star says what it will take and,
    when that is less than its value, why."""
    kind = action["type"]
    if kind == "fireworks" and action["victim"] != "middle":
        victim = names.get(action["victim"], action["victim"])
        held = next(p["hearts"] for p in view["players"] if p["id"] == action["victim"])
        if held == 0:
            return f"{victim} has none: nothing to steal"
        return f"{victim} has {hearts(held)}: steal {hearts(min(held, FIREWORKS_HEARTS))}"
    take = view.get("takes", {}).get(action.get("card")) if kind == "play" else None
    if take is None:
        return action_label(action, names)
    return f"Play {card_name(action['card'])}: {_take(action['card'], take, names)}"


def _take(card: str, take: dict[str, Any], names: dict[str, str]) -> str:
    """What a Street Star takes: from the middle (all there is, if less than its value) or from
    the player showing the same Star, who played it last (all they have, if less)."""
    value, got, source = CARDS[card].value, take["hearts"], take["from"]
    if source == "middle":
        if got < value:
            return f"only {hearts(got)}, all that is left in the middle"
        return f"{hearts(got)} from the middle"
    victim = names.get(source, source)
    if got == 0:
        return f"0 ♥: {victim} has none"
    if got < value:
        return f"only {hearts(got)}, all {victim} has"
    return f"steal {hearts(got)} from {victim}"


def hand_text(view: dict[str, Any]) -> str:
    hand = view.get("hand")
    if hand is None:
        return "You are watching: you hold no cards in this game."
    if not hand:
        return "Your hand is empty."
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    parts = [f"{card_label(c)}{f' ×{n}' if n > 1 else ''}" for c, n in counts.items()]
    return "Your hand: " + ", ".join(parts)
