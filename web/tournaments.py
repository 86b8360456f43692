"""The web table's page per tournament (issue 38): its standings with their tie-breaks, and
each round's tables with their results and links to the games' own pages.

A tournament is shown only where its server shows its games (`/game config web:`) and only
once every game of it has a public table (a channel everyone on the server can view): the
players' names and results of a private channel stay private here too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.i18n import N_, _
from bot.service import GameService
from bot.tournaments.model import Tournament
from bot.tournaments.service import current_standings
from bot.tournaments.standings import Line, written
from rules import GAMES
from web import pages
from web.links import public_id

#: Opens a server's pages in its language, or refuses (the web table's ``Table.guild_open``).
GuildOpen = Callable[[str], Awaitable[str]]

#: Sentences the page writes with a value in them (the template marks the others).
ROUND = N_("Round {n}")
BYE = N_("Bye: {names}")
WINNER = N_("Winner: {name}")

Seat = tuple[str, int | None]


def standings_rows(t: Tournament, lines: list[Line]) -> list[tuple[str, bool, str, str, str]]:
    """Each place's (name, withdrawn, points, Buchholz, Sonneborn–Berger), best first."""
    withdrawn = {e.user for e in t.entries if e.withdrawn}
    return [
        (
            t.names.get(line.player, line.player),
            line.player in withdrawn,
            written(line.points),
            written(line.buchholz),
            written(line.sonneborn_berger),
        )
        for line in lines
    ]


def rounds_rows(
    t: Tournament, secret: bytes
) -> list[tuple[str, list[tuple[str, list[Seat], bool]], str]]:
    """Each round, newest first: its heading, its tables (the game's page, each seat's name
    and place once decided, whether it is still playing) and who had a bye."""
    names = t.names
    rounds = []
    for rnd in reversed(t.played):
        tables = [
            (
                f"/g/{public_id(secret, table.game_id)}",
                [
                    (names.get(p, p), table.places[p] if table.places is not None else None)
                    for p in table.seats
                ],
                table.places is None,
            )
            for table in rnd.tables
        ]
        byes = ", ".join(names.get(p, p) for p in rnd.byes)
        rounds.append(
            (_(ROUND).format(n=rnd.number), tables, _(BYE).format(names=byes) if byes else "")
        )
    return rounds


def tournament_page(t: Tournament, secret: bytes, lang: str) -> str:
    lines = current_standings(t)
    title = _("Tournament {id}: {game}").format(id=t.id, game=GAMES[t.game].title)
    winner = ""
    if t.status == "finished" and lines:
        winner = _(WINNER).format(name=t.names.get(lines[0].player, lines[0].player))
    return pages.page(
        "tournament.html",
        title,
        lang,
        server=f"/s/{t.guild}",
        winner=winner,
        standings=standings_rows(t, lines),
        withdrawn=any(e.withdrawn for e in t.entries),
        rounds=rounds_rows(t, secret),
    )


class TournamentPages:
    """``/s/{guild}/t/{id}``: one tournament (a 404 where the world may not see it)."""

    def __init__(self, service: GameService, guild_open: GuildOpen, secret: bytes) -> None:
        self.service, self.guild_open, self.secret = service, guild_open, secret

    async def shown(self, guild: str, tournament_id: str) -> Tournament:
        """The tournament if the world may see it: every game of it has a public table."""
        t = await self.service.store.get_tournament(tournament_id)
        if t is None or t.guild != guild or not t.played:
            raise web.HTTPNotFound()
        for rnd in t.played:
            for table in rnd.tables:
                row = await self.service.store.web_table_of(table.game_id)
                if row is None or not row.public:
                    raise web.HTTPNotFound()
        return t

    async def page(self, request: web.Request) -> web.StreamResponse:
        guild = request.match_info["guild"]
        lang = await self.guild_open(guild)
        t = await self.shown(guild, request.match_info["tournament"])
        return web.Response(
            text=tournament_page(t, self.secret, lang),
            content_type="text/html",
            headers={"Cache-Control": "no-store"},
        )


def routes(service: GameService, guild_open: GuildOpen, secret: bytes) -> list[web.RouteDef]:
    """The tournament pages' routes, for ``create_app`` to add."""
    tournaments = TournamentPages(service, guild_open, secret)
    return [web.get("/s/{guild}/t/{tournament}", tournaments.page)]
