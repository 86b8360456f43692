"""The hand page's Hint (issue 39): the same two steps as the Discord panel's, from
``bot.hints``. A hint is taken only by a POST from the page (only the table's own pages may
post: ``web.security``); the page without a script then shows it by its address (``?hint=1``,
``?hint=2``: shown only once taken), the script shows it in place."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from aiohttp import web

from bot.errors import ServiceError
from bot.hints import COSTS
from bot.i18n import N_, _
from bot.store.base import GameRecord
from web.limits import posted_form, whole
from web.templating import told

if TYPE_CHECKING:
    from web.app import Table

#: What grants a request a seat (``web.surface.Grant``, which imports this module).
Grant = Callable[[web.Request], Awaitable[tuple[GameRecord, str, str]]]

#: The steps a page may ask for: what to look at, then the move too.
STEPS = ("1", "2")
MOVED_ON = N_("The game moved on: ask for a hint again.")


async def lines(table: Table, record: GameRecord, seat: str, step: str) -> tuple[str, ...]:
    """The hint's lines at ``step``: what to look at (and what taking it costs), then the
    move too at step 2."""
    service = table.service
    shown = await service.hints.hint(service, record, seat)
    first = (shown.look, *([_(COSTS)] if shown.costs else []))
    return (*first, shown.move) if step == "2" else first


async def taken(table: Table, record: GameRecord, seat: str, step: str) -> tuple[str, ...]:
    """The lines a page's address asks for (``?hint=``), only for a hint the seat has taken
    already (a link opened anywhere never takes one); none otherwise."""
    if step not in STEPS or seat not in await table.service.store.hinted(record.id):
        return ()
    try:
        return await lines(table, record, seat, step)
    except ServiceError:  # the game moved on: that hint is gone
        return ()


class HintDoor:
    """``POST /h/<link>/hint``: a step of the seat's hint, at the version its page showed.
    ``grant`` and ``base_of``: which seat a request plays and where its page is (a hand
    link's by default; the Activity's session plays the same door)."""

    def __init__(
        self,
        table: Table,
        grant: Grant | None = None,
        base_of: Callable[[web.Request], str] | None = None,
    ) -> None:
        self.table = table
        self.grant = grant or table.hand_game
        self.base_of = base_of or (lambda request: f"/h/{request.match_info['token']}")

    async def hint(self, request: web.Request) -> web.StreamResponse:
        record, seat, _lang = await self.grant(request)
        form = await posted_form(request)
        version = whole(str(form.get("version", "")))
        step = "2" if form.get("step") == "2" else "1"
        base = self.base_of(request)
        if self.table.service.read(record).version != version:
            said: tuple[str, ...] = (_(MOVED_ON),)
        else:
            try:
                said = await lines(self.table, record, seat, step)
            except ServiceError as error:
                said = (error.message,)
        if request.headers.get("Accept") == "application/json":
            html = "".join(f"<p>{told(line)}</p>" for line in said)
            return web.json_response({"html": html, "step": step}, headers=NO_STORE)
        raise web.HTTPSeeOther(f"{base}?hint={step}")


NO_STORE = {"Cache-Control": "no-store"}


def routes(table: Table) -> list[web.RouteDef]:
    return [web.post("/h/{token}/hint", HintDoor(table).hint)]
