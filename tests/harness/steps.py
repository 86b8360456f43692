"""Whole steps on a hand panel (``bot.steps``), as a test driver takes them: the button of a
step that starts with the move the driver chose from ``legal()``."""

from __future__ import annotations

import random

from bot import steps
from cogs.items import STEPS, parse
from tests.harness.harness import Harness
from tests.harness.models import ComponentInfo, SeenMessage, User


async def whole_step(h: Harness, user: User, panel: SeenMessage, index: int) -> str | None:
    """The custom id of a whole step on ``panel`` that starts with ``legal()[index]`` (one
    of them, by a choice that depends on the game alone), or None if the panel offers none."""
    whole = [b.custom_id for b in panel.buttons if f":{STEPS}:" in (b.custom_id or "")]
    if not whole:
        return None
    click = parse(whole[0] or "")
    assert click is not None
    service = h.bot.service
    read = service.read(await service.get(click.game))
    move = read.legal(str(user.id))[index]
    fits = [i for i, c in enumerate(steps.composed(read, str(user.id))) if c.steps[0] == move]
    chosen = random.Random(f"{click.game}-{click.version}-whole").choice(fits)
    return next(c for c in whole if c and c.endswith(f":{STEPS}:{chosen}:{click.version}"))


#: The hand panel's help beside its choices (issue 39): Hint, and "Why not…?".
HELP = (":hint:", ":whynot:")


def choice_buttons(panel: SeenMessage) -> list[ComponentInfo]:
    """A panel's buttons that are moves (what a driver picks from), without its help."""
    return [b for b in panel.buttons if not any(v in (b.custom_id or "") for v in HELP)]
