"""A turn presented once, below both front doors: the targets of each step, why a dim one is
refused, and what a step would do, worked out from one seat's knowledge (``turn.build``).
The web's hand page draws them; a Discord panel may draw the same."""

from bot.presentation.turn import LAYOUTS, Built, Target, Turn, Unbuildable, build, dry_run

__all__ = ["LAYOUTS", "Built", "Target", "Turn", "Unbuildable", "build", "dry_run"]
