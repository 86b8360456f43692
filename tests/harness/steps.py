"""Whole steps on a hand panel (``bot.steps``), as a test driver takes them: the button, or
the option of a select of whole steps, of a step that starts with the move the driver chose
from ``legal()``."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot import steps
from cogs.items import STEP_PICK, STEPS, parse
from tests.harness.harness import Harness, Response
from tests.harness.models import ComponentInfo, SeenMessage, User


@dataclass(frozen=True)
class WholeStep:
    """Where a whole step is on a panel: a button, or an option (``value``) of a select."""

    custom_id: str
    value: str | None = None

    @property
    def is_select(self) -> bool:
        return self.value is not None

    async def take(self, h: Harness, user: User, panel: SeenMessage) -> Response:
        if self.value is None:
            return await h.click(user, panel, self.custom_id)
        return await h.select(user, panel, self.custom_id, [self.value])


async def whole_step(h: Harness, user: User, panel: SeenMessage, index: int) -> WholeStep | None:
    """A whole step on ``panel`` that starts with ``legal()[index]`` (one of them, by a choice
    that depends on the game alone), or None if the panel offers none."""
    buttons = [b.custom_id for b in panel.buttons if f":{STEPS}:" in (b.custom_id or "")]
    selects = [s for s in panel.selects if f":{STEP_PICK}" in (s.custom_id or "")]
    if not buttons and not selects:
        return None
    click = parse((buttons or [s.custom_id for s in selects])[0] or "")
    assert click is not None
    service = h.bot.service
    read = service.read(await service.get(click.game))
    move = read.legal(str(user.id))[index]
    fits = [i for i, c in enumerate(steps.composed(read, str(user.id))) if c.steps[0] == move]
    # a choice that depends on the game and its version alone, not on the record's random id
    chosen = random.Random(f"{read.record.game}-{click.version}-whole").choice(fits)
    for custom_id in buttons:
        if custom_id and custom_id.endswith(f":{STEPS}:{chosen}:{click.version}"):
            return WholeStep(custom_id)
    select = next(s for s in selects if str(chosen) in s.option_values)
    assert select.custom_id is not None
    return WholeStep(select.custom_id, str(chosen))


#: The hand panel's help beside its choices (issue 39): Hint, and "Why not…?".
HELP = (":hint:", ":whynot:")


def choice_buttons(panel: SeenMessage) -> list[ComponentInfo]:
    """A panel's buttons that are moves (what a driver picks from), without its help."""
    return [b for b in panel.buttons if not any(v in (b.custom_id or "") for v in HELP)]


async def take_move(h: Harness, user: User, panel: SeenMessage, index: int) -> list[Response]:
    """Take the move at ``index`` of ``legal()`` on an open hand panel, as a player does: a
    whole step that starts with it, else its option in a select, else its button; a choice
    that asks first (a Mural pass) is confirmed. Every response, in order."""
    select = next((s for s in panel.selects if str(index) in s.option_values), None)
    whole = await whole_step(h, user, panel, index)
    if whole is not None:
        response = await whole.take(h, user, panel)
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
