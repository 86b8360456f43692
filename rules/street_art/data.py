"""Street Art component data, from the rulebook's "Components" section
(retold in docs/rules/street-art.md) and the component notes B1-B3
(their readings are listed there too).

Everything countable about the game lives here, so the engine holds rules only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class CardInfo:
    """One kind of card: ``value`` is the hearts a Street Star gives (``None`` for Special Cards),
    ``count`` how many copies the deck holds."""

    id: str
    name: str
    kind: Literal["star", "special"]
    value: int | None
    count: int


#: "Street Stars (the number in the card corners is the number of hearts the card gives you)"
#: and "Special Cards", in the rulebook's order.
CARDS: dict[str, CardInfo] = {
    info.id: info
    for info in (
        CardInfo("breakdancer", "Breakdancer", "star", 2, 4),
        CardInfo("bmx-artist", "BMX Artist", "star", 2, 4),
        CardInfo("juggler", "Juggler", "star", 2, 4),
        CardInfo("fire-breather", "Fire Breather", "star", 4, 4),
        CardInfo("street-painter", "Street Painter", "star", 3, 5),
        CardInfo("cyr-wheel-acrobat", "Cyr Wheel Acrobat", "star", 3, 5),
        CardInfo("living-statue", "Living Statue", "star", 3, 5),
        CardInfo("beatboxer", "Beatboxer", "special", None, 7),
        CardInfo("fireworks", "Fireworks", "special", None, 8),
        CardInfo("brass-band", "Brass Band", "special", None, 12),
        CardInfo("rain", "Rain", "special", None, 2),
    )
}

BEATBOXER = "beatboxer"
FIREWORKS = "fireworks"
BRASS_BAND = "brass-band"
RAIN = "rain"

#: The 60 cards, in a fixed order that ``start`` shuffles.
DECK: tuple[str, ...] = tuple(card for card, info in CARDS.items() for _ in range(info.count))

#: "36 audience chips (12x and 24x)": 12 one-heart and 24 two-heart chips (B1), so 60 hearts.
CHIPS: dict[int, int] = {1: 12, 2: 24}
HEARTS: int = sum(hearts * count for hearts, count in CHIPS.items())

#: "Shuffle the cards face down and deal 5 cards to each player."
HAND_SIZE = 5

#: Fireworks: "You may steal 2 hearts from any player."
FIREWORKS_HEARTS = 2

#: Rain, "If someone has a Special Card showing": what Fireworks and a Brass Band on top cost.
#: (A Beatboxer costs as many as there are Beatboxers showing; that is a count, not data.)
RAIN_LOSS: dict[str, int] = {FIREWORKS: 2, BRASS_BAND: 1}

assert len(DECK) == 60, "the rulebook's 60 cards"
assert HEARTS == 60, "B1: 12 x 1 + 24 x 2 hearts"
