"""The contract every registered game keeps with the rest of the bot (docs/architecture.md, "A game
is a function of its log"), checked the same way for each entry of ``rules.GAMES``.

Game-specific property tests check what each game conserves and hides; this file checks what
the shared layers rely on and a new game could silently break: seat counts, option checks,
JSON-able states, actions and views, ``play`` never mutating its input, turn order agreeing
with ``legal``, nonsense actions refused with a sentence, random games that end with an
outcome over the seated players, an exact replay from the log, and words and an image for
every moment of the game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import images
from bot.ai import RandomAgent
from bot.words import WORDS
from rules import GAMES, Game, IllegalAction

GAME_IDS = sorted(GAMES)
#: Random playouts per game and seat count; each checks every step in depth.
PLAYOUTS = 2
#: A random game longer than this counts as one that never ends.
MAX_DECISIONS = 20_000


def seats(count: int) -> list[str]:
    return [f"p{i}" for i in range(count)]


def start(game: Game, count: int, seed: str) -> Any:
    return game.start(seats(count), seed, dict(game.default_options))


def counts(game: Game) -> list[int]:
    """The seat counts the game starts with under its default options (``min_players`` may
    need an option, as Street Art's two-player game does), smallest and largest."""
    playable = []
    for count in range(game.min_players, game.max_players + 1):
        try:
            start(game, count, "counts")
        except IllegalAction:
            continue
        playable.append(count)
    assert playable and playable[-1] == game.max_players
    return sorted({playable[0], playable[-1]})


def as_json(value: Any) -> Any:
    """``value`` through JSON and back: what the store and Discord would get."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_seat_counts_outside_the_box_are_refused_with_a_sentence(game_id: str) -> None:
    game = GAMES[game_id]
    for count in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(IllegalAction) as refused:
            start(game, count, "seats")
        assert refused.value.reason.strip()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_same_seed_deals_the_same_game_and_options_are_json(game_id: str) -> None:
    game = GAMES[game_id]
    assert as_json(game.default_options) == game.default_options
    first, again = (start(game, game.max_players, "same") for _ in range(2))
    assert game.dump(first) == game.dump(again)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_nonsense_is_refused_with_a_sentence_and_changes_nothing(game_id: str) -> None:
    game = GAMES[game_id]
    count = counts(game)[0]
    state = start(game, count, "nonsense")
    before = game.dump(state)
    mover = game.to_move(state)[0]
    idle = [p for p in seats(count) if p not in game.to_move(state)]
    attempts = [(mover, {"type": "no-such-move"}), (mover, {}), ("stranger", {"type": "pass"})]
    attempts += [(player, game.legal(state, mover)[0]) for player in idle]
    for player, action in attempts:
        with pytest.raises(IllegalAction) as refused:
            game.play(state, player, action)
        assert refused.value.reason.strip(), (player, action)
    assert game.dump(state) == before


def check_step(game: Game, state: Any, players: list[str]) -> None:
    """What must hold at every moment of a game."""
    dumped = game.dump(state)
    assert as_json(dumped) == dumped
    assert game.dump(game.load(dumped)) == dumped
    waiting = game.to_move(state)
    assert waiting and set(waiting) <= set(players)
    for player in players:
        legal = game.legal(state, player)
        assert bool(legal) == (player in waiting), player
        assert as_json(legal) == legal
        for viewer in (player, None):
            view = game.view(state, viewer)
            assert as_json(view) == view


def ends_turn(game: Game, after: Any, player: str, events: list[dict]) -> bool:
    """Whether ``player``'s step (one they owed) ended a turn, as bot/service.py ``_commit``
    decides today: the step starts a new turn (a ``{"type": "turn"}`` event), or someone else
    or nobody is to move now. ``Game.turn`` must go up by one exactly then."""
    new_turn = any(event.get("type") == "turn" for event in events)
    return new_turn or game.to_move(after) != [player]


def playout(game: Game, count: int, seed: str) -> tuple[Any, list[tuple[str, dict]], list]:
    """A random game, checked at every step; returns the end, the log and the events."""
    players = seats(count)
    state = start(game, count, seed)
    chooser = random.Random(seed)
    log: list[tuple[str, dict]] = []
    events: list[dict] = []
    for _ in range(MAX_DECISIONS):
        if game.outcome(state) is not None:
            break
        check_step(game, state, players)
        player = chooser.choice(game.to_move(state))
        action = chooser.choice(game.legal(state, player))
        before, turn = game.dump(state), game.turn(state)
        state, new_events = game.play(state, player, action)
        assert game.dump(game.load(before)) == before  # the input state is untouched
        assert game.turn(state) == turn + ends_turn(game, state, player, new_events)
        assert as_json(new_events) == new_events
        log.append((player, action))
        events.extend(new_events)
    else:
        pytest.fail(f"{game.id}: a random game of {count} did not end in {MAX_DECISIONS} moves")
    return state, log, events


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_games_end_with_an_outcome_and_replay_exactly(game_id: str) -> None:
    game = GAMES[game_id]
    for count in counts(game):
        for n in range(PLAYOUTS):
            seed = f"every-game-{count}-{n}"
            end, log, _ = playout(game, count, seed)
            assert game.to_move(end) == []
            assert all(game.legal(end, p) == [] for p in seats(count))
            outcome = game.outcome(end)
            assert set(outcome.scores) == set(seats(count))
            assert outcome.winners and set(outcome.winners) <= set(seats(count))
            assert as_json(outcome.to_json()) == outcome.to_json()
            replay = start(game, count, seed)
            for player, action in log:
                replay, _ = game.play(replay, player, action)
            assert game.dump(replay) == game.dump(end)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_action_and_event_of_a_random_game_has_words(game_id: str) -> None:
    game = GAMES[game_id]
    words = WORDS[game_id]
    count = game.max_players
    players = seats(count)
    names = {p: f"Player {p}" for p in players}
    state = start(game, count, "words")
    chooser = random.Random("words")
    while game.outcome(state) is None:
        player = chooser.choice(game.to_move(state))
        for action in game.legal(state, player):
            label = words.action_label(action, names)
            assert 0 < len(label) <= 80, (action, label)
        assert words.hand_text(game.view(state, player)).strip()
        state, events = game.play(state, player, chooser.choice(game.legal(state, player)))
        lines = words.describe(events, names)
        assert all(isinstance(line, str) and line.strip() for line in lines), events


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_board_renders_at_the_start_and_the_end(game_id: str) -> None:
    game = GAMES[game_id]
    count = game.max_players
    names = {p: f"Player {p}" for p in seats(count)}
    first = start(game, count, "render")
    end, _, _ = playout(game, count, "render")
    for state in (first, end):
        png = images.render(game_id, game.view(state, None), names=names)
        assert png.startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_option_is_explained_for_game_settings(game_id: str) -> None:
    explained = WORDS[game_id].OPTIONS
    assert set(explained) == set(GAMES[game_id].default_options)
    assert all(text.strip() and len(text) <= 200 for text in explained.values())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_ai_seats_play_a_whole_game_and_pass_only_when_nothing_else_is_legal(
    game_id: str,
) -> None:
    game = GAMES[game_id]
    passive = game.passive_actions
    agent = RandomAgent(f"ai-{game_id}")
    state = start(game, game.max_players, "ai")
    for _ in range(MAX_DECISIONS):
        if game.outcome(state) is not None:
            break
        player = game.to_move(state)[0]
        legal = game.legal(state, player)
        action = agent.choose(game, state, player)
        assert action in legal
        if action.get("type") in passive:
            assert all(other.get("type") in passive for other in legal), action
        state, _ = game.play(state, player, action)
    else:
        pytest.fail(f"{game_id}: AI seats did not finish a game in {MAX_DECISIONS} decisions")


#: One standing order of each game that has them (``is_standing_order``), given out of turn.
STANDING_ORDERS = {
    "artsee": [{"type": "policy", "policy": "never"}, {"type": "policy", "policy": "ask"}],
    "street-kings": [
        {"type": "noz_policy", "policy": "never"},
        {"type": "noz_policy", "policy": "first chance"},
    ],
}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_turn_number_starts_at_1_and_a_standing_order_leaves_it(game_id: str) -> None:
    """``turn`` (the protocol's turn number, which the random playouts check step by step
    against the service's rule) is 1 at the start, survives ``load(dump(s))``, and a standing
    order from a player who is not to move leaves it, as the service leaves the turn."""
    game = GAMES[game_id]
    count = game.max_players
    state = start(game, count, "turn")
    assert game.turn(state) == 1
    known = [order for orders in STANDING_ORDERS.values() for order in orders]
    assert any(map(game.is_standing_order, known)) == (game_id in STANDING_ORDERS)
    chooser = random.Random("turn")
    for step in range(60):
        turn = game.turn(state)
        assert game.turn(game.load(as_json(game.dump(state)))) == turn
        idle = [p for p in seats(count) if p not in game.to_move(state)]
        if idle and game_id in STANDING_ORDERS:
            order = STANDING_ORDERS[game_id][step % 2]
            assert game.is_standing_order(order)
            try:
                after, _ = game.play(state, idle[0], order)
            except IllegalAction:  # already that policy
                pass
            else:
                assert game.turn(after) == turn
        player = chooser.choice(game.to_move(state))
        state, _ = game.play(state, player, chooser.choice(game.legal(state, player)))
        assert game.turn(state) >= turn
        if game.outcome(state) is not None:
            break
