"""Teaching tables from a front door that posts nothing itself (the web table, the Activity,
``make play``): one opened and started at once, and the real game its end screen offers.

Discord's `/game learn` posts the table's lobby and starts it from there (``cogs.teaching``);
here the first board is owed to the table like any start, and the delivery workers post it
(``GameService.hand_over``).
"""

from __future__ import annotations

from bot.errors import ServiceError
from bot.i18n import N_, _
from bot.service import GameService
from bot.store.base import FINISHED, GameRecord
from bot.teaching import TEACHING
from bot.teaching.courses import COURSES
from rules import GAMES

#: What the end screen's button does, said beside it on a web page.
REAL_GAME_NOTE = N_("You know {game} now: play a real game against the AI, rated, at once.")
#: How a page without a sign-in (a server's page on the web) says to start a teaching table.
HOW_TO_LEARN = N_(
    "On this server in Discord, type `/game learn game:{id}`, or press Play on any game and "
    "choose Learn {game}: you against the AI, no clock, unrated, each rule told as it first "
    "matters."
)


def how_to_learn(game: str) -> str:
    """``HOW_TO_LEARN`` for ``game``, in the current language."""
    return _(HOW_TO_LEARN).format(id=game, game=GAMES[game].title)


async def open_table(
    service: GameService, game: str, guild: str, channel: str, user: str, name: str
) -> GameRecord:
    """A teaching table of ``game`` for ``user`` (``GameService.learn``), started: the
    learner is all it awaits."""
    lobby = await service.learn(game, guild, channel, user, name)
    started = await service.autostart(lobby.id)
    if started is None:  # closed meanwhile (an abandon from another door)
        raise ServiceError(_("That teaching table closed before it started: open another."))
    await service.hand_over(started)
    return started.record


def learnt(record: GameRecord) -> bool:
    """Whether ``record`` is a teaching table played to its end: its end screen offers a
    real game."""
    return record.status == FINISHED and bool(record.prefs.get(TEACHING))


async def real_game(service: GameService, taught: GameRecord, user: str) -> GameRecord:
    """The end screen's real game: the same game in the same place, ``user`` against as many
    AI seats as the course had (at the server's level), started at once, rated and on the
    clock as any table there. A web page has no lobby to gather others in; on Discord the
    same button opens a lobby instead (``cogs.teaching.real_game``)."""
    seat = taught.seat_of(user)
    if not learnt(taught) or seat is None or seat.ai:
        raise ServiceError(_("Only the learner of a finished teaching table can start this."))
    guild, channel = taught.guild, taught.channel
    record = await service.new_game(taught.game, guild, channel, user, seat.name or user)
    for _seat in range(COURSES[taught.game].ai_seats):
        await service.add_ai(guild, channel, user, record.id)
    started = await service.start(guild, channel, user, record.id)
    await service.hand_over(started)
    return started.record
