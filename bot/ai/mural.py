"""``hard`` in Street Art: Mural: whole turns compared, three turns deep.

A Mural turn is a chain of small decisions (rotate, which disc, how far, which paint; or paint,
which card, which cell, the order the paid paints queue in). ``normal`` judges each decision by
finishing the turn greedily, one step at a time, and a step that only opens a choice (a disc,
a rotation with two paints to choose from) changes nothing the evaluation sees: those steps
tie, and the first listed wins (a rotation that collects at once even looks better than one
that offers a choice). ``hard``'s candidates used to be ``normal``'s best first steps finished
the same way, so they reached the same positions and hard chose otherwise than normal in 3 %
of its decisions.

Here ``hard`` plays every chain of its main action out (each rotation with each paint it lets
it collect, each card in each cell), on one determinized table: nearly everything in Mural is
public, and nothing hidden (the deck below its top, a face-down technique) changes one's own
turn. A free action before the main action (a mix, a free technique) is finished greedily, as
``normal`` plays it. The best few plans by its evaluation (``evaluate``: a display card counts
by how near one is to paying it) finish their turn; the rival answers with their best plan,
and then hard's own best next plan is found; the plan whose line ends best is chosen, and its
first step is the move. Each step of that is a set amount of work (every plan, a shortlist),
and the whole decision plays at most the level's ``effort`` moves (``Search.play``): the
longest searches stop there, the same on every machine; the clock only caps it.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from bot.ai.evaluate import mural_values, mural_worth, relative
from bot.ai.search import TIE_DIGITS, UNDO, Search
from rules.mural.data import ADVANCED, BASICS, CARDS, PAINTS

Action = dict[str, Any]
#: Parts of a state that do not change the position: the news and the turn's log.
NEWS = ("last", "previous", "turn_number")
#: A breadth no step reaches: every move tried, none drawn at random.
EVERY_MOVE = 10**6
#: The most plays one first move's chains may take (a big rotation with its collections takes
#: about 60, a card in every cell with every queue order about 100).
CHAIN_PLAYS = 400
#: The pending choices of a main action (and of the paints a painting pays), played out in
#: full; a free technique's are not (a transfer alone has hundreds).
MAIN_CHOICES = frozenset({"rotate", "collect", "paint", "insert", "discard"})
#: The order a flexible card's spaces are tried in: the paints, then a space left empty.
FILL_ORDER: tuple[str | None, ...] = (*PAINTS, None)
#: Choices that change nothing the evaluation reads (the order the paid paints queue in): a
#: chain is judged before them, and only the plans worth meeting the rival make them.
LATER = frozenset({"order"})


def position_key(state: dict[str, Any]) -> str:
    """Two states with the same key are the same position (reached by other paths)."""
    light = {k: v for k, v in state.items() if k not in NEWS}
    light["turn"] = {k: v for k, v in state["turn"].items() if k != "log"}
    return json.dumps(light, sort_keys=True)


def main_done(state: dict[str, Any]) -> bool:
    """The turn's main action is taken and no choice of it is pending."""
    return bool(state["turn"]["main"]) and state["turn"]["pending"] is None


def plans(
    search: Search,
    table: dict[str, Any],
    player: str,
    moves: list[Action],
    cap: int,
    greedy: bool = True,
) -> list[tuple[int, Any, bool]]:
    """``(index of the first move, end position, whether the turn is over)`` of every distinct
    plan of ``player``'s turn: each chain of a main action's choices played out until the
    action is done (the position then judged before the rest of the turn) or the turn ends. A
    free action (a mix, a free technique) is finished greedily, as ``normal`` plays it, and so
    is a first move whose chains exceed ``cap`` plays. The clock stops the search where it is."""
    ends: dict[str, tuple[int, Any, bool]] = {}
    for first, move in enumerate(moves):
        if search.must_stop():
            break
        found = _chains(search, table, player, move, cap)
        if found is None:
            if not greedy:
                continue
            end = search.after_move(table, player, move)
            found = [] if end is None else [(end, True)]
        for end, over in found:
            ends.setdefault(position_key(end), (first, end, over))
    return list(ends.values())


def _chains(
    search: Search, table: dict[str, Any], player: str, move: Action, cap: int
) -> list[tuple[Any, bool]] | None:
    """Every end position of the chains ``move`` starts, with whether the turn is over there;
    ``None`` for a free action, or past ``cap`` plays."""
    ends: list[tuple[Any, bool]] = []
    seen: set[str] = set()
    stack = [(table, move)]
    plays = 0
    while stack:
        here, step = stack.pop()
        plays += 1
        if plays > cap or search.must_stop():
            return None
        child, events = search.play(here, player, step)
        if search.turn_ends(child, events, player):
            ends.append((child, True))
            continue
        pending = child["turn"]["pending"]
        if main_done(child) or (pending is not None and pending["do"] in LATER):
            ends.append((child, False))
            continue
        if pending is None or pending["do"] not in MAIN_CHOICES:
            if here is table:
                return None  # a free action
            ends.append((search.finish_turn(child, events, player), True))
            continue
        key = position_key(child)
        if key in seen:
            continue
        seen.add(key)
        stack.extend((child, m) for m in worth_trying(child, search.moves(child, player)))
    return ends


