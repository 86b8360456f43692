"""A turn as a seat builds it: the steps chosen so far, and for the next step every target on
the surface, lit (legal, with what it would do) or dim (with the engine's refusal).

Everything here is worked out from one seat's knowledge: a step is dry-run on a copy of the
state, and only the events before the first one that reveals something hidden
(``Game.reveals``) are told, so a draw's card is never guessed or shown. A step that reveals
something, hands the decision to someone else or ends the game closes the build: what comes
after it cannot be known, so it is sent (confirmed) with the steps before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import _, say
from bot.presentation.artsee import LAYOUT as ARTSEE
from bot.presentation.mural import LAYOUT as MURAL
from bot.presentation.spots import Action, Layout, Spot
from bot.presentation.street_art import LAYOUT as STREET_ART
from bot.presentation.street_kings import LAYOUT as STREET_KINGS
from bot.words import WORDS, label_for
from rules import Game, IllegalAction

#: game id -> its surface.
LAYOUTS: dict[str, Layout] = {
    "street-art": STREET_ART,
    "artsee": ARTSEE,
    "street-art-mural": MURAL,
    "street-kings": STREET_KINGS,
}
#: At most this many steps in one build (a forged request cannot make the server loop).
MOST_STEPS = 40
_MARKUP = re.compile(r"\*\*|`")


class Unbuildable(Exception):
    """Steps that cannot be built from the game as it is now (an old page, a forged request):
    ``reason`` says so in a sentence."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def plain(text: str) -> str:
    """A sentence written for Discord without its markup (bold names, code)."""
    return _MARKUP.sub("", text)


@dataclass(frozen=True)
class Outcome:
    """What a step would do, as far as the seat can know: the events before the first one
    that reveals something, and whether the step closes the build."""

    events: list[dict[str, Any]]
    closes: bool
    hidden: bool


@dataclass(frozen=True)
class Target:
    """One place on the surface for this step: lit when ``index`` (into the seat's legal
    actions) is set, else dim with ``why``."""

    area: str
    key: str
    text: str
    name: str
    source: str | None = None
    index: int | None = None
    why: str | None = None
    lines: tuple[str, ...] = ()
    events: tuple[dict[str, Any], ...] = ()
    closes: bool = False
    #: A source piece (a card to pick up first): tapping it lights the targets it has.
    picks: bool = False
    #: A move that gives something up (pass, stop, go back): drawn quieter than the others.
    passive: bool = False
    #: The card whose face the button shows (``Spot.face``).
    face: str | None = None
    #: What the step scores, short ("+2 ★"), where the game's words can say it.
    gain: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "area": self.area,
            "key": self.key,
            "text": self.text,
            "name": self.name,
            "source": self.source,
            "index": self.index,
            "why": self.why,
            "lines": list(self.lines),
            "closes": self.closes,
            "picks": self.picks,
            "passive": self.passive,
            "face": self.face,
            "gain": self.gain,
        }


@dataclass(frozen=True)
class Built:
    """A step already chosen: what it was and what it does (``automatic``: taken for the
    player, being their only move and revealing nothing)."""

    index: int
    action: Action
    name: str
    lines: tuple[str, ...]
    events: tuple[dict[str, Any], ...]
    automatic: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "lines": list(self.lines), "automatic": self.automatic}


@dataclass
class Turn:
    """A seat's turn as built so far and its next step (``targets`` empty once ``closed``, or
    when the seat owes nothing)."""

    game: str
    seat: str
    built: list[Built] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    prompt: str = ""
    closed: bool = False
    #: Whether the seat owes a decision now (or did before the steps built).
    moving: bool = False

    @property
    def actions(self) -> list[Action]:
        """Every step to apply, in order (the automatic ones included)."""
        return [step.action for step in self.built]

    def to_json(self) -> dict[str, Any]:
        layout = LAYOUTS[self.game]
        return {
            "prompt": self.prompt,
            "closed": self.closed,
            "moving": self.moving,
            "built": [step.to_json() for step in self.built],
            "areas": [{"id": area, "title": _(title)} for area, title in layout.areas],
            "targets": [target.to_json() for target in self.targets],
        }


