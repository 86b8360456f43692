"""The web table's season page (issue 38), beside the tournament page: a server's season table
in one game (the current season, or a past one by number), the seasons to choose, and a link
to the all-time leaderboard.

Only public games count here (a table in a channel everyone on the server can view), so a
private channel's players and results stay private on the web too; the table is worked out
from those games by the same rules as in Discord (``bot.seasons``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial

from aiohttp import web
from babel.dates import format_date

from bot.i18n import _
from bot.results import display_rating
from bot.seasons.model import CLOSED, Season, SeasonLine, ranked
from bot.seasons.service import Seasons
from bot.service import GameService
from rules import GAMES
from web import pages, public

#: Opens a server's pages in its language, or refuses (the web table's ``Table.guild_open``).
GuildOpen = Callable[[str], Awaitable[str]]

Row = tuple[str, str, int, int, int]


def season_rows(guild: str, lines: list[SeasonLine]) -> list[Row]:
    """Each ranked place's (player page, name, rating on the display scale, games, wins)."""
    return [
        (f"/s/{guild}/p/{x.player}", x.name, display_rating(x.mu, x.sigma), x.games, x.wins)
        for x in lines
    ]


def season_page(
    season: Season, lines: list[SeasonLine], minimum: int, others: list[Season], lang: str
) -> str:
    base = f"/s/{season.guild}/{season.game}"
    shown = ranked(lines, minimum)
    window = " – ".join(
        format_date(datetime.fromtimestamp(at, UTC).date(), "medium", locale=lang.replace("-", "_"))
        for at in (season.starts_at, season.ends_at)
    )
    return pages.page(
        "season.html",
        _("{title}: season {n}").format(title=GAMES[season.game].title, n=season.number),
        lang,
        server=f"/s/{season.guild}",
        all_time=base,
        window=window,
        over=season.status == CLOSED,
        rows=season_rows(season.guild, shown),
        minimum=minimum,
        waiting=len(lines) - len(shown),
        seasons=[(f"{base}/season/{s.number}", s.number) for s in others],
    )


class SeasonPages:
    """``/s/{guild}/{game}/season[/{n}]``: a season's table from the server's public games."""

    def __init__(self, service: GameService, seasons: Seasons, guild_open: GuildOpen) -> None:
        self.service, self.seasons, self.guild_open = service, seasons, guild_open

    async def page(self, request: web.Request) -> web.StreamResponse:
        guild, game = request.match_info["guild"], request.match_info["game"]
        if game not in GAMES:
            raise web.HTTPNotFound()
        lang = await self.guild_open(guild)
        others = await self.seasons.past(guild, game)
        number = request.match_info.get("number")
        season = next((s for s in others if str(s.number) == number), None)
        if number is None and others:
            season = others[0]
        if season is None:
            raise web.HTTPNotFound()
        minimum = (
            season.minimum
            if season.status == CLOSED
            else (await self.service.guild_settings(guild)).season_games
        )
        lines = await self.seasons.lines(season, partial(public.private, self.service.store))
        return web.Response(
            text=season_page(season, lines, minimum, others, lang),
            content_type="text/html",
            headers={"Cache-Control": "no-store"},
        )


def routes(service: GameService, guild_open: GuildOpen) -> list[web.RouteDef]:
    """The season pages' routes, for ``create_app`` to add."""
    seasons = SeasonPages(service, Seasons(service, listen=False), guild_open)
    return [
        web.get("/s/{guild}/{game}/season", seasons.page),
        web.get("/s/{guild}/{game}/season/{number:[0-9]{1,6}}", seasons.page),
    ]
