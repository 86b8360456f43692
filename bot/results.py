"""Results and ratings of finished games: who placed where, and each player's skill per game.

A finished game leaves one result row per seat and moves its players' ratings, openskill's
Plackett–Luce model (a multiplayer rating: a four-player game teaches it about every pair, not
only winner against the rest). Ratings are per server and per game. AI seats are rated too,
by level, under ``ai:<level>``, so a server sees how its players fare against each level; every
AI seat of one level at one table moves that level's one rating (the mean of their updates).

Ranking and rating are pure functions of the record, its outcome and the ratings before it
(``rate``); ``Results`` runs them through the store, inside its results transaction.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from functools import partial
from statistics import fmean

from openskill.models import PlackettLuce

from bot import visibility
from bot.ai import AI_PREFIX, is_ai_id, level_of
from bot.store.base import FINISHED, GameRecord, Rating, ResultRow, Store
from bot.teaching import TEACHING
from rules import Game, Outcome

log = logging.getLogger(__name__)

#: The rating model: defaults (mu 25, sigma 25/3), so a newcomer's ordinal starts at 0.
MODEL = PlackettLuce()
#: How many finished games the start-up sweep reads at a time.
SWEEP_BATCH = 100


def rated_as(player: str) -> str:
    """The identity a seat is rated under: the user, or ``ai:<level>`` for an AI seat (legacy
    ``ai:<n>`` seats played at easy)."""
    return f"{AI_PREFIX}{level_of(player)}" if is_ai_id(player) else player


def ranks(outcome: Outcome, players: list[str]) -> dict[str, int]:
    """Each player's place: every winner 1st; the others after them by score, equal scores
    sharing a place and the next place skipping as many ("1, 2, 2, 4")."""
    winners = [p for p in players if p in outcome.winners]
    others = [p for p in players if p not in outcome.winners]
    placed = {p: 1 for p in winners}
    for player in others:
        score = outcome.scores.get(player, 0)
        better = sum(1 for q in others if outcome.scores.get(q, 0) > score)
        placed[player] = len(winners) + 1 + better
    return placed


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate shown and sorted by (as ``Rating.ordinal``)."""
    return mu - 3 * sigma


#: The display scale: everyone starts at ``RATING_START`` and each point of ordinal is worth
#: ``RATING_SCALE`` points, shown whole, so a newcomer reads "1,000 → 1,056", never "0.0 → 3.3".
RATING_START = 1000
RATING_SCALE = 20


def display_rating(mu: float, sigma: float) -> int:
    """The rating players read, on a friendly scale computed from the ordinal (what the
    leaderboard sorts by, so the order is the same): everywhere a rating is shown."""
    return round(RATING_START + RATING_SCALE * ordinal(mu, sigma))


def rate_places(
    before: dict[str, tuple[float, float]], seats: list[tuple[str, int]]
) -> dict[str, tuple[float, float]]:
    """The (mu, sigma) after one game of each identity seated, from ``before`` (each seated
    identity's (mu, sigma)) and each seat's (identity, place), in seat order. Several seats of
    one identity (AI seats of one level) move it by the mean of their updates. The one rating
    step of the all-time ratings (``rate``) and of a season's (``bot.seasons.table``)."""
    teams = [[MODEL.rating(mu=before[i][0], sigma=before[i][1])] for i, _place in seats]
    # A table of one (never a finished game, but a record may say so) teaches nothing.
    rated = (
        MODEL.rate(teams, ranks=[float(place) for _i, place in seats]) if len(teams) > 1 else teams
    )
    updates: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for (identity, _place), (new,) in zip(seats, rated, strict=True):
        updates[identity].append((new.mu, new.sigma))
    return {
        i: (fmean(mu for mu, _ in moves), fmean(sigma for _, sigma in moves))
        for i, moves in updates.items()
    }


def rate(
    record: GameRecord,
    outcome: Outcome,
    current: dict[str, Rating],
    at: float,
    hinted: frozenset[str] = frozenset(),
) -> tuple[list[ResultRow], list[Rating]]:
    """The result rows (seat order) and new ratings of a finished game, from the ratings its
    identities held before it (``current``; a newcomer starts at the model's defaults). A
    player in ``hinted`` took a hint (``bot.hints``): they are ranked with the others, so the
    others' ratings move as the game went, but their own rating stays as it was. A teaching
    table is unrated: its rows keep every rating as it was, and none changes."""
    players = [seat.user for seat in record.seats]
    place = ranks(outcome, players)
    identity = {p: rated_as(p) for p in players}
    before = {
        i: current.get(i)
        or Rating(record.guild, record.game, i, MODEL.mu, MODEL.sigma, ai=is_ai_id(i))
        for i in identity.values()
    }
    # A teaching table moves no rating; a player who took a hint keeps theirs as it was.
    unrated = bool(record.prefs.get(TEACHING))
    moved = (
        {}
        if unrated
        else rate_places(
            {i: (r.mu, r.sigma) for i, r in before.items()},
            [(identity[p], place[p]) for p in players],
        )
    )
    for player in hinted & set(players):
        moved.pop(identity[player], None)
    names = {identity[s.user]: s.name for s in record.seats}
    after = {
        i: Rating(
            record.guild,
            record.game,
            i,
            mu,
            sigma,
            games=before[i].games + 1,
            ai=is_ai_id(i),
            name=i.removeprefix(AI_PREFIX) if is_ai_id(i) else names[i],
        )
        for i, (mu, sigma) in moved.items()
    }
    kept = {identity[p]: before[identity[p]] for p in players if identity[p] not in after}
    after_all = {**kept, **after}
    rows = [
        ResultRow(
            game_id=record.id,
            game=record.game,
            guild=record.guild,
            player=seat.user,
            rated_as=identity[seat.user],
            ai=is_ai_id(seat.user),
            name=seat.name,
            rank=place[seat.user],
            score=outcome.scores.get(seat.user, 0),
            winner=seat.user in outcome.winners,
            players=len(players),
            options=dict(record.options),
            finished_at=at,
            mu_before=before[identity[seat.user]].mu,
            sigma_before=before[identity[seat.user]].sigma,
            mu_after=after_all[identity[seat.user]].mu,
            sigma_after=after_all[identity[seat.user]].sigma,
            hinted=seat.user in hinted,
        )
        for seat in record.seats
    ]
    return rows, list(after.values())


