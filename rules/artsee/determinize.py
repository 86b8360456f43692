"""An ArtSee table consistent with one seat's view: what that player cannot see dealt anew.

For search by AI seats (information-set sampling). Public: every gallery, the featured category
on the back of each card in a hand and of each draw pile's top card, the masterpiece supply.
Hidden from the viewer: the fronts of the other hands (and the card another player chose but has
not placed, or the token they are about to place), the draw piles below their tops, the box. The
cards the viewer has not seen are dealt back into those places: each hand card and pile top of
its known category, draw piles from main cards only (the starting deck never goes there).
Pure: the same view and generator give the same state.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict

from rules.artsee.data import EXHIBITS, MAIN, MASTERPIECES
from rules.artsee.engine import CARD, COLUMN, OVER, SLOT, ArtSeeState, Gallery, Progress
from rules.protocol import View

#: Random deals tried before the one that keeps the most main cards for the draw piles.
TRIES = 20


def unseen_cards(view: View) -> list[str]:
    """Every exhibit not in a gallery nor in the viewer's hand, in a fixed order."""
    seen = {card for entry in view["players"] for column in entry["columns"] for card in column}
    seen.update(view.get("hand_cards", []))
    return sorted(card for card in EXHIBITS if card not in seen)


def _deal_hands(
    wanted: dict[str, list[str]], pool: list[str], mains_needed: int, generator: random.Random
) -> dict[str, list[str]] | None:
    """Cards of the wanted categories for each hidden hand, leaving ``mains_needed`` main cards
    in ``pool``; ``None`` if this random deal could not."""
    left = list(pool)
    generator.shuffle(left)
    dealt: dict[str, list[str]] = defaultdict(list)
    for owner, categories in wanted.items():
        for category in categories:
            card = next((c for c in left if EXHIBITS[c].featured == category), None)
            if card is None:
                return None
            left.remove(card)
            dealt[owner].append(card)
    if sum(1 for card in left if card in MAIN) < mains_needed:
        return None
    return dealt


def _deal_hands_frugally(wanted: dict[str, list[str]], pool: list[str]) -> dict[str, list[str]]:
    """The deal that puts starting cards in hands wherever it can: it leaves the most main cards
    for the draw piles, so it succeeds whenever any deal does."""
    left = sorted(pool, key=lambda card: (card in MAIN, card))
    dealt: dict[str, list[str]] = defaultdict(list)
    for owner, categories in wanted.items():
        for category in categories:
            card = next(c for c in left if EXHIBITS[c].featured == category)
            left.remove(card)
            dealt[owner].append(card)
    return dealt


def determinize(view: View, player: str, generator: random.Random) -> ArtSeeState:
    """A full state whose view for ``player`` is ``view``; hidden cards dealt by ``generator``."""
    entries = view["players"]
    players = [entry["id"] for entry in entries]
    pool = unseen_cards(view)
    tops: list[str | None] = []
    for pile in view["piles"]:
        if pile["top"] is None:
            tops.append(None)
            continue
        choices = [c for c in pool if c in MAIN and EXHIBITS[c].featured == pile["top"]]
        top = generator.choice(choices)
        pool.remove(top)
        tops.append(top)
    below = sum(max(0, pile["size"] - 1) for pile in view["piles"])
    wanted = {entry["id"]: entry["hand"] for entry in entries if entry["id"] != player}
    for _ in range(TRIES):
        hands = _deal_hands(wanted, pool, below, generator)
        if hands is not None:
            break
    else:
        hands = _deal_hands_frugally(wanted, pool)
    for cards in hands.values():
        for card in cards:
            pool.remove(card)
    mains = [card for card in pool if card in MAIN]
    generator.shuffle(mains)
    piles = []
    for pile, dealt in zip(view["piles"], tops, strict=True):
        rest = mains[: max(0, pile["size"] - 1)]
        del mains[: len(rest)]
        piles.append(((dealt,) if dealt is not None else ()) + tuple(rest))
    box = sorted(card for card in pool if card not in MAIN) + sorted(mains)
    current = players.index(view["current"]) if view["current"] in players else 0
    galleries = tuple(
        Gallery(
            player=entry["id"],
            columns=tuple(tuple(column) for column in entry["columns"]),
            visitors=tuple(entry["visitors"]),
            masterpieces=tuple((m["token"], m["slot"]) for m in entry["masterpieces"]),
            supply=entry["supply"],
            hand=tuple(sorted(view["hand_cards"] if entry["id"] == player else hands[entry["id"]])),
            prestige=entry["prestige"],
            policy=entry["policy"],
        )
        for entry in entries
    )
    last = view.get("last")
    return ArtSeeState(
        seed=f"{generator.getrandbits(64):016x}",
        galleries=galleries,
        piles=(piles[0], piles[1]),
        box=tuple(sorted(box)),
        supply=tuple(view["supply"]),
        start=players.index(view["start"]),
        current=current,
        phase=view["phase"],
        turn=view["turn"],
        progress=_progress(view, player, galleries[current], generator),
        asking=tuple((p, tuple(c - 1 for c in cols)) for p, cols in view["asking"].items()),
        last_action=None if last is None else json.dumps(last),
    )


def _progress(view: View, player: str, mover: Gallery, generator: random.Random) -> Progress:
    """The turn so far. Another player's chosen card is one of their hand; the token they are
    placing, one they may claim (its category played, its requirement earned)."""
    mine = view["current"] == player
    chosen = view.get("chosen") if mine else None
    if view["phase"] == COLUMN and not mine:
        chosen = generator.choice(sorted(mover.hand))
    token = view.get("token") if mine else None
    if view["phase"] == SLOT and not mine:
        featured = EXHIBITS[view["played"]].featured
        held = {MASTERPIECES[t].category for t, _ in mover.masterpieces}
        token = generator.choice(
            [
                t
                for t in view["supply"]
                if MASTERPIECES[t].category == featured
                and featured not in held
                and MASTERPIECES[t].requirement <= view["earned"]
            ]
        )
    claimed = None
    if view["phase"] not in (CARD, OVER) and view.get("last"):
        claimed = next(
            (
                event["token"]
                for event in view["last"]["events"]
                if event["type"] == "claimed" and event["player"] == view["current"]
            ),
            None,
        )
    return Progress(
        chosen=chosen,
        played=view["played"],
        column=None if view["column"] is None else view["column"] - 1,
        earned=view["earned"],
        token=token,
        claimed=claimed,
    )
