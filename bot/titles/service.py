"""Titles through the store: kept at a game's end, read for `/game stats` and the web player
page, and given by one player to another for a finished game (one a player a game, never to
themselves).

Every title comes from games (its results, the game it was kept or given for, a tournament's
tables), so a reader is shown only the titles whose games they may see: a win at a hard AI's
table in a private channel, or a "Best move" given there, must not tell the world of that game.
"""

from __future__ import annotations

from bot.ai import is_ai_id
from bot.errors import ServiceError
from bot.i18n import _
from bot.listening import Listening
from bot.store.base import FINISHED, GameRecord
from bot.store.titles_sql import KeptTitle
from bot.titles.achievements import GIVEN, earned_at_end, held, kept_counts
from bot.tournaments.model import FINISHED as TOURNAMENT_OVER
from bot.tournaments.model import Tournament
from bot.tournaments.service import current_standings
from bot.visibility import Hidden

#: Tournaments of a server read for its winners.
TOURNAMENTS_READ = 200


class Titles(Listening):
    """The titles of every server's players."""

    async def heard(self, record: GameRecord, timed_out: list[str]) -> None:
        """A finished game keeps the titles it earned its players, under its id (whether a
        reader may see the title is whether they may see that game)."""
        if record.status != FINISHED:
            return
        rows = await self.store.results_of_game(record.id)
        for player, title in earned_at_end(record, rows):
            kept = KeptTitle(record.guild, player, title, self._clock(), record.id)
            await self.store.keep_title(kept)

    async def held(
        self, guild: str, player: str, hidden: Hidden | None = None
    ) -> list[tuple[str, int]]:
        """The titles ``player`` holds on ``guild`` and how many times each, from the games
        a reader may see (``hidden``: those among some they may not; None: every game)."""
        rows = await self.store.player_results(guild, player)
        timed_out = await self.store.player_timeouts(guild, player)
        kept = await self.store.titles_of(guild, player)
        won = await self._won(guild, player)
        if hidden is not None:
            games = {r.game_id for r in rows} | {game for _title, game in kept}
            left_out = await hidden(games | {g for t in won for g in tables_of(t)})
            rows = [r for r in rows if r.game_id not in left_out]
            kept = [(title, game) for title, game in kept if game not in left_out]
            won = [t for t in won if left_out.isdisjoint(tables_of(t))]
        return held(rows, timed_out, kept_counts(kept), len(won))

    async def _won(self, guild: str, player: str) -> list[Tournament]:
        """The tournaments on ``guild`` that ``player`` won."""
        won = []
        for t in await self.store.tournaments_in_guild(guild, TOURNAMENTS_READ):
            lines = current_standings(t) if t.status == TOURNAMENT_OVER else []
            if lines and lines[0].player == player:
                won.append(t)
        return won

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
        given = KeptTitle(record.guild, recipient, title, self._clock(), record.id, giver)
        if not await self.store.keep_title(given):
            raise ServiceError(_("You gave a title for this game already."))
        return record


def tables_of(t: Tournament) -> set[str]:
    """The games a tournament played: it tells of them all (its standings name who beat whom)."""
    return {table.game_id for rnd in t.played for table in rnd.tables}
