"""Pure game engines and their registry ``GAMES`` (game id -> engine)."""

from rules.artsee import ARTSEE
from rules.mural import MURAL
from rules.protocol import Action, Event, Game, IllegalAction, Outcome, View, merge_options, rng
from rules.street_art import STREET_ART
from rules.street_kings import STREET_KINGS

GAMES: dict[str, Game] = {game.id: game for game in (STREET_ART, ARTSEE, MURAL, STREET_KINGS)}

__all__ = [
    "GAMES",
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "Outcome",
    "View",
    "merge_options",
    "rng",
]
