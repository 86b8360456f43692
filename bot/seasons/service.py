"""Seasons that run themselves: a season opens with a server's first finished game of a kind,
closes at its end (the scheduler's tick), freezes its table, owes one results post, and the
next one begins where it ended.

Each step is safe to take twice: the next season is written (``create_season`` ignores one
made already) before the closing one is saved by compare-and-swap, so a restart in the middle
loses nothing and makes no season twice. A game counts for the season it began and ended in:
one still running at the cut counts for no season (the all-time rating still takes it).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from bot.ai import is_ai_id
from bot.listening import Listening
from bot.seasons.model import CLOSED, OPEN, Season, SeasonLine
from bot.seasons.table import SeasonGame, games_of, season_lines
from bot.store.base import FINISHED, GameRecord, VersionConflict
from bot.visibility import Hidden

log = logging.getLogger(__name__)

WEEK = 7 * 24 * 3600.0
#: Seasons a tick closes at most (the rest at the next).
PAGE = 50
#: Past seasons offered to choose from.
SHOWN = 24
ATTEMPTS = 5


async def rated(games: list[SeasonGame]) -> list[SeasonLine]:
    """``season_lines`` off the event loop: a season of many games takes a while to rate
    (about 1.3 s for 10,000 three-player games), and the bot answers others meanwhile."""
    return await asyncio.to_thread(season_lines, games)


async def without(games: list[SeasonGame], hidden: Hidden | None) -> list[SeasonGame]:
    """``games`` less those ``hidden`` says a reader may not see (all of them: None)."""
    if hidden is None:
        return games
    left_out = await hidden({game.game_id for game in games})
    return [game for game in games if game.game_id not in left_out]


class Seasons(Listening):
    """The seasons of every server and game, over the game service's store."""

    async def heard(self, record: GameRecord, timed_out: list[str]) -> None:
        """A game timed players out (kept: a loss for the season), or ended (its server's
        season of that game is opened if none is, from the game's beginning)."""
        humans = [p for p in timed_out if not is_ai_id(p)]
        if humans:
            await self.store.note_timeouts(record.id, humans)
        if record.status == FINISHED:
            await self.current(record.guild, record.game, record.created_at)

    async def current(self, guild: str, game: str, start: float | None = None) -> Season:
        """The open season of ``game`` on ``guild``; a new one (from ``start``, or now, but
        never before the last one ended) when there is none."""
        now = self._clock()
        latest = await self.store.seasons_of(guild, game, 1)
        if latest and latest[0].status == OPEN:
            return latest[0]
        starts = min(now, now if start is None else start)
        if latest:
            starts = max(starts, latest[0].ends_at)
        return await self._open(guild, game, latest[0].number + 1 if latest else 1, starts)

    async def _open(self, guild: str, game: str, number: int, starts: float) -> Season:
        weeks = (await self.games.guild_settings(guild)).season_weeks
        ends = starts + weeks * WEEK
        if await self.store.create_season(Season(guild, game, number, starts, ends, due_at=ends)):
            log.info("guild %s: season %d of %s opened", guild, number, game)
        made = await self.store.get_season(guild, game, number)
        assert made is not None  # just written, by us or by another process
        return made

    async def past(self, guild: str, game: str) -> list[Season]:
        """The seasons there are to show, the newest first."""
        return await self.store.seasons_of(guild, game, SHOWN)

    async def get(self, guild: str, game: str, number: int) -> Season | None:
        return await self.store.get_season(guild, game, number)

    async def lines(self, season: Season, hidden: Hidden | None = None) -> list[SeasonLine]:
        """A season's table. ``hidden``: the games among some the asker may not see (Discord's
        ``Results.hidden``, the web's private tables): the table is then worked out from the
        others, so a private game tells nobody outside it of its players. Without it: the
        table frozen at the cut (of the games everyone on the server may see, ``close``), or,
        while open, from every game."""
        if season.status == CLOSED and hidden is None:
            return season.lines
        return await rated(await self._games(season, hidden))

    async def game_ids(self, season: Season) -> set[str]:
        """The games a season's table is worked out from (to ask who may see them)."""
        return {game.game_id for game in await self._games(season)}

    async def _games(self, season: Season, hidden: Hidden | None = None) -> list[SeasonGame]:
        rows = await self.store.season_results(
            season.guild, season.game, season.starts_at, season.ends_at
        )
        timeouts = await self.store.timeouts_of(season.guild, season.game, season.starts_at)
        return await without(games_of(rows, timeouts), hidden)

    async def due(self, now: float) -> list[Season]:
        """The seasons the scheduler must close now, and those owing their results post."""
        return await self.store.due_seasons(now, PAGE)

    async def close(self, season: Season, now: float, hidden: Hidden | None = None) -> Season:
        """The cut: the table frozen, the results post owed (unless nobody played), and the
        next season open from the end of this one (a season nobody played in opens none: the
        next finished game opens it).

        The frozen table is the one the results post and the roles make public, so it is
        worked out from the games everyone on the server may see (``hidden``: those among
        some that not everyone may, as the Discord layer decides): a game in a private
        channel tells nobody in the post who played it, nor how it went. Only the count of
        games played counts them all (it opens the next season)."""
        if season.status == CLOSED:
            return season
        games = await self._games(season)
        told = await without(games, hidden)
        played = len(games)
        settings = await self.games.guild_settings(season.guild)
        channel = settings.season_channel
        if channel is None and games:  # where the season's last (public) game was played
            last = await self.store.get_game((told or games)[-1].game_id)
            channel = None if last is None else last.channel
        if played:
            await self._open(season.guild, season.game, season.number + 1, season.ends_at)
        closed = replace(
            season,
            status=CLOSED,
            version=season.version + 1,
            lines=await rated(told),
            minimum=settings.season_games,
            games=played,
            channel=channel,
            due_at=now if played and channel else None,
        )
        try:
            await self.store.save_season(closed, season.version)
        except VersionConflict:  # another process closed it first: theirs stands
            found = await self.get(season.guild, season.game, season.number)
            assert found is not None
            return found
        log.info(
            "guild %s: season %d of %s closed, %d games, %d ranked",
            season.guild,
            season.number,
            season.game,
            played,
            len(closed.ranked),
        )
        return closed

    async def posted(self, season: Season, roles: str | None, crowned: dict[str, str]) -> Season:
        """The results post went out (``roles``: what the roles step said, if anything;
        ``crowned``: who holds the season's roles now)."""
        for _attempt in range(ATTEMPTS):
            found = await self.get(season.guild, season.game, season.number)
            assert found is not None
            done = replace(
                found, due_at=None, roles=roles, crowned=crowned, version=found.version + 1
            )
            try:
                await self.store.save_season(done, found.version)
            except VersionConflict:
                continue
            return done
        return season
