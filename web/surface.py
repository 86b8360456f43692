"""The hand page (``/h/<signed link>``): the seat's turn played on one surface of buttons.

A tap on a lit target adds that step to the turn being built, a tap on a piece picks it up
(its places light), a tap on a dim one says why not; the turn is sent with one Confirm. What
the targets are, why a dim one is refused and what a step would do all come from
``bot.presentation`` (worked out once, below both front doors, from the seat's own view); this
module only reads the request and fills the template. The choices travel in the address
(``?steps=0.3&pick=hand:L05``), so the page works without a script, and the script
(``play.js``) sends the same ones without leaving the page.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from aiohttp import web
from markupsafe import Markup

from bot import hints, teaching
from bot.errors import ServiceError, StaleRequest
from bot.i18n import N_, _
from bot.presentation import LAYOUTS, Target, Turn, Unbuildable, build
from bot.presentation.confirm import confirm, mistake
from bot.read_model import ReadModel
from bot.store.base import GameRecord
from bot.teaching.tables import REAL_GAME_NOTE, learnt, real_game
from bot.words import WORDS
from web import hints as hint_door
from web import pages
from web.limits import posted_form, whole
from web.links import HAND_LINK_SECONDS, Hand, sign_hand
from web.templating import render

if TYPE_CHECKING:
    from web.app import Table

log = logging.getLogger(__name__)

#: Told turns the page lists under the board (the newest), so a player back after a day sees
#: what happened since.
TOLD_TURNS = 12
#: Why a place that takes a card says nothing yet.
PICK_FIRST = N_("Pick up a card first, then choose where it goes.")
#: The notes a hand page may show (the address carries the key, never text).
NOTES = {
    "moved": N_("Done."),
    "stale": N_("The game moved on before your move arrived: here it is now."),
    "refused": N_("That move cannot be made now."),
    "lost": N_("The game moved on: your turn so far was not sent. Here it is now."),
}


@dataclass
class Area:
    """One area of the surface with the targets it shows now."""

    id: str
    title: str
    targets: list[Target] = field(default_factory=list)


def steps_of(text: str) -> list[int]:
    """``"0.3.1"`` -> ``[0, 3, 1]``; anything else is a forged address."""
    if not text:
        return []
    try:
        return [int(part) for part in text.split(".")]
    except ValueError as error:
        raise web.HTTPBadRequest(text="steps are whole numbers joined by dots") from error


def steps_text(steps: list[int]) -> str:
    return ".".join(str(n) for n in steps)


def areas_of(turn: Turn, pick: str | None) -> list[Area]:
    """The areas in board order with the targets to draw: pieces to pick up and places of
    one tap always; a place that takes a picked piece only for the piece picked (a place
    with none for it, or before any is picked, is drawn dim saying to pick one first)."""
    areas = {area: Area(area, _(title)) for area, title in LAYOUTS[turn.game].areas}
    waiting: dict[str, Target] = {}
    shown: set[str] = set()
    for target in turn.targets:
        if target.source is None or target.source == pick:
            areas[target.area].targets.append(target)
            shown.add(target.key)
        else:
            waiting.setdefault(target.key, target)
    for key, target in waiting.items():
        if key not in shown:
            areas[target.area].targets.append(
                Target(target.area, key, target.text, target.text, why=_(PICK_FIRST))
            )
    return [area for area in areas.values() if area.targets]


#: What grants a page a seat: the request in, the game, the seat and the language out (a
#: hand link's ``Table.hand_game``, or the Activity's session), refusing with an HTTP error.
Grant = hint_door.Grant


def hand_base(request: web.Request) -> str:
    """Where a hand link's page lives: every address of the page starts here."""
    return f"/h/{request.match_info['token']}"


#: Where a page that a request opened for a seat lives (the request, the game, the seat in):
#: a new hand link's, or nothing where the page's script opens it (the Activity).
Opener = Callable[[web.Request, GameRecord, str], str]


