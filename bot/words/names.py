"""The words of the games' components that rules/ data names in English (Street Art's cards,
ArtSee's categories, Mural's paints and Basquiat techniques, Street Kings' stats), put into
the message catalog: rules/ stays pure, without a catalog, so the words translate its names
where they show them (``_(CARDS[card].name)``), and this extractor gives the catalog every
one of them, read from the data itself, so a card added there is never missed.

Street Kings' cars, upgrades and locations keep their printed names: they are card names.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from images.mural import MAIN_ACTION
from rules.artsee.data import CATEGORY_NAMES
from rules.mural.data import COLOUR_NAMES, TECHNIQUES
from rules.street_art.data import CARDS
from rules.street_kings.data import STAT_NAMES


def component_names() -> Iterator[tuple[str, str]]:
    """(English name, what it is) for every component name the words translate."""
    for card in CARDS.values():
        yield card.name, "A Street Art card."
    for category in CATEGORY_NAMES.values():
        yield category, "An ArtSee category (also a piece of art of it)."
    for colour in COLOUR_NAMES.values():
        yield colour, "A Mural paint (its colour, or advanced)."
    for technique in TECHNIQUES.values():
        yield technique.name, f"A Basquiat technique; the rulebook's name: {technique.portuguese}."
        effect = technique.effect.replace(MAIN_ACTION, "")
        yield effect, "What a Basquiat technique does, as its tile on the board says."
    for stat in STAT_NAMES.values():
        yield stat, "A Street Kings car stat."


def extract_names(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """A Babel extractor (babel.cfg's ``[names: ...]``): the file only anchors it."""
    for name, what in component_names():
        yield 1, None, name, [what]
