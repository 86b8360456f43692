"""Street Art: Mural: rotate paint discs, collect paints, paint the mural (rules only, no I/O)."""

from rules.mural.engine import MURAL, Mural

__all__ = ["MURAL", "Mural"]
