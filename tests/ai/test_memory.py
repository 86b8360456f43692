"""What a seat may remember (``bot.ai.memory``) and the tables dealt from it
(``bot.ai.dealing``): the memory is what the seat saw and nothing else, and it deals the rivals
only cards that can still be in their hands."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from bot.ai import HARD, NORMAL, Agent, dealing
from bot.ai.dealing import dealer
from bot.ai.levels import decide
from bot.ai.memory import Memories, remember, unseen
from rules import DETERMINIZERS, GAMES

GAME = GAMES["street-art"]
PLAYERS = ["p0", "p1", "p2"]
SEAT = "p0"


def played(seed: str, steps: int | None = None) -> tuple[list[Any], list[tuple[str, Any]]]:
    """A game of ``normal`` seats: every state from the start, and the actions."""
    state = GAME.start(PLAYERS, seed, {})
    agent = Agent(seed, NORMAL)
    states, actions = [state], []
    for _ in itertools.count() if steps is None else range(steps):
        if GAME.outcome(state) is not None:
            break
        mover = GAME.to_move(state)[0]
        action = agent.choose(GAME, state, mover)
        state, _ = GAME.play(state, mover, action)
        states.append(state)
        actions.append((mover, action))
    return states, actions


def memories_of(states: list[Any]) -> Memories:
    """The seats' memories once they saw ``states``, fed as the bench feeds them."""
    memories = Memories(GAME, PLAYERS)
    for state in states:
        memories.saw(state)
    return memories


@pytest.mark.parametrize("seed", ["memory:1", "memory:2", "memory:3"])
def test_a_memory_follows_the_whole_game_and_knows_what_lies_where(seed: str) -> None:
    """Every pile card by card, and the cards the seat cannot place are exactly the rivals'
    hands and the draw pile: a card buried in a pile is no longer in anyone's hand."""
    states, _ = played(seed)
    memories = Memories(GAME, PLAYERS)
    collected = 0
    for state in states:
        memories.saw(state)
        for player in PLAYERS:
            memory = memories.of(player)
            assert memory is not None, "a seat that saw every step keeps its memory"
            for seat in state.seats:
                assert memory["piles"][seat.player] == list(seat.pile)
            hidden = Counter(state.draw_pile)
            for seat in state.seats:
                if seat.player != player:
                    hidden.update(seat.hand)
            assert +unseen(memory) == hidden
            collected += bool(memory["segments"])
    assert collected, "a Rain or a reshuffle put known cards under the draw pile"


def test_tables_dealt_from_a_memory_give_the_rivals_only_cards_they_can_hold() -> None:
    """The view's own dealing may put a buried card in a rival's hand; the memory's never
    does, and its tables still show the seat exactly its view."""
    states, _ = played("memory:deal")
    memories = Memories(GAME, PLAYERS)
    buried_dealt = 0
    for number, state in enumerate(states[:-1]):
        memories.saw(state)
        memory = memories.of(SEAT)
        assert memory is not None
        view = GAME.view(state, SEAT)
        plain = DETERMINIZERS[GAME.id]
        for n in range(3):
            table = dealer(plain, GAME.id, memory)(view, SEAT, random.Random(f"{number}:{n}"))
            assert GAME.view(table, SEAT) == view
            assert [seat.pile for seat in table.seats] == [seat.pile for seat in state.seats]
            assert [seat.played_at for seat in table.seats] == [s.played_at for s in state.seats]
            rivals = Counter(card for s in table.seats if s.player != SEAT for card in s.hand)
            assert not rivals - unseen(memory), "a rival dealt a card the seat saw elsewhere"
            blind = plain(view, SEAT, random.Random(f"{number}:{n}"))
            held = Counter(card for s in blind.seats if s.player != SEAT for card in s.hand)
            buried_dealt += bool(held - unseen(memory))
    assert buried_dealt, "the view alone does deal buried cards to the rivals"


def test_a_memory_that_missed_a_step_is_dropped_not_guessed() -> None:
    states, _ = played("memory:gap", 12)
    memory = remember(GAME.id, None, GAME.view(states[0], SEAT))
    assert memory is not None
    for state in states[1:6]:
        memory = remember(GAME.id, memory, GAME.view(state, SEAT))
    assert memory is not None
    assert remember(GAME.id, memory, GAME.view(states[7], SEAT)) is None
    assert remember(GAME.id, None, GAME.view(states[7], SEAT)) is None, "a game begun unseen"
    assert remember("artsee", None, {"viewer": SEAT}) is None, "only Street Art keeps one"