@dataclass(frozen=True)
class Stats:
    """A player's record in some games: what `/game stats` shows."""

    played: int
    wins: int
    average_rank: float
    best_score: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0


def stats(rows: list[ResultRow]) -> Stats | None:
    """The record of these result rows (None: no game yet)."""
    if not rows:
        return None
    return Stats(
        played=len(rows),
        wins=sum(1 for row in rows if row.winner),
        average_rank=fmean(row.rank for row in rows),
        best_score=max(row.score for row in rows),
    )


class Results:
    """Recording results through the store, and reading them back for the commands.

    Recording never raises: the move that finished the game is stored already, and a game
    whose results are missing is found again by ``sweep`` (at the scheduler's start)."""

    def __init__(self, store: Store, games: dict[str, Game]) -> None:
        self.store = store
        self.games = games

    def outcome(self, record: GameRecord) -> Outcome | None:
        game = self.games.get(record.game)
        if game is None or record.state is None or record.status != FINISHED:
            return None
        return game.outcome(game.load(record.state))

    async def record(self, record: GameRecord) -> list[ResultRow]:
        """Record a finished game's results (once: again is a no-op); its rows, or none if
        they could not be written now (logged; the sweep tries again)."""
        try:
            outcome = self.outcome(record)
            if outcome is None:
                log.warning("game %s: no outcome to record results from", record.id)
                return []
            hinted = frozenset(await self.store.hinted(record.id))
            rating = partial(rate, record, outcome, at=record.updated_at, hinted=hinted)
            if await self.store.record_results(record.id, rating):
                log.info("game %s: results recorded", record.id)
            return await self.store.results_of_game(record.id)
        except Exception:  # a containment boundary: the game is over whatever happens here
            log.exception("game %s: could not record its results; the sweep will retry", record.id)
            return []

    async def sweep(self) -> int:
        """Record the results of every finished game that has none (the process stopped
        between a game's last move and its results); returns how many were recorded. Stops
        at a batch where nothing could be recorded, so a game that never rates cannot spin."""
        done = 0
        while True:
            try:
                batch = await self.store.finished_without_results(SWEEP_BATCH)
            except Exception:
                log.exception("could not look for games without results")
                return done
            recorded = [record for record in batch if await self.record(record)]
            done += len(recorded)
            if len(batch) < SWEEP_BATCH or not recorded:
                if done:
                    log.info("recorded the missing results of %d finished games", done)
                return done

    async def of_game(self, game_id: str) -> list[ResultRow]:
        """A finished game's rows with each seat's rating change (none before it is rated)."""
        return await self.store.results_of_game(game_id)

    async def standing(
        self, guild: str, player: str, game: str | None = None
    ) -> list[tuple[str, Stats, Rating | None]]:
        """A player's record on a server, per game they finished (of ``game`` only, if
        given), in the order they first played them: (game id, stats, rating)."""
        rows = await self.store.player_results(guild, player, game)
        hidden = await self.hidden({row.game_id for row in rows})
        by_game: dict[str, list[ResultRow]] = {}
        for row in rows:
            by_game.setdefault(row.game, []).append(row)
        out = []
        for game_id, all_rows in by_game.items():
            mine = [row for row in all_rows if row.game_id not in hidden]
            if not mine:
                continue
            # A rating folds in every game rated: one the asker may not see hides it.
            rating = (
                None
                if len(mine) < len(all_rows)
                else (await self.store.ratings(guild, game_id, [player])).get(player)
            )
            summary = stats(mine)
            assert summary is not None  # every group holds a row
            out.append((game_id, summary, rating))
        return out

    async def leaderboard(self, guild: str, game: str, page: int, size: int) -> list[Rating]:
        """Page ``page`` (from 1) of a server's ratings in one game, ``size`` a page, less
        the players rated in a game the asker may not see (``bot.visibility``)."""
        ratings = await self.store.leaderboard(guild, game, limit=size, offset=(page - 1) * size)
        if not visibility.bound():
            return ratings
        # AI levels too: their games count, and a count may not leak.
        return [r for r in ratings if await self.seen(guild, game, r, visibility.allowed)]

    async def seen(self, guild: str, game: str, rating: Rating, gate: visibility.Gate) -> bool:
        """Whether ``gate`` lets through every game that moved ``rating`` (each decided by
        where it was played): a rating tells of all of them."""
        for channel, thread in await self.store.rated_places(guild, game, rating.player):
            if not await gate(GameRecord("", game, guild, channel, "", thread=thread)):
                return False
        return True

    async def hidden(self, game_ids: set[str]) -> set[str]:
        """The games among ``game_ids`` the asker may not see (none, outside a request)."""
        hidden: set[str] = set()
        if not visibility.bound():
            return hidden
        for game_id in game_ids:
            record = await self.store.get_game(game_id)
            if record is None or not await visibility.allowed(record):
                hidden.add(game_id)
        return hidden
