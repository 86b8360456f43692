"""Rebuild a game's state snapshot from its seed and action log.

A game is a deterministic function of (players, seed, options, action log), so a snapshot that
cannot be read is not lost: replaying the log through the engine gives it back. Only a log that
does not replay leaves the game needing attention. ``open_store`` hands this to the stores,
which call it when a row's snapshot does not decode, or when the service finds that its engine
refuses one that does (``Store.rebuild_snapshot``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.store.base import LOBBY, GameRecord, LoggedAction
from rules import GAMES, Game

#: What a store calls to rebuild a snapshot; raises ``RecoveryError`` when it cannot.
Rebuild = Callable[[GameRecord, Sequence[LoggedAction]], dict[str, Any] | None]


class RecoveryError(Exception):
    """The snapshot cannot be rebuilt; the message says why, for the log and the host."""


def replay_snapshot(
    record: GameRecord, actions: Sequence[LoggedAction], games: dict[str, Game] | None = None
) -> dict[str, Any] | None:
    """The snapshot ``record`` should hold after ``actions`` (``None`` for a lobby)."""
    if record.status == LOBBY:
        return None
    game = (GAMES if games is None else games).get(record.game)
    if game is None:
        raise RecoveryError(f"this bot does not know the game type {record.game[:40]!r}")
    try:
        state = game.start([seat.user for seat in record.seats], record.seed, record.options)
        for row in actions:
            state, _ = game.play(state, row.player, row.action)
        snapshot = game.dump(state)
    except Exception as exc:  # whatever the engine says about a bad log, the game stays put
        raise RecoveryError(f"its action log does not replay ({type(exc).__name__})") from exc
    try:  # a snapshot its engine would refuse again is no rebuild
        game.load(snapshot)
    except Exception as exc:
        raise RecoveryError(f"its replayed snapshot does not load ({type(exc).__name__})") from exc
    return snapshot