@pytest.fixture
def steady_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that advances a millisecond a reading: ``hard`` searches as far every time."""
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 1000)


def swapped_deal(state: Any, actions: list[tuple[str, Any]], viewer: str) -> Any:
    """The same start with a card the seat never sees swapped: one a rival is dealt and never
    plays in ``actions``, for the last card of the draw pile (never drawn in so few steps)."""
    bottom = state.draw_pile[-1]
    for index, seat in enumerate(state.seats):
        if seat.player == viewer:
            continue
        plays = {action.get("card") for mover, action in actions if mover == seat.player}
        for card in seat.hand:
            if card != bottom and card not in plays:
                hand = list(seat.hand)
                hand[hand.index(card)] = bottom
                seats = list(state.seats)
                seats[index] = replace(seat, hand=tuple(sorted(hand)))
                draw = (*state.draw_pile[:-1], card)
                return replace(state, seats=tuple(seats), draw_pile=draw)
    raise AssertionError("every rival card is played: pick another seed")


@pytest.mark.usefixtures("steady_clock")
def test_a_memory_and_the_decision_it_informs_ignore_what_the_seat_never_saw() -> None:
    """The redeal test, over the whole game so far: a start dealt otherwise where the seat
    cannot see (a rival's unplayed card swapped with the bottom of the draw pile) gives the
    same views, the same memory and the same ``hard`` decision, though the tables differ."""
    steps = 20
    states, actions = played("memory:redeal", steps)
    seat = GAME.to_move(states[-1])[0]
    other = [swapped_deal(states[0], actions, seat)]
    for mover, action in actions:
        other.append(GAME.play(other[-1], mover, action)[0])
    assert GAME.dump(other[-1]) != GAME.dump(states[-1])
    here, there = memories_of(states), memories_of(other)
    assert here.of(seat) == there.of(seat)
    assert here.of(seat) is not None
    view = GAME.view(states[-1], seat)
    assert GAME.view(other[-1], seat) == view
    legal = GAME.legal(states[-1], seat)
    chosen = decide(GAME.id, HARD, view, legal, "same", 0.5, here.of(seat))
    assert chosen == decide(GAME.id, HARD, view, legal, "same", 0.5, there.of(seat))


def test_a_rival_who_did_not_steal_is_dealt_the_card_to_steal_with_less_often() -> None:
    """p1 opened their last turn with a Juggler from the middle while p0 showed a Fire
    Breather with 6 hearts: a hand where p1 held a Fire Breather then (two now, so one was
    not the card drawn since) is implausible, a hand of nothing better is not."""
    choice = {
        "phase": "play",
        "tops": {"p0": "fire-breather", "p1": None, "p2": None},
        "stamps": {"p0": 1, "p1": 0, "p2": 0},
        "hearts": {"p0": 6, "p1": 0, "p2": 0},
        "middle": 40,
        "card": "juggler",
        "drawn": 1,
    }
    memory = {"choices": {"p1": choice}}
    held = ("fire-breather", "fire-breather", "brass-band", "juggler", "bmx-artist")
    plain = ("bmx-artist", "brass-band", "juggler", "juggler", "breakdancer")
    for hand, kept in ((held, dealing.IMPLAUSIBLE), (plain, 1.0)):
        state = GAME.start(PLAYERS, "plausible", {})
        seats = tuple(replace(s, hand=hand) if s.player == "p1" else s for s in state.seats)
        table = replace(state, seats=seats)
        assert dealing.plausibility(table, SEAT, memory) == pytest.approx(kept)
    one = ("fire-breather", "brass-band", "juggler", "bmx-artist", "breakdancer")
    seats = tuple(replace(s, hand=one) if s.player == "p1" else s for s in state.seats)
    share = dealing.plausibility(replace(state, seats=seats), SEAT, memory)
    assert dealing.IMPLAUSIBLE < share < 1.0, "the Fire Breather may be the card drawn since"
