"""``determinize(view, player, rng)`` for every game, at every step of random games: the table
it deals shows that player exactly the view it was given, keeps every conserved quantity (each
game's own property-test check), offers the player the same moves, and is a pure function of
the view and the generator."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai import RandomAgent
from rules import DETERMINIZERS, GAMES
from tests.rules import (
    test_artsee_properties,
    test_mural_properties,
    test_street_art_properties,
    test_street_kings_properties,
)

SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Each game's conservation check from its own property tests (ArtSee's needs the seat count).
CONSERVED: dict[str, Callable[[Any, int], None]] = {
    "street-art": lambda state, _: test_street_art_properties.assert_conserved(state),
    "artsee": test_artsee_properties.assert_conserved,
    "street-art-mural": lambda state, _: test_mural_properties.assert_conserved(state),
    "street-kings": lambda state, _: test_street_kings_properties.assert_conserved(state),
}


def options(game_id: str, count: int, hidden: bool) -> dict[str, Any]:
    if game_id == "street-art" and count == 2:
        return {"two_players": True}
    if game_id == "street-kings":
        return {"hidden_upgrades": hidden}
    return {}


@pytest.mark.parametrize("game_id", sorted(GAMES))
@SETTINGS
@given(data=st.data())
def test_a_determinized_table_shows_the_player_their_view_and_conserves_everything(
    game_id: str, data: st.DataObject
) -> None:
    game = GAMES[game_id]
    count = data.draw(st.integers(game.min_players, game.max_players), label="players")
    hidden = data.draw(st.booleans(), label="hidden upgrades")
    seed = data.draw(st.text(max_size=4), label="seed")
    players = [f"p{i}" for i in range(count)]
    state = game.start(players, seed, options(game_id, count, hidden))
    agent = RandomAgent(seed)
    for step in range(400):
        if game.outcome(state) is not None:
            break
        if step % 3 == 0:
            for player in players:
                view = game.view(state, player)
                dealt = DETERMINIZERS[game.id](view, player, random.Random(f"{seed}:{step}"))
                assert game.view(dealt, player) == view
                CONSERVED[game_id](dealt, count)
                assert game.legal(dealt, player) == game.legal(state, player)
                again = DETERMINIZERS[game.id](view, player, random.Random(f"{seed}:{step}"))
                assert game.dump(again) == game.dump(dealt), "pure in the view and generator"
                assert game.view(state, player) == view, "the view is left untouched"
        mover = game.to_move(state)[0]
        state, _ = game.play(state, mover, agent.choose(game, state, mover))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_determinizing_deals_the_hidden_cards_anew(game_id: str) -> None:
    """Another generator deals another table: the hidden parts are really redrawn, not read."""
    game = GAMES[game_id]
    players = [f"p{i}" for i in range(3)]
    state = game.start(players, "redeal", {})
    view = game.view(state, "p0")
    tables = {
        str(game.dump(DETERMINIZERS[game.id](view, "p0", random.Random(n)))) for n in range(5)
    }
    assert len(tables) > 1
