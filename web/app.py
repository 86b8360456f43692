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
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from aiohttp import web

from bot.changes import Change
from bot.errors import ServiceError, StaleRequest
from bot.i18n import _, current, set_language
from bot.read_model import turn_version
from bot.replay import Replay, gif_key, open_replay
from bot.replay import gif as replay_gif
from bot.results import display_rating
from bot.service import GameService, is_ai
from bot.store.base import GameRecord, ResultRow
from bot.teaching.courses import COURSES
from bot.teaching.tables import how_to_learn
from bot.titles.achievements import named
from bot.titles.service import Titles
from rules import GAMES
from web import activity, pages, seasons, security, surface, tournaments
from web.activity import Activity
from web.addresses import Proxies, client_of
from web.discord_api import DiscordApi
from web.limits import FORM_DIGITS, WRITE_SECONDS, Caps, Streams, StreamsFull, posted_form, whole
from web.links import LinkRefused, read_hand
from web.memo import Memo
from web.notes import Notes
from web.public import private as private_games
from web.ratelimit import RateLimit
from web.scores import score_text
from web.security import CSP, NotShown, Policy
from web.surface import NOTES

__all__ = ["CSP", "NotShown", "Table", "create_app"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
#: Seconds between keep-alive comments on an idle event stream (proxies drop silent ones).
KEEPALIVE = 15.0
#: Different games' GIFs drawn at once for the web (each takes seconds of the pool that
#: draws the bot's boards); past it a request for another is asked to come back.
GIFS_AT_ONCE = 2
#: Seconds between looks at whether a live page's client is still there.
GONE_SECONDS = 1.0
#: Turn lines a table page shows (the newest).
LOG_LINES = 200


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
        caps: Caps | None = None,
    ) -> None:
        self.service = service
        #: The open event streams, against their caps.
        self.streams = Streams(caps or Caps.for_process(1000, 8))
        #: Each server's web-table switch as last read, and when (``web_on``).
        self._web_on: dict[str, tuple[bool, float]] = {}
        self.secret = secret
        self.clock = clock
        #: Seconds an idle stream waits before it looks at the store itself: the keep-alive
        #: period, or less in a process that hears no changes (alone on SQLite).
        self.poll = poll
        self.watchers = Watchers()
        self.memo = Memo()
        #: The mistake note each learner's last turn earned, for their hand page.
        self.notes = Notes()

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
        if record is None or record.game not in GAMES or not holds_seat(record, hand.player):
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
        return await self.stream(request, record, self.public_game)

    async def stream(
        self,
        request: web.Request,
        record: GameRecord,
        recheck: Callable[[web.Request], Awaitable[object]],
    ) -> web.StreamResponse:
        """Server-sent events: the game's version now, then at each change (``id`` is the
        version, so a browser reconnecting says which it saw, and hears the current one at
        once if it moved meanwhile).

        A stream counts against the caps (``web.limits``): past them, a 429 that closes its
        connection. It ends when the page may no longer be shown (``recheck`` raises): it
        looks again when told of a change that moved nothing (the Discord layer's word that
        the table's visibility changed) and at each keep-alive, which also covers a server
        turning its web table off. A write waits ``WRITE_SECONDS`` at most for a reader
        that does not read."""
        client = client_of(request)
        try:
            self.streams.take(client)
        except StreamsFull as full:
            refusal = web.Response(
                status=429,
                text=_("Too many live pages are open: close some and reload.")
                if not full.everyone
                else _("Too many live pages are open right now; try again in a moment."),
                headers={"Retry-After": "10"},
            )
            refusal.force_close()
            return refusal
        try:
            return await self._stream(request, record, recheck)
        finally:
            self.streams.give_back(client)

    async def _stream(
        self,
        request: web.Request,
        opened: GameRecord,
        recheck: Callable[[web.Request], Awaitable[object]],
    ) -> web.StreamResponse:
        game_id, guild = opened.id, opened.guild
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

        async def write(data: bytes) -> None:
            await asyncio.wait_for(response.write(data), WRITE_SECONDS)

        try:
            while version is not None and not self.watchers.closing.is_set():
                if str(version) != sent:
                    sent = str(version)
                    await write(f"id: {sent}\ndata: {sent}\n\n".encode())
                wake.clear()
                if await self._woken(request, wake, guild):
                    heard = self.watchers.latest.get(game_id, version)
                    if heard <= version:  # nothing moved: is the page still to be shown?
                        await recheck(request)
                    version = max(version, heard)
                elif request.transport is None or request.transport.is_closing():
                    break  # the page went away: its place is free at once
                else:  # nothing heard: say so, and look (a process alone)
                    await write(b": still here\n\n")
                    await recheck(request)
                    record = await self.service.store.get_game(game_id)
                    version = record.version if record is not None else None
        except (ConnectionResetError, TimeoutError, NotShown, web.HTTPException):
            pass  # the page went away, stopped reading, or may no longer be shown
        finally:
            self.watchers.drop(game_id, wake)
        return response

    async def _woken(self, request: web.Request, wake: asyncio.Event, guild: str) -> bool:
        """Wait for a change (True), for ``poll`` seconds, for the page to go away or for its
        server to turn the web table off (all False): looked at every ``GONE_SECONDS``, since
        aiohttp tells a handler nothing when its client leaves, and a stream's place is for
        someone else then."""
        waited = 0.0
        while waited < self.poll:
            step = min(GONE_SECONDS, self.poll - waited)
            try:
                await asyncio.wait_for(wake.wait(), step)
                return True
            except TimeoutError:
                waited += step
            if request.transport is None or request.transport.is_closing():
                return False
            if not await self.web_on(guild):
                return False
        return False

    async def web_on(self, guild: str) -> bool:
        """Whether a server keeps its web table on, read at most once per ``GONE_SECONDS``
        however many of its pages are open."""
        now = time.monotonic()
        known = self._web_on.get(guild)
        if known is None or now - known[1] >= GONE_SECONDS:
            on = (await self.service.guild_settings(guild)).web
            self._web_on[guild] = known = (on, now)
            while len(self._web_on) > 10_000:  # the oldest read first
                del self._web_on[next(iter(self._web_on))]
        return known[0]

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
        wanted = request.match_info["turn"]
        turn = int(wanted) if len(wanted) <= FORM_DIGITS else -1
        if not 0 <= turn <= replayed.last:
            raise NotShown
        png = await self.turn_board(replayed, turn, lang)
        return web.Response(body=png, content_type="image/png", headers=NO_STORE)

    async def replay_gif(self, request: web.Request) -> web.StreamResponse:
        record, _lang = await self.public_game(request)
        if record.state is None:
            raise NotShown
        replayed = await self.replay_of(record)
        if not replayed.over:  # said without the game's internal id
            raise web.HTTPConflict(
                text=_("This game is still running: its GIF can be made once it is over.")
            )
        gifs = self.service.pictures.gifs
        if not gifs.at_hand(gif_key(replayed)) and gifs.drawing >= GIFS_AT_ONCE:
            raise web.HTTPServiceUnavailable(
                text=_("Other replays are being drawn: try again in a minute."),
                headers={"Retry-After": "30"},
            )
        data = await replay_gif(self.service.pictures, replayed)
        name = f"{record.game}-{request.match_info['pid'][:8]}.gif"
        headers = {"Content-Disposition": f'attachment; filename="{name}"', **PRIVATE}
        return web.Response(body=data, content_type="image/gif", headers=headers)

    # -- a player's hand -------------------------------------------------------------------

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
        return await self.stream(request, record, self.hand_game)

    async def move(self, request: web.Request) -> web.StreamResponse:
        """A move from the hand page: the index of a legal action at the version the page
        showed, applied by ``GameService.move`` like a click on a panel's button."""
        record, player, _lang = await self.hand_game(request)
        index, version = await move_form(request)
        base = f"/h/{request.match_info['token']}"
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
        """A server's page: each game's leaderboard, and how to learn each game (a teaching
        table needs a player Discord has signed in: the Activity's Learn, or `/game learn`)."""
        lang = await self.guild_open(request.match_info["guild"])
        guild = request.match_info["guild"]
        boards = [(f"/s/{guild}/{game.id}", game.title) for game in GAMES.values()]
        learn = [(GAMES[game].title, how_to_learn(game)) for game in COURSES if game in GAMES]
        return html(pages.server_page(_("Leaderboards"), boards, lang, learn))

    async def sorted_results(
        self, guild: str, player: str, game: str | None = None
    ) -> list[tuple[ResultRow, bool]]:
        """A player's results, oldest first, each with whether the world may see its game (a
        public web table): a game in a private channel stays private here, its place and
        date included."""
        results = await self.service.store.player_results(guild, player, game)
        marked = []
        for result in results:
            row = await self.service.store.web_table_of(result.game_id)
            marked.append((result, row is not None and row.public))
        return marked

    async def all_public(self, guild: str, player: str, game: str) -> bool:
        """Whether every game that moved a player's rating is one the world may see: a
        rating earned in part in private would tell of those games. (AI levels are left out
        of the web's leaderboards for the same reason: they play in every channel.)"""
        return all(public for _result, public in await self.sorted_results(guild, player, game))

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
        season = f"/s/{guild}/{game}/season"
        return html(pages.leaderboard_page(title, rows, lang, f"/s/{guild}", season))

    async def player(self, request: web.Request) -> web.StreamResponse:
        guild, player = request.match_info["guild"], request.match_info["player"]
        lang = await self.guild_open(guild)
        if is_ai(player) or not player.isdigit():
            raise NotShown
        marked = await self.sorted_results(guild, player)
        results = [result for result, public in marked if public]
        if not results:
            raise NotShown
        name = results[-1].name or player
        chart = pages.rating_chart(public_ratings(marked), _("Rating over time"))
        games = []
        for r in reversed(results):
            row = await self.service.store.web_table_of(r.game_id)
            href = f"/g/{row.public_id}" if row is not None else ""
            title = GAMES[r.game].title if r.game in GAMES else r.game
            place = _("{rank} of {players}").format(rank=r.rank, players=r.players)
            when = datetime.fromtimestamp(r.finished_at, UTC).strftime("%Y-%m-%d")
            games.append((href, title, place, when))
        private = partial(private_games, self.service.store)  # the world reads this page
        held = await Titles(self.service, listen=False).held(guild, player, private)
        return html(pages.player_page(name, chart, games, lang, named(held)))


