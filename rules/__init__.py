"""Pure game engines and their registries, side by side and keyed by the engine's id:
``GAMES`` (game id -> engine) and ``DETERMINIZERS`` (game id -> ``determinize(view, player,
rng) -> state``: a full state consistent with everything that player knows, what they cannot
see dealt anew, for AI search that never peeks)."""

from collections.abc import Callable
from random import Random
from typing import Any

from rules.artsee import ARTSEE
from rules.artsee import determinize as artsee_determinize
from rules.mural import MURAL
from rules.mural import determinize as mural_determinize
from rules.protocol import Action, Event, Game, IllegalAction, Outcome, View, merge_options, rng
from rules.street_art import STREET_ART
from rules.street_art import determinize as street_art_determinize
from rules.street_kings import STREET_KINGS
from rules.street_kings import determinize as street_kings_determinize

GAMES: dict[str, Game] = {game.id: game for game in (STREET_ART, ARTSEE, MURAL, STREET_KINGS)}

Determinizer = Callable[[View, str, Random], Any]
DETERMINIZERS: dict[str, Determinizer] = {
    STREET_ART.id: street_art_determinize.determinize,
    ARTSEE.id: artsee_determinize.determinize,
    MURAL.id: mural_determinize.determinize,
    STREET_KINGS.id: street_kings_determinize.determinize,
}

__all__ = [
    "DETERMINIZERS",
    "GAMES",
    "Action",
    "Determinizer",
    "Event",
    "Game",
    "IllegalAction",
    "Outcome",
    "View",
    "merge_options",
    "rng",
]
