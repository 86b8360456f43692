"""Titles through the store: kept at a game's end, read for `/game stats` and the web player
page, and given by one player to another for a finished game (one a player a game, never to
themselves)."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.ai import is_ai_id
from bot.errors import ServiceError
from bot.i18n import _
from bot.service import GameService
from bot.store.base import FINISHED, GameRecord
from bot.titles.achievements import GIVEN, earned_at_end, held
from bot.tournaments.model import FINISHED as TOURNAMENT_OVER
from bot.tournaments.service import current_standings

#: Tournaments of a server read for its winners.
TOURNAMENTS_READ = 200


class Titles:
    """The titles of every server's players."""

    def __init__(
        self, games: GameService, clock: Callable[[], float] = time.time, *, listen: bool = True
    ) -> None:
        """``listen``: told of finished games (the bot's one instance; a reader is not)."""
        self.games = games
        self.store = games.store
        self._clock = clock
        if listen:
            games.listeners.append(self.heard)

    async def heard(self, record: GameRecord, timed_out: list[str]) -> None:
        """A finished game keeps the titles it earned its players."""
        if record.status != FINISHED:
            return
        rows = await self.store.results_of_game(record.id)
        for player, title in earned_at_end(record, rows):
            await self.store.keep_title(record.guild, player, title, self._clock())

    async def held(self, guild: str, player: str) -> list[tuple[str, int]]:
        """The titles ``player`` holds on ``guild`` and how many times each."""
        rows = await self.store.player_results(guild, player)
        timed_out = await self.store.player_timeouts(guild, player)
        kept = await self.store.titles_of(guild, player)
        won = 0
        for t in await self.store.tournaments_in_guild(guild, TOURNAMENTS_READ):
            lines = current_standings(t) if t.status == TOURNAMENT_OVER else []
            won += bool(lines) and lines[0].player == player
        return held(rows, timed_out, kept, won)

    async def give(self, game_id: str, giver: str, recipient: str, title: str) -> GameRecord:
        """``giver`` gives ``recipient`` a title for the finished game ``game_id``."""
        record = await self.games.get(game_id)
        players = {seat.user for seat in record.seats if not is_ai_id(seat.user)}
        if title not in GIVEN or record.status != FINISHED:
            raise ServiceError(_("Titles are given once a game is over."))
        if giver not in players:
            raise ServiceError(_("Only the players of this game can give its titles."))
        if recipient == giver or recipient not in players:
            raise ServiceError(_("Give it to another player of this game."))
        kept = await self.store.keep_title(
            record.guild, recipient, title, self._clock(), game_id=record.id, given_by=giver
        )
        if not kept:
            raise ServiceError(_("You gave a title for this game already."))
        return record
