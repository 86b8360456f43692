"""The one protocol every game engine implements (docs/architecture.md, "A game is a function
of its log").

A game is a pure function of ``(players, seed, options, action log)``: engines never do I/O,
never import discord, aiosqlite or PIL, and never mutate a state they are given.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from rules.jsoncopy import json_copy

Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]


class Refusal(str):
    """A refusal in English that keeps its template and fields. rules/ has no message catalog (it
    stays pure), so the layer that has one says the same sentence in the player's language from
    the template (``bot.i18n.say``); everything else reads it as the English it is."""

    template: str
    fields: dict[str, Any]

    def __new__(cls, template: str, /, **fields: Any) -> Refusal:
        refusal = super().__new__(cls, template.format(**fields) if fields else template)
        refusal.template, refusal.fields = template, fields
        return refusal

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole (a refusal may come back from a worker process)."""
        return (_refusal, (self.template, self.fields))


def _refusal(template: str, fields: dict[str, Any]) -> Refusal:
    return Refusal(template, **fields)


class IllegalAction(Exception):
    """An action the rules refuse; ``reason`` is a sentence a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Outcome:
    """Final result: ``scores`` per player, every winner (ties share the win), and details
    such as tie-breaks, in JSON-able form."""

    scores: dict[str, int]
    winners: list[str]
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"scores": dict(self.scores), "winners": list(self.winners), "details": self.details}


@runtime_checkable
class Game(Protocol):
    """What ``rules.GAMES`` holds, one object per game id; every engine subclasses it, so a
    type checker holds each to it and the optional hooks below come with typed defaults.

    Events: a ``{"type": "turn", ...}`` event marks the start of a new turn, so the service
    tells the turn that just ended in its own post even when the same player moves again (every
    other player has passed, say). ``turn`` counts those turns.

    Optional capabilities are members with a default here, which an engine overrides: a caller
    asks ``game.is_standing_order(action)`` or ``game.player_range(options)`` and never whether
    the method exists. Each game's ``determinize`` (AI search) is registered beside it in
    ``rules.DETERMINIZERS``, so its module may use the engine's state types.
    """

    @property
    def id(self) -> str:
        """The game id: the key in ``rules.GAMES`` and in every stored record."""
        ...

    @property
    def title(self) -> str: ...

    @property
    def min_players(self) -> int:
        """The fewest seats ``start(players, seed, {})`` accepts."""
        ...

    @property
    def max_players(self) -> int: ...

    @property
    def default_options(self) -> dict[str, Any]:
        """Every option with its default (a fresh copy); ``start`` rejects unknown keys."""
        ...

    @property
    def passive_actions(self) -> frozenset[str]:
        """The action types that give something up (pass, stop, go back, end the turn early):
        an AI plays them only when nothing else is legal, so an AI seat or a timed-out
        player's stand-in takes part in the game instead of passing at random. Default: none."""
        return frozenset()

    def player_range(self, options: dict[str, Any]) -> tuple[int, int]:
        """The seat counts ``start`` accepts under ``options`` (every option present): for a
        game where an option widens the range (Street Art's ``two_players``). Default:
        ``min_players`` to ``max_players``, what ``start`` accepts with the default options."""
        return self.min_players, self.max_players

    def is_standing_order(self, action: Action) -> bool:
        """Whether ``action`` sets a standing policy for out-of-turn decisions
        (docs/architecture.md, "Standing orders": ArtSee's visitors, Street Kings' NOZ), which the
        service takes from any seated player at any time without touching the turn in progress.
        Default: no action does."""
        return False

    def reveals(self, event: Event) -> bool:
        """Whether ``event`` made known something that was hidden: a card drawn, dealt or
        flipped, a shuffle, a random roll, a hidden piece the rules turn face up. A decision
        may be taken back (``/game undo``) only while no event since it reveals anything, so
        nobody decides again knowing more than they did. What a player shows by their own
        choice (a card played from their hand) is not counted: they knew it, and everyone
        else who saw it is asked to consent. Default: every event reveals something, so
        nothing is undoable unless the engine names its harmless events."""
        return True

    def start(self, players: list[str], seed: str, options: dict[str, Any] | None = None) -> Any:
        """Deal and shuffle from ``seed`` only; raise IllegalAction for a bad seat count."""
        ...

    def to_move(self, state: Any) -> list[str]:
        """Who owes a decision now; ``[]`` when the game is over."""
        ...

    def legal(self, state: Any, player: str) -> list[Action]:
        """Every legal action of ``player`` now; ``[]`` if they owe none."""
        ...

    def play(self, state: Any, player: str, action: Action) -> tuple[Any, list[Event]]:
        """Apply ``action``; return the new state and what happened. Never mutates ``state``."""
        ...

    def view(self, state: Any, player: str | None) -> View:
        """All that ``player`` may know (``None``: the public) and nothing more."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """The final result, or ``None`` while the game runs."""
        ...

    def turn(self, state: Any) -> int:
        """The number of the turn in progress: 1 at the start, one more with every step that
        ends a turn (``turn_after``), never less. The service tells a turn, reminds and undoes
        by it."""
        ...

    def dump(self, state: Any) -> dict[str, Any]:
        """A lossless, versioned JSON-able form of ``state``."""
        ...

    def load(self, data: dict[str, Any]) -> Any:
        """The inverse of ``dump``: ``load(dump(s)) == s``."""
        ...


def load_dict_state(data: dict[str, Any], game_id: str, title: str, version: int) -> dict[str, Any]:
    """``load`` for a game whose state is a plain dict stamped with its game id and format
    version: a copy, after refusing a state of another game or another format."""
    if data.get("game") != game_id or data.get("version") != version:
        raise ValueError(
            f"not a {title} state of format version {version}: "
            f"game={data.get('game')!r}, version={data.get('version')!r}"
        )
    return json_copy(data)


def player_range(game: Game, options: dict[str, Any] | None = None) -> tuple[int, int]:
    """The seat counts ``game`` starts with under ``options`` (the defaults overlaid)."""
    return game.player_range({**game.default_options, **(options or {})})


def turn_after(
    turn: int, player: str, movers_before: list[str], movers_after: list[str], events: list[Event]
) -> int:
    """The turn number after ``player``'s step (``Game.turn``): one more when the step starts a
    new turn (a ``{"type": "turn"}`` event) or leaves the decision to someone else or to nobody
    (the game is over); the same when the player still decides, and for a standing order taken
    from a player who was not to move, which never touches the turn in progress."""
    if player not in movers_before:
        return turn
    starts = movers_after != [player] or any(event.get("type") == "turn" for event in events)
    return turn + 1 if starts else turn


def rng(seed: str, counter: int) -> random.Random:
    """The generator for the ``counter``-th random draw of a game, so a state that records its
    counter continues identically after ``load(dump(state))``."""
    return random.Random(f"{seed}:{counter}")


def merge_options(game: Game, options: dict[str, Any] | None) -> dict[str, Any]:
    """The game's defaults overlaid with ``options``; an unknown key is an IllegalAction."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(game.default_options))
    if unknown:
        known = ", ".join(sorted(game.default_options)) or "none"
        raise IllegalAction(
            Refusal(
                "{title} has no option {names} (options: {known}).",
                title=game.title,
                names=", ".join(unknown),
                known=known,
            )
        )
    return {**game.default_options, **options}