def dry_run(game: Game, state: Any, seat: str, action: Action) -> tuple[Any, Outcome]:
    """``action`` played on ``state`` (never changed: engines copy), and what the seat may
    know of it (IllegalAction when the rules refuse it)."""
    after, events = game.play(state, seat, action)
    known: list[dict[str, Any]] = []
    hidden = False
    for event in events:
        if game.reveals(event):
            hidden = True
            break
        known.append(event)
    closes = hidden or seat not in game.to_move(after) or game.outcome(after) is not None
    return after, Outcome(known, closes, hidden)


def told(game: Game, outcome: Outcome, names: dict[str, str]) -> tuple[str, ...]:
    """A step's preview in sentences; a step that draws says so without saying what."""
    lines = [plain(line) for line in WORDS[game.id].describe(outcome.events, names)]
    if outcome.hidden:
        lines.append(_("Then you see what it turns up."))
    return tuple(lines)


def gain(game: Game, outcome: Outcome, seat: str) -> str | None:
    """What a step scores for the seat, said short from its known events (the game's words'
    ``consequence``, as a panel's option says it), or None."""
    weigh = getattr(WORDS[game.id], "consequence", None)
    return weigh(outcome.events, seat) if weigh is not None else None


def name_of(game: Game, action: Action, names: dict[str, str], view: dict[str, Any]) -> str:
    """An action's accessible name, from the game's words (its label for a panel)."""
    try:
        return plain(label_for(game.id, action, names, view))
    except (KeyError, ValueError, TypeError, IndexError):  # a dim place the words cannot weigh
        return plain(WORDS[game.id].action_label(action, names))


def forced(game: Game, state: Any, seat: str) -> Action | None:
    """The seat's one move when it is taken for them: the only legal one, of a kind the game
    names automatic (nothing to weigh), while nobody else is asked."""
    if game.to_move(state) != [seat]:
        return None
    legal = game.legal(state, seat)
    automatic: frozenset[str] = getattr(WORDS[game.id], "AUTOMATIC", frozenset())
    if len(legal) == 1 and legal[0]["type"] in automatic:
        return legal[0]
    return None


def build(game: Game, state: Any, seat: str, names: dict[str, str], chosen: list[int]) -> Turn:
    """The turn ``seat`` builds on ``state`` by choosing ``chosen`` (indices into each step's
    legal actions, the automatic steps left out), and the targets of its next step."""
    if len(chosen) > MOST_STEPS:
        raise Unbuildable(_("That turn has too many steps."))
    turn = Turn(game.id, seat, moving=seat in game.to_move(state))
    state = follow_forced(game, state, seat, names, turn)
    for index in chosen:
        if turn.closed or seat not in game.to_move(state):
            raise Unbuildable(_("That turn goes on past what can be known; send it in parts."))
        legal = game.legal(state, seat)
        if not 0 <= index < len(legal):
            raise Unbuildable(_("That move is not on offer now."))
        state = take(game, state, seat, names, turn, index, legal[index])
        if not turn.closed:
            state = follow_forced(game, state, seat, names, turn)
    if not turn.closed and seat in game.to_move(state):
        turn.targets = targets(game, state, seat, names)
        turn.prompt = prompt(game, game.legal(state, seat))
    return turn


def take(
    game: Game,
    state: Any,
    seat: str,
    names: dict[str, str],
    turn: Turn,
    index: int,
    action: Action,
    automatic: bool = False,
) -> Any:
    """One step added to ``turn``; the state after it."""
    view = game.view(state, seat)
    try:
        after, outcome = dry_run(game, state, seat, action)
    except IllegalAction as error:
        raise Unbuildable(say(error.reason)) from error
    name = name_of(game, action, names, view)
    lines = told(game, outcome, names)
    turn.built.append(Built(index, action, name, lines, tuple(outcome.events), automatic))
    turn.closed = outcome.closes
    return after


