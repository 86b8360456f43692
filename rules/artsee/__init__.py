"""ArtSee: galleries of exhibits, visitors, masterpieces (rules only, no I/O)."""

from rules.artsee.engine import ARTSEE, ArtSee, ArtSeeState

__all__ = ["ARTSEE", "ArtSee", "ArtSeeState"]
