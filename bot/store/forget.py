"""Forgetting a player (`/game forget-me`, `python -m bot forget`): what each stored value
becomes, whatever the backend.

In every game the player sat in, their id becomes ``former:<seat>`` and their name "Former
player <seat>", wherever the game keeps them: its seat, its host, its snapshot, journal,
clocks, table preferences and seats to move, every action of its log (who played it, and any
action that names them), the audit of its undos, a pending undo request and the posts its
outbox holds. A game is a
function of its players, seed and log, and the engines treat player ids as opaque labels, so a
replay of the renamed log reproduces the renamed snapshots exactly. Their results and ratings
are deleted (``Store.forget_player``); the other players' stay.

The action log is append-only; a migration lets a row change only this way (its player or
action now naming a ``former:`` seat, nothing else about it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.store.rows import dumps, loads

#: The id a forgotten player's seat takes, before its seat number (from 1).
FORMER = "former:"


def alias(seat: int) -> str:
    """The id of the forgotten player of seat ``seat`` (from 0) of a game."""
    return f"{FORMER}{seat + 1}"


def former_name(seat: int, ai: bool) -> str:
    """The name of that seat from now on (an AI plays it if the game was running)."""
    name = f"Former player {seat + 1}"
    return f"{name} (AI)" if ai else name


def renamed(value: Any, user: str, new: str) -> Any:
    """``value`` (decoded JSON) with every string equal to ``user``, as a value or a key,
    replaced by ``new``."""
    if isinstance(value, str):
        return new if value == user else value
    if isinstance(value, list):
        return [renamed(item, user, new) for item in value]
    if isinstance(value, dict):
        return {
            (new if key == user else key): renamed(item, user, new) for key, item in value.items()
        }
    return value


def renamed_text(text: str | None, user: str, new: str) -> str | None:
    """A stored JSON text with ``user`` renamed (unchanged when it does not name them, so a
    value is rewritten only when it must be)."""
    if text is None or user not in text:
        return text
    return dumps(renamed(loads(text), user, new))


@dataclass
class Forgotten:
    """What forgetting a player changed: their former seats, (game id, new id) each, and the
    result and rating rows deleted."""

    seats: list[tuple[str, str]] = field(default_factory=list)
    results: int = 0
    ratings: int = 0


@dataclass(frozen=True)
class Table:
    """Where one table of a game keeps a player: columns holding an id, columns holding JSON
    (``keys`` pick a row of the game)."""

    name: str
    keys: tuple[str, ...]
    ids: tuple[str, ...]
    texts: tuple[str, ...]


#: The tables renamed game by game (``seats`` aside: it is where the seat is found).
TABLES = (
    Table("games", ("id",), ("host",), ("state", "journal", "clocks", "prefs", "to_move")),
    Table("actions", ("game_id", "seq"), ("player",), ("action",)),
    Table(
        "undone_actions", ("game_id", "undone_at", "seq"), ("player", "requested_by"), ("action",)
    ),
    Table("undo_requests", ("game_id",), ("requested_by",), ("awaiting", "accepted")),
    # A post the table is owed (or was sent) carries the move's events, which name players.
    Table("outbox", ("game_id", "seq"), (), ("payload",)),
    # Who timed out of the game (issue 38: a loss for the season).
    Table("timeouts", ("game_id", "player"), ("player",), ()),
)


def game_column(table: Table) -> str:
    """The column that says which game a row of ``table`` belongs to."""
    return table.keys[0]


def changes(table: Table, row: Any, user: str, new: str) -> dict[str, Any]:
    """The columns of ``row`` (keys, then ids, then texts, in ``table``'s order) that must
    change, with their new values."""
    width = len(table.keys)
    values = list(row)[width:]
    out: dict[str, Any] = {}
    for column, value in zip(table.ids, values, strict=False):
        if value == user:
            out[column] = new
    for column, value in zip(table.texts, values[len(table.ids) :], strict=True):
        text = renamed_text(value, user, new)
        if text != value:
            out[column] = text
    return out
