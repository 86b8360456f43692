"""Street Art: play street performers, steal the audience's hearts (rules only, no I/O)."""

from rules.street_art.engine import STREET_ART, StreetArt, StreetArtState

__all__ = ["STREET_ART", "StreetArt", "StreetArtState"]
