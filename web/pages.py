"""The web table's HTML, written on the server with every name escaped.

Pages carry no inline script or style (the Content-Security-Policy forbids both): behaviour
comes from ``/static/*.js``, looks from ``/static/style.css``. A live page's changing part is
one fragment (``table_fragment``, ``hand_fragment``), written here only, that the page's script
fetches again when the game changes, so the page and its updates can never disagree.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

from babel.numbers import format_decimal

from bot.i18n import N_, _

#: Every sentence of the pages, marked here: a sentence inside an f-string is invisible to
#: the catalog's extractor.
AI = N_("AI")
FINISHED = N_("Finished")
FIRST_TURN = N_("First turn")
GAME = N_("Game")
GAMES = N_("Games")
GIF_OF_THE_GAME = N_("GIF of the game")
LAST_TURN = N_("Last turn")
LEADERBOARD = N_("Leaderboard")
LEADERBOARDS = N_("Leaderboards")
LINK_TO_THIS_TURN = N_("Link to this turn")
LIVE_TABLE = N_("Live table")
NEXT_TURN = N_("Next turn")
NO_RATED_GAMES_YET = N_("No rated games yet.")
ONLY_YOU_CAN_SEE_THIS_PAGE = N_("Only you can see this page.")
PLACE = N_("Place")
PLAYER = N_("Player")
PLAYERS = N_("Players")
PREVIOUS_TURN = N_("Previous turn")
RATING = N_("Rating")
RATING_OVER_TIME = N_("Rating over time")
REPLAY = N_("Replay")
TAP_THE_BOARD_TO_ZOOM = N_("Tap the board to zoom.")
THE_BOARD = N_("The board")
THE_PUBLIC_BOARD = N_("The public board")
THE_PUBLIC_BOARD_AFTER_THIS = N_("The public board after this turn")
THIS_BOARD_PNG = N_("This board (PNG)")
TURN = N_("Turn")
WHAT_HAPPENED = N_("What happened")
YOUR_HAND = N_("Your hand")
YOUR_MOVE = N_("Your move")

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def told(line: str) -> str:
    """A sentence written for Discord (``**bold**``, ```code```) as HTML: escaped first, so
    the markup can only ever wrap escaped text."""
    text = _BOLD.sub(r"<strong><bdi>\1</bdi></strong>", escape(line))  # names are bold
    return _CODE.sub(r"<code>\1</code>", text)


def who(name: str) -> str:
    """A name, escaped and isolated: a right-to-left override in it cannot turn what follows
    (a score, a rating) around."""
    return f"<bdi>{escape(name)}</bdi>"


def t(message: str) -> str:
    """A marked sentence in the reader's language, escaped for HTML."""
    return escape(_(message))


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


def page(title: str, body: str, scripts: tuple[str, ...] = (), lang: str = "en") -> str:
    tags = "".join(f'<script src="/static/{name}" defer></script>' for name in scripts)
    return (
        f'<!doctype html><html lang="{escape(lang.replace("_", "-"))}"><head>'
        '<meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        f'<link rel="stylesheet" href="/static/style.css">{tags}</head>'
        f"<body>{body}</body></html>"
    )


def players_list(players: list[PlayerLine]) -> str:
    items = []
    for p in players:
        marks = " ▶" if p.moving else ""
        name = who(p.name) + (f' <span class="tag">{t(AI)}</span>' if p.ai else "")
        cls = ' class="moving"' if p.moving else ""
        items.append(
            f'<li{cls}><span class="who">{name}{marks}</span>'
            f'<span class="score">{escape(p.score)}</span></li>'
        )
    return f'<ul class="players">{"".join(items)}</ul>'


def board_figure(src: str | None, alt: str) -> str:
    if src is None:
        return ""
    return (
        f'<div class="board" id="board"><img src="{escape(src)}" alt="{escape(alt)}" '
        f'data-zoom="1"></div><p class="hint">{t(TAP_THE_BOARD_TO_ZOOM)}</p>'
    )


def table_fragment(state: TableState) -> str:
    """The live part of a table page: whose turn, the board, the players, the turn log."""
    log = "".join(f"<li>{told(line)}</li>" for line in reversed(state.lines[-200:]))
    return (
        f'<p class="turn" data-version="{state.version}">{told(state.turn)}</p>'
        f"<section>{board_figure(state.board, _(THE_PUBLIC_BOARD))}</section>"
        f"<aside><h2>{t(PLAYERS)}</h2>{players_list(state.players)}"
        f'<h2>{t(WHAT_HAPPENED)}</h2><ol class="log" reversed>{log}</ol></aside>'
    )


