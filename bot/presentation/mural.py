"""Street Art: Mural's surface: the display's cards, the mural's cells, the discs (and the
segments on them), the paint queue, the seat's backpack and its other choices."""

from __future__ import annotations

from bot.i18n import N_, _
from bot.presentation.spots import Action, Layout, Spot, View, kinds
from bot.words.mural import action_label, disc_name, paint_name
from rules.mural.data import DISCS
from rules.mural.state import cell_name

AREAS = (
    ("display", N_("Display")),
    ("mural", N_("Mural")),
    ("discs", N_("Discs")),
    ("queue", N_("Paint queue")),
    ("backpack", N_("Your backpack")),
    ("controls", N_("Your move")),
)
#: Choices about the paints in the backpack (what to give, mix, discard or leave unpaid).
BACKPACK = frozenset({"swap", "mix", "discard", "copy", "skip", "fill", "queue", "place"})


def spot(action: Action, view: View, seat: str, names: dict[str, str]) -> Spot | None:
    kind = action["type"]
    if kind == "paint":
        card = str(action["card"])
        return Spot("display", f"card:{card}", card, face=card)
    if kind == "cell":
        return Spot(
            "mural",
            f"cell:{action['row']}:{action['col']}",
            cell_name(action["row"], action["col"]),
        )
    if kind == "disc":
        discs = action["discs"]
        text = " + ".join(disc_name(d) for d in discs)
        return Spot("discs", "disc:" + "-".join(str(d) for d in discs), text)
    if kind in ("collect", "segment"):
        key = f"segment:{action['disc']}:{action['segment']}"
        text = f"{disc_name(action['disc'])} {action['at']}: {paint_name(action['paint'])}"
        return Spot("discs", key, text)
    if kind == "pick":
        return Spot(
            "queue",
            f"queue:{action['index']}",
            f"{action['index'] + 1}: {paint_name(action['paint'])}",
        )
    if kind == "insert":
        return Spot(
            "queue", f"queue:{action['position']}", _("space {n}").format(n=action["position"] + 1)
        )
    if kind in BACKPACK or kind == "turn":
        area = "discs" if kind == "turn" else "backpack"
        return Spot(area, f"{kind}:{sorted(action.items())}", action_label(action, {}))
    return None


def candidates(view: View, seat: str, legal: list[Action]) -> list[Action]:
    """Every cell of the mural, every card of the display, every disc: whichever this step
    is about, so a dim one can say why not."""
    offered = kinds(legal)
    if "cell" in offered:
        grid = view["mural"]
        return [
            {"type": "cell", "row": r, "col": c}
            for r in range(len(grid))
            for c in range(len(grid[r]))
        ]
    if "paint" in offered:
        return [{"type": "paint", "card": card} for card in view.get("display", []) if card]
    if "disc" in offered and all(
        len(a.get("discs", [0])) == 1 for a in legal if a["type"] == "disc"
    ):
        return [{"type": "disc", "discs": [d]} for d in range(DISCS)]
    return []


LAYOUT = Layout(AREAS, spot, candidates)
