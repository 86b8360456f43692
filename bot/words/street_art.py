"""Street Art in words: event sentences, action labels, the hand, a rules summary."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, _
from bot.words.common import game_over, hearts, join_names, name_of
from rules.street_art.data import CARDS, FIREWORKS_HEARTS

RULES = N_("""\
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
Play with `/streetart play card:` or the **My hand** button under the board.""")


def card_name(card: str) -> str:
    return _(CARDS[card].name)


def card_label(card: str) -> str:
    """A card's name with what it gives, e.g. "Fire Breather (4 ♥)"."""
    info = CARDS[card]
    return f"{card_name(card)} ({hearts(info.value)})" if info.value else card_name(card)


PLAYERS = N_("3–5 players (2 with the option two_players=true)")

OPTIONS = {
    "two_players": N_("Allow a game of two (the rulebook's game is for 3–5)."),
    "fireworks_may_take_from_middle": N_(
        "Fireworks may take its 2 ♥ from the middle instead of a player."
    ),
    "keep_top_on_reshuffle": N_(
        "When the draw pile runs out, each player keeps their top card instead of shuffling it in."
    ),
    "turn_cap": N_("A safety net, not a rule: the game ends after this many turns."),
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
            line = _played_and(played, event, names)
            played = None
        elif played is not None:
            lines.append(_describe_one(played, names))
            played = None
        if line:
            lines.append(line)
    if played is not None:
        lines.append(_describe_one(played, names))
    return lines


def _played_and(played: dict[str, Any], effect: dict[str, Any], names: dict[str, str]) -> str:
    """A card and its effect in one sentence: "Bo played **Juggler** and took 2 ♥ from the
    middle." (whole sentences, so each language orders them its own way)."""
    who, card = name_of(names, played.get("player")), card_name(played["card"])
    if effect["type"] == "took":
        text = _("{who} played **{card}** and took {hearts} from the middle.")
    elif effect["type"] == "stole":
        text = _("{who} played **{card}** and stole {hearts} from {victim}.")
    else:
        text = _("{who} played **{card}** and found nobody to steal from.")
    return text.format(
        who=who,
        card=card,
        hearts=hearts(effect.get("hearts", 0)),
        victim=name_of(names, effect.get("from")),
    )


def _describe_one(event: dict[str, Any], names: dict[str, str]) -> str:
    kind = event["type"]
    who = name_of(names, event.get("player"))
    if kind == "played":
        return _("{who} played **{card}**.").format(who=who, card=card_name(event["card"]))
    if kind == "took":
        return _("{who} took {hearts} from the middle.").format(
            who=who, hearts=hearts(event["hearts"])
        )
    if kind == "stole":
        return _("{thief} stole {hearts} from {victim}.").format(
            thief=name_of(names, event["to"]),
            hearts=hearts(event["hearts"]),
            victim=name_of(names, event["from"]),
        )
    if kind == "fizzled":
        return _("{who}'s {card} found nobody to steal from.").format(
            who=who, card=card_name(event["card"])
        )
    if kind == "rain":
        losses = [f"{name_of(names, p)} {hearts(n)}" for p, n in event["losses"].items() if n > 0]
        if not losses:
            return _("Rain! Nobody had hearts to lose.")
        return _("Rain! The audience goes home: {losses} to the box.").format(
            losses=join_names(losses)
        )
    if kind == "piles_collected":
        return _("All piles ({n} cards) go under the draw pile.").format(n=event["cards"])
    if kind == "reshuffled":
        return _("The draw pile ran out: {n} cards shuffled into a new one.").format(
            n=event["cards"]
        )
    if kind == "game_over":
        return game_over(event, names, hearts)
    return ""  # "drew", "turn" and "skipped" are shown by the board and the mention


def action_label(action: dict[str, Any], names: dict[str, str]) -> str:
    kind = action["type"]
    if kind == "play":
        return _("Play {card}").format(card=card_label(action["card"]))
    if kind == "fireworks":
        victim = action["victim"]
        if victim == "middle":
            return _("Take {hearts} from the middle").format(hearts=hearts(FIREWORKS_HEARTS))
        return _("Steal {hearts} from {victim}").format(
            hearts=hearts(FIREWORKS_HEARTS), victim=names.get(victim, victim)
        )
    if kind == "stop":
        return _("Stop playing Brass Bands (end your turn)")
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
            return _("{victim} has none: nothing to steal").format(victim=victim)
        return _("{victim} has {held}: steal {hearts}").format(
            victim=victim, held=hearts(held), hearts=hearts(min(held, FIREWORKS_HEARTS))
        )
    take = view.get("takes", {}).get(action.get("card")) if kind == "play" else None
    if take is None:
        return action_label(action, names)
    return _("Play {card}: {takes}").format(
        card=card_name(action["card"]), takes=_take(action["card"], take, names)
    )


def _take(card: str, take: dict[str, Any], names: dict[str, str]) -> str:
    """What a Street Star takes: from the middle (all there is, if less than its value) or from
    the player showing the same Star, who played it last (all they have, if less)."""
    value, got, source = CARDS[card].value, take["hearts"], take["from"]
    if source == "middle":
        if got < value:
            return _("only {hearts}, all that is left in the middle").format(hearts=hearts(got))
        return _("{hearts} from the middle").format(hearts=hearts(got))
    victim = names.get(source, source)
    if got == 0:
        return _("0 ♥: {victim} has none").format(victim=victim)
    if got < value:
        return _("only {hearts}, all {victim} has").format(hearts=hearts(got), victim=victim)
    return _("steal {hearts} from {victim}").format(hearts=hearts(got), victim=victim)


def hand_text(view: dict[str, Any]) -> str:
    hand = view.get("hand")
    if hand is None:
        return _("You are watching: you hold no cards in this game.")
    if not hand:
        return _("Your hand is empty.")
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    parts = [f"{card_label(c)}{f' ×{n}' if n > 1 else ''}" for c, n in counts.items()]
    return _("Your hand: {cards}").format(cards=", ".join(parts))


def panel_text(_view: dict[str, Any]) -> str:
    """The hand panel's words beside its picture: nothing, since the picture draws every card
    with its hearts (the panel's choices say what each would take, and the picture's
    description has the hand in words). A watcher or an empty hand gets no picture, and
    ``hand_text`` says so instead."""
    return ""


#: The step a panel's select asks for, by the type of the moves it offers (its placeholder).
STEPS = {
    "play": N_("Choose a card to play…"),
    "fireworks": N_("Choose whose hearts Fireworks takes…"),
    "stop": N_("Play another Brass Band, or stop…"),
}
#: Moves taken for the player when they are the only one (nothing revealed, nothing to weigh).
AUTOMATIC = frozenset({"stop"})
