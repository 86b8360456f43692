"""ArtSee's surface: the hand's exhibits, the seat's gallery (its columns, both ends and the
slots between them), the two draw piles and the masterpiece supply."""

from __future__ import annotations

from bot.i18n import N_, _
from bot.presentation.spots import Action, Layout, Spot, View, kinds, me
from bot.words.artsee import card_label, token_label

AREAS = (
    ("hand", N_("Your hand")),
    ("gallery", N_("Your gallery")),
    ("piles", N_("Draw piles")),
    ("supply", N_("Masterpieces")),
    ("controls", N_("Your move")),
)


def column_text(column: int | str) -> str:
    if column == "left":
        return _("⇤ new")
    if column == "right":
        return _("new ⇥")
    return str(column)


def spot(action: Action, view: View, seat: str, names: dict[str, str]) -> Spot | None:
    kind = action["type"]
    if kind == "card":
        card = str(action["card"])
        return Spot("hand", f"hand:{card}", card_label(card), face=card)
    if kind in ("place", "welcome"):
        return Spot("gallery", f"column:{action['column']}", column_text(action["column"]))
    if kind == "slot":
        return Spot("gallery", f"slot:{action['slot']}", _("slot {n}").format(n=action["slot"]))
    if kind == "draw":
        return Spot("piles", f"pile:{action['pile']}", _("pile {n}").format(n=action["pile"]))
    if kind == "claim":
        return Spot("supply", f"token:{action['token']}", token_label(action["token"]))
    return None


def candidates(view: View, seat: str, legal: list[Action]) -> list[Action]:
    """The hand's every card, the gallery's every column and end, both piles, the whole
    supply: whichever this step is about."""
    offered = kinds(legal)
    if "card" in offered:
        return [{"type": "card", "card": c} for c in view.get("hand_cards", [])]
    if "place" in offered:
        columns = len(me(view, seat)["columns"])
        places: list[int | str] = ["left", *range(1, columns + 1), "right"]
        return [{"type": "place", "column": c} for c in places]
    if "draw" in offered:
        return [{"type": "draw", "pile": n} for n in range(1, len(view["piles"]) + 1)]
    if "claim" in offered:
        return [{"type": "claim", "token": t} for t in view.get("supply", [])]
    return []


LAYOUT = Layout(AREAS, spot, candidates)
