"""Whose move a stored game is: the ``to_move`` column's value for rows written before it
existed (the migrations' backfill; every save since writes it, ``bot.store.rows.movers``).

The store never loads a snapshot to list a game. Only this one-time backfill reads the engine,
as ``bot.store.recovery`` does to rebuild a snapshot, so it is what the service would have
stored: ``Game.to_move`` of the loaded state while the game is active, none otherwise.
"""

from __future__ import annotations

import logging

from bot.store.base import ACTIVE
from bot.store.rows import dumps, loads
from rules import GAMES

log = logging.getLogger(__name__)

#: The rows to backfill, and the statement that writes each (SQLite's placeholders).
BACKFILL_ROWS = "SELECT id, game, state FROM games WHERE status = 'active' AND state IS NOT NULL"
BACKFILL_SET = "UPDATE games SET to_move = ? WHERE id = ?"


def stored_movers(game_id: str, game: str, status: str, state: str | None) -> str:
    """The ``to_move`` text of one stored game. A game type this bot does not know, or a
    snapshot that does not load (it is rebuilt at its next read), is stored with none: the
    listing then says the AI seats are at work until the game's next save writes it."""
    engine = GAMES.get(game)
    if status != ACTIVE or state is None or engine is None:
        return dumps([])
    try:
        return dumps(list(engine.to_move(engine.load(loads(state)))))
    except Exception as exc:  # a damaged snapshot must not stop the migration
        log.warning("game %s: whose move it is is unknown (%r); stored as nobody's", game_id, exc)
        return dumps([])


def backfill(rows: list[tuple[str, str, str | None]]) -> list[tuple[str, str]]:
    """(to_move, id) for each (id, game, state) of ``BACKFILL_ROWS``: active games all."""
    return [(stored_movers(i, g, ACTIVE, s), i) for i, g, s in rows]
