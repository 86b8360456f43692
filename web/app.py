"""The web table's HTTP handlers: requests in, the same service calls as the cogs, pages out.

Public pages (``/g/<public id>``) exist only for games whose channel everyone on their server
can view, on servers that keep the web table on, and show only the public view and what the
posts told. A hand page (``/h/<signed link>``) shows one player their own view and takes their
moves through ``GameService.move`` with the same version check as a button. Every event stream
carries only a version number: a page fetches its own fragment again, through the same checks.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.changes import Change
from bot.errors import ServiceError, StaleRequest
from bot.i18n import N_, _, current, set_language
from bot.read_model import turn_version
from bot.replay import Replay, open_replay
from bot.replay import gif as replay_gif
from bot.results import display_rating
from bot.service import GameService, is_ai
from bot.store.base import GameRecord, ResultRow
from bot.words import WORDS, label_for
from rules import GAMES
from web import pages, tournaments
from web.links import LinkRefused, read_hand
from web.memo import Memo
from web.ratelimit import RateLimit
from web.scores import score_text

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
#: No inline script or style, nothing from elsewhere, no framing.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: Seconds between keep-alive comments on an idle event stream (proxies drop silent ones).
KEEPALIVE = 15.0
#: Turn lines a table page shows (the newest).
LOG_LINES = 200

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class NotShown(Exception):
    """A page that does not exist for this visitor (no game, not public, web table off)."""


class Watchers:
    """The open event streams, by game: one subscription to the change hub for all of them.
    A change carries its version, so a stream passes it on without reading the store: a
    thousand open pages cost no query per move."""

    def __init__(self) -> None:
        self._events: dict[str, set[asyncio.Event]] = {}
        #: The newest version heard of each watched game.
        self.latest: dict[str, int] = {}
        self.closing = asyncio.Event()

    def heard(self, change: Change) -> None:
        watching = self._events.get(change.game_id)
        if not watching:
            return
        self.latest[change.game_id] = max(change.version, self.latest.get(change.game_id, 0))
        for event in watching:
            event.set()

    def add(self, game_id: str) -> asyncio.Event:
        event = asyncio.Event()
        self._events.setdefault(game_id, set()).add(event)
        return event

    def drop(self, game_id: str, event: asyncio.Event) -> None:
        watching = self._events.get(game_id, set())
        watching.discard(event)
        if not watching:
            self._events.pop(game_id, None)
            self.latest.pop(game_id, None)

    def close(self) -> None:
        """The server is stopping: every stream ends at once."""
        self.closing.set()
        for events in self._events.values():
            for event in events:
                event.set()


class Table:
    """The handlers, over one service (``secret``: the key of public ids and hand links)."""

    def __init__(
        self,
        service: GameService,
        secret: bytes,
        clock: Callable[[], float] = time.time,
        poll: float = KEEPALIVE,
    ) -> None:
        self.service = service
        self.secret = secret
        self.clock = clock
        #: Seconds an idle stream waits before it looks at the store itself: the keep-alive
        #: period, or less in a process that hears no changes (alone on SQLite).
        self.poll = poll
        self.watchers = Watchers()
        self.memo = Memo()

    # -- finding the game ----------------------------------------------------------------

    async def replay_of(self, record: GameRecord) -> Replay:
        """The game's told turns, rebuilt once per version however many pages ask at once."""
        return await self.memo.get(
            ("replay", record.id, record.version), lambda: open_replay(self.service, record)
        )

    async def language(self, record: GameRecord) -> str:
        settings = await self.service.guild_settings(record.guild)
        lang = settings.language or "en"
        set_language(lang)
        return lang

    async def public_game(self, request: web.Request) -> tuple[GameRecord, str]:
        """The game a public address names, if the world may see it."""
        pid = request.match_info["pid"]
        row = await self.service.store.web_table(pid)
        if row is None or not row.public:
            raise NotShown
        record = await self.service.store.get_game(row.game_id)
        if record is None or record.game not in GAMES:
            raise NotShown
        if not (await self.service.guild_settings(record.guild)).web:
            raise NotShown
        return record, await self.language(record)

    async def hand_game(self, request: web.Request) -> tuple[GameRecord, str, str]:
        """The game and seat a hand link grants, if its signature holds and it has not lapsed."""
        try:
            hand = read_hand(self.secret, request.match_info["token"], self.clock())
        except LinkRefused as error:
            raise web.HTTPForbidden(
                text=pages.message_page(_("Link refused"), _(str(error))),
                content_type="text/html",
            ) from error
        record = await self.service.store.get_game(hand.game_id)
        if record is None or record.seat_of(hand.player) is None or record.game not in GAMES:
            raise NotShown
        if not (await self.service.guild_settings(record.guild)).web:
            raise NotShown
        return record, hand.player, await self.language(record)

    # -- the public table ------------------------------------------------------------------

    async def table_state(self, record: GameRecord, base: str) -> pages.TableState:
        """What the table page shows at this version, made once for all who ask in this
        language (``current()``)."""
        key = ("table", record.id, record.version, current())
        state: pages.TableState = await self.memo.get(key, lambda: self._table_state(record, base))
        return state

    async def _table_state(self, record: GameRecord, base: str) -> pages.TableState:
        """The game as its public posts left it: the board and scores after the last told
        turn (a turn in progress is the mover's until its post tells it), the turn log, and
        whose move it is now."""
        read = self.service.read(record)
        title = read.title
        if record.state is None:
            names = ", ".join(s.name or s.user for s in record.seats)
            turn = _("Waiting for players: {names}").format(names=names)
            return pages.TableState(title, record.status, record.version, turn, [], [], None)
        replayed = await self.replay_of(record)
        view = replayed.view(replayed.last)
        moving = set(read.to_move)
        players = [
            pages.PlayerLine(
                read.names.get(s.user, s.user),
                score_text(record.game, view, s.user, read.outcome),
                s.user in moving,
                s.ai,
            )
            for s in record.seats
        ]
        turn = read.turn_message() if read.to_move else _("The game is over.")
        board = f"{base}/board/{record.version}.png"
        lines = replayed.all_lines()
        return pages.TableState(title, record.status, record.version, turn, players, lines, board)

    async def table(self, request: web.Request) -> web.StreamResponse:
        record, lang = await self.public_game(request)
        base = f"/g/{request.match_info['pid']}"
        state = await self.table_state(record, base)
        ranks = f"/s/{record.guild}/{record.game}"
        return html(pages.table_page(state, base, lang, ranks))

    async def table_fragment(self, request: web.Request) -> web.StreamResponse:
        record, _lang = await self.public_game(request)
        base = f"/g/{request.match_info['pid']}"
        return html(pages.table_fragment(await self.table_state(record, base)), cache=False)

    async def board(self, request: web.Request) -> web.StreamResponse:
        """The public board now; an address naming an older version is sent to the current."""
        record, lang = await self.public_game(request)
        if record.state is None:
            raise NotShown
        wanted = request.match_info["version"]
        if wanted != str(record.version):
            raise web.HTTPFound(f"/g/{request.match_info['pid']}/board/{record.version}.png")
        png = await self.public_board(record, lang)
        return web.Response(body=png, content_type="image/png", headers=IMMUTABLE)

    async def public_board(self, record: GameRecord, lang: str) -> bytes:
        """The public board after the last told turn, in the server's language."""
        replayed = await self.replay_of(record)
        return await self.turn_board(replayed, replayed.last, lang)

    async def turn_board(self, replayed: Replay, turn: int, lang: str) -> bytes:
        """A told turn's public board, drawn as ``bot.replay.board`` draws it (under the same
        cache key, so Discord's replay viewer and these pages share each picture), in
        ``lang``."""
        record = replayed.record
        key = f"{record.id}:replay:{record.version}"
        view, lines = replayed.view(turn), replayed.lines(turn)
        return await self.service.pictures.board(
            key, turn, record.game, view, replayed.names, lines, lang=lang
        )

    async def events(self, request: web.Request) -> web.StreamResponse:
        record, _lang = await self.public_game(request)
        return await self.stream(request, record.id)

    async def stream(self, request: web.Request, game_id: str) -> web.StreamResponse:
        """Server-sent events: the game's version now, then at each change (``id`` is the
        version, so a browser reconnecting says which it saw, and hears the current one at
        once if it moved meanwhile)."""
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        wake = self.watchers.add(game_id)
        sent = request.headers.get("Last-Event-ID", "")
        record = await self.service.store.get_game(game_id)
        version = record.version if record is not None else None
        try:
            while version is not None and not self.watchers.closing.is_set():
                if str(version) != sent:
                    sent = str(version)
                    await response.write(f"id: {sent}\ndata: {sent}\n\n".encode())
                wake.clear()
                try:
                    await asyncio.wait_for(wake.wait(), self.poll)
                    version = max(version, self.watchers.latest.get(game_id, version))
                except TimeoutError:  # nothing heard: say so, and look (a process alone)
                    await response.write(b": still here\n\n")
                    record = await self.service.store.get_game(game_id)
                    version = record.version if record is not None else None
        except ConnectionResetError:  # the page went away
            pass
        finally:
            self.watchers.drop(game_id, wake)
        return response

    # -- replays ---------------------------------------------------------------------------

    async def replay(self, request: web.Request) -> web.StreamResponse:
        record, lang = await self.public_game(request)
        if record.state is None:
            raise NotShown
        replayed = await self.replay_of(record)
        base = f"/g/{request.match_info['pid']}"
        title = replayed.game.title
        page = pages.replay_page(title, base, len(replayed.turns), replayed.over, lang)
        return html(page)

    async def replay_json(self, request: web.Request) -> web.StreamResponse:
        """Every told turn's lines (the boards are pictures of their own)."""
        record, _lang = await self.public_game(request)
        if record.state is None:
            raise NotShown
        replayed = await self.replay_of(record)
        turns = [
            {"turn": t, "lines": replayed.lines(t), "label": turn_label(t, replayed.last)}
            for t in range(len(replayed.turns))
        ]
        return web.json_response({"version": record.version, "turns": turns}, headers=NO_STORE)

    async def replay_board(self, request: web.Request) -> web.StreamResponse:
        record, lang = await self.public_game(request)
        if record.state is None:
            raise NotShown
        replayed = await self.replay_of(record)
        turn = int(request.match_info["turn"])
        if not 0 <= turn <= replayed.last:
            raise NotShown
        png = await self.turn_board(replayed, turn, lang)
        return web.Response(body=png, content_type="image/png", headers=NO_STORE)

    async def replay_gif(self, request: web.Request) -> web.StreamResponse:
        record, _lang = await self.public_game(request)
        if record.state is None:
            raise NotShown
        replayed = await self.replay_of(record)
        try:
            data = await replay_gif(self.service.pictures, replayed)
        except ServiceError as error:
            raise web.HTTPConflict(text=error.message) from error
        name = f"{record.game}-{request.match_info['pid'][:8]}.gif"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return web.Response(body=data, content_type="image/gif", headers=headers)

    # -- a player's hand -------------------------------------------------------------------

    async def hand_fragment_for(
        self, record: GameRecord, player: str, base: str, note: str = ""
    ) -> str:
        read = self.service.read(record)
        if record.state is None:
            return pages.hand_fragment(
                title=read.title,
                turn=_("The game has not started yet."),
                hand="",
                picture=None,
                board=None,
                choices=[],
                version=record.version,
                action_url=f"{base}/move",
                note=note,
            )
        view = read.view(player)
        legal = read.legal(player)
        labels = [label_for(record.game, a, read.names, view) for a in legal]
        turn = read.turn_message() if read.to_move else _("The game is over.")
        picture = await read.hand_picture(player)
        return pages.hand_fragment(
            title=read.title,
            turn=turn,
            hand=WORDS[record.game].hand_text(view),
            picture=f"{base}/hand/{record.version}.png" if picture else None,
            board=f"{base}/board/{record.version}.png",
            choices=labels,
            version=turn_version(record),
            action_url=f"{base}/move",
            note=note,
        )

    async def hand(self, request: web.Request) -> web.StreamResponse:
        record, player, lang = await self.hand_game(request)
        base = f"/h/{request.match_info['token']}"
        shown = request.query.get("note", "")
        note = _(NOTES[shown]) if shown in NOTES else ""
        fragment = await self.hand_fragment_for(record, player, base, note)
        title = self.service.read(record).title
        return html(pages.hand_page(title, base, fragment, lang), cache=False)

    async def hand_fragment(self, request: web.Request) -> web.StreamResponse:
        record, player, _lang = await self.hand_game(request)
        base = f"/h/{request.match_info['token']}"
        return html(await self.hand_fragment_for(record, player, base), cache=False)

    async def hand_picture(self, request: web.Request) -> web.StreamResponse:
        record, player, _lang = await self.hand_game(request)
        png = await self.service.read(record).hand_picture(player) if record.state else None
        if png is None:
            raise NotShown
        return web.Response(body=png, content_type="image/png", headers=NO_STORE)

    async def hand_board(self, request: web.Request) -> web.StreamResponse:
        record, _player, lang = await self.hand_game(request)
        if record.state is None:
            raise NotShown
        png = await self.public_board(record, lang)
        return web.Response(body=png, content_type="image/png", headers=NO_STORE)

    async def hand_events(self, request: web.Request) -> web.StreamResponse:
        record, _player, _lang = await self.hand_game(request)
        return await self.stream(request, record.id)

    async def move(self, request: web.Request) -> web.StreamResponse:
        """A move from the hand page: the index of a legal action at the version the page
        showed, applied by ``GameService.move`` like a click on a panel's button."""
        record, player, _lang = await self.hand_game(request)
        form = await request.post()
        base = f"/h/{request.match_info['token']}"
        try:
            index, version = int(str(form["index"])), int(str(form["version"]))
        except (KeyError, ValueError) as error:
            raise web.HTTPBadRequest(text="index and version are whole numbers") from error
        note = "moved"
        try:
            if turn_version(record) != version:
                raise StaleRequest(record)
            legal = self.service.read(record).legal(player)
            if not 0 <= index < len(legal):
                raise StaleRequest(record)
            result = await self.service.move(
                record.guild, record.channel, player, legal[index], record.id, version
            )
            await self.service.hand_over(result)
        except StaleRequest:
            note = "stale"
        except ServiceError as error:
            log.info("web move refused in game %s: %s", record.id, error.message)
            note = "refused"
        if request.headers.get("Accept") == "application/json":
            return web.json_response({"note": _(NOTES[note])}, headers=NO_STORE)
        raise web.HTTPSeeOther(f"{base}?note={note}")

    # -- people and ratings -----------------------------------------------------------------

    async def guild_open(self, guild: str) -> str:
        """The server's language, if its pages are on (a server id is digits only)."""
        if not guild.isdigit():
            raise NotShown
        settings = await self.service.guild_settings(guild)
        if not settings.web:
            raise NotShown
        lang = settings.language or "en"
        set_language(lang)
        return lang

    async def server(self, request: web.Request) -> web.StreamResponse:
        """A server's page: each game's leaderboard."""
        lang = await self.guild_open(request.match_info["guild"])
        guild = request.match_info["guild"]
        boards = [(f"/s/{guild}/{game.id}", game.title) for game in GAMES.values()]
        return html(pages.server_page(_("Leaderboards"), boards, lang))

    async def public_results(
        self, guild: str, player: str, game: str | None = None
    ) -> list[ResultRow]:
        """A player's results in the games the world may see (a public web table): a game in
        a private channel stays private here too, its place and date included."""
        results = await self.service.store.player_results(guild, player, game)
        shown = []
        for result in results:
            row = await self.service.store.web_table_of(result.game_id)
            if row is not None and row.public:
                shown.append(result)
        return shown

    async def all_public(self, guild: str, player: str, game: str) -> bool:
        """Whether every game that moved a player's rating is one the world may see: a
        rating earned in part in private would tell of those games. (AI levels are left out
        of the web's leaderboards for the same reason: they play in every channel.)"""
        results = await self.service.store.player_results(guild, player, game)
        return len(await self.public_results(guild, player, game)) == len(results)

    async def leaderboard(self, request: web.Request) -> web.StreamResponse:
        guild, game = request.match_info["guild"], request.match_info["game"]
        if game not in GAMES:
            raise NotShown
        lang = await self.guild_open(guild)
        ratings = await self.service.store.leaderboard(guild, game, limit=50)
        rows = [
            (f"/s/{guild}/p/{r.player}", r.name or r.player, display_rating(r.mu, r.sigma), r.games)
            for r in ratings
            if not r.ai and await self.all_public(guild, r.player, game)
        ]
        title = _("Leaderboard: {game}").format(game=GAMES[game].title)
        return html(pages.leaderboard_page(title, rows, lang, f"/s/{guild}"))

    async def player(self, request: web.Request) -> web.StreamResponse:
        guild, player = request.match_info["guild"], request.match_info["player"]
        lang = await self.guild_open(guild)
        if is_ai(player) or not player.isdigit():
            raise NotShown
        results = await self.public_results(guild, player)
        if not results:
            raise NotShown
        name = results[-1].name or player
        points: list[tuple[float, float]] = [
            (r.finished_at, display_rating(r.mu_after, r.sigma_after)) for r in results
        ]
        chart = pages.rating_chart(points, _("Rating over time"))
        games = []
        for r in reversed(results):
            row = await self.service.store.web_table_of(r.game_id)
            href = f"/g/{row.public_id}" if row is not None else ""
            title = GAMES[r.game].title if r.game in GAMES else r.game
            place = _("{rank} of {players}").format(rank=r.rank, players=r.players)
            when = datetime.fromtimestamp(r.finished_at, UTC).strftime("%Y-%m-%d")
            games.append((href, title, place, when))
        return html(pages.player_page(name, chart, games, lang))


