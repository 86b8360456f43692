"""The web table's page per tournament (issue 38): its standings with their tie-breaks, and
each round's tables with their results and links to the games' own pages.

A tournament is shown only where its server shows its games (`/game config web:`) and only
once every game of it has a public table (a channel everyone on the server can view): the
players' names and results of a private channel stay private here too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape

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

STANDINGS = N_("Standings")
ROUND = N_("Round {n}")
BYE = N_("Bye: {names}")
POINTS = N_("Pts")
TIE_BREAKS = N_("Ties parted by Buchholz (Buch), then Sonneborn–Berger (SB).")
WINNER = N_("Winner: {name}")
PLAYING = N_("playing")
WITHDRAWN = N_("× withdrawn")


def standings_table(t: Tournament, lines: list[Line]) -> str:
    names = t.names
    withdrawn = {e.user for e in t.entries if e.withdrawn}
    head = "".join(f"<th>{escape(h)}</th>" for h in ("#", _(pages.PLAYER), _(POINTS), "Buch", "SB"))
    rows = "".join(
        f"<tr><td>{place}</td><td>{escape(names.get(line.player, line.player))}"
        + (" ×" if line.player in withdrawn else "")
        + f"</td><td>{written(line.points)}</td><td>{written(line.buchholz)}</td>"
        f"<td>{written(line.sonneborn_berger)}</td></tr>"
        for place, line in enumerate(lines, 1)
    )
    return (
        f'<table class="board-table"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
        + (f"<p>{escape(_(WITHDRAWN))}</p>" if withdrawn else "")
        + f"<p>{escape(_(TIE_BREAKS))}</p>"
    )


def rounds_list(t: Tournament, secret: bytes) -> str:
    names = t.names
    parts = []
    for rnd in reversed(t.played):
        items = []
        for table in rnd.tables:
            seats = " · ".join(
                escape(names.get(p, p))
                + (f" ({table.places[p]})" if table.places is not None else "")
                for p in table.seats
            )
            state = "" if table.places is not None else f" — {escape(_(PLAYING))}"
            href = f"/g/{public_id(secret, table.game_id)}"
            items.append(f'<li><a href="{escape(href)}">{seats}</a>{state}</li>')
        if rnd.byes:
            byes = ", ".join(names.get(p, p) for p in rnd.byes)
            items.append(f"<li>{escape(_(BYE).format(names=byes))}</li>")
        title = escape(_(ROUND).format(n=rnd.number))
        parts.append(f"<section><h2>{title}</h2><ul>{''.join(items)}</ul></section>")
    return "".join(parts)


def tournament_page(t: Tournament, secret: bytes, lang: str) -> str:
    lines = current_standings(t)
    title = _("Tournament {id}: {game}").format(id=t.id, game=GAMES[t.game].title)
    winner = ""
    if t.status == "finished" and lines:
        name = t.names.get(lines[0].player, lines[0].player)
        winner = f"<p><strong>{escape(_(WINNER).format(name=name))}</strong></p>"
    body = (
        f"<header><h1>{escape(title)}</h1>"
        f'<nav><a href="/s/{escape(t.guild)}">{escape(_(pages.LEADERBOARDS))}</a></nav></header>'
        f"<main>{winner}<h2>{escape(_(STANDINGS))}</h2>{standings_table(t, lines)}"
        f"{rounds_list(t, secret)}</main>"
    )
    return pages.page(title, body, (), lang)


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
