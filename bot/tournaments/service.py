"""Tournaments that run themselves: sign-up, rounds, deadlines, standings, the winner.

Every change is a compare-and-swap of the tournament's document, and each step is safe to
take twice: a round's tables are written (with game ids made from the tournament's) before
any of its games is created, and creating them again finds them made. So a restart in the
middle of a round loses nothing and creates nothing twice. The scheduler calls ``due`` and
``advance``; a finished game or a timeout reaches ``heard`` through the game service.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.errors import ServiceError
from bot.i18n import N_, _
from bot.listening import Listening
from bot.moves import MoveResult
from bot.results import ranks
from bot.service import ID_ALPHABET, ID_LENGTH, GameService
from bot.store.base import ABANDONED, ACTIVE, FINISHED, GameRecord, Seat, VersionConflict
from bot.tournaments import pairing
from bot.tournaments.model import (
    CANCELLED,
    CANCELLED_POST,
    CUP,
    FINAL,
    ROUND_ROBIN,
    RUNNING,
    SIGNUP,
    STANDINGS,
    Entry,
    Round,
    Table,
    Tournament,
)
from bot.tournaments.model import FINISHED as DONE
from bot.tournaments.standings import Game, Line, standings
from rules.protocol import player_range

log = logging.getLogger(__name__)

#: A game's prefs key naming its tournament.
TOURNAMENT = "tournament"
#: Tournaments advanced at once by a tick.
PAGE = 50
#: Compare-and-swap attempts before a change gives up (another process keeps winning).
ATTEMPTS = 5
#: Refusals across servers: what to do instead.
NOT_TAKING_PART = N_(
    "This server does not take part in tournaments open to other servers: an admin can turn "
    "it on with `/game config open_tournaments:True`."
)
NO_LONGER_OPEN = N_("Tournament `{id}` is no longer open to other servers.")


@dataclass
class Advance:
    """What one step of a tournament left for the front door: its games just started (to
    post), those whose round ended before they did (to decide on the clock), and the
    tournament as saved."""

    tournament: Tournament
    started: list[MoveResult] = field(default_factory=list)
    decide: list[str] = field(default_factory=list)


def new_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _letter in range(ID_LENGTH))


def unknown(tournament_id: str) -> ServiceError:
    """The refusal for a tournament that does not exist, or is not this server's to reach:
    the same sentence, so it never confirms another server's tournament exists."""
    return ServiceError(
        _("There is no tournament `{id}` on this server.").format(id=tournament_id.strip()[:20])
    )


def table_id(tournament: str, number: int, table: int) -> str:
    """A round's table's game id, made from the tournament's: the same every time asked."""
    digest = hashlib.sha256(f"{tournament}:{number}:{table}".encode()).digest()
    return "".join(ID_ALPHABET[b % len(ID_ALPHABET)] for b in digest[:ID_LENGTH])


def table_of(record: GameRecord) -> str | None:
    """The tournament a game is a table of, if any."""
    found = record.prefs.get(TOURNAMENT)
    return str(found) if found else None


def current_standings(t: Tournament) -> list[Line]:
    """The standings of every signed-up player after the tables decided so far."""
    games = [
        Game(table.places) for rnd in t.played for table in rnd.tables if table.places is not None
    ]
    byes = [p for rnd in t.played for p in rnd.byes]
    return standings([e.user for e in t.entries], games, byes)


def timeouts(t: Tournament, user: str) -> int:
    """The games ``user`` timed out of in ``t``."""
    return sum(1 for rnd in t.played for table in rnd.tables if user in table.timed_out)


