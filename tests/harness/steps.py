"""Whole steps on a hand panel (``bot.steps``), as a test driver takes them: the button of a
step that starts with the move the driver chose from ``legal()``."""

from __future__ import annotations

import random

from bot import steps
from cogs.items import STEPS, parse
from tests.harness.harness import Harness, Response
from tests.harness.models import SeenMessage, User


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


async def take_move(h: Harness, user: User, panel: SeenMessage, index: int) -> list[Response]:
    """Take the move at ``index`` of ``legal()`` on an open hand panel, as a player does: a
    whole step that starts with it, else its option in a select, else its button; a choice
    that asks first (a Mural pass) is confirmed. Every response, in order."""
    select = next((s for s in panel.selects if str(index) in s.option_values), None)
    whole = await whole_step(h, user, panel, index)
    if whole is not None:
        response = await h.click(user, panel, whole)
    elif select is not None:
        response = await h.select(user, panel, select.custom_id, [str(index)])
    else:
        button = next(b for b in panel.buttons if f":act:{index}:" in (b.custom_id or ""))
        response = await h.click(user, panel, button.custom_id)
    sure = [
        m
        for m in response.ephemeral_messages
        if any(":sure:" in (b.custom_id or "") for b in m.buttons)
    ]
    if not sure:
        return [response]
    yes = next(b for b in sure[-1].buttons if ":sure:" in (b.custom_id or ""))
    return [response, await h.click(user, sure[-1], yes.custom_id)]