def follow_forced(game: Game, state: Any, seat: str, names: dict[str, str], turn: Turn) -> Any:
    """The automatic steps that follow, taken for the seat (at most a few)."""
    for _step in range(MOST_STEPS):
        action = forced(game, state, seat)
        if action is None or turn.closed:
            break
        state = take(game, state, seat, names, turn, 0, action, automatic=True)
    return state


def prompt(game: Game, legal: list[Action]) -> str:
    """What this step asks, in the words a panel's select uses ("Choose a column")."""
    steps: dict[str, str] = getattr(WORDS[game.id], "STEPS", {})
    kind = legal[0]["type"] if legal else ""
    text = _(steps[kind]) if kind in steps else _("Choose your move…")
    return text.rstrip("…")


def targets(game: Game, state: Any, seat: str, names: dict[str, str]) -> list[Target]:
    """Every place of this step: the legal actions lit with their preview (or dim with the
    refusal where a dry run finds one), the board's other places of the same kind dim."""
    layout = LAYOUTS[game.id]
    view = game.view(state, seat)
    legal = game.legal(state, seat)
    out: list[Target] = []
    for index, action in enumerate(legal):
        name = name_of(game, action, names, view)
        where = layout.spot(action, view, seat, names) or control(index, name)
        try:
            _after, outcome = dry_run(game, state, seat, action)
        except IllegalAction as error:
            out.append(dim(where, name, say(error.reason)))
            continue
        lines = told(game, outcome, names)
        out.append(
            Target(
                where.area,
                where.key,
                where.text,
                name,
                where.source,
                index,
                lines=lines,
                events=tuple(outcome.events),
                closes=outcome.closes,
                passive=action["type"] in game.passive_actions,
                face=where.face,
                gain=gain(game, outcome, seat),
            )
        )
    board: list[str] = []
    for action in layout.candidates(view, seat, legal):
        spot = layout.spot(action, view, seat, names)
        if spot is None:
            continue
        board.append(spot.key)
        if action in legal:
            continue
        try:
            game.play(state, seat, action)
        except IllegalAction as error:
            out.append(dim(spot, name_of(game, action, names, view), say(error.reason)))
    return ordered(layout, board, [*sources(layout, view, out), *out])


def control(index: int, name: str) -> Spot:
    """A move with no place on the board (pass, stop, go back): a button of its own."""
    return Spot("controls", f"control:{index}", name)


def dim(where: Spot, name: str, why: str) -> Target:
    return Target(where.area, where.key, where.text, name, where.source, why=why, face=where.face)


def sources(layout: Layout, view: dict[str, Any], placed: list[Target]) -> list[Target]:
    """The pieces to pick up first (a card whose place is chosen next): lit when one of its
    places is, else dim with the first refusal it met."""
    out: dict[str, Target] = {}
    for target in placed:
        key = target.source
        if key is None:
            continue
        known = out.get(key)
        if known is not None and known.why is None:
            continue
        area = key.partition(":")[0]
        text = layout.source_text(key, view)
        name = _("Pick up {piece}").format(piece=text)
        lit = target.index is not None
        why = None if lit else target.why
        face = layout.source_face(key)
        out[key] = Target(area, key, text, name, why=why, picks=True, face=face)
    return list(out.values())


def ordered(layout: Layout, board: list[str], found: list[Target]) -> list[Target]:
    """Targets in board order: by area, then by their place on the board (``board``: the
    keys of the step's candidates, as the game lays them out), then as listed; one per place
    and source."""
    rank = {area: n for n, (area, _title) in enumerate(layout.areas)}
    at = {key: n for n, key in reversed(list(enumerate(board)))}
    seen: dict[tuple[str, str | None], Target] = {}
    for target in found:
        seen.setdefault((target.key, target.source), target)
    return sorted(
        seen.values(), key=lambda t: (rank.get(t.area, len(rank)), at.get(t.key, len(at)))
    )