class Tournaments(Listening):
    """The tournaments of every server, over the game service's store."""

    def __init__(self, games: GameService, clock: Callable[[], float] = time.time) -> None:
        super().__init__(games, clock)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        return lock

    # -- sign-up ---------------------------------------------------------------------------

    async def create(
        self,
        guild: str,
        channel: str,
        host: str,
        host_name: str,
        *,
        game: str,
        format: str,
        rounds: int,
        clock: str,
        cap: int,
        start_hours: float,
        round_hours: float,
        withdraw_after: int,
        seats: int | None = None,
        cross_server: bool = False,
    ) -> Tournament:
        """Open a tournament's sign-up; the host is its first player. ``cross_server``: open
        to players of other servers, which only a server taking part may do."""
        if cross_server and not await self.takes_part(guild):
            raise ServiceError(_(NOT_TAKING_PART))
        engine = self.games.games.get(game)
        if engine is None:
            raise ServiceError(_("There is no game called `{id}`.").format(id=game[:20]))
        low, high = player_range(engine)
        seats = seats or max(2, low)
        if not low <= seats <= high:
            raise ServiceError(
                _("{title} seats {low}–{high} players a table.").format(
                    title=engine.title, low=low, high=high
                )
            )
        if cap < max(seats, 2):
            raise ServiceError(_("A tournament needs room for at least one table."))
        now = self._clock()
        t = Tournament(
            id=new_id(),
            guild=guild,
            channel=channel,
            host=host,
            game=game,
            format=format,
            rounds=rounds,
            clock=clock,
            cap=cap,
            seats=seats,
            starts_at=now + start_hours * 3600,
            round_hours=round_hours,
            withdraw_after=withdraw_after,
            cross_server=cross_server,
            entries=[Entry(host, host_name)],
            created_at=now,
        )
        t.due_at = t.starts_at
        await self.store.create_tournament(t)
        log.info("tournament %s: %s %s opened by %s", t.id, format, game, host)
        return t

    async def get(self, tournament_id: str, guild: str | None = None) -> Tournament:
        t = await self.store.get_tournament(tournament_id.strip().lower())
        if t is None or (guild is not None and t.guild != guild):
            raise unknown(tournament_id)
        return t

    async def takes_part(self, guild: str) -> bool:
        """Whether a server takes part in tournaments open to other servers."""
        return (await self.games.guild_settings(guild)).open_tournaments

    async def find(self, tournament_id: str, guild: str, user: str) -> Tournament:
        """The tournament as ``user``, a member of ``guild``, reaches it: one of that server,
        or one open to other servers while both servers take part. A player in it reaches
        it still, whatever the servers chose since: a running tournament finishes."""
        t = await self.store.get_tournament(tournament_id.strip().lower())
        if t is None or (t.guild != guild and not t.cross_server):
            raise unknown(tournament_id)
        if t.guild == guild or t.entry(user) is not None:
            return t
        if not await self.takes_part(guild):
            raise ServiceError(_(NOT_TAKING_PART))
        if not await self.takes_part(t.guild):
            raise ServiceError(_(NO_LONGER_OPEN).format(id=t.id))
        return t

    async def joinable(self, guild: str) -> list[Tournament]:
        """The sign-ups with room left that a member of ``guild`` may join: its server's,
        then, when it takes part, those other servers opened while they take part (the
        newest first). Whether a player may see where the games are played is the Discord
        layer's to decide."""
        found = await self.store.tournaments_in_guild(guild, PAGE)
        if await self.takes_part(guild):
            hosts: dict[str, bool] = {}
            for t in await self.store.cross_server_signups(PAGE):
                if t.guild != guild and t.guild not in hosts:
                    hosts[t.guild] = await self.takes_part(t.guild)
                if hosts.get(t.guild):
                    found.append(t)
        return [t for t in found if t.status == SIGNUP and len(t.entries) < t.cap]

    async def join(self, tournament_id: str, guild: str, user: str, name: str) -> Tournament:
        """Sign ``user``, a member of ``guild``, up (to another server's tournament only as
        ``find`` allows); a cup that is full now is due at once (it starts when full)."""

        def change(t: Tournament) -> None:
            if t.status != SIGNUP:
                raise ServiceError(_("Sign-up for tournament `{id}` is closed.").format(id=t.id))
            if t.entry(user) is not None:
                raise ServiceError(_("You are signed up already."))
            if len(t.entries) >= t.cap:
                raise ServiceError(
                    _("Tournament `{id}` is full ({n} players).").format(id=t.id, n=t.cap)
                )
            t.entries.append(Entry(user, name))
            if t.format == CUP and len(t.entries) >= t.cap:
                t.due_at = self._clock()

        return await self._change(tournament_id, guild, change, user)

    async def leave(self, tournament_id: str, guild: str, user: str) -> Tournament:
        """Leave the sign-up, or withdraw from a running tournament (your games go on)."""

        def change(t: Tournament) -> None:
            entry = t.entry(user)
            if entry is None or entry.withdrawn or t.status not in (SIGNUP, RUNNING):
                raise ServiceError(_("You are not in tournament `{id}`.").format(id=t.id))
            if t.status == SIGNUP:
                t.entries.remove(entry)
            else:
                entry.withdrawn = True

        return await self._change(tournament_id, guild, change)

    async def start_now(self, tournament_id: str, guild: str, user: str) -> Tournament:
        """The host closes the sign-up early: the tournament is due now."""

        def change(t: Tournament) -> None:
            if t.status != SIGNUP:
                raise ServiceError(_("Tournament `{id}` has started already.").format(id=t.id))
            if user != t.host:
                raise ServiceError(_("Only the host can start the tournament early."))
            t.starts_at = t.due_at = self._clock()

        return await self._change(tournament_id, guild, change)

    async def _change(
        self,
        tournament_id: str,
        guild: str | None,
        change: Callable[[Tournament], None],
        joining: str | None = None,
    ) -> Tournament:
        """Apply ``change`` to the stored tournament and save it (compare-and-swap, retried
        when another change came first). ``joining``: the player signing up, who may come
        from another server (``find``)."""
        async with self._lock(tournament_id):
            for _attempt in range(ATTEMPTS):
                if joining is not None and guild is not None:
                    t = await self.find(tournament_id, guild, joining)
                else:
                    t = await self.get(tournament_id, guild)
                expected = t.version
                change(t)
                t.version = expected + 1
                try:
                    await self.store.save_tournament(t, expected)
                except VersionConflict:
                    continue
                return t
        raise ServiceError(_("The tournament is busy; please try again."))

    # -- running ---------------------------------------------------------------------------

    async def due(self, now: float) -> list[str]:
        """The tournaments whose attention time has come."""
        return [t.id for t in await self.store.due_tournaments(now, PAGE)]

    async def heard(self, record: GameRecord, timed_out: list[str]) -> None:
        """A game of a tournament timed some players out, or ended: noted on its table, and
        an ended game makes the tournament due (its round may be over)."""
        tournament_id = table_of(record)
        if tournament_id is None:
            return

        def change(t: Tournament) -> None:
            for rnd in t.played:
                for table in rnd.tables:
                    if table.game_id == record.id:
                        table.timed_out += [p for p in timed_out if p not in table.timed_out]
            if record.status != ACTIVE and t.status == RUNNING:
                t.due_at = self._clock()

        await self._change(tournament_id, None, change)

    async def advance(self, tournament_id: str, now: float | None = None) -> Advance:
        """One step: start a tournament whose sign-up has closed, close a round whose games
        are over (standings owed, the next round planned or the winner owed), say which games
        a round's deadline must decide; then create the current round's games not made
        yet. Safe to repeat. ``now``: the scheduler's tick (by default the clock's)."""
        now = self._clock() if now is None else now
        decide: list[str] = []

        async def change(t: Tournament) -> None:
            decide.clear()
            if t.status == SIGNUP and now >= (t.due_at or t.starts_at):
                await self._begin(t, now)
            elif t.status == RUNNING:
                decide.extend(await self._step(t, now))

        async with self._lock(tournament_id):
            for _attempt in range(ATTEMPTS):
                t = await self.get(tournament_id)
                await self._read_results(t)
                expected = t.version
                await change(t)
                t.version = expected + 1
                try:
                    await self.store.save_tournament(t, expected)
                    break
                except VersionConflict:
                    continue
            else:
                raise ServiceError(_("The tournament is busy; please try again."))
        started = await self._create_games(t)
        return Advance(t, started, decide)

    async def _begin(self, t: Tournament, now: float) -> None:
        """Sign-up closed: too few players cancel it; else the first round."""
        low = max(2, player_range(self.games.games[t.game])[0])
        if len(t.entries) < low:
            t.status, t.due_at = CANCELLED, None
            t.owed.append({"kind": CANCELLED_POST})
            log.info("tournament %s: cancelled, %d signed up", t.id, len(t.entries))
            return
        t.status = RUNNING
        if t.format == ROUND_ROBIN and t.seats == 2:
            t.rounds = pairing.round_robin_rounds(len(t.entries))
        await self._plan(t, now)

    async def _step(self, t: Tournament, now: float) -> list[str]:
        """A running tournament: close its round if every table is decided, else the games
        its deadline must decide (if it has come)."""
        rnd = t.current
        assert rnd is not None
        waiting = [table.game_id for table in rnd.tables if table.places is None]
        if waiting:
            t.due_at = rnd.deadline
            return waiting if now >= rnd.deadline else []
        rnd.closed = True
        if t.withdraw_after:
            for entry in t.entries:
                if not entry.withdrawn and timeouts(t, entry.user) >= t.withdraw_after:
                    entry.withdrawn = True
                    log.info("tournament %s: %s withdrawn (timeouts)", t.id, entry.user)
        if rnd.number >= t.rounds or len(t.active) < 2:
            t.status, t.due_at = DONE, None
            t.owed.append({"kind": FINAL})  # the last standings, under the winner's name
            log.info("tournament %s: finished after %d rounds", t.id, rnd.number)
            return []
        t.owed.append({"kind": STANDINGS, "round": rnd.number})
        await self._plan(t, now)
        return []

    async def _plan(self, t: Tournament, now: float) -> None:
        """The next round's tables, written before any of its games is created. A Swiss
        pairing of many players takes a while (about half a second for 64): it is worked out
        off the event loop."""
        number = len(t.played) + 1
        lines = current_standings(t)
        active = set(t.active)
        ranked = [line.player for line in lines if line.player in active]
        engine = self.games.games[t.game]
        if t.seats > 2:
            low, high = player_range(engine)
            made = pairing.score_groups(ranked, t.seats, low, high)
        elif t.format == ROUND_ROBIN:
            made = pairing.round_robin([e.user for e in t.entries], number)
            # A withdrawn player's opponent has the bye; a withdrawn player none.
            tables = [tb for tb in made.tables if all(p in active for p in tb)]
            byes = [p for tb in made.tables for p in tb if p in active and tb not in tables]
            made = pairing.Pairing(tables, [*byes, *(p for p in made.byes if p in active)])
        else:
            points = {line.player: line.points for line in lines}
            met = {
                frozenset(pair)
                for rnd in t.played
                for table in rnd.tables
                for pair in _pairs(table.seats)
            }
            had_bye = {p for rnd in t.played for p in rnd.byes}
            made = await asyncio.to_thread(pairing.swiss, ranked, points, met, had_bye)
        rnd = Round(number=number, deadline=now + t.round_hours * 3600, byes=list(made.byes))
        rnd.tables = [
            Table(game_id=table_id(t.id, number, k), seats=list(seats))
            for k, seats in enumerate(made.tables)
        ]
        t.played.append(rnd)
        t.due_at = rnd.deadline if rnd.tables else now  # byes alone: the round is over
        log.info("tournament %s: round %d, %d tables", t.id, number, len(rnd.tables))

    async def _read_results(self, t: Tournament) -> None:
        """Each undecided table of the current round whose game is over: its places (an
        abandoned game is a draw among its seats)."""
        rnd = t.current
        if t.status != RUNNING or rnd is None:
            return
        for table in rnd.tables:
            if table.places is not None:
                continue
            record = await self.store.get_game(table.game_id)
            if record is None:
                continue
            if record.status == FINISHED:
                outcome = self.games.outcome(record)
                if outcome is not None:  # by seat: a forgotten player's id differs in each
                    players = [seat.user for seat in record.seats]
                    placed = ranks(outcome, players)
                    table.places = {
                        mine: placed[theirs]
                        for mine, theirs in zip(table.seats, players, strict=True)
                    }
            elif record.status == ABANDONED:
                table.places = dict.fromkeys(table.seats, 1)

    async def _create_games(self, t: Tournament) -> list[MoveResult]:
        """The current round's games not created (or not started) yet."""
        rnd = t.current
        if t.status != RUNNING or rnd is None or rnd.closed:
            return []
        names = t.names
        started = []
        for number, table in enumerate(rnd.tables, 1):
            seats = [Seat(user=p, name=names.get(p, p)) for p in table.seats]
            prefs: dict[str, Any] = {
                "thread": True,
                "clock": t.clock,
                TOURNAMENT: t.id,
                "round": rnd.number,
                "table": number,
            }
            try:
                result = await self.games.open_seated(
                    table.game_id, t.game, t.guild, t.channel, seats, prefs
                )
            except ServiceError:  # the server's cap, say: tried again at the next tick
                log.warning("tournament %s: could not start %s", t.id, table.game_id)
                continue
            if result is not None:
                started.append(result)
        return started

    async def posted(self, tournament_id: str, owed: dict[str, Any]) -> Tournament:
        """An owed post went out: it is owed no more."""

        def change(t: Tournament) -> None:
            if owed in t.owed:
                t.owed.remove(owed)

        return await self._change(tournament_id, None, change)

    async def remember_signup(self, tournament_id: str, channel: str, message: str) -> None:
        def change(t: Tournament) -> None:
            t.signup_message = [channel, message]

        await self._change(tournament_id, None, change)


def _pairs(seats: list[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(seats) for b in seats[i + 1 :]]