#: The notes a hand page may show after a move (the address carries the key, never text).
NOTES = {
    "moved": N_("Done."),
    "stale": N_("The game moved on before your move arrived: here it is now."),
    "refused": N_("That move cannot be made now."),
}
NO_STORE = {"Cache-Control": "no-store"}
IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}


def turn_label(turn: int, last: int) -> str:
    if turn == 0:
        return _("The deal")
    return _("Turn {turn} of {last}").format(turn=turn, last=last)


def html(text: str, *, cache: bool = True) -> web.Response:
    return web.Response(
        text=text, content_type="text/html", headers=None if cache else dict(NO_STORE)
    )


def security_middleware(limit: RateLimit) -> Any:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not limit.allow(request.remote or "?"):
            return web.Response(status=429, text="Too many requests; try again in a moment.")
        try:
            response = await handler(request)
        except NotShown:
            response = web.Response(
                status=404,
                text=pages.message_page(
                    _("No such table"),
                    _("There is no public table here (or its server keeps its games private)."),
                ),
                content_type="text/html",
            )
        except web.HTTPException as error:
            error.headers["Content-Security-Policy"] = CSP
            raise
        if not response.prepared:
            response.headers["Content-Security-Policy"] = CSP
            response.headers["X-Content-Type-Options"] = "nosniff"
            response.headers["Referrer-Policy"] = "no-referrer"
        return response

    return middleware