class HandPage:
    """The hand page's handlers, over the web table's ``Table`` (its memo). ``grant`` says
    which seat a request plays (a hand link's by default), ``base_of`` where its page's
    addresses start and ``page_of`` where a game it opens is played: the Discord Activity
    plays the same page through its own session."""

    def __init__(
        self,
        table: Table,
        grant: Grant | None = None,
        base_of: Callable[[web.Request], str] = hand_base,
        page_of: Opener | None = None,
    ) -> None:
        self.table = table
        self.grant = grant or table.hand_game
        self.base_of = base_of
        self.page_of = page_of or self.hand_link

    def hand_link(self, _request: web.Request, record: GameRecord, seat: str) -> str:
        """A new hand link to ``seat`` in ``record`` (the page is the link's own)."""
        expires = int(self.table.clock()) + HAND_LINK_SECONDS
        return f"/h/{sign_hand(self.table.secret, Hand(record.id, seat, expires))}"

    async def fragment_for(
        self,
        record: GameRecord,
        seat: str,
        base: str,
        steps: list[int],
        pick: str,
        note: str,
        hint: tuple[str, tuple[str, ...]] = ("", ()),
    ) -> Markup:
        """The page's live part, as the template writes it (markup, escaped inside);
        ``hint``: the step of the seat's hint shown, and its lines (``web.hints``)."""
        service = self.table.service
        read = service.read(record)
        turn = None
        if record.state is not None:
            try:
                turn = build(read.engine, read.state, seat, read.names, steps)
            except Unbuildable:
                steps, pick, note = [], "", _(NOTES["lost"])
                turn = build(read.engine, read.state, seat, read.names, steps)
            if pick not in {t.key for t in turn.targets if t.picks and t.why is None}:
                pick = ""
        return Markup(
            render(
                "hand_fragment.html",
                base=base,
                game=record.game,
                note=note,
                version=read.version,
                turn_line=turn_line(read, seat),
                mistake=(self.table.notes.of(record.id, seat, record.version) or "").splitlines(),
                real_game=_(REAL_GAME_NOTE).format(game=read.title) if learnt(record) else "",
                lessons=teaching.sentences(read.lessons(seat, [b.action for b in turn.built]))
                if turn
                else [],  # a teaching table's, as on Discord
                turn=turn,
                steps=steps_text(steps),
                pick=pick,
                undoable=any(not step.automatic for step in turn.built) if turn else False,
                areas=areas_of(turn, pick or None) if turn else [],
                board=f"{base}/board/{record.version}.png" if record.state is not None else None,
                hand_picture=None
                if turn and any(t.face for t in turn.targets)
                else await self.hand_picture(read, seat, base),
                hand_text=WORDS[record.game].hand_text(read.view(seat)) if record.state else "",
                told=await self.told(record),
                hint_label=hints.button_label(record)
                if hints.allowed(record) and turn is not None and turn.moving
                else None,
                hint_step=hint[0],
                hint=hint[1],
            )
        )

    async def hand_picture(self, read: ReadModel, seat: str, base: str) -> str | None:
        if read.record.state is None or await read.hand_picture(seat) is None:
            return None
        return f"{base}/hand/{read.record.version}.png"

    async def told(self, record: GameRecord) -> list[tuple[int, list[str]]]:
        """The newest told turns, each with its number (the page marks those the player has
        not seen)."""
        if record.state is None:
            return []
        replayed = await self.table.replay_of(record)
        first = max(1, replayed.last - TOLD_TURNS + 1)
        return [(t, replayed.lines(t)) for t in range(first, replayed.last + 1)]

    async def face(self, request: web.Request) -> web.StreamResponse:
        """A card's face for a button of the surface: only a card the seat's own view holds
        (its hand, the table), so no address can draw a card the seat may not see."""
        record, seat, lang = await self.grant(request)
        card = request.match_info["card"]
        if record.state is None or json.dumps(card) not in json.dumps(
            self.table.service.read(record).view(seat)
        ):
            raise web.HTTPNotFound
        try:
            png = await self.table.service.pictures.face(record.game, card, lang=lang)
        except KeyError:  # a word of the view that names no card ("players")
            png = None
        if png is None:
            raise web.HTTPNotFound
        return web.Response(body=png, content_type="image/png", headers=FACE_CACHE)

    def chosen(self, request: web.Request) -> tuple[list[int], str]:
        return steps_of(request.query.get("steps", "")), request.query.get("pick", "")

    async def page(self, request: web.Request) -> web.StreamResponse:
        record, seat, lang = await self.grant(request)
        base = self.base_of(request)
        shown = request.query.get("note", "")
        note = _(NOTES[shown]) if shown in NOTES else ""
        steps, pick = self.chosen(request)
        step = request.query.get("hint", "")
        hint = (step, await hint_door.taken(self.table, record, seat, step))
        fragment = await self.fragment_for(record, seat, base, steps, pick, note, hint)
        title = self.table.service.read(record).title
        text = render(
            "hand.html",
            title=title,
            lang=lang,
            scripts=(),
            modules=("play.js",),
            base=base,
            fragment=fragment,
            game_id=record.id,
        )
        return web.Response(text=text, content_type="text/html", headers=NO_STORE)

    async def fragment(self, request: web.Request) -> web.StreamResponse:
        record, seat, _lang = await self.grant(request)
        base = self.base_of(request)
        steps, pick = self.chosen(request)
        text = await self.fragment_for(record, seat, base, steps, pick, "")
        return web.Response(text=text, content_type="text/html", headers=NO_STORE)

    async def turn(self, request: web.Request) -> web.StreamResponse:
        """A tap sent as a form (no script): a step added, a piece picked, the last step
        taken back (answered with the page again), or the turn confirmed: applied through
        ``bot.presentation.confirm`` at the version the page showed."""
        record, seat, _lang = await self.grant(request)
        form = await posted_form(request)
        base = self.base_of(request)
        steps = steps_of(str(form.get("steps", "")))
        pick = str(form.get("pick", ""))
        version = whole(str(form.get("version", "")))
        if "confirm" not in form:
            if "add" in form:
                steps, pick = [*steps, *steps_of(str(form["add"]))], ""
            elif "undo" in form:
                steps, pick = steps[:-1], ""
            query = urlencode({"steps": steps_text(steps), "pick": pick})
            raise web.HTTPSeeOther(f"{base}?{query}")
        note = await self.send(record, seat, steps, version)
        if request.headers.get("Accept") == "application/json":
            return web.json_response({"note": _(NOTES[note]), "sent": note}, headers=NO_STORE)
        raise web.HTTPSeeOther(f"{base}?note={note}")

    async def send(self, record: GameRecord, seat: str, steps: list[int], version: int) -> str:
        """The turn applied, and at a teaching table the mistake note it earned kept for the
        page (``web.notes``); the key of the note that says how it went."""
        service = self.table.service
        before = service.read(record)
        try:
            results = await confirm(service, record, seat, steps, version)
        except StaleRequest:
            return "stale"
        except ServiceError as error:
            log.info("web turn refused in game %s: %s", record.id, error.message)
            return "refused"
        note = await mistake(service, before, seat, results)
        self.table.notes.sent(record.id, seat, note, results[-1].record.version)
        return "moved"

    async def real(self, request: web.Request) -> web.StreamResponse:
        """The end screen of a teaching table: a real game (``bot.teaching.tables``), then
        its page; a refusal (a cap, a game already open here) is said in a sentence."""
        record, seat, lang = await self.grant(request)
        try:
            opened = await real_game(self.table.service, record, seat)
        except ServiceError as error:
            if request.headers.get("Accept") == "application/json":
                return web.json_response({"note": error.message}, headers=NO_STORE)
            page = pages.message_page(_("Play a real game"), error.message, lang)
            return web.Response(status=409, text=page, content_type="text/html", headers=NO_STORE)
        where = self.page_of(request, opened, seat)
        if request.headers.get("Accept") == "application/json":
            title = self.table.service.read(opened).title
            answer = {"game": opened.id, "title": title, "page": where}
            return web.json_response(answer, headers=NO_STORE)
        raise web.HTTPSeeOther(where)


def turn_line(read: ReadModel, seat: str) -> str:
    """Whose turn it is, said to the seat ("Your turn."), or why nobody's."""
    if read.record.state is None:
        return _("The game has not started yet.")
    if not read.to_move:
        return _("The game is over.")
    return _("Your turn.") if read.to_move == [seat] else read.turn_message()


NO_STORE = {"Cache-Control": "no-store"}
#: A card's face never changes: the player's browser keeps it (and only theirs: the link is).
FACE_CACHE = {"Cache-Control": "private, max-age=86400"}


def routes(table: Table) -> list[web.RouteDef]:
    """The hand page's routes over ``table``."""
    page = HandPage(table)
    return [
        web.get("/h/{token}", page.page),
        web.get("/h/{token}/fragment", page.fragment),
        web.post("/h/{token}/turn", page.turn),
        web.post("/h/{token}/real", page.real),
        web.get(r"/h/{token}/face/{card:[A-Za-z0-9_-]{1,40}}.png", page.face),
        *hint_door.routes(table),
    ]
