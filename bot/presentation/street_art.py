"""Street Art's surface: the hand's cards, and the other players' piles as Fireworks' victims."""

from __future__ import annotations

from bot.i18n import N_
from bot.presentation.spots import Action, Layout, Spot, View, kinds
from bot.words.street_art import card_name

AREAS = (("hand", N_("Your hand")), ("players", N_("Players")), ("controls", N_("Your move")))


def spot(action: Action, view: View, seat: str, names: dict[str, str]) -> Spot | None:
    if action["type"] == "play":
        card = str(action["card"])
        return Spot("hand", f"hand:{card}", card_name(card), face=card)
    if action["type"] == "fireworks":
        victim = str(action["victim"])
        return Spot("players", f"player:{victim}", names.get(victim, victim))
    return None


def candidates(view: View, seat: str, legal: list[Action]) -> list[Action]:
    """Every card in hand while a card is played (the ones the rules refuse stay dim), and
    every other player while Fireworks picks its victim."""
    offered = kinds(legal)
    if "play" in offered:
        return [{"type": "play", "card": card} for card in dict.fromkeys(view.get("hand", []))]
    if "fireworks" in offered:
        others = [p["id"] for p in view["players"] if p["id"] != seat]
        return [{"type": "fireworks", "victim": p} for p in others]
    return []


LAYOUT = Layout(AREAS, spot, candidates)
