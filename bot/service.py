"""The service layer: the only code that changes a game (lobby, moves, AI seats).

Cogs and the demo call it; it speaks in players' ids and returns records, views and events,
never Discord objects. Every change is one compare-and-swap on the game's version, so two
clicks racing on one board can never both apply.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.ai import DEFAULT_BUDGET, NORMAL, STAND_IN, ai_id, decide_in_thread, level_of
from bot.errors import ServiceError, StaleRequest
from bot.store.base import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    GameRecord,
    Seat,
    Store,
    VersionConflict,
)
from rules import GAMES, Game, IllegalAction, Outcome, merge_options

log = logging.getLogger(__name__)

ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: ids are typed by hand
ID_LENGTH = 6
AI_PREFIX = "ai:"
MAX_AI_STEPS = 10_000  # a safety net: a game engine that never hands back is a bug, not a hang


@dataclass(frozen=True)
class Step:
    """One applied action and what it caused."""

    player: str
    action: dict[str, Any]
    events: list[dict[str, Any]]
    #: A standing order given out of turn (a policy): it leaves the turn in progress untouched.
    standing: bool = False


@dataclass
class MoveResult:
    """The game after a change: every step applied (the player's, then AI seats'), and the
    steps of finished turns that a public post should now tell (``told``, empty while the
    acting player is still in the middle of their turn). ``timed_out``: the players whose
    AI decided because their time ran out."""

    record: GameRecord
    steps: list[Step] = field(default_factory=list)
    told: list[Step] = field(default_factory=list)
    timed_out: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.record.status == FINISHED

    @property
    def turn_over(self) -> bool:
        """A public post is due: some turn ended (or the game did)."""
        return bool(self.told) or self.finished


def is_ai(player: str) -> bool:
    return player.startswith(AI_PREFIX)


def is_standing_order(game: Game, action: dict[str, Any]) -> bool:
    """Whether the game takes ``action`` from any seated player at any time, not only from one
    who owes a decision (DESIGN.md, out-of-turn decisions: a standing policy set by an action).
    Games without standing orders need not say anything."""
    check = getattr(game, "is_standing_order", None)
    return bool(check and check(action))


def new_game_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


class GameService:
    """Lobby and turns over a Store; one instance per bot process."""

    def __init__(
        self,
        store: Store,
        *,
        games: dict[str, Game] | None = None,
        decide: Callable[..., Awaitable[dict[str, Any]]] = decide_in_thread,
        ai_budget: float = DEFAULT_BUDGET,
        seed_factory: Callable[[], str] = lambda: secrets.token_hex(8),
        clock: Callable[[], float] = time.time,
        remind_after: float | None = None,
        timeout_after: float | None = None,
    ) -> None:
        """``remind_after``/``timeout_after``: seconds a human may take over a decision before
        a reminder, and before their AI decides for them (``None``: never). ``decide``: how an
        AI decision is awaited off the event loop (``bot.ai.decide``'s arguments; a thread by
        default, a process pool can take its place), ``ai_budget`` seconds for each."""
        self.store = store
        self.remind_after = remind_after
        self.timeout_after = timeout_after
        self.games = games if games is not None else GAMES
        self.decide = decide
        self.ai_budget = ai_budget
        self.seed_factory = seed_factory
        self._clock = clock
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    # -- reading -------------------------------------------------------------------------

    def engine(self, record: GameRecord) -> Game:
        return self.games[record.game]

    def state(self, record: GameRecord) -> Any:
        if record.state is None:
            raise ServiceError(
                f"Game {record.id} has not started yet — the host can `/game start`."
            )
        return self.engine(record).load(record.state)

    def names(self, record: GameRecord) -> dict[str, str]:
        return {seat.user: seat.name or seat.user for seat in record.seats}

    def view(self, record: GameRecord, player: str | None) -> dict[str, Any]:
        """The engine's view for ``player`` with display names added for renderers."""
        view = self.engine(record).view(self.state(record), player)
        view["names"] = self.names(record)
        return view

    def legal(self, record: GameRecord, player: str) -> list[dict[str, Any]]:
        if record.status != ACTIVE:
            return []
        return self.engine(record).legal(self.state(record), player)

    def to_move(self, record: GameRecord) -> list[str]:
        if record.status != ACTIVE:
            return []
        return self.engine(record).to_move(self.state(record))

    def outcome(self, record: GameRecord) -> Outcome | None:
        if record.state is None:
            return None
        return self.engine(record).outcome(self.state(record))

    async def history(self, record: GameRecord) -> list[Step]:
        """Every step of a game, replayed from its seed and action log.

        The replay must land exactly on the stored snapshot (a game is a function of its seed
        and log); a mismatch means the snapshot or an engine changed and is reported loudly.
        """
        if record.state is None:
            return []
        game = self.engine(record)
        state = game.start([seat.user for seat in record.seats], record.seed, record.options)
        steps = []
        try:
            for row in await self.store.actions(record.id):
                state, events = game.play(state, row.player, row.action)
                steps.append(Step(row.player, row.action, events))
            exact = game.dump(state) == record.state
        except IllegalAction:
            exact = False
        if not exact:
            log.error("game %s: replaying the log does not reproduce the snapshot", record.id)
            raise ServiceError(f"Game `{record.id}`: its history could not be replayed exactly.")
        return steps

    async def get(self, game_id: str, guild: str | None = None) -> GameRecord:
        """A game by its short id; ``guild`` keeps one server from reaching another's games."""
        record = await self.store.get_game(game_id.strip().lower())
        if record is None or (guild is not None and record.guild != guild):
            raise ServiceError(
                f"There is no game `{game_id}` on this server — `/game list` shows them."
            )
        return record

    async def channel_games(self, guild: str, channel: str) -> list[GameRecord]:
        return await self.store.games_in_channel(guild, channel)

    async def resolve(
        self, guild: str, channel: str, user: str, ref: str | None = None
    ) -> GameRecord:
        """The game a command is about: the one named, else the open game of this channel where
        ``user`` holds a seat (at most one by construction)."""
        if ref:
            return await self.get(ref, guild)
        for record in await self.store.games_in_channel(guild, channel):
            seat = record.seat_of(user)
            if seat is not None and not seat.ai:
                return record
        raise ServiceError(
            "You are not in a game in this channel — `/game list` shows the games here."
        )

    # -- lobby ---------------------------------------------------------------------------

    async def new_game(
        self,
        game_id: str,
        guild: str,
        channel: str,
        host: str,
        host_name: str,
        options: dict[str, Any] | None = None,
    ) -> GameRecord:
        game = self.games.get(game_id)
        if game is None:
            known = ", ".join(sorted(self.games))
            raise ServiceError(f"There is no game called `{game_id}` (games: {known}).")
        try:
            options = merge_options(game, options)
        except IllegalAction as error:
            raise ServiceError(error.reason) from error
        await self._ensure_free(guild, channel, host)
        now = self._clock()
        for _ in range(10):
            record = GameRecord(
                id=new_game_id(),
                game=game.id,
                guild=guild,
                channel=channel,
                host=host,
                status=LOBBY,
                options=options,
                seats=[Seat(user=host, name=host_name)],
                version=1,
                created_at=now,
                updated_at=now,
            )
            if await self.store.get_game(record.id) is None:
                await self.store.create_game(record)
                log.info("game %s: new %s in channel %s by %s", record.id, game.id, channel, host)
                return record
        raise ServiceError("Could not find a free game id; please try again.")

    async def join(
        self, guild: str, channel: str, user: str, name: str, ref: str | None = None
    ) -> GameRecord:
        record = await self._lobby_to_join(guild, channel, ref)
        if record.seat_of(user) is not None:
            raise ServiceError(f"You are already in game `{record.id}`.")
        await self._ensure_free(guild, channel, user)
        game = self.engine(record)
        if len(record.seats) >= game.max_players:
            raise ServiceError(
                f"Game `{record.id}` is full ({game.max_players} players) — start another "
                "with `/game new`."
            )
        record.seats.append(Seat(user=user, name=name))
        return await self._save_lobby(record, f"{user} joined")

    async def add_ai(
        self, guild: str, channel: str, user: str, ref: str | None = None, level: str = NORMAL
    ) -> GameRecord:
        """The host fills a seat with an AI player of ``level`` (easy, normal or hard)."""
        record = await self.resolve(guild, channel, user, ref)
        self._require_lobby(record)
        self._require_host(record, user, "add an AI player")
        game = self.engine(record)
        if len(record.seats) >= game.max_players:
            raise ServiceError(f"Game `{record.id}` is full ({game.max_players} players).")
        number = 1 + sum(1 for seat in record.seats if is_ai(seat.user))
        try:
            user_id = ai_id(level, number)
        except ValueError as error:
            raise ServiceError(str(error)) from error
        record.seats.append(Seat(user=user_id, ai=True, name=f"AI {number}"))
        return await self._save_lobby(record, f"{user} added an AI")

    async def leave(
        self, guild: str, channel: str, user: str, ref: str | None = None
    ) -> MoveResult:
        """Leave a lobby (the host's role passes on), or hand an active seat to the AI."""
        async with self._lock_for_ref(guild, channel, user, ref) as record:
            seat = record.seat_of(user)
            if seat is None or seat.ai:
                raise ServiceError(f"You are not in game `{record.id}`.")
            if record.status == LOBBY:
                record.seats.remove(seat)
                humans = [s for s in record.seats if not s.ai]
                if not humans:
                    record.status = ABANDONED
                elif record.host == user:
                    record.host = humans[0].user
                return MoveResult(await self._save_lobby(record, f"{user} left"))
            if record.status != ACTIVE:
                raise ServiceError(f"Game `{record.id}` is over already.")
            seat.ai = True
            seat.name = f"{seat.name} (AI)"
            if record.host == user:
                humans = [s for s in record.seats if not s.ai]
                record.host = humans[0].user if humans else record.host
            if not any(not s.ai for s in record.seats):
                record.status = ABANDONED
            self._arm_timers(record)
            record = await self._save_lobby(record, f"{user} left; the AI took the seat")
            result = MoveResult(record)
            await self._run_ai(record, result)
            return result

    async def set_options(
        self,
        guild: str,
        channel: str,
        user: str,
        changes: dict[str, Any],
        ref: str | None = None,
    ) -> GameRecord:
        """The host changes options (variants) while the lobby is still open."""
        async with self._lock_for_ref(guild, channel, user, ref) as record:
            self._require_lobby(record)
            self._require_host(record, user, "change the options")
            try:
                record.options = merge_options(self.engine(record), {**record.options, **changes})
            except IllegalAction as error:
                raise ServiceError(error.reason) from error
            return await self._save_lobby(record, f"options {changes}")

    async def start(
        self, guild: str, channel: str, user: str, ref: str | None = None
    ) -> MoveResult:
        async with self._lock_for_ref(guild, channel, user, ref) as record:
            self._require_lobby(record)
            self._require_host(record, user, "start it")
            game = self.engine(record)
            players = [seat.user for seat in record.seats]
            seed = self.seed_factory()
            try:
                state = game.start(players, seed, record.options)
            except IllegalAction as error:
                hint = (
                    " Invite others to `/game join`, or add an AI."
                    if len(players) < game.max_players
                    else ""
                )
                raise ServiceError(error.reason + hint) from error
            record.seed = seed
            record.state = game.dump(state)
            record.status = ACTIVE
            self._arm_timers(record)
            record = await self._save_lobby(record, "started")
            result = MoveResult(record)
            await self._run_ai(record, result)
            return result

    async def abandon(
        self, guild: str, channel: str, user: str, is_admin: bool, ref: str | None = None
    ) -> GameRecord:
        async with self._lock_for_ref(guild, channel, user, ref) as record:
            if record.status not in OPEN_STATUSES:
                raise ServiceError(f"Game `{record.id}` is over already.")
            if user != record.host and not is_admin:
                raise ServiceError(
                    "Only the host or someone with Manage Server can abandon a game."
                )
            record.status = ABANDONED
            return await self._save_lobby(record, f"abandoned by {user}")

    # -- turns ---------------------------------------------------------------------------

    async def move(
        self,
        guild: str,
        channel: str,
        user: str,
        action: dict[str, Any],
        ref: str | None = None,
        expected_version: int | None = None,
    ) -> MoveResult:
        """Apply a player's action, then every AI decision that follows it.

        ``expected_version`` comes from a button's custom id: a click on an older message is
        refused with the current board instead of being applied to a later turn.
        """
        async with self._lock_for_ref(guild, channel, user, ref) as record:
            for _attempt in range(3):
                if expected_version is not None and record.version != expected_version:
                    raise StaleRequest(record)
                if record.status != ACTIVE:
                    raise ServiceError(self._not_active_message(record))
                result = MoveResult(record)
                step = self._apply(record, user, action)
                try:
                    await self._commit(record, step, result)
                except VersionConflict:
                    # Another process moved this game: re-read and re-check on the new state.
                    record = await self.get(record.id)
                    continue
                await self._run_ai(record, result)
                return result
            raise ServiceError("The game was busy; please try that again.")

    def refusal(self, record: GameRecord, user: str, action: dict[str, Any]) -> str | None:
        """Why the rules would refuse ``action`` by ``user`` now, or ``None`` if they would
        accept it: a dry run, nothing is stored."""
        try:
            self.engine(record).play(self.state(record), user, action)
        except IllegalAction as error:
            return error.reason
        return None

    def turn_message(self, record: GameRecord) -> str:
        names = self.names(record)
        waiting = [names.get(p, p) for p in self.to_move(record)]
        if not waiting:
            return self._not_active_message(record)
        verb = "turn" if len(waiting) == 1 else "turns"
        return f"It is {' and '.join(waiting)}'s {verb}."

    def _apply(self, record: GameRecord, user: str, action: dict[str, Any]) -> Step:
        """Play ``action`` on the record's state (in memory; ``_commit`` persists it)."""
        game = self.engine(record)
        state = game.load(record.state)
        if record.seat_of(user) is None:
            raise ServiceError(f"You are not playing in game `{record.id}`.")
        standing = user not in game.to_move(state) and is_standing_order(game, action)
        if user not in game.to_move(state) and not standing:
            raise ServiceError(self.turn_message(record))
        try:
            new_state, events = game.play(state, user, action)
        except IllegalAction as error:
            raise ServiceError(error.reason) from error
        record.state = game.dump(new_state)
        if game.outcome(new_state) is not None:
            record.status = FINISHED
        return Step(user, action, events, standing)

    async def _commit(self, record: GameRecord, step: Step, result: MoveResult) -> None:
        """Persist one step (CAS on the version) and keep the journal of the turn in progress:
        while the same player alone still owes a decision the step waits in the journal;
        once the turn is over, the journal and the step are told and the journal is emptied.
        A step whose events start a new turn (``{"type": "turn"}``) ends the turn even when the
        same player moves again (everyone else has passed, say)."""
        expected, journal = record.version, record.journal
        entry = {"player": step.player, "action": step.action, "events": step.events}
        new_turn = any(event.get("type") == "turn" for event in step.events)
        turn_over = record.status != ACTIVE or self.to_move(record) != [step.player] or new_turn
        timers = record.remind_at, record.deadline
        if step.standing:  # the turn in progress, its journal and its clock go on untouched
            turn_over = False
        else:
            record.journal = [] if turn_over else [*journal, entry]
            self._arm_timers(record)
        record.version = expected + 1
        record.updated_at = self._clock()
        try:
            await self.store.commit_move(record, expected, step.player, step.action)
        except VersionConflict:
            record.version, record.journal = expected, journal
            record.remind_at, record.deadline = timers
            raise
        log.info("game %s v%d: %s %s", record.id, record.version, step.player, step.action)
        result.steps.append(step)
        if turn_over:
            result.told.extend(Step(e["player"], e["action"], e["events"]) for e in journal)
            result.told.append(step)

    async def _run_ai(self, record: GameRecord, result: MoveResult) -> None:
        """Let AI seats decide until a human owes a decision or the game ends."""
        ai_seats = {seat.user for seat in record.seats if seat.ai}
        game = self.engine(record)
        for _ in range(MAX_AI_STEPS):
            if record.status != ACTIVE:
                return
            state = game.load(record.state)
            waiting = [p for p in game.to_move(state) if p in ai_seats]
            if not waiting:
                return
            player = waiting[0]
            action = await self._decide(record, state, player, level_of(player))
            await self._commit(record, self._apply(record, player, action), result)
        raise ServiceError(f"Game `{record.id}`: the AI seats did not finish their turns.")

    async def _decide(self, record: GameRecord, state: Any, player: str, level: str) -> dict:
        """An AI decision for ``player`` from their seat's view and legal moves only, awaited
        off the event loop; seeded by the game and its version, so it is repeatable."""
        game = self.engine(record)
        view, legal = game.view(state, player), game.legal(state, player)
        seed = f"{record.id}:{record.version}:{player}"
        return await self.decide(game.id, level, view, legal, seed, self.ai_budget)

    # -- time: reminders and timeouts -----------------------------------------------------

    def waiting_humans(self, record: GameRecord) -> list[str]:
        seats = {seat.user: seat for seat in record.seats}
        return [p for p in self.to_move(record) if p in seats and not seats[p].ai]

    def _arm_timers(self, record: GameRecord) -> None:
        """Restart the clock whenever the game moves: a reminder, then a deadline, for the
        humans who owe a decision (none while only AI seats or nobody are to move)."""
        if record.status != ACTIVE or not self.waiting_humans(record):
            record.remind_at = record.deadline = None
            return
        now = self._clock()
        record.remind_at = now + self.remind_after if self.remind_after else None
        record.deadline = now + self.timeout_after if self.timeout_after else None

    async def due(self, now: float) -> list[GameRecord]:
        """Games whose reminder or deadline has come."""
        return await self.store.due_games(now)

    async def remind(self, record: GameRecord) -> list[str]:
        """Mark the reminder sent; return who to remind (nobody if the game moved since
        ``record`` was read). The version is untouched, so the board's buttons stay valid."""
        if not await self.store.set_timers(record.id, record.version, None, record.deadline):
            return []
        return self.waiting_humans(record)

    async def time_out(self, game_id: str, now: float) -> MoveResult:
        """The deadline passed: each human who owes a decision has it taken by the AI (their
        seat stays theirs for the next turn), then AI seats play on as usual."""
        async with self._locks[game_id]:
            record = await self.get(game_id)
            result = MoveResult(record)
            if record.status != ACTIVE or record.deadline is None or record.deadline > now:
                return result  # someone moved meanwhile: the clock was restarted
            game = self.engine(record)
            for player in self.waiting_humans(record):
                result.timed_out.append(player)
                for _ in range(MAX_AI_STEPS):
                    state = game.load(record.state)
                    if record.status != ACTIVE or player not in game.to_move(state):
                        break
                    action = await self._decide(record, state, player, STAND_IN)
                    await self._commit(record, self._apply(record, player, action), result)
            await self._run_ai(record, result)
            log.info("game %s: timed out %s", record.id, result.timed_out)
            return result

    # -- helpers -------------------------------------------------------------------------

    class _RecordLock:
        """Resolve a game, then hold its in-process lock while the caller changes it."""

        def __init__(self, service: GameService, resolver: Any) -> None:
            self._service = service
            self._resolver = resolver
            self._lock: asyncio.Lock | None = None

        async def __aenter__(self) -> GameRecord:
            record = await self._resolver()
            self._lock = self._service._locks[record.id]
            await self._lock.acquire()
            # Re-read under the lock: the record may have changed while we waited.
            return await self._service.get(record.id)

        async def __aexit__(self, *exc_info: object) -> None:
            assert self._lock is not None
            self._lock.release()

    def _lock_for_ref(
        self, guild: str, channel: str, user: str, ref: str | None
    ) -> GameService._RecordLock:
        return GameService._RecordLock(self, lambda: self.resolve(guild, channel, user, ref))

    async def _lobby_to_join(self, guild: str, channel: str, ref: str | None) -> GameRecord:
        if ref:
            record = await self.get(ref, guild)
            self._require_lobby(record)
            return record
        lobbies = [
            r for r in await self.store.games_in_channel(guild, channel) if r.status == LOBBY
        ]
        if not lobbies:
            raise ServiceError(
                "No game is waiting for players in this channel — open one with `/game new`."
            )
        if len(lobbies) > 1:
            ids = ", ".join(f"`{r.id}`" for r in lobbies)
            raise ServiceError(f"Several games are waiting here ({ids}): `/game join game:<id>`.")
        return lobbies[0]

    async def _ensure_free(self, guild: str, channel: str, user: str) -> None:
        """At most one open game per player per channel, so commands resolve without an id."""
        for record in await self.store.games_in_channel(guild, channel):
            seat = record.seat_of(user)
            if seat is not None and not seat.ai:
                raise ServiceError(
                    f"You are already in game `{record.id}` in this channel — "
                    "`/game leave` it first, or play it out."
                )

    async def _save_lobby(self, record: GameRecord, what: str) -> GameRecord:
        expected = record.version
        record.version = expected + 1
        record.updated_at = self._clock()
        try:
            await self.store.save_lobby(record, expected)
        except VersionConflict as error:
            raise ServiceError("The game changed meanwhile; please try again.") from error
        log.info("game %s v%d: %s", record.id, record.version, what)
        return record

    def _require_lobby(self, record: GameRecord) -> None:
        if record.status != LOBBY:
            raise ServiceError(
                f"Game `{record.id}` has already started — open a new one with `/game new`."
                if record.status == ACTIVE
                else self._not_active_message(record)
            )

    def _require_host(self, record: GameRecord, user: str, what: str) -> None:
        if user != record.host:
            host = self.names(record).get(record.host, "the host")
            raise ServiceError(f"Only the host ({host}) can {what}.")

    def _not_active_message(self, record: GameRecord) -> str:
        if record.status == LOBBY:
            return f"Game `{record.id}` has not started yet — the host can `/game start`."
        if record.status == FINISHED:
            return f"Game `{record.id}` is over — `/game new` starts another."
        return f"Game `{record.id}` was abandoned — `/game new` starts another."
