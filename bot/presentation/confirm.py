"""A confirmed turn applied: the steps a seat built, each through ``GameService.move`` with the
same version check as a Discord panel's button, after the whole turn has been built again on
the game as it is now (an old or forged turn is refused before anything is applied)."""

from __future__ import annotations

from bot.errors import ServiceError, StaleRequest
from bot.i18n import _
from bot.moves import MoveResult
from bot.presentation.turn import Unbuildable, build
from bot.read_model import ReadModel, turn_version
from bot.service import GameService
from bot.store.base import GameRecord


async def confirm(
    service: GameService, record: GameRecord, seat: str, chosen: list[int], version: int
) -> list[MoveResult]:
    """Apply the turn ``seat`` built (``chosen``: see ``turn.build``) on the page that showed
    the game at ``version``; StaleRequest when the game has moved on since, ServiceError when
    the turn cannot be built now. Each step's change is handed to the delivery workers as it
    lands, as the web's single moves are; the changes, a step each, in order."""
    read = service.read(record)
    if read.version != version:
        raise StaleRequest(record)
    try:
        turn = build(read.engine, read.state, seat, read.names, chosen)
    except Unbuildable as error:
        raise ServiceError(error.reason) from error
    if not turn.built:
        raise ServiceError(_("Choose a move first."))
    results: list[MoveResult] = []
    expected = version
    for action in turn.actions:
        result = await service.move(record.guild, record.channel, seat, action, record.id, expected)
        await service.hand_over(result)
        results.append(result)
        expected = turn_version(result.record)
    return results


async def mistake(
    service: GameService, before: ReadModel, seat: str, results: list[MoveResult]
) -> str | None:
    """At a teaching table, the private note on the first step of a confirmed turn that lost
    clearly more than the best move (``GameService.mistake``: at most once a turn), each step
    judged on the game as the seat chose it (``before``: as its page showed it); None when
    there is none."""
    for result in results:
        found = await service.mistake(before, seat, result.steps[0].action)
        if found is not None:
            return found
        before = result.read
    return None
