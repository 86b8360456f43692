"""Tables set up for Street Kings rule tests: a fresh game with chosen cars, credits, crew,
lanes and location cards, and a race run by the last racer qualifying."""

from __future__ import annotations

from typing import Any

from rules.street_kings import STREET_KINGS as GAME
from rules.street_kings.data import FINISH_LINE

State = dict[str, Any]


def new_game(players: int = 2, options: dict[str, Any] | None = None, seed: str = "t") -> State:
    """A fresh game whose first player is p0 and whose action phase has begun."""
    state = GAME.start([f"p{i}" for i in range(players)], seed, options or {})
    state["first"] = state["current"] = 0
    return state


def seat(state: State, player: str) -> dict[str, Any]:
    return state["seats"][state["players"].index(player)]


def give(
    state: State,
    player: str,
    cars: list[tuple[str, list[str]]] | None = None,
    credits: int | None = None,
    crew: list[str] | None = None,
) -> None:
    """Replace what ``player`` owns (cards given this way come from nowhere: tests of single
    rules, not of card conservation)."""
    place = seat(state, player)
    if cars is not None:
        place["cars"] = [{"id": car, "upgrades": list(parts)} for car, parts in cars]
    if credits is not None:
        place["credits"] = credits
    if crew is not None:
        place["crew"] = list(crew)


def race(
    state: State,
    lanes: dict[str, int],
    locations: tuple[str, str],
    cls: str = "D",
    finish_line: int | None = None,
) -> tuple[State, list[dict[str, Any]]]:
    """Run the race of this round: ``lanes`` are the racers, the others have passed; the last
    racer in ``lanes`` qualifies by a real move, which ends the action phase."""
    state["race_class"] = cls
    state["finish_line"] = finish_line or FINISH_LINE[cls]
    state["spots"] = [{"card": card, "by": None, "revealed": False} for card in locations]
    *early, last = lanes
    for player in state["players"]:
        seat(state, player)["passed"] = player not in lanes
        seat(state, player)["lane"] = lanes[player] if player in early else None
    state["current"] = state["players"].index(last)
    state["phase"] = "action"
    return GAME.play(state, last, {"type": "qualify", "lane": lanes[last]})


def moves_of(events: list[dict[str, Any]], player: str) -> list[int]:
    """The spaces each movement of ``player`` covered, NOZ included, in order."""
    return [e["spaces"] for e in events if e["type"] == "moved" and e["player"] == player]
