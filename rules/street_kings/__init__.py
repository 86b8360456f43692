"""Street Kings: buy, upgrade and race cars for gold trophies (rules only, no I/O)."""

from rules.street_kings.engine import STREET_KINGS, StreetKings

__all__ = ["STREET_KINGS", "StreetKings"]
