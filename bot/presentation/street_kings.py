"""Street Kings' surface: the seat's location cards, the track (its location spots and its
lanes), the seat's garage (cars and upgrades), the shop and the dealership."""

from __future__ import annotations

from bot.i18n import N_, _
from bot.presentation.spots import Action, Layout, Spot, View, kinds
from bot.words.street_kings import car_label, location_label, upgrade_label

AREAS = (
    ("hand", N_("Your location cards")),
    ("track", N_("Track")),
    ("garage", N_("Your garage")),
    ("shop", N_("Shop")),
    ("dealership", N_("Dealership")),
    ("controls", N_("Your move")),
)
#: Actions on one of the seat's cars.
ON_A_CAR = frozenset({"show", "race", "sell_car"})


def spot(action: Action, view: View, seat: str, names: dict[str, str]) -> Spot | None:
    kind = action["type"]
    if kind == "place":
        return Spot(
            "track",
            f"spot:{action['spot']}",
            _("spot {n}").format(n=action["spot"]),
            f"hand:{action['card']}",
        )
    if kind == "qualify":
        return Spot("track", f"lane:{action['lane']}", _("lane {n}").format(n=action["lane"]))
    if kind in ON_A_CAR:
        return Spot("garage", f"car:{action['car']}", car_label(action["car"]))
    if kind == "buy" and action.get("car"):
        return Spot(
            "garage", f"car:{action['car']}", car_label(action["car"]), f"shop:{action['card']}"
        )
    if kind == "buy":
        return Spot("shop", f"shop:{action['card']}", upgrade_label(action["card"]))
    if kind == "sell":
        return Spot("garage", f"upgrade:{action['card']}", upgrade_label(action["card"]))
    if kind == "buy_car":
        return Spot("dealership", f"deal:{action['car']}", car_label(action["car"]))
    return None


def candidates(view: View, seat: str, legal: list[Action]) -> list[Action]:
    """Every location card in hand on every spot, and every car of the dealership: the ones
    the rules refuse stay dim with their reason."""
    offered = kinds(legal)
    if "place" in offered:
        spots = range(1, len(view.get("spots", [])) + 1)
        return [
            {"type": "place", "card": card, "spot": n}
            for card in view.get("hand", [])
            for n in spots
        ]
    if "buy_car" in offered:
        cars = [car for row in view.get("dealership", {}).values() for car in row]
        return [{"type": "buy_car", "car": car} for car in cars]
    return []


def source_text(key: str, view: View) -> str:
    kind, _sep, card = key.partition(":")
    return location_label(card) if kind == "hand" else upgrade_label(card)


def source_face(key: str) -> str | None:
    """A location card in hand is drawn as itself; an upgrade in the shop as words."""
    kind, _sep, card = key.partition(":")
    return card if kind == "hand" else None


LAYOUT = Layout(AREAS, spot, candidates, source_text, source_face)