def table_page(state: TableState, base: str, lang: str, leaderboard: str) -> str:
    body = (
        f"<header><h1>{escape(state.title)}</h1>"
        f'<nav><a href="{escape(base)}/replay">{t(REPLAY)}</a> · '
        f'<a href="{escape(leaderboard)}">{t(LEADERBOARD)}</a></nav></header>'
        f'<main id="live" data-fragment="{escape(base)}/fragment" '
        f'data-events="{escape(base)}/events">{table_fragment(state)}</main>'
    )
    return page(state.title, body, ("live.js",), lang)


def replay_page(title: str, base: str, turns: int, gif: bool, lang: str) -> str:
    last = turns - 1
    downloads = f'<a href="{escape(base)}/replay.gif" download>{t(GIF_OF_THE_GAME)}</a>'
    body = (
        f"<header><h1>{escape(title)}</h1>"
        f'<nav><a href="{escape(base)}">{t(LIVE_TABLE)}</a></nav></header>'
        f'<main id="replay" data-base="{escape(base)}" data-last="{last}">'
        '<div class="controls">'
        f'<button type="button" id="first" aria-label="{t(FIRST_TURN)}">«</button>'
        f'<button type="button" id="prev" aria-label="{t(PREVIOUS_TURN)}">◀</button>'
        f'<span id="label" aria-live="polite"></span>'
        f'<button type="button" id="next" aria-label="{t(NEXT_TURN)}">▶</button>'
        f'<button type="button" id="end" aria-label="{t(LAST_TURN)}">»</button>'
        "</div>"
        f'<input type="range" id="scrub" min="0" max="{last}" value="{last}" '
        f'aria-label="{t(TURN)}">'
        f"{board_figure(f'{base}/replay/{last}.png', _(THE_PUBLIC_BOARD_AFTER_THIS))}"
        '<ol id="story" class="log"></ol>'
        '<p class="downloads">'
        f'<a id="png" href="{escape(base)}/replay/{last}.png" download>'
        f"{t(THIS_BOARD_PNG)}</a> "
        f'<a id="permalink" href="?turn={last}">{t(LINK_TO_THIS_TURN)}</a> '
        f"{downloads if gif else ''}</p></main>"
    )
    return page(_("Replay: {title}").format(title=title), body, ("replay.js",), lang)


def hand_fragment(
    *,
    title: str,
    turn: str,
    hand: str,
    picture: str | None,
    board: str | None,
    choices: list[str],
    version: int,
    action_url: str,
    note: str = "",
) -> str:
    """The live part of a hand page: the player's own view and their moves, as forms that
    work without a script (the script sends them without leaving the page)."""
    forms = "".join(
        f'<form method="post" action="{escape(action_url)}" class="move">'
        f'<input type="hidden" name="version" value="{version}">'
        f'<input type="hidden" name="index" value="{index}">'
        f'<button type="submit">{escape(label)}</button></form>'
        for index, label in enumerate(choices)
    )
    moves = f'<h2>{t(YOUR_MOVE)}</h2><div class="moves">{forms}</div>' if choices else ""
    figure = (
        f'<div class="hand"><img src="{escape(picture)}" alt="{t(YOUR_HAND)}" data-zoom="1"></div>'
        if picture
        else ""
    )
    return (
        (f'<p class="note" role="status">{escape(note)}</p>' if note else "")
        + f'<p class="turn" data-version="{version}">{told(turn)}</p>'
        + f'<section><pre class="handtext">{told(hand)}</pre>{figure}{moves}</section>'
        + f"<aside><h2>{t(THE_BOARD)}</h2>"
        + f"{board_figure(board, _(THE_PUBLIC_BOARD))}</aside>"
    )


def hand_page(title: str, base: str, fragment: str, lang: str) -> str:
    body = (
        f"<header><h1>{escape(title)}</h1><p>{t(ONLY_YOU_CAN_SEE_THIS_PAGE)}</p>"
        "</header>"
        f'<main id="live" data-fragment="{escape(base)}/fragment" '
        f'data-events="{escape(base)}/events">{fragment}</main>'
    )
    return page(title, body, ("live.js",), lang)


def message_page(title: str, text: str, lang: str = "en") -> str:
    return page(title, f"<main><h1>{escape(title)}</h1><p>{escape(text)}</p></main>", (), lang)


