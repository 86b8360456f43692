"""Hints, below both front doors: a seat's two-step hint (what to look at, then the move) worked
out from its own view alone, who may have one, and what taking one costs.

The move is ``bot.ai.advice.hint``'s, computed in the AI's worker pool (never on the event
loop) under the advice's cap, so an answer comes within 2 s. It is said in the words the
game's panels and hand page already use: the place from the surface's layout
(``bot.presentation``), the move as its panel label with what it scores. Both steps of one hint
are the same move: the answer is kept for the seat at the game's version.

Who may have one (``allowed``): a teaching table, a game with an AI seat, and an unrated game
whose server turned hints on (``/game config hints:``, kept with the table when its lobby
opened). A rated game among humans only never offers one. A player who takes a hint is
remembered (``Store.take_hint``): at the end of a rated game their rating does not move
(``bot.results.rate``), and the result post says why.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.ai import advice
from bot.errors import ServiceError
from bot.i18n import N_, _
from bot.presentation import LAYOUTS
from bot.presentation.turn import dry_run, gain, name_of, plain, targets
from bot.read_model import ReadModel, not_active_message
from bot.store.base import ACTIVE, GameRecord
from rules import IllegalAction

if TYPE_CHECKING:
    from bot.service import GameService

Action = dict[str, Any]
#: The table preference of a teaching table (``/game learn``).
TEACHING = "teaching"
#: The table preference of a table opened unrated (False); a table without it is rated.
RATED = "rated"
#: The table preference that keeps the server's ``hints`` setting of the lobby's opening.
HINTS = "hints"
#: Seconds a hint may think at most: the advice's own cap, under the 2 s a player waits.
CAP_S = advice.CAP_S
#: Hints kept for their second step (by game, version and seat): the games hinted at now.
KEPT = 512
#: Places a "why not?" lists at most (one select).
WHY_NOT_MOST = 25
NOT_OFFERED = N_("Hints are not offered in this game: it is rated, and everyone here is human.")
NOT_ON = N_("This server has not turned hints on in games among humans (`/game config hints:`).")
COSTS = N_("You took a hint: this game will not change your rating.")


@dataclass(frozen=True)
class Hint:
    """A hint as players read it: ``look`` (step 1), ``move`` (step 2), the move's index in
    the seat's legal moves, and whether taking it costs the seat this game's rating change."""

    look: str
    move: str
    index: int
    costs: bool


@dataclass(frozen=True)
class WhyNot:
    """A place or piece the seat cannot take now, and the engine's sentence saying why."""

    name: str
    why: str


def has_ai_seat(record: GameRecord) -> bool:
    return any(seat.ai for seat in record.seats)


def rated(record: GameRecord) -> bool:
    """Whether the game moves ratings when it ends (a teaching table never does)."""
    return not record.prefs.get(TEACHING) and record.prefs.get(RATED, True) is not False


def allowed(record: GameRecord) -> bool:
    """Whether the players of this running game may ask for a hint."""
    if record.status != ACTIVE:
        return False
    if record.prefs.get(TEACHING) or has_ai_seat(record):
        return True
    return not rated(record) and bool(record.prefs.get(HINTS))


def refusal(record: GameRecord) -> str:
    """Why this game offers no hint, in a sentence."""
    if record.status != ACTIVE:
        return not_active_message(record)
    return _(NOT_OFFERED) if rated(record) else _(NOT_ON)


def costs_rating(record: GameRecord) -> bool:
    """Whether taking a hint here keeps the player's rating out of this game."""
    return allowed(record) and rated(record)


def button_label(record: GameRecord) -> str:
    """The Hint button's words, saying what it costs where it keeps the rating out."""
    return _("Hint (no rating change)") if costs_rating(record) else _("Hint")


def compute(
    game_id: str, view: dict[str, Any], legal: list[Action], seed: str, cap_s: float = CAP_S
) -> Action:
    """The hinted move (a job for a worker process: plain JSON in and out)."""
    return advice.hint(game_id, view, legal, seed, None, cap_s).move


def look_at(read: ReadModel, seat: str, move: Action) -> str:
    """Step 1: where to look for ``move`` (the piece to pick up, else its place), in the
    surface's words, without naming the move itself."""
    layout = LAYOUTS[read.record.game]
    view = read.view(seat)
    areas = dict(layout.areas)
    spot = layout.spot(move, view, seat, read.names)
    if spot is None:
        return _("💡 Where to look: **{place}**").format(place=_(areas["controls"]))
    area, thing = spot.area, spot.text
    if spot.source is not None:
        area, thing = spot.source.partition(":")[0], layout.source_text(spot.source, view)
    place = _(areas.get(area, areas["controls"]))
    if plain(thing) == name_of(read.engine, move, read.names, view):
        return _("💡 Where to look: **{place}**").format(place=place)
    return _("💡 Where to look: {place} · **{thing}**").format(place=place, thing=plain(thing))


def the_move(read: ReadModel, seat: str, move: Action) -> str:
    """Step 2: the move in its panel label, with what it scores where the game can say it."""
    label = name_of(read.engine, move, read.names, read.view(seat))
    try:
        _after, outcome = dry_run(read.engine, read.state, seat, move)
    except IllegalAction:  # never for a legal move; the label alone then
        return _("💡 The move: **{move}**").format(move=label)
    brings = gain(read.engine, outcome, seat)
    return _("💡 The move: **{move}**").format(move=f"{label} · {brings}" if brings else label)


class Hints:
    """The hints of one process: each computed once per seat and game version."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[str, int, str], Action] = OrderedDict()

    async def hint(self, service: GameService, record: GameRecord, seat: str) -> Hint:
        """``seat``'s hint at the game as it is, remembered as taken (ServiceError when none
        is offered here or the seat owes no decision)."""
        read = service.read(record)
        if record.seat_of(seat) is None:
            raise ServiceError(_("You are not playing in game `{id}`.").format(id=record.id))
        if not allowed(record):
            raise ServiceError(refusal(record))
        legal = read.legal(seat)
        if seat not in read.to_move or not legal:
            raise ServiceError(read.turn_message())
        key = (record.id, read.version, seat)
        move = self._kept.get(key)
        if move is None or move not in legal:
            seed = f"{record.id}:{read.version}:{seat}:hint"
            move = await service.think(compute, record.game, read.view(seat), legal, seed)
            self._kept[key] = move
            if len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        await service.store.take_hint(record.id, seat, time.time())
        return Hint(
            look_at(read, seat, move),
            the_move(read, seat, move),
            legal.index(move),
            costs_rating(record),
        )


def why_not(read: ReadModel, seat: str) -> list[WhyNot]:
    """The places and pieces of the seat's step that the rules refuse now, each with the
    engine's sentence: the dim targets of the hand page (``bot.presentation``), so both front
    doors say the same."""
    if seat not in read.to_move or not read.legal(seat):
        return []
    found = [
        WhyNot(target.name, target.why)
        for target in targets(read.engine, read.state, seat, read.names)
        if target.why is not None
    ]
    return found[:WHY_NOT_MOST]