def create_app(
    service: GameService,
    secret: bytes,
    *,
    limit: RateLimit | None = None,
    clock: Callable[[], float] = time.time,
    poll: float = KEEPALIVE,
) -> web.Application:
    """The web table over ``service``; it hears changes from ``service.changes`` (``poll``:
    see ``Table.poll``)."""
    table = Table(service, secret, clock, poll)
    app = web.Application(middlewares=[security_middleware(limit or RateLimit())])
    unsubscribe = service.changes.subscribe(table.watchers.heard)

    async def closing(_app: web.Application) -> None:
        table.watchers.close()
        unsubscribe()

    app.on_shutdown.append(closing)
    routes = [
        web.get("/g/{pid}", table.table),
        web.get("/g/{pid}/fragment", table.table_fragment),
        web.get("/g/{pid}/events", table.events),
        web.get(r"/g/{pid}/board/{version:\d+}.png", table.board),
        web.get("/g/{pid}/replay", table.replay),
        web.get("/g/{pid}/replay.json", table.replay_json),
        web.get(r"/g/{pid}/replay/{turn:\d+}.png", table.replay_board),
        web.get("/g/{pid}/replay.gif", table.replay_gif),
        web.get("/h/{token}", table.hand),
        web.get("/h/{token}/fragment", table.hand_fragment),
        web.get("/h/{token}/events", table.hand_events),
        web.get(r"/h/{token}/hand/{version:\d+}.png", table.hand_picture),
        web.get(r"/h/{token}/board/{version:\d+}.png", table.hand_board),
        web.post("/h/{token}/move", table.move),
        web.get("/s/{guild}", table.server),
        web.get("/s/{guild}/p/{player}", table.player),
        web.get("/s/{guild}/{game}", table.leaderboard),
        web.static("/static", STATIC),
    ]
    routes += tournaments.routes(service, table.guild_open, secret)
    app.add_routes(routes)
    return app