def leaderboard_page(
    title: str, rows: list[tuple[str, str, int, int]], lang: str, server: str
) -> str:
    """``rows``: (player page address or empty, name, rating on the display scale, games);
    ``server``: the page of the server's other leaderboards. The rating is written as Discord
    writes it ("1,056"; "1.056" in Portuguese)."""
    items = "".join(
        f"<tr><td>{rank}</td><td>"
        + (f'<a href="{escape(href)}">{who(name)}</a>' if href else who(name))
        + f"</td><td>{format_decimal(rating, locale=lang)}</td><td>{games}</td></tr>"
        for rank, (href, name, rating, games) in enumerate(rows, 1)
    )
    head = "".join(f"<th>{escape(h)}</th>" for h in ("#", _(PLAYER), _(RATING), _(GAMES)))
    body = (
        f"<header><h1>{escape(title)}</h1>"
        f'<nav><a href="{escape(server)}">{t(LEADERBOARDS)}</a></nav></header><main>'
        f'<table class="board-table"><thead><tr>{head}</tr></thead><tbody>{items}</tbody></table>'
        "</main>"
    )
    return page(title, body, (), lang)


def server_page(title: str, boards: list[tuple[str, str]], lang: str) -> str:
    """A server's leaderboards, one link a game."""
    links = "".join(
        f'<li><a href="{escape(href)}">{escape(name)}</a></li>' for href, name in boards
    )
    body = f'<header><h1>{escape(title)}</h1></header><main><ul class="games">{links}</ul></main>'
    return page(title, body, (), lang)


def player_page(name: str, chart: str, games: list[tuple[str, str, str, str]], lang: str) -> str:
    """``games``: (table address or empty, game title, place, when) newest first."""
    rows = "".join(
        "<tr><td>"
        + (f'<a href="{escape(href)}">{escape(title)}</a>' if href else escape(title))
        + f"</td><td>{escape(place)}</td><td>{escape(when)}</td></tr>"
        for href, title, place, when in games
    )
    head = "".join(f"<th>{escape(h)}</th>" for h in (_(GAME), _(PLACE), _(FINISHED)))
    body = (
        f"<header><h1>{who(name)}</h1></header>"
        f"<main><h2>{t(RATING_OVER_TIME)}</h2>"
        f'<div class="chart">{chart}</div><h2>{t(GAMES)}</h2>'
        f'<table class="board-table"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody>'
        "</table></main>"
    )
    return page(name, body, (), lang)


def rating_chart(points: list[tuple[float, float]], label: str) -> str:
    """An SVG line of (time, rating) points with the rating's range up the side and the first
    and last dates along the bottom, scaled to its box; it takes the page's width, so it reads
    at 390 px. Drawn with attributes only (no style: the page's policy forbids inline ones)."""
    width, height, pad, left = 360, 210, 28, 40
    if not points:
        return f"<p>{t(NO_RATED_GAMES_YET)}</p>"
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    y0, y1 = math.floor(min(ys)) - 1, math.ceil(max(ys)) + 1

    def at(x: float, y: float) -> tuple[float, float]:
        px = left + (x - x0) / (x1 - x0) * (width - left - pad)
        py = height - pad - (y - y0) / (y1 - y0) * (height - 2 * pad)
        return round(px, 1), round(py, 1)

    spots = [at(x, y) for x, y in points]
    line = " ".join(f"{px},{py}" for px, py in spots)
    dots = "".join(f'<circle cx="{px}" cy="{py}" r="4" fill="#2563eb"/>' for px, py in spots)
    text = '<text font-size="13" fill="#444" x="{x}" y="{y}" text-anchor="{anchor}">{body}</text>'
    first, last = (datetime.fromtimestamp(x, UTC).strftime("%Y-%m-%d") for x in (x0, max(xs)))
    labels = [
        text.format(x=left - 6, y=pad + 4, anchor="end", body=f"{y1:.0f}"),
        text.format(x=left - 6, y=height - pad, anchor="end", body=f"{y0:.0f}"),
        text.format(x=left, y=height - 8, anchor="start", body=first),
    ]
    if last != first:
        labels.append(text.format(x=width - pad, y=height - 8, anchor="end", body=last))
    return (
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}" '
        'width="100%">'
        f'<line x1="{left}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
        'stroke="#888"/>'
        f'<line x1="{left}" y1="{pad}" x2="{left}" y2="{height - pad}" stroke="#888"/>'
        f"{''.join(labels)}"
        f'<polyline points="{line}" fill="none" stroke="#2563eb" stroke-width="3"/>{dots}</svg>'
    )
