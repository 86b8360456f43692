"""What a seat may remember: the public history of a game as that seat saw it.

A decision gets the seat's view, and a view holds only the table as it stands and the last
action's events. A player who watched the whole game knows more: in Street Art, every card
under every pile's top (each was played face up), which cards a Rain or a reshuffle put under
the draw pile, and so which cards the rivals can still hold. ``remember`` folds one view into
a seat's memory; a memory is built from the views the seat was shown, one after every action,
and from nothing else, so it can never tell the AI a hidden card. It is plain JSON (it goes to
a worker process like the view).

``Memories`` keeps the memories of the seats that use one, for code that holds the states (the
benches, the service's replay of a game's log).

Only Street Art keeps a memory: what its views forget (the buried cards, the order of plays) is
what its search misses. The other games' views already show what a player has seen (Mural and
Street Kings are nearly all public; ArtSee's view keeps its own record).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from rules import Game
from rules.street_art.data import DECK
from rules.street_art.engine import PLAY

Memory = dict[str, Any]
View = dict[str, Any]

STREET_ART = "street-art"


def street_art(memory: Memory | None, view: View) -> Memory | None:
    """Street Art: the piles card by card and when each top was played (the table clock), the
    draw pile as its unknown front (cards dealt at the start) and the known parts a Rain or a
    reshuffle put under it (``segments``: the cards, how many are left, and the seat's own
    draws from it taken out), the seat's last hand, and each rival's last opening card with
    the table it was played at and the cards they drew since (``choices``). A memory that did
    not start with the game (the view shows a pile it never saw grow) is no memory: ``None``."""
    if memory is None:
        if any(entry["pile"] for entry in view["players"]) or view.get("hand") is None:
            return None
        return {
            "piles": {entry["id"]: [] for entry in view["players"]},
            "stamps": {entry["id"]: 0 for entry in view["players"]},
            "clock": 0,
            "front": view["draw_pile"],
            "segments": [],
            "hand": sorted(view["hand"]),
            "turn": view["turn"],
            "table": _table(view, {entry["id"]: 0 for entry in view["players"]}),
            "choices": {},
            "seen": fingerprint(view),
        }
    if fingerprint(view) == memory["seen"]:
        return memory  # the same view again (no action since): nothing new
    memory = {
        "piles": {player: list(cards) for player, cards in memory["piles"].items()},
        "stamps": dict(memory["stamps"]),
        "clock": memory["clock"],
        "front": memory["front"],
        "segments": [dict(part, mine=dict(part["mine"])) for part in memory["segments"]],
        "hand": memory["hand"],
        "turn": memory["turn"],
        "table": memory["table"],
        "choices": dict(memory["choices"]),
        "seen": fingerprint(view),
    }
    last = view.get("last") or {"events": []}
    viewer = view["viewer"]
    hand: Counter[str] = Counter(memory["hand"])
    keep_top = bool((view.get("options") or {}).get("keep_top_on_reshuffle", False))
    for event in last["events"]:
        kind = event["type"]
        if kind == "played":
            player = event["player"]
            if memory["table"]["phase"] == PLAY and player != viewer:
                # A rival's choice of the card that opens their turn, and the table it was
                # made at: what a dealing may check their dealt hand against.
                memory["choices"][player] = {**memory["table"], "card": event["card"], "drawn": 0}
            memory["piles"][player].append(event["card"])
            memory["clock"] += 1
            memory["stamps"][player] = memory["clock"]
            if player == viewer:
                hand[event["card"]] -= 1
        elif kind == "piles_collected":
            _collect(memory, keep_top=False)
        elif kind == "reshuffled":
            _collect(memory, keep_top=keep_top)
        elif kind == "drew":
            drawn: Counter[str] | None = None
            if event["player"] == viewer:
                drawn = Counter[str](view["hand"]) - hand
            _draw(memory, event["cards"], drawn)
            choice = memory["choices"].get(event["player"])
            if choice is not None:
                memory["choices"][event["player"]] = {
                    **choice,
                    "drawn": choice["drawn"] + event["cards"],
                }
            if drawn is not None:
                hand = Counter(view["hand"])
    memory["hand"] = sorted(view.get("hand", []))
    memory["turn"] = view["turn"]
    memory["table"] = _table(view, memory["stamps"])
    if not _agrees(memory, view):
        return None  # a view the memory cannot explain (a step it missed): forget, never guess
    return memory


def _table(view: View, stamps: dict[str, int]) -> dict[str, Any]:
    """What a rival's choice is made at: the phase, each seat's top card, its play time and
    hearts, and the middle."""
    return {
        "phase": view["phase"],
        "tops": {entry["id"]: entry["top"] for entry in view["players"]},
        "stamps": dict(stamps),
        "hearts": {entry["id"]: entry["hearts"] for entry in view["players"]},
        "middle": view["middle"],
    }


def fingerprint(view: View) -> list[Any]:
    """What tells one view from the next (and one seat's from another's): the seat, its hand,
    the last action and the table's counts."""
    piles = [entry["pile"] for entry in view["players"]]
    return [
        view["viewer"],
        view.get("hand"),
        view["turn"],
        view.get("last"),
        piles,
        view["draw_pile"],
    ]


