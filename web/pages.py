"""The web table's pages, from the templates of web/templates (autoescaped Jinja2).

Pages carry no inline script or style (the Content-Security-Policy forbids both): behaviour
comes from ``/static/*.js``, looks from ``/static/style.css``. A live page's changing part is
one fragment (``table_fragment``, the hand page's surface in ``web.surface``), written by one
template only, that the page's script fetches again when the game changes, so the page and its
updates can never disagree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from markupsafe import Markup

from bot.i18n import _
from web.templating import render, told

__all__ = [
    "PlayerLine",
    "TableState",
    "leaderboard_page",
    "message_page",
    "player_page",
    "rating_chart",
    "replay_page",
    "server_page",
    "table_fragment",
    "table_page",
    "told",
]


@dataclass(frozen=True)
class PlayerLine:
    name: str
    score: str
    moving: bool
    ai: bool


@dataclass(frozen=True)
class TableState:
    """What a public table page shows: nothing that is not in the game's public view."""

    title: str
    status: str
    version: int
    turn: str
    players: list[PlayerLine]
    lines: list[str]
    board: str | None


def page(
    template: str, title: str, lang: str, *, scripts: tuple[str, ...] = (), **values: Any
) -> str:
    return render(template, title=title, lang=lang, scripts=scripts, modules=(), **values)


def table_fragment(state: TableState) -> str:
    """The live part of a table page: whose turn, the board, the players, the turn log."""
    return render("table_fragment.html", state=state)


def table_page(state: TableState, base: str, lang: str, leaderboard: str) -> str:
    return page(
        "table.html",
        state.title,
        lang,
        scripts=("live.js",),
        state=state,
        base=base,
        leaderboard=leaderboard,
    )


def replay_page(title: str, base: str, turns: int, gif: bool, lang: str) -> str:
    heading = _("Replay: {title}").format(title=title)
    return page(
        "replay.html",
        heading,
        lang,
        scripts=("replay.js",),
        game_title=title,
        base=base,
        last=turns - 1,
        gif=gif,
    )


def message_page(title: str, text: str, lang: str = "en") -> str:
    return page("message.html", title, lang, text=text)


def leaderboard_page(
    title: str, rows: list[tuple[str, str, int, int]], lang: str, server: str, season: str
) -> str:
    """``rows``: (player page address or empty, name, rating on the display scale, games);
    ``server``: the page of the server's other leaderboards, ``season``: the game's season
    table. The rating is written as Discord writes it ("1,056"; "1.056" in Portuguese)."""
    return page("leaderboard.html", title, lang, rows=rows, server=server, season=season)


def server_page(
    title: str, boards: list[tuple[str, str]], lang: str, learn: list[tuple[str, str]]
) -> str:
    """A server's leaderboards, one link a game; ``learn``: (game title, how to learn it),
    each a Learn button that opens its sentence."""
    return page("server.html", title, lang, boards=boards, learn=learn)


def player_page(
    name: str, chart: str, games: list[tuple[str, str, str, str]], lang: str, titles: list[str]
) -> str:
    """``games``: (table address or empty, game title, place, when) newest first; ``chart``
    from ``rating_chart``; ``titles``: the titles the player holds (``bot.titles``), named."""
    return page("player.html", name, lang, name=name, chart_html=chart, games=games, titles=titles)


@dataclass(frozen=True)
class Chart:
    """A rating line's geometry in its SVG box."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    line: str
    spots: list[tuple[float, float]]
    labels: list[dict[str, Any]]


def rating_chart(points: list[tuple[float, float]], label: str) -> Markup:
    """An SVG line of (time, rating) points with the rating's range up the side and the first
    and last dates along the bottom, scaled to its box; it takes the page's width, so it reads
    at 390 px."""
    return Markup(render("chart.html", chart=chart_of(points), label=label))


def chart_of(points: list[tuple[float, float]]) -> Chart | None:
    width, height, pad, left = 360, 210, 28, 40
    if not points:
        return None
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    y0, y1 = math.floor(min(ys)) - 1, math.ceil(max(ys)) + 1

    def at(x: float, y: float) -> tuple[float, float]:
        px = left + (x - x0) / (x1 - x0) * (width - left - pad)
        py = height - pad - (y - y0) / (y1 - y0) * (height - 2 * pad)
        return round(px, 1), round(py, 1)

    spots = [at(x, y) for x, y in points]
    first, last = (datetime.fromtimestamp(x, UTC).strftime("%Y-%m-%d") for x in (x0, max(xs)))
    labels = [
        {"x": left - 6, "y": pad + 4, "anchor": "end", "text": f"{y1:.0f}"},
        {"x": left - 6, "y": height - pad, "anchor": "end", "text": f"{y0:.0f}"},
        {"x": left, "y": height - 8, "anchor": "start", "text": first},
    ]
    if last != first:
        labels.append({"x": width - pad, "y": height - 8, "anchor": "end", "text": last})
    line = " ".join(f"{px},{py}" for px, py in spots)
    return Chart(width, height, left, width - pad, pad, height - pad, line, spots, labels)