NO_STORE = {"Cache-Control": "no-store"}
#: What may be kept by a browser only, and checked again before each use.
PRIVATE = {"Cache-Control": "private, no-cache"}
#: A picture named by its version never changes, but a channel made private must take it
#: off every shared cache: browsers alone may keep it.
IMMUTABLE = {"Cache-Control": "private, max-age=31536000, immutable"}


async def move_form(request: web.Request) -> tuple[int, int]:
    """A move form's two whole numbers; anything else is a 400 (``posted_form``)."""
    form = await posted_form(request)
    fields = [str(form.get(name, "")) for name in ("index", "version")]
    return whole(fields[0]), whole(fields[1])


def public_ratings(marked: list[tuple[ResultRow, bool]]) -> list[tuple[float, float]]:
    """The (time, rating) points the world may see: a game's rating after each public result,
    until the first game of that title played in private (every rating from then on
    includes it, and would tell how it went)."""
    hidden: set[str] = set()
    points: list[tuple[float, float]] = []
    for result, public in marked:
        if not public:
            hidden.add(result.game)
        elif result.game not in hidden:
            points.append((result.finished_at, display_rating(result.mu_after, result.sigma_after)))
    return points


def holds_seat(record: GameRecord, player: str) -> bool:
    """Whether ``player`` still plays their seat themselves: a link outlives neither a
    leave, nor a kick, nor the AI taking the seat for good, nor being forgotten (the seat
    then names ``former:n``)."""
    seat = record.seat_of(player)
    return seat is not None and not seat.ai