def _collect(memory: Memory, keep_top: bool) -> None:
    """The piles (or all but each top) go under the draw pile, shuffled: a known part of it."""
    cards: Counter[str] = Counter()
    for player, pile in memory["piles"].items():
        taken = pile[:-1] if keep_top else pile
        cards.update(taken)
        memory["piles"][player] = pile[-1:] if keep_top else []
        if not keep_top:
            memory["stamps"][player] = 0
    if cards:
        total = sum(cards.values())
        memory["segments"].append({"cards": dict(cards), "left": total, "mine": {}})


def _draw(memory: Memory, count: int, drawn: Counter[str] | None) -> None:
    """``count`` cards off the top of the draw pile: the unknown front first, then the known
    parts in order. The seat's own draws (``drawn``) from a known part are taken out of it."""
    from_front = min(count, memory["front"])
    memory["front"] -= from_front
    count -= from_front
    mine = Counter(drawn or {})
    for part in memory["segments"]:
        if count == 0:
            break
        taken = min(count, part["left"])
        if taken == 0:
            continue
        part["left"] -= taken
        count -= taken
        if drawn is not None:
            possible = Counter(part["cards"]) - Counter(part["mine"])
            for card in sorted((mine & possible).elements())[:taken]:
                part["mine"][card] = part["mine"].get(card, 0) + 1
                mine[card] -= 1
    memory["segments"] = [part for part in memory["segments"] if part["left"] > 0]


def _agrees(memory: Memory, view: View) -> bool:
    """The memory's piles and draw pile have the sizes and tops the view shows."""
    for entry in view["players"]:
        pile = memory["piles"].get(entry["id"])
        if (
            pile is None
            or len(pile) != entry["pile"]
            or (pile[-1] if pile else None) != entry["top"]
        ):
            return False
    left = memory["front"] + sum(part["left"] for part in memory["segments"])
    return left == view["draw_pile"]


#: Per game, how a view is folded into a seat's memory (games not listed keep none).
REMEMBER: dict[str, Callable[[Memory | None, View], Memory | None]] = {STREET_ART: street_art}


def remember(game_id: str, memory: Memory | None, view: View) -> Memory | None:
    """The seat's memory once it has seen ``view`` (``None``: the game keeps none, or the
    memory could not follow the game from its start)."""
    fold = REMEMBER.get(game_id)
    return None if fold is None else fold(memory, view)


def unseen(memory: Memory) -> Counter[str]:
    """Street Art: the cards the seat cannot place, as far as it knows: the deck less its hand
    and every card in the piles (which it saw played)."""
    cards = Counter(DECK)
    cards.subtract(memory["hand"])
    for pile in memory["piles"].values():
        cards.subtract(pile)
    return cards


def keeps(game_id: str) -> bool:
    """Whether ``game_id``'s seats keep a memory at all."""
    return game_id in REMEMBER


def recall(game: Game, states: list[Any], player: str) -> Memory | None:
    """``player``'s memory once they saw ``states`` (a game's every state from its start, as a
    replay of its log gives them), each through their own view."""
    memory = None
    for state in states:
        memory = remember(game.id, memory, game.view(state, player))
        if memory is None:
            return None
    return memory


class Memories:
    """The memories of the seats that keep one, each fed the seat's view after every action
    (``saw``): what a seat's AI or hint may read, built as the seat saw the game."""

    def __init__(self, game: Game, players: list[str]) -> None:
        self.game = game
        self.keeps = keeps(game.id)
        self.memories: dict[str, Memory | None] = {player: None for player in players}
        self.started = False

    def saw(self, state: Any) -> None:
        """Every seat sees the table ``state`` (the start, or the one an action left)."""
        if not self.keeps:
            return
        for player in self.memories:
            view = self.game.view(state, player)
            known = self.memories[player]
            if known is None and self.started:
                continue  # lost once, it stays lost: a memory must follow from the start
            self.memories[player] = remember(self.game.id, known, view)
        self.started = True

    def of(self, player: str) -> Memory | None:
        return self.memories.get(player)
