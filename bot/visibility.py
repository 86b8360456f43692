"""Who may see a game: the one gate every read of a game by a person passes.

The decision itself needs Discord (a member's permissions in a channel, a private thread's
members), so the Discord layer makes it (``cogs.visibility.may_see``) and binds it here for the
interaction being handled (``watch_as``). The service asks ``allowed`` before it hands out a
game found by its id, so a command with ``game:``, a crafted button and a viewer's click are all
refused alike; lists filter with the same function. Work that no person asked for (the
scheduler, results, the command line) binds nothing and sees every game.

A refusal reads exactly like an unknown id (``unknown_game``): it must not confirm that the game
exists.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Protocol, TypeVar

from bot.errors import ServiceError
from bot.i18n import _


class Placed(Protocol):
    """What the gate decides by: where a game is played (a whole record, or a listing's
    summary of it)."""

    @property
    def guild(self) -> str: ...

    @property
    def channel(self) -> str: ...

    @property
    def thread(self) -> str | None: ...


P = TypeVar("P", bound=Placed)

#: Whether the person being answered may see a game.
Gate = Callable[[Placed], Awaitable[bool]]
#: Which of some games (ids) a reader may not see: the asker's (``Results.hidden``), the
#: world's (the web's private tables), or the whole server's (a season's results post).
Hidden = Callable[[set[str]], Awaitable[set[str]]]

_gate: ContextVar[Gate | None] = ContextVar("visibility_gate", default=None)


def watch_as(gate: Gate | None) -> None:
    """Answer the rest of this task as the person ``gate`` decides for (``None``: nobody's
    request, every game is visible). Set once at the start of an interaction's handler."""
    _gate.set(gate)


def bound() -> bool:
    """Whether a person's request is being answered (a gate is bound)."""
    return _gate.get() is not None


async def allowed(record: Placed) -> bool:
    """Whether the person being answered may see ``record`` (always, outside a request)."""
    gate = _gate.get()
    return gate is None or await gate(record)


async def visible(records: list[P]) -> list[P]:
    """The ``records`` the person being answered may see, in their order."""
    return [record for record in records if await allowed(record)]


def hidden_by(gate: Gate, find: Callable[[str], Awaitable[Placed | None]]) -> Hidden:
    """The ``Hidden`` of a gate: of some games (ids), those it refuses or ``find`` cannot
    find (a game gone tells nothing)."""

    async def hidden(game_ids: set[str]) -> set[str]:
        left_out = set()
        for game_id in game_ids:
            record = await find(game_id)
            if record is None or not await gate(record):
                left_out.add(game_id)
        return left_out

    return hidden


def unknown_game(game_id: str) -> ServiceError:
    """The refusal for a game that does not exist, or that the asker may not see: the same
    sentence, so the answer never confirms that a hidden game exists."""
    return ServiceError(
        _("There is no game `{id}` on this server — `/game list` shows them.").format(
            id=game_id.strip()[:32]
        )
    )