def worth_trying(state: dict[str, Any], moves: list[Action]) -> list[Action]:
    """``moves`` less going back, and less the fills of a flexible card's spaces in another
    order than the paints' own: the same paints in any order score alike, and a four-space card
    in twelve cells would otherwise take thousands of plays."""
    pending = state["turn"]["pending"]
    filled = pending.get("paints") if pending is not None else None
    last = FILL_ORDER.index(filled[-1]) if filled else 0
    return [
        m
        for m in moves
        if m.get("type") != UNDO
        and (m.get("type") != "fill" or FILL_ORDER.index(m["paint"]) >= last)
    ]


def answer(search: Search, state: dict[str, Any], finish: bool = True) -> Any | None:
    """The position after the next turn, whoever's it is: its mover's best plan by the
    evaluation (a free action is not tried), finished greedily if ``finish``, else judged where
    the main action leaves it; a greedy turn if no main action is possible; ``None`` if the
    clock runs out."""
    if search.game.outcome(state) is not None:
        return state
    mover = search.game.to_move(state)[0]
    found = plans(search, state, mover, search.moves(state, mover), CHAIN_PLAYS, greedy=False)
    if search.must_stop():
        return None
    if not found:
        return search.playout(state, 1)
    _, end, over = max(found, key=lambda item: search.value(item[1], mover))
    return end if over or not finish else search.finish_turn(end, [], mover)


def evaluate(state: Any, player: str) -> float:
    """``hard``'s judgement: ``normal``'s (the score sheet, paints held, grafiteiros), but a
    display card counts by how near each seat is to paying it, not only once it is paid for.
    ``normal``'s gives every paint collected the same worth, so plans that collect one paint
    or another tie; this one tells the paint a card needs from one it does not, for oneself
    and for the rival."""
    return relative(mural_values(state, _nearest_worth), player)


def _nearest_worth(backpack: list[str], display: list[str]) -> float:
    """The best of the display's cards by worth over (1 + the paints still to collect)."""
    return max((mural_worth(c) / (1 + missing(backpack, c)) for c in display), default=0.0)


def missing(backpack: list[str], card_id: str) -> int:
    """Paints still to collect before ``backpack`` pays the card: a basic short counts one,
    an advanced paint two basics, less the spare basics that could be mixed into it."""
    card = CARDS[card_id]
    if card.cost is None:
        return max(0, card.spaces - len(backpack))
    need = Counter(card.cost)
    have = Counter(backpack)
    short = sum(max(0, need[b] - have[b]) for b in BASICS)
    spare = sum(max(0, have[b] - need[b]) for b in BASICS)
    advanced = max(0, need[ADVANCED] - have[ADVANCED])
    return short + max(0, 2 * advanced - spare)


def choose(
    search: Search,
    table: dict[str, Any],
    player: str,
    moves: list[Action],
    order: list[int],
    shortlist: int,
    turns: int,
    reply_breadth: int,
) -> int:
    """The index in ``moves`` of ``hard``'s move on ``table`` (dealt from ``player``'s view).
    ``order`` is ``normal``'s ranking of the moves, best first: it breaks ties. The
    ``shortlist`` best plans by ``evaluate`` finish their turn (``reply_breadth`` moves tried
    at each greedy step), and ``turns`` more follow, each its mover's best plan (the rival's
    answer, then one's own next turn: the last judged where its main action leaves it); the
    plan whose line ends best is chosen. The clock only cuts this short: then the best line met."""
    search.evaluate = evaluate
    rank = {i: r for r, i in enumerate(order)}
    found = plans(search, table, player, moves, CHAIN_PLAYS)
    if not found:
        return order[0]
    scored = sorted(
        (
            (round(search.value(end, player), TIE_DIGITS), first, end, over)
            for first, end, over in found
        ),
        key=lambda item: (-item[0], rank[item[1]]),
    )
    best = scored[:shortlist]
    if len({item[1] for item in best}) == 1:
        return best[0][1]
    search.breadth = reply_breadth
    choice, top = best[0][1], float("-inf")
    for _, first, end, over in best:
        if search.must_stop():
            break
        if not over:
            end = search.finish_turn(end, [], player)
        answered: Any = end
        for turn in range(turns):
            answered = answer(search, answered, finish=turn < turns - 1)
            if answered is None:
                break
        if answered is None:
            break
        value = round(search.value(answered, player), TIE_DIGITS)
        if value > top:
            choice, top = first, value
    return choice
