"""The bot's log never tells what a player may not see: a whole game of each kind is driven
through the service with everything logged, and every card or token that was ever hidden from
the public view (a hand, a face-down location, a card chosen from a hand) is looked for."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.logs import VERBATIM_LOGGERS, keep_secrets_out_of_logs
from bot.service import GameService
from rules import GAMES
from tests.backends import Backend
from tests.store.games import play, started

MOVES = 3000  # far more than any of the four games lasts


def leaves(value: Any) -> Iterator[str]:
    """Every string in a view, however deeply nested."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from leaves(item)


def hidden_strings(game_id: str, seats: list[str], seed: str, options: dict, log: list) -> set:
    """What the public view did not show at some moment of the replayed game: what a seat
    saw alone (a hand), and what the state holds that nobody sees (the deck, the seed)."""
    game = GAMES[game_id]
    state = game.start(seats, seed, options)
    hidden: set[str] = set()
    for row in log:
        public = set(leaves(game.view(state, None)))
        hidden |= set(leaves(game.dump(state))) - public
        for seat in seats:
            hidden |= set(leaves(game.view(state, seat))) - public
        state, _ = game.play(state, row.player, row.action)
    return {text for text in hidden - set(seats) if len(text) >= 2}


@pytest.fixture
def verbatim_levels() -> Iterator[None]:
    """Give the verbatim loggers their levels back after the test."""
    levels = {name: logging.getLogger(name).level for name in VERBATIM_LOGGERS}
    yield
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def mentions(text: str, secret: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", text) is not None


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_a_whole_games_log_holds_no_hidden_card(
    game_id: str, backend: Backend, caplog: pytest.LogCaptureFixture, verbatim_levels: None
) -> None:
    caplog.set_level(logging.DEBUG)  # the most the bot can be asked to log
    keep_secrets_out_of_logs()  # as `python -m bot` sets up its logging
    store = await backend.opened()
    try:
        service = GameService(store, seed_factory=lambda: "secrets")
        record = await started(service, "c", game_id)
        record = await play(service, record, MOVES, seed=game_id)
        assert record.status == "finished"
        log = await store.actions(record.id)
    finally:
        await store.close()
    seats = [seat.user for seat in record.seats]
    # Action types are logged by design; one may share a card's name (Street Art's fireworks
    # follow-up), but it is said only once that card lies face up.
    kinds = {row.action["type"] for row in log}
    secrets = hidden_strings(game_id, seats, record.seed, record.options, log) - kinds
    assert secrets, "a game with hands hides something"
    # The test can fail: the actions themselves name hidden cards, as the old log line did.
    assert any(mentions(repr([row.action for row in log]), secret) for secret in secrets)
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert f"game {record.id}" in text  # the moves were logged...
    leaked = sorted(secret for secret in secrets if mentions(text, secret))
    assert leaked == []  # ...without what was hidden
