"""The Discord Activity: the hand page's board inside Discord, served at ``/activity/``.

Discord opens the page in an iframe with the instance's query (``frame_id``, ``instance_id``,
``channel_id``, ``guild_id``, ``platform``). Its script (``static/activity.js``) runs the
Embedded App SDK's handshake, asks Discord for an authorization code (scope ``identify``) and
posts it to ``token``; this module exchanges it (``web.discord_api``), checks with the bot's
token that the user is in that instance, and answers with a session: a signed token bound to
the user, the instance and the instance's channel (as Discord tells it, never as the page
says), good for ``SESSION_SECONDS``. Every other address carries the session in its path.

An instance is per channel and ends when everyone leaves, so nothing is kept by instance: the
session names a channel, the pages name a game of that channel, and the board is the game's. A
seated player plays their seat on the hand page's surface (``web.surface.HandPage``, the same
handlers with this module's grant); anyone else in the instance, who therefore sees the
channel, gets the public table. A turn is taken only from the session's user, for their own
seat, at the version shown (``bot.presentation.confirm``), and only while Discord still counts
them in the instance: a session kept after its instance ended is refused.

Every address of the page is relative to ``/activity/``, so the same page works there and
behind Discord's proxy (``https://<app>.discordsays.com/.proxy/...``), whatever prefix its URL
mapping gives it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from bot import launches, metrics
from bot.errors import ServiceError
from bot.i18n import N_, _, set_language
from bot.store.base import GameRecord
from bot.teaching.courses import COURSES
from bot.teaching.tables import open_table
from rules import GAMES
from web import pages
from web.discord_api import DiscordApi, DiscordRefused
from web.hints import HintDoor
from web.limits import posted_form
from web.links import LinkRefused, public_id, sign, unsign
from web.security import NotShown
from web.surface import HandPage, turn_line
from web.templating import render

if TYPE_CHECKING:
    from web.app import Table

log = logging.getLogger(__name__)

#: How long a session is good for; the page signs in again, silently, before it lapses.
SESSION_SECONDS = 30 * 60
#: Seconds Discord's word that a user is in an instance is trusted before a turn asks again.
PRESENCE_SECONDS = 30.0
#: Who may frame the Activity's pages (its ``frame-ancestors``): Discord's client and its
#: Activities' own origins, and the web table itself (a test page playing Discord's client).
FRAMERS = "'self' https://discord.com https://*.discordsays.com"
#: Where the Activity's addresses start (every one the page uses is relative to it).
PREFIX = "/activity"
#: The first query parameter Discord puts on an Activity's address.
FRAME_QUERY = "frame_id"
NO_STORE = {"Cache-Control": "no-store"}


def origin_of(client_id: str) -> str:
    """Where Discord serves the application's Activity: its pages' POSTs come from there."""
    return f"https://{client_id}.discordsays.com"


@dataclass(frozen=True)
class Session:
    """What a session token grants: ``user`` in ``instance``, on the channel (or thread)
    ``channel`` of server ``guild``, until ``expires``; ``name``: the user's as Discord said
    it at sign-in (the seat's name at a table they open here)."""

    user: str
    instance: str
    guild: str
    channel: str
    expires: int
    name: str = ""


def sign_session(secret: bytes, session: Session) -> str:
    fields: list[str | int] = [
        session.user,
        session.instance,
        session.guild,
        session.channel,
        session.expires,
        session.name,
    ]
    return sign(secret, "activity", fields)


def read_session(secret: bytes, token: str, now: float) -> Session:
    """The session a token carries, if its signature holds and it has not lapsed."""
    user, instance, guild, channel, expires, name = unsign(secret, "activity", token, 6)
    if not isinstance(expires, int) or expires < now:
        raise LinkRefused(N_("This Activity's session has lapsed: open it again from the game."))
    return Session(str(user), str(instance), str(guild), str(channel), expires, str(name))


def refused(status: type[web.HTTPException], text: str) -> web.HTTPException:
    """An error the page shows as it is (plain text, never cached)."""
    return status(text=text, headers=NO_STORE)


class Activity:
    """The Activity's handlers, over the web table's ``Table`` and Discord's API."""

    def __init__(
        self, table: Table, api: DiscordApi, clock: Callable[[], float] = time.time
    ) -> None:
        self.table = table
        self.api = api
        self.clock = clock
        #: (instance, user) -> when Discord last said the user is in the instance.
        self._present: dict[tuple[str, str], float] = {}
        self.board = HandPage(table, self.seated, self.base_of, lambda *_ask: "")

    # -- sessions --------------------------------------------------------------------------

    def session_of(self, request: web.Request) -> Session:
        try:
            return read_session(self.table.secret, request.match_info["session"], self.clock())
        except LinkRefused as error:
            raise refused(web.HTTPUnauthorized, _(str(error))) from error

    def budget_key(self, request: web.Request) -> str | None:
        """The request budget an Activity request spends: its user's, when it carries a
        valid session (behind Discord's proxy many players share a few addresses), else
        None (the client address's, as every other request)."""
        parts = request.path.split("/", 4)
        if len(parts) < 4 or parts[1] != PREFIX[1:] or parts[2] != "s":
            return None
        try:
            return f"activity:{read_session(self.table.secret, parts[3], self.clock()).user}"
        except LinkRefused:
            return None

    @staticmethod
    def base_of(request: web.Request) -> str:
        """A game's addresses, relative to the Activity's page (``/activity/``)."""
        return f"s/{request.match_info['session']}/g/{request.match_info['game']}"

    async def game_of(self, request: web.Request) -> tuple[GameRecord, Session, str]:
        """The game an address names, if it is played in the session's channel (or thread)
        on a server that keeps its web table on."""
        session = self.session_of(request)
        record = await self.table.service.store.get_game(request.match_info["game"])
        if record is None or record.game not in GAMES or record.guild != session.guild:
            raise NotShown
        if session.channel not in (record.channel, record.thread):
            raise NotShown
        if not (await self.table.service.guild_settings(record.guild)).web:
            raise NotShown
        return record, session, await self.table.language(record)

    async def seated(self, request: web.Request) -> tuple[GameRecord, str, str]:
        """The session's own seat in the game (``HandPage``'s grant); a turn also needs the
        user still in the instance."""
        record, session, lang = await self.game_of(request)
        seat = record.seat_of(session.user)
        if seat is None or seat.ai:
            raise NotShown
        if request.method == "POST":
            await self.still_there(session)
        return record, session.user, lang

    async def still_there(self, session: Session) -> None:
        """Refuse a session whose user Discord no longer counts in its instance (the
        instance ended, or they left it): asked at most every ``PRESENCE_SECONDS``."""
        key = (session.instance, session.user)
        now = time.monotonic()
        if now - self._present.get(key, -PRESENCE_SECONDS) < PRESENCE_SECONDS:
            return
        try:
            instance = await self.api.instance(session.instance)
        except DiscordRefused as error:
            if error.outcome == "no_instance":
                raise refused(web.HTTPUnauthorized, _(ENDED)) from error
            raise refused(web.HTTPServiceUnavailable, _(UNREACHABLE)) from error
        if session.user not in instance.users or instance.channel != session.channel:
            raise refused(web.HTTPUnauthorized, _(ENDED))
        self._present[key] = now
        while len(self._present) > 10_000:
            del self._present[next(iter(self._present))]

    # -- the page and the sign-in -------------------------------------------------------------

    async def page(self, request: web.Request) -> web.StreamResponse:
        """The page Discord frames; in the language of the server it says it runs on (only a
        choice of words: nothing is shown before the session)."""
        guild = request.query.get("guild_id", "")
        lang = "en"
        if guild.isdigit():
            lang = (await self.table.service.guild_settings(guild)).language or "en"
        set_language(lang)
        text = render(
            "activity.html",
            title=_("Tabletop"),
            lang=lang,
            static="static",
            scripts=(),
            modules=("activity.js",),
            body_class="activity",
            client_id=self.api.client_id,
        )
        return web.Response(text=text, content_type="text/html", headers=NO_STORE)

    async def token(self, request: web.Request) -> web.StreamResponse:
        """The authorization code exchanged, the user checked in the instance, a session."""
        form = await posted_form(request)
        code, instance_id = str(form.get("code", "")), str(form.get("instance_id", ""))
        if not code or not instance_id or len(code) > 200 or len(instance_id) > 200:
            metrics.ACTIVITY_TOKENS.labels(outcome="bad_request").inc()
            raise refused(web.HTTPBadRequest, _("That sign-in cannot be read."))
        try:
            access = await self.api.exchange(code)
            person = await self.api.me(access)
            instance = await self.api.instance(instance_id)
            if person.id not in instance.users or instance.guild is None:
                raise DiscordRefused("not_in_instance")
        except DiscordRefused as error:
            metrics.ACTIVITY_TOKENS.labels(outcome=error.outcome).inc()
            log.info("activity sign-in refused: %s", error.outcome)
            if error.outcome == "discord_error":
                raise refused(web.HTTPServiceUnavailable, _(UNREACHABLE)) from error
            raise refused(web.HTTPForbidden, _(NOT_IN)) from error
        metrics.ACTIVITY_TOKENS.labels(outcome="ok").inc()
        expires = int(self.clock()) + SESSION_SECONDS
        session = Session(
            person.id, instance.id, instance.guild, instance.channel, expires, person.name
        )
        self._present[(instance.id, person.id)] = time.monotonic()
        return web.json_response(
            {
                "access_token": access,
                "session": sign_session(self.table.secret, session),
                "expires_in": SESSION_SECONDS,
            },
            headers=NO_STORE,
        )

    # -- the channel's games and a game's board ------------------------------------------

    async def games(self, request: web.Request) -> web.StreamResponse:
        """The channel's games (a thread's: its game), the one the player last pressed Play
        on first, then those waiting for them, each with whether they sit at it."""
        session = self.session_of(request)
        service = self.table.service
        if not (await service.guild_settings(session.guild)).web:
            raise NotShown
        found = await service.store.games_in_channel(session.guild, session.channel)
        clicked = launches.LAUNCHES.clicked(session.user, session.channel)
        listed = []
        for record in found:
            if record.game not in GAMES:
                continue
            read = service.read(record)
            seat = record.seat_of(session.user)
            seated = seat is not None and not seat.ai
            listed.append(
                {
                    "id": record.id,
                    "title": read.title,
                    "seated": seated,
                    "turn": turn_line(read, session.user)
                    if seated
                    else (read.turn_message() if read.to_move else _("The game is over.")),
                    "waiting": seated and session.user in read.to_move,
                    "first": record.id == clicked,
                }
            )
        listed.sort(key=lambda g: (not g["first"], not g["waiting"], not g["seated"]))
        learn = [{"id": game, "title": GAMES[game].title} for game in COURSES if game in GAMES]
        return web.json_response({"games": listed, "learn": learn}, headers=NO_STORE)

    async def learn(self, request: web.Request) -> web.StreamResponse:
        """A teaching table of the game asked for, for the session's user in its channel
        (``bot.teaching.tables.open_table``: as `/game learn` opens one, its first board
        posted by the delivery workers); a refusal is said in a sentence."""
        session = self.session_of(request)
        if not (await self.table.service.guild_settings(session.guild)).web:
            raise NotShown
        await self.still_there(session)
        game = str((await posted_form(request)).get("game", ""))
        if game not in COURSES:
            raise refused(web.HTTPBadRequest, _("There is no such game to learn."))
        try:
            record = await open_table(
                self.table.service,
                game,
                session.guild,
                session.channel,
                session.user,
                session.name or session.user,
            )
        except ServiceError as error:
            raise refused(web.HTTPConflict, error.message) from error
        answer = {"game": record.id, "title": self.table.service.read(record).title}
        return web.json_response(answer, headers=NO_STORE)

    async def fragment(self, request: web.Request) -> web.StreamResponse:
        """A seated player's playable board, anyone else's public table."""
        record, session, _lang = await self.game_of(request)
        seat = record.seat_of(session.user)
        if seat is not None and not seat.ai:
            return await self.board.fragment(request)
        # The public page's own state (shared with it, so made with its address), with the
        # board's address turned to this session's.
        public = f"/g/{public_id(self.table.secret, record.id)}"
        state = await self.table.table_state(record, public)
        board = f"{self.base_of(request)}/board/{record.version}.png" if state.board else None
        text = pages.table_fragment(replace(state, board=board))
        return web.Response(text=text, content_type="text/html", headers=NO_STORE)

    async def version(self, request: web.Request) -> web.StreamResponse:
        """The game's version, for a page whose event stream a proxy holds back."""
        record, _session, _lang = await self.game_of(request)
        return web.json_response({"version": record.version}, headers=NO_STORE)

    async def events(self, request: web.Request) -> web.StreamResponse:
        record, _session, _lang = await self.game_of(request)
        return await self.table.stream(request, record, self.game_of)

    async def public_board(self, request: web.Request) -> web.StreamResponse:
        record, _session, lang = await self.game_of(request)
        if record.state is None:
            raise NotShown
        png = await self.table.public_board(record, lang)
        return web.Response(body=png, content_type="image/png", headers=NO_STORE)

    async def hand_picture(self, request: web.Request) -> web.StreamResponse:
        record, seat, _lang = await self.seated(request)
        read = self.table.service.read(record)
        png = await read.hand_picture(seat) if record.state else None
        if png is None:
            raise NotShown
        return web.Response(body=png, content_type="image/png", headers=NO_STORE)


#: What the page says when the session's instance is over, Discord cannot be asked, or it
#: does not count the user in the instance.
ENDED = N_("This Activity has ended: open it again from the game.")
UNREACHABLE = N_("Discord could not be reached: try again in a moment.")
NOT_IN = N_("Discord did not let you in: close the Activity and open it again from the game.")


async def entry(request: web.Request) -> web.StreamResponse:
    """``/activity`` (and ``/`` when Discord's URL mapping points at the site's root): on to
    ``activity/`` with Discord's query, by a relative address that holds behind the proxy."""
    if request.path == "/" and FRAME_QUERY not in request.query:
        raise NotShown
    query = request.query_string
    raise web.HTTPFound(f"activity/?{query}" if query else "activity/")


def routes(activity: Activity, static: Path) -> list[web.RouteDef | web.StaticDef]:
    """The Activity's routes (``static``: the web table's static folder)."""
    board = activity.board
    game = PREFIX + "/s/{session}/g/{game}"
    return [
        web.get("/", entry),
        web.get(PREFIX, entry),
        web.get(PREFIX + "/", activity.page),
        web.post(PREFIX + "/token", activity.token),
        web.get(PREFIX + "/s/{session}/games", activity.games),
        web.post(PREFIX + "/s/{session}/learn", activity.learn),
        web.get(game + "/fragment", activity.fragment),
        web.get(game + "/version", activity.version),
        web.get(game + "/events", activity.events),
        web.post(game + "/turn", board.turn),
        web.post(game + "/real", board.real),
        web.post(game + "/hint", HintDoor(activity.table, activity.seated, activity.base_of).hint),
        web.get(game + r"/face/{card:[A-Za-z0-9_-]{1,40}}.png", board.face),
        web.get(game + r"/board/{version:\d+}.png", activity.public_board),
        web.get(game + r"/hand/{version:\d+}.png", activity.hand_picture),
        web.static(PREFIX + "/static", static),
    ]