def turn_label(turn: int, last: int) -> str:
    if turn == 0:
        return _("The deal")
    return _("Turn {turn} of {last}").format(turn=turn, last=last)


def html(text: str, *, cache: bool = True) -> web.Response:
    """A page: kept by the browser alone and asked again each time (a public table can go
    private), or not kept at all (``cache`` False: hand pages, live fragments)."""
    return web.Response(
        text=text, content_type="text/html", headers=dict(PRIVATE if cache else NO_STORE)
    )


#: The app's ``Table`` (the server and tests read its stream counts).
TABLE = web.AppKey("table", Table)


def create_app(
    service: GameService,
    secret: bytes,
    *,
    limit: RateLimit | None = None,
    clock: Callable[[], float] = time.time,
    poll: float = KEEPALIVE,
    proxies: Proxies | None = None,
    caps: Caps | None = None,
    policy: Policy | None = None,
    discord: DiscordApi | None = None,
) -> web.Application:
    """The web table over ``service``; it hears changes from ``service.changes`` (``poll``:
    see ``Table.poll``). ``proxies``: whose ``X-Forwarded-For`` to believe; ``caps``: the
    streams it holds at most (``web.limits``); ``policy``: framing and origin; ``discord``:
    Discord's API when the Activity is configured (its pages then exist, framed by Discord
    alone)."""
    table = Table(service, secret, clock, poll, caps or Caps.for_process(1000, 8))
    policy = policy or Policy()
    played = Activity(table, discord, clock) if discord is not None else None
    if played is not None:
        framing = {**policy.framing, activity.PREFIX: activity.FRAMERS}
        origins = policy.origins | {activity.origin_of(played.api.client_id)}
        policy = replace(policy, framing=framing, budget=played.budget_key, origins=origins)
    guard = security.middleware(limit or RateLimit(), proxies or Proxies(), policy)
    app = web.Application(middlewares=[guard])
    app[TABLE] = table
    app.on_response_prepare.append(security.headers_hook(policy))
    unsubscribe = service.changes.subscribe(table.watchers.heard)

    async def closing(_app: web.Application) -> None:
        table.watchers.close()
        unsubscribe()
        if discord is not None:
            await discord.close()

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
        *surface.routes(table),
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
    if played is not None:
        routes += activity.routes(played, STATIC)
    routes += seasons.routes(service, table.guild_open)
    app.add_routes(routes)
    return app
