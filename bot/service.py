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
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from bot import alerts, limits, outbox, undo, visibility
from bot.ai import (
    DEFAULT_BUDGET,
    HARD,
    LEVELS,
    NORMAL,
    STAND_IN,
    ai_id,
    decide_in_thread,
    level_of,
)
from bot.ai.memory import keeps as keeps_memory
from bot.ai.memory import recall
from bot.changes import Changes
from bot.errors import ServiceError, StaleRequest
from bot.guild_settings import CLOCKS, GuildSettings, clock_seconds
from bot.hints import Hints
from bot.i18n import N_, _, say
from bot.moves import MoveResult, Step
from bot.options import check_options
from bot.pictures import Pictures
from bot.pool import WorkerPool
from bot.read_model import ReadModel, not_active_message, turn_steps, turn_version
from bot.results import Results
from bot.store.base import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    Clock,
    GameRecord,
    GameSummary,
    LoggedAction,
    Owed,
    PageKey,
    ReminderClaim,
    Seat,
    Shards,
    Store,
    UndoneAction,
    UndoRequest,
    UnreadableLog,
    VersionConflict,
)
from bot.store.forget import Forgotten
from bot.teaching import TAUGHT, TEACHING, due
from bot.teaching.courses import COURSES
from bot.teaching.notes import judge, note, seed_of
from rules import GAMES, Game, IllegalAction, Outcome
from rules.protocol import player_range

log = logging.getLogger(__name__)

ID_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: ids are typed by hand
ID_LENGTH = 6
AI_PREFIX = "ai:"
#: Seconds after a game's end in which its players may ask for a rematch.
REMATCH_WINDOW = 600.0
#: Games handled between two yields to the event loop in a scheduler's bookkeeping.
YIELD_EVERY = 100
#: A player's games read for a daily digest, and digests claimed by one tick.
DIGEST_MOST = 250
DIGESTS_AT_ONCE = 100
#: A vacation day (issue 27): what one spent adds to a late player's clock.
DAY = 86400.0
#: Reminders in a row with no move (through the vacation days a late clock spends) after which
#: the host is asked what to do with the seat (issue 27); and where a seat's clock counts them.
STALL_AFTER = 3
REMINDED = 3
#: The table preference that holds the seats' planned absences (`/game away until:`).
AWAY_UNTIL = "away_until"
MAX_AI_STEPS = 10_000  # a safety net: a game engine that never hands back is a bug, not a hang
#: How many games' last played states a service keeps (``GameService._known``): the games
#: moving now, a few kilobytes each.
PLAYED_KEPT = 512


def is_ai(player: str) -> bool:
    return player.startswith(AI_PREFIX)


def replay(
    game: Game, record: GameRecord, rows: list[LoggedAction], states: list[Any] | None = None
) -> tuple[list[Step], bool]:
    """Every step of the log played from the game's start, and whether the replay lands exactly
    on the stored snapshot (pure work on its own objects: it runs in a worker thread).
    ``states``, if given, receives the first state and the state after each step (a replay
    viewer shows them)."""
    state = game.start([seat.user for seat in record.seats], record.seed, record.options)
    keep = states.append if states is not None else lambda _state: None
    keep(state)
    steps = []
    try:
        for row in rows:
            standing = row.player not in game.to_move(state) and game.is_standing_order(row.action)
            before = game.turn(state)
            state, events = game.play(state, row.player, row.action)
            keep(state)
            steps.append(Step(row.player, row.action, events, standing, game.turn(state) != before))
    except IllegalAction:
        return steps, False
    return steps, game.dump(state) == record.state


def recalled(
    game: Game, record: GameRecord, rows: list[LoggedAction], player: str
) -> dict[str, Any] | None:
    """What ``player``'s seat saw of the game (``bot.ai.memory``), from a replay of its log."""
    states: list[Any] = []
    replay(game, record, rows, states)
    return recall(game, states, player)


def new_game_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _letter in range(ID_LENGTH))


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
        pictures: Pictures | None = None,
        changes: Changes | None = None,
        think: Callable[..., Awaitable[Any]] | None = None,
    ) -> None:
        """``remind_after``/``timeout_after``: seconds a human may take over a decision before
        a reminder, and before their AI decides for them (``None``: never). ``pictures``: where
        boards and hands are drawn (the bot's worker pool); by default in a thread. ``decide``:
        how an AI decision is awaited off the event loop (``bot.ai.decide``'s arguments; a
        thread by default, the worker pool in the bot), ``ai_budget`` seconds for each.
        ``think``: where other AI work runs (hints, a teaching table's verdicts):
        ``think(fn, *args)``, a thread by default, the AI's worker pool in the bot."""
        self.store = store
        self.pictures = pictures or Pictures(WorkerPool(inline=True, initializer=None))
        self.remind_after = remind_after
        self.timeout_after = timeout_after
        self.games = games if games is not None else GAMES
        self.decide = decide
        self.think = think or asyncio.to_thread
        #: The turn of each teaching table whose learner had a mistake note (once a turn).
        self._noted: OrderedDict[str, int] = OrderedDict()
        self.ai_budget = ai_budget
        self.seed_factory = seed_factory
        self._clock = clock
        self.results = Results(store, self.games)
        #: The hints asked for in this process (``bot.hints``).
        self.hints = Hints()
        #: This process, as the holder of the outbox rows its changes write (``bot.outbox``).
        self.holder = outbox.process_id()
        #: Told of every committed change (``bot.changes``): the web table's live pages.
        self.changes = changes or Changes()
        #: One lock per game being changed; a lock nobody holds or waits for is dropped.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        #: The states last played, by game, with the snapshot dumped from each (``_known``).
        self._played: OrderedDict[str, tuple[dict[str, Any], Any]] = OrderedDict()
        #: Told of every game that finished and of every timeout, after it is saved (the
        #: tournaments count them): ``(record, players who timed out)``, an empty list at the end.
        self.listeners: list[Callable[[GameRecord, list[str]], Awaitable[None]]] = []

    # -- reading -------------------------------------------------------------------------

    def engine(self, record: GameRecord | GameSummary) -> Game:
        """The record's engine; a game type this bot does not know (a removed game, a newer
        bot's database) is a sentence, so only that game is unavailable."""
        game = self.games.get(record.game)
        if game is None:
            raise ServiceError(
                _(
                    "Game `{id}` is unavailable: this bot does not know the game type `{game}`."
                ).format(id=record.id, game=record.game[:40])
            )
        return game

    def title(self, record: GameRecord | GameSummary) -> str:
        """The game's title for lists, or why it is unavailable."""
        game = self.games.get(record.game)
        if game is not None:
            return game.title
        return _("unavailable ({game})").format(game=record.game[:40])

    def read(self, record: GameRecord) -> ReadModel:
        """The one object a cog reads a game from: state, names, views, legal actions."""
        return ReadModel(record, self.engine(record), self.pictures, self._known(record))

    def _known(self, record: GameRecord) -> Any:
        """The state ``record.state`` was dumped from by a move of this process, if it is still
        that very snapshot: a move's checks, its clocks, the AI turns after it and its post
        read that state instead of loading the snapshot three or four times more (a load is
        a good share of a move's time on the loop; rules never change a state they are
        given). None otherwise."""
        known = self._played.get(record.id)
        if known is None or known[0] is not record.state:
            return None
        return known[1]

    def _remember(self, record: GameRecord, state: Any) -> None:
        """``state`` is what ``record.state`` was just dumped from (the last few hundred
        games moved are kept)."""
        assert record.state is not None
        self._played[record.id] = (record.state, state)
        self._played.move_to_end(record.id)
        if len(self._played) > PLAYED_KEPT:
            self._played.popitem(last=False)

    def seat_range(self, record: GameRecord | GameSummary) -> tuple[int, int]:
        """How many may sit at this table under its chosen options (an option may widen the
        game's range, as Street Art's two_players does)."""
        return player_range(self.engine(record), record.options)

    # The pieces of one read model, for callers that need only one (tests, the demo, benches).

    def state(self, record: GameRecord) -> Any:
        return self.read(record).load()

    def names(self, record: GameRecord) -> dict[str, str]:
        return self.read(record).names

    def view(self, record: GameRecord, player: str | None) -> dict[str, Any]:
        """The engine's view for ``player``, as the engine returned it (names travel apart)."""
        return self.read(record).view(player)

    def legal(self, record: GameRecord, player: str) -> list[dict[str, Any]]:
        return self.read(record).legal(player)

    def to_move(self, record: GameRecord) -> list[str]:
        return self.read(record).to_move

    def outcome(self, record: GameRecord) -> Outcome | None:
        return self.read(record).outcome

    async def history(self, record: GameRecord) -> list[Step]:
        """Every step of a game, replayed from its seed and action log.

        The replay must land exactly on the stored snapshot (a game is a function of its seed
        and log); a mismatch means the snapshot or an engine changed and is reported loudly.
        """
        if record.state is None:
            return []
        rows = await self.log_of(record)
        # A long game replays for a good part of a second: never on the event loop.
        steps, exact = await asyncio.to_thread(replay, self.engine(record), record, rows)
        if not exact:
            log.error("game %s: replaying the log does not reproduce the snapshot", record.id)
            raise self.unreplayable(record)
        return steps

    async def log_of(self, record: GameRecord) -> list[LoggedAction]:
        """The game's action log, for a history, a replay, an export or an undo: an entry
        that does not read is the history that cannot be replayed (a sentence for the player,
        and the log says which entry), never a crash; the game itself plays on."""
        try:
            return await self.store.actions(record.id)
        except UnreadableLog as error:
            log.error("%s", error)
            raise self.unreplayable(record) from error

    @staticmethod
    def unreplayable(record: GameRecord) -> ServiceError:
        return ServiceError(
            _("Game `{id}`: its history could not be replayed exactly.").format(id=record.id)
        )

    async def get(self, game_id: str, guild: str | None = None) -> GameRecord:
        """A game by its short id; ``guild`` keeps one server from reaching another's games,
        and ``bot.visibility`` one member from a game in a channel they cannot see."""
        record = await self.store.get_game(game_id.strip().lower())
        if record is None or (guild is not None and record.guild != guild):
            raise visibility.unknown_game(game_id)
        if not await visibility.allowed(record):  # hidden from the asker: as if unknown
            raise visibility.unknown_game(game_id)
        return await self._loading(record, game_id)

    async def _loading(self, record: GameRecord, game_id: str) -> GameRecord:
        """``playable``, or the game is unknown: set aside, it is listed as needing attention
        (as a row that does not decode and cannot be rebuilt is)."""
        playable = await self.playable(record)
        if playable is None:
            raise visibility.unknown_game(game_id)
        return playable

    async def playable(self, record: GameRecord) -> GameRecord | None:
        """``record`` with a snapshot its engine loads, the state loaded kept (``_remember``:
        the reads of the caller's read model do not load it again). A snapshot that decodes
        but that the engine refuses (a field lost, a hand edit) is rebuilt by the store from
        the seed and the log and written back at the same version, as one that does not
        decode is on any read (``Store.rebuild_snapshot``). None: the log does not replay to
        a snapshot that loads either, and the game is set aside as needing attention."""
        game = self.games.get(record.game)
        if record.state is None or game is None or self._known(record) is not None:
            return record  # a lobby, a type this bot does not play (``engine`` says so)
        try:
            state = game.load(record.state)
        except Exception as error:  # whatever the engine says of a snapshot it refuses
            reason = f"its snapshot does not load ({type(error).__name__})"
            rebuilt = await self.store.rebuild_snapshot(record, reason)
            if rebuilt is None or rebuilt.state is None:
                return rebuilt
            record, state = rebuilt, game.load(rebuilt.state)  # the rebuild loads: checked
        self._remember(record, state)
        return record

    async def remember_message(
        self, record: GameRecord, kind: str, channel: str, message: str
    ) -> None:
        """Remember the newest message of ``kind`` (a lobby, say) posted for a game."""
        await self.store.save_message(record.id, kind, channel, message)

    async def message_of(self, record: GameRecord, kind: str) -> tuple[str, str] | None:
        """(channel id, message id) of the newest message of ``kind`` posted for a game."""
        return await self.store.get_message(record.id, kind)

    # -- servers ---------------------------------------------------------------------------

    async def guild_settings(self, guild: str) -> GuildSettings:
        return GuildSettings.from_stored(await self.store.guild_settings(guild))

    async def configure(self, guild: str, **changes: Any) -> GuildSettings:
        """Change a server's settings (`/game config`); games already open keep theirs."""
        try:
            settings = (await self.guild_settings(guild)).changed(**changes)
        except ValueError as error:
            raise ServiceError(str(error)) from error
        await self.store.save_guild_settings(guild, settings.stored())
        log.info("guild %s: settings %s", guild, changes)
        return settings

    async def set_thread(self, record: GameRecord, thread: str | None) -> None:
        """The game is played in ``thread`` from now on (its posts go there, commands sent
        from it find it); the version stays, so no button goes out of date."""
        await self.store.set_thread(record.id, thread)
        record.thread = thread

    async def archive_later(self, record: GameRecord, delay: float) -> None:
        """Archive the game's thread ``delay`` seconds from now (kept in the store, so a
        restart in between does not forget it)."""
        record.archive_at = self._clock() + delay
        await self.store.set_archive(record.id, record.archive_at)

    async def threads_to_archive(
        self, now: float, shards: Shards | None = None
    ) -> list[GameRecord]:
        return await self.store.threads_to_archive(now, shards)

    async def count_threads(self, guild: str) -> int:
        """The game threads the bot keeps open on ``guild`` (``Store.count_threads``)."""
        return await self.store.count_threads(guild)

    async def finished_threads(self, guild: str, limit: int) -> list[GameRecord]:
        """The oldest finished games of ``guild`` whose thread is still to archive."""
        return await self.store.finished_threads(guild, limit)

    async def archived(self, record: GameRecord) -> None:
        """The game's thread was archived (or is gone): nothing more to do for it."""
        record.archive_at = None
        await self.store.set_archive(record.id, None)

    async def games_of_player(
        self, guild: str | None, user: str, *, limit: int, offset: int = 0
    ) -> list[GameSummary]:
        """A page of the open games on a server (None: on every server) where ``user`` sits,
        longest waiting first."""
        return await self.store.games_of_player(guild, user, limit=limit, offset=offset)

    # -- a player's alerts (issue 27, ``bot.alerts``) --------------------------------------

    async def alert_prefs(self, user: str) -> dict[str, Any]:
        """How ``user`` is told of their turns (empty: a ping in the thread, no quiet hours)."""
        return (await self.store.player_prefs([user])).get(user, {})

    async def set_alerts(
        self,
        user: str,
        *,
        alerts_mode: str | None = None,
        game_id: str | None = None,
        zone: str | None = None,
        quiet: str | None = None,
    ) -> dict[str, Any]:
        """`/game notify`: ``user``'s alerts for every game, or for game ``game_id`` (one
        they sit in) alone; their time zone and quiet hours. Returns their choices now."""
        if game_id is not None:
            record = await self.get(game_id)
            seat = record.seat_of(user)
            if seat is None or seat.ai:
                raise ServiceError(_("You are not playing in game `{id}`.").format(id=record.id))
            game_id = record.id
        try:
            prefs = alerts.changed(
                await self.alert_prefs(user),
                alerts=alerts_mode,
                game_id=game_id,
                zone_name=zone,
                quiet=quiet,
                now=self._clock(),
            )
        except ValueError as error:
            raise ServiceError(str(error)) from error
        await self.store.save_player_prefs(user, prefs)
        return prefs

    async def dm_refused(self, user: str) -> bool:
        """Discord refused ``user`` a DM (50007): their alerts are thread pings from now on.
        Whether this is news (the thread then says so, once)."""
        prefs = await self.alert_prefs(user)
        if prefs.get("dm_refused"):
            return False
        await self.store.save_player_prefs(user, {**prefs, "dm_refused": True})
        return True

    async def _owe_alerts(self, record: GameRecord, users: list[str]) -> None:
        """The alerts of the players a change gives a decision to (in its transaction): a DM
        for those who chose it, and a thread ping held back by quiet hours for those in them
        (the board's own ping leaves them out, ``pings_now``)."""
        if not users:
            return
        now = self._clock()
        prefs = await self.store.player_prefs(users)
        for user in users:
            mine = prefs.get(user, {})
            mode = alerts.mode_of(mine, record.id)
            waits = alerts.quiet_until(mine, now)
            # The seat's deadline, as this decision armed it: an alert whose decision has
            # passed (a later one armed its own, with its own alert) is not sent.
            clock = record.clocks.get(user)
            payload = {"user": user, "mode": mode, "deadline": clock[1] if clock else None}
            if mode == alerts.DM:
                record.owed.append(outbox.alert(payload, waits or now))
            elif mode == alerts.THREAD and waits is not None:
                record.owed.append(outbox.alert(payload, waits))

    async def digest_of(self, user: str, prefs: dict[str, Any]) -> list[GameRecord]:
        """The games of ``user``'s daily digest: those (on every server) where they owe a
        decision and chose the digest for, the least time left first. Whose move it is is
        read from the listing; only the games waiting for them are read whole (the digest
        says what each asks). A game that cannot be read is left out."""
        found = []
        for listed in await self.store.games_of_player(None, user, limit=DIGEST_MOST):
            if alerts.mode_of(prefs, listed.id) != alerts.DIGEST:
                continue
            if listed.status != ACTIVE or user not in listed.to_move:
                continue
            record = await self.store.get_game(listed.id)
            if record is not None:
                record = await self.playable(record)
            try:
                if record is not None and record.status == ACTIVE and user in self.to_move(record):
                    found.append(record)
            except Exception:  # an unreadable game is named by the inbox, not by a digest
                log.warning("game %s: not in %s's digest: it does not load", listed.id, user)
        far = float("inf")
        return sorted(found, key=lambda r: (r.clocks.get(user) or [None, far])[1] or far)

    async def claim_digests(self, now: float) -> int:
        """The daily digests due at ``now``: each player's next one is set, and today's DM is
        owed (an outbox alert under one of their waiting games) if any game waits for them;
        claimed once whatever the number of schedulers. How many were owed."""
        owed = 0
        for user, prefs in (await self.store.digests_due(now, DIGESTS_AT_ONCE)).items():
            waiting = await self.digest_of(user, prefs)
            following = {**prefs, "digest_at": alerts.next_digest(prefs, now)}
            row = outbox.alert({"user": user, "mode": alerts.DIGEST}, now) if waiting else None
            anchor = waiting[0].id if waiting else None
            if await self.store.claim_digest(user, prefs["digest_at"], following, anchor, row):
                owed += row is not None
        return owed

    async def pings_now(self, game_id: str, users: list[str]) -> list[str]:
        """Of ``users`` a post in game ``game_id`` would ping, the ones to ping now: those
        whose alerts are thread pings and who are not in their quiet hours."""
        prefs = await self.store.player_prefs(users) if users else {}
        now = self._clock()
        return [
            u
            for u in users
            if alerts.mode_of(prefs.get(u, {}), game_id) == alerts.THREAD
            and alerts.quiet_until(prefs.get(u, {}), now) is None
        ]

    async def games_in_guild(
        self,
        guild: str,
        channel: str | None = None,
        *,
        limit: int,
        after: PageKey | None = None,
        before: PageKey | None = None,
    ) -> list[GameSummary]:
        """A page of the open games on a server, or in one channel (and its threads), the
        latest moved first, by a key (``Store.games_in_guild``)."""
        return await self.store.games_in_guild(
            guild, channel, limit=limit, after=after, before=before
        )

    async def latest_posts(
        self, records: Sequence[GameRecord | GameSummary], kind: str
    ) -> dict[str, tuple[str, str]]:
        """(channel id, message id) of the newest message of ``kind`` of each game."""
        return await self.store.latest_messages([r.id for r in records], kind)

    async def channel_games(self, guild: str, channel: str) -> list[GameRecord]:
        return await self.store.games_in_channel(guild, channel)

    async def resolve(
        self, guild: str, channel: str, user: str, ref: str | None = None
    ) -> GameRecord:
        """The game a command is about: the one named, else the open game of this channel where
        ``user`` holds a seat (at most one by construction)."""
        if ref:
            return await self.get(ref, guild)
        record = await self._seated(guild, channel, user)
        return await self._loading(record, record.id)

    async def _seated(self, guild: str, channel: str, user: str) -> GameRecord:
        """The open game of this channel where ``user`` holds a seat, as stored (a caller
        that changes it reads it again, through ``get``, under its lock)."""
        for record in await self.store.games_in_channel(guild, channel):
            seat = record.seat_of(user)
            if seat is not None and not seat.ai:
                return record
        raise ServiceError(
            _("You are not in a game in this channel — `/game list` shows the games here.")
        )

    async def watch(
        self, guild: str, channel: str, user: str, ref: str | None = None, *, in_thread: bool
    ) -> GameRecord:
        """The game a look-only command (board, status, history) is about, for anyone: the
        one named, else the game of this thread (``in_thread``: ``channel`` is a thread; over
        or not), else the caller's here, else the one open game of this channel."""
        if ref:
            return await self.get(ref, guild)
        records = await self.store.games_in_channel(guild, channel)
        threaded = [r for r in records if r.thread == channel]
        if not threaded and in_thread:
            over = await self.store.games_in_channel(guild, channel, (FINISHED, ABANDONED))
            threaded = [r for r in over if r.thread == channel][-1:]
        mine = [r for r in records if (s := r.seat_of(user)) is not None and not s.ai]
        found = threaded or mine or records
        if len(found) == 1 or threaded or mine:
            return await self._loading(found[0], found[0].id)
        if not found:
            raise ServiceError(_("No game is played here — `/game list` shows the games."))
        ids = ", ".join(f"`{r.id}`" for r in found[:10])
        raise ServiceError(
            _("Several games are played here ({ids}): name one with `game:`.").format(ids=ids)
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
        prefs: dict[str, Any] | None = None,
    ) -> GameRecord:
        """Open a lobby. ``prefs``: how the table runs apart from the rules (a thread or
        not), kept with the game."""
        game = self.games.get(game_id)
        if game is None:
            known = ", ".join(sorted(self.games))
            raise ServiceError(
                _("There is no game called `{id}` (games: {known}).").format(
                    id=game_id, known=known
                )
            )
        options = check_options(game, options)
        await self._ensure_free(guild, channel, host, opening=True)
        prefs = await self._table_prefs(guild, prefs or {})
        record = await self._open(
            game, guild, channel, host, [Seat(user=host, name=host_name)], options, prefs
        )
        log.info("game %s: new %s in channel %s by %s", record.id, game.id, channel, host)
        return record

    async def learn(
        self, game_id: str, guild: str, channel: str, user: str, name: str
    ) -> GameRecord:
        """`/game learn`: a teaching table for ``user`` against the course's AI seats, in a
        thread, with no clock (nothing times out), unrated, dealt from the course's seed;
        it starts as soon as it is posted (the learner is all it awaits)."""
        course = COURSES.get(game_id)
        game = self.games.get(game_id)
        if course is None or game is None:
            known = ", ".join(sorted(set(COURSES) & set(self.games)))
            raise ServiceError(
                _("There is no game called `{id}` (games: {known}).").format(
                    id=game_id, known=known
                )
            )
        await self._ensure_free(guild, channel, user, opening=True)
        chosen = {"clock": "off", "thread": True, "ai_level": course.level}
        prefs = await self._table_prefs(guild, chosen)
        prefs.update({TEACHING: True, TAUGHT: [], "awaits": [user]})
        seats = [Seat(user=user, name=name)]
        for number in range(1, course.ai_seats + 1):
            seats.append(Seat(user=ai_id(course.level, number), ai=True, name=f"AI {number}"))
        record = await self._open(
            game, guild, channel, user, seats, check_options(game, None), prefs
        )
        log.info("game %s: teaching table of %s for %s", record.id, game.id, user)
        return record

    async def _open(
        self,
        game: Game,
        guild: str,
        channel: str,
        host: str,
        seats: list[Seat],
        options: dict[str, Any],
        prefs: dict[str, Any],
    ) -> GameRecord:
        """Store a new lobby under a free id; it closes unstarted after its lobby hours."""
        now = self._clock()
        for _attempt in range(10):
            record = GameRecord(
                id=new_game_id(),
                game=game.id,
                guild=guild,
                channel=channel,
                host=host,
                status=LOBBY,
                options=dict(options),
                seats=list(seats),
                prefs=prefs,
                version=1,
                created_at=now,
                updated_at=now,
                # A lobby's deadline is when it closes if nobody has started it.
                deadline=now + prefs.get("lobby_hours", 24) * 3600,
            )
            if await self.store.get_game(record.id) is None:
                await self.store.create_game(record)
                return record
        raise ServiceError(_("Could not find a free game id; please try again."))

    async def _table_prefs(self, guild: str, chosen: dict[str, Any]) -> dict[str, Any]:
        """The host's choices for a new table over the server's settings of the moment (kept
        with the game: a later `/game config` does not change it)."""
        settings = await self.guild_settings(guild)
        clock = chosen.get("clock", settings.clock)
        if clock is not None and clock not in CLOCKS:
            raise ServiceError(_("There is no clock `{clock}`.").format(clock=str(clock)[:20]))
        level = chosen.get("ai_level", NORMAL)
        if level not in LEVELS:
            raise ServiceError(
                _("There is no AI level `{level}` ({levels}).").format(
                    level=str(level)[:20], levels=", ".join(LEVELS)
                )
            )
        prefs = {
            "thread": chosen.get("thread", settings.threads),
            "autostart": bool(chosen.get("autostart", False)),
            "lobby_hours": settings.lobby_hours,
            "ai_level": level,
            "hints": settings.hints,
        }
        if clock is not None:
            prefs["clock"] = clock
        return prefs

    async def join(
        self, guild: str, channel: str, user: str, name: str, ref: str | None = None
    ) -> GameRecord:
        record = await self._lobby_to_join(guild, channel, ref)
        if record.seat_of(user) is not None:
            raise ServiceError(_("You are already in game `{id}`.").format(id=record.id))
        await self._ensure_free(guild, channel, user)
        most = self.seat_range(record)[1]
        if len(record.seats) >= most:
            raise ServiceError(
                _("Game `{id}` is full ({n} players) — start another with `/game new`.").format(
                    id=record.id, n=most
                )
            )
        record.seats.append(Seat(user=user, name=name))
        return await self._save_lobby(record, f"{user} joined")

    async def add_ai(
        self, guild: str, channel: str, user: str, ref: str | None = None, level: str | None = None
    ) -> GameRecord:
        """The host fills a seat with an AI player of ``level`` (easy, normal or hard; by
        default the table's, chosen with `/game new ai_level:`)."""
        record = await self.resolve(guild, channel, user, ref)
        level = level or record.prefs.get("ai_level", NORMAL)
        self._require_lobby(record)
        self._require_host(record, user, N_("Only the host ({host}) can add an AI player."))
        most = self.seat_range(record)[1]
        if len(record.seats) >= most:
            raise ServiceError(_("Game `{id}` is full ({n} players).").format(id=record.id, n=most))
        number = 1 + sum(1 for seat in record.seats if is_ai(seat.user))
        try:
            user_id = ai_id(level, number)
        except ValueError as error:
            raise ServiceError(str(error)) from error
        record.seats.append(Seat(user=user_id, ai=True, name=f"AI {number}"))
        return await self._save_lobby(record, f"{user} added an AI")

    async def leave(
        self,
        guild: str,
        channel: str,
        user: str,
        ref: str | None = None,
        *,
        lobby_only: bool = False,
    ) -> MoveResult:
        """Leave a lobby (the host's role passes on), or hand an active seat to the AI.
        ``lobby_only``: the request came from a lobby's button, which never acts on the game
        that lobby became."""
        async with self._lock_for_ref(guild, channel, user, ref) as record:
            seat = record.seat_of(user)
            if seat is None or seat.ai:
                raise ServiceError(_("You are not in game `{id}`.").format(id=record.id))
            if lobby_only and record.status != LOBBY:
                raise ServiceError(
                    _(
                        "That lobby is closed: game `{id}` has started. To hand your seat to an "
                        "AI, use `/game leave`."
                    ).format(id=record.id)
                )
            return await self._unseat(record, seat, f"{user} left")

    async def _unseat(self, record: GameRecord, seat: Seat, what: str) -> MoveResult:
        """A player leaves (or is kicked from) a game, under its lock: out of a lobby (the
        host's role passes on), or their seat handed to the AI in a running game."""
        if record.status == LOBBY:
            record.seats.remove(seat)
            humans = [s for s in record.seats if not s.ai]
            if not humans:
                record.status = ABANDONED
            elif record.host == seat.user:
                record.host = humans[0].user
            return self._result(await self._save_lobby(record, what))
        if record.status != ACTIVE:
            raise ServiceError(_("Game `{id}` is over already.").format(id=record.id))
        seat.ai, seat.away = True, False
        seat.name = f"{seat.name} (AI)"
        if record.host == seat.user:
            humans = [s for s in record.seats if not s.ai]
            record.host = humans[0].user if humans else record.host
        if not any(not s.ai for s in record.seats):
            record.status = ABANDONED
        self._arm_timers(record)
        record = await self._save_lobby(record, f"{what}; the AI took the seat")
        result = self._result(record)
        await self._run_ai(record, result)
        return result

    async def kick(
        self,
        guild: str,
        channel: str,
        by: str,
        target: str,
        is_admin: bool,
        ref: str | None = None,
        *,
        in_thread: bool = False,
    ) -> MoveResult:
        """The host, or someone with Manage Server, takes ``target``'s seat from them: out of
        a lobby, or to the AI in a running game."""

        async def resolver() -> GameRecord:
            return await self.watch(guild, channel, by, ref, in_thread=in_thread)

        async with GameService._RecordLock(self, resolver) as record:
            if by != record.host and not is_admin:
                raise ServiceError(
                    _("Only the host or someone with Manage Server can kick a player.")
                )
            seat = record.seat_of(target)
            if seat is None or seat.ai:
                raise ServiceError(_("They are not playing in game `{id}`.").format(id=record.id))
            return await self._unseat(record, seat, f"{target} kicked by {by}")

    async def away(
        self,
        guild: str,
        channel: str,
        user: str,
        away: bool,
        ref: str | None = None,
        until: float | None = None,
    ) -> MoveResult:
        """`/game away`: the player's AI plays their seat until `/game away back:True` (``away``
        False), when the seat and its clock are theirs again. ``until``: a planned absence
        instead (issue 27): the seat stays theirs, the table sees them on vacation until
        then, and their clock spends their vacation days when it runs out."""
        async with self._lock_for_ref(guild, channel, user, ref) as record:
            seat = record.seat_of(user)
            if record.status != ACTIVE or seat is None:
                raise ServiceError(
                    _("Game `{id}` is not running: nothing to be away from.").format(id=record.id)
                )
            planned = dict(record.prefs.get(AWAY_UNTIL, {}))
            if until is not None:
                planned[user] = until
                record.prefs = {**record.prefs, AWAY_UNTIL: planned}
                self._soonest(record)
                record = await self._save_lobby(record, f"{user} away until {until:.0f}")
                return self._result(record)
            if seat.away == away and (away or user not in planned):
                raise ServiceError(
                    _("You are away already — `/game away back:True` when you are.")
                    if away
                    else _("You are not away — `/game away` hands your seat to its AI.")
                )
            others = [s for s in record.seats if s is not seat and not s.played_by_ai]
            if away and not others:
                raise ServiceError(
                    _(
                        "Nobody else plays here: the AI would play the game to its end. "
                        "`/game leave` or `/game abandon` instead."
                    )
                )
            seat.away = away
            back_early = not away and user in planned
            if back_early:
                del planned[user]
                record.prefs = {**record.prefs, AWAY_UNTIL: planned}
            # Back from a planned absence: a fresh clock, not the reminder held for its end.
            self._arm_timers(record, mover=user if back_early else None)
            record = await self._save_lobby(record, f"{user} {'away' if away else 'back'}")
            result = self._result(record)
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
            self._require_host(record, user, N_("Only the host ({host}) can change the options."))
            record.options = check_options(self.engine(record), {**record.options, **changes})
            return await self._save_lobby(record, f"options {changes}")

    async def start(
        self, guild: str, channel: str, user: str, ref: str | None = None
    ) -> MoveResult:
        async with self._lock_for_ref(guild, channel, user, ref) as record:
            self._require_lobby(record)
            self._require_host(record, user, N_("Only the host ({host}) can start it."))
            return await self._start(record)

    def is_full(self, record: GameRecord) -> bool:
        return len(record.seats) >= self.seat_range(record)[1]

    def ready_to_start(self, record: GameRecord) -> bool:
        """Whether a lobby starts by itself now: opened with autostart and full, or a
        rematch every player of the old game has sat down at again."""
        if record.status != LOBBY:
            return False
        awaited = record.prefs.get("awaits")
        if awaited:
            return all(record.seat_of(user) is not None for user in awaited)
        return bool(record.prefs.get("autostart")) and self.is_full(record)

    async def rematch(
        self, guild: str, user: str, name: str, game_id: str
    ) -> tuple[GameRecord, bool]:
        """A player of a finished game asks for a rematch (within ``REMATCH_WINDOW`` of its
        end): the first one opens its lobby in the same channel (AI seats kept, the same
        options and table, a new seed at the start), the others sit down at it. Returns the
        rematch's lobby and whether this request opened it."""
        async with self._lock(game_id):
            old = await self.get(game_id, guild)
            if old.status != FINISHED:
                raise ServiceError(_("Game `{id}` is not over: no rematch yet.").format(id=old.id))
            seat = old.seat_of(user)
            if seat is None or seat.ai:
                raise ServiceError(
                    _("Only the players of game `{id}` can ask for its rematch.").format(id=old.id)
                )
            if self._clock() > old.updated_at + REMATCH_WINDOW:
                raise ServiceError(
                    _(
                        "A rematch of game `{id}` could be asked for within {n} minutes of its "
                        "end — open a game with `/game new`."
                    ).format(id=old.id, n=int(REMATCH_WINDOW // 60))
                )
            found = [
                r
                for r in await self.store.games_in_channel(guild, old.channel)
                if r.prefs.get("rematch_of") == old.id
            ]
            if found:
                if found[0].status != LOBBY:
                    raise ServiceError(
                        _("The rematch of game `{id}` has started already.").format(id=old.id)
                    )
                return await self.join(guild, old.channel, user, name, found[0].id), False
            await self._ensure_free(guild, old.channel, user, opening=True)
            record = await self._open(
                self.engine(old),
                guild,
                old.channel,
                host=user,
                seats=[Seat(user=user, name=name), *(s for s in old.seats if s.ai)],
                options=old.options,
                prefs={
                    **old.prefs,
                    "rematch_of": old.id,
                    "awaits": [s.user for s in old.seats if not s.ai],
                },
            )
            log.info("game %s: rematch of %s opened by %s", record.id, old.id, user)
            return record, True

    async def autostart(self, game_id: str) -> MoveResult | None:
        """Start a lobby that starts by itself (``ready_to_start``) now that it may (None:
        it may not, or it started or closed meanwhile)."""
        async with self._lock(game_id):
            record = await self.get(game_id)
            if not self.ready_to_start(record):
                return None
            return await self._start(record)

    async def _start(self, record: GameRecord) -> MoveResult:
        """Deal the game of a lobby (under its lock) and let AI seats play their first turns."""
        await limits.check_start(self.store, await self.guild_settings(record.guild), record.guild)
        game = self.engine(record)
        players = [seat.user for seat in record.seats]
        # A teaching table is dealt so that every lesson comes up early (``bot.teaching``).
        seed = COURSES[game.id].seed if record.prefs.get(TEACHING) else self.seed_factory()
        try:
            state = game.start(players, seed, record.options)
        except IllegalAction as error:
            hint = (
                " " + _("Invite others to `/game join`, or add an AI.")
                if len(players) < game.max_players
                else ""
            )
            raise ServiceError(say(error.reason) + hint) from error
        record.seed = seed
        record.state = game.dump(state)
        record.to_move = game.to_move(state)
        record.status = ACTIVE
        record.remind_at = record.deadline = None  # the lobby's closing time is past concern
        self._arm_timers(record)
        first = self._owe(record, outbox.START, {})
        await self._owe_alerts(record, self.waiting_humans(record))
        record = await self._save_lobby(record, "started")
        result = self._result(record)
        result.owed.append(first.key)
        await self._run_ai(record, result)
        return result

    async def open_seated(
        self,
        game_id: str,
        game_type: str,
        guild: str,
        channel: str,
        seats: list[Seat],
        prefs: dict[str, Any],
    ) -> MoveResult | None:
        """A game whose players were chosen for it (a tournament's table), under an id the
        caller made, started at once. Safe to call again: a game that exists already is only
        started if it has not been (its start refused, say, at the server's cap); None when
        it runs already."""
        async with self._lock(game_id):
            record = await self.store.get_game(game_id)
            if record is None:
                now = self._clock()
                record = GameRecord(
                    id=game_id,
                    game=game_type,
                    guild=guild,
                    channel=channel,
                    host=seats[0].user,
                    status=LOBBY,
                    options={},
                    seats=list(seats),
                    prefs=await self._table_prefs(guild, prefs),
                    version=1,
                    created_at=now,
                    updated_at=now,
                )
                record.prefs.update({k: v for k, v in prefs.items() if k not in record.prefs})
                await self.store.create_game(record)
                log.info("game %s: %s seated by %s", game_id, game_type, prefs.get("tournament"))
            if record.status != LOBBY:
                return None
            return await self._start(record)

    async def expire_lobby(self, game_id: str, now: float) -> GameRecord | None:
        """Close a lobby nobody started by its deadline (None: it started, closed or was
        given more time meanwhile)."""
        async with self._lock(game_id):
            record = await self.get(game_id)
            if record.status != LOBBY or record.deadline is None or record.deadline > now:
                return None
            record.status = ABANDONED
            record.deadline = None
            return await self._save_lobby(record, "closed: nobody started it")

    async def expired_lobbies(self, now: float, shards: Shards | None = None) -> list[GameRecord]:
        return await self.store.expired_lobbies(now, shards)

    async def abandon(
        self, guild: str, channel: str, user: str, is_admin: bool, ref: str | None = None
    ) -> GameRecord:
        async with self._lock_for_ref(guild, channel, user, ref) as record:
            if record.status not in OPEN_STATUSES:
                raise ServiceError(_("Game `{id}` is over already.").format(id=record.id))
            if user != record.host and not is_admin:
                raise ServiceError(
                    _("Only the host or someone with Manage Server can abandon a game.")
                )
            record.status = ABANDONED
            record.remind_at = record.deadline = None
            return await self._save_lobby(record, f"abandoned by {user}")

    # -- turns ---------------------------------------------------------------------------

    async def hand_over(self, result: MoveResult) -> None:
        """A front door that makes no posts of its own (the web table) hands what its change
        owes the table to the delivery workers at once: the rows lose this process's first go
        (``outbox.FRONT_LEASE``), and a change marked ``owed`` wakes a worker, in this process
        or, through the PostgreSQL bridge, in the bot that serves the game."""
        keys = [*result.owed, *([result.final] if result.final is not None else [])]
        if not keys:
            return
        now = self._clock()
        for key in keys:
            await self.store.release_owed(key, self.holder, now)
        self.changes.publish(result.record.id, result.record.version, owed=True)

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
                if expected_version is not None and turn_version(record) != expected_version:
                    raise StaleRequest(record)
                if record.status != ACTIVE:
                    raise ServiceError(self._not_active_message(record))
                result = self._result(record)
                taught = self._taught(record, user)
                step = self._apply(record, user, action)
                if taught:
                    record.prefs = {**record.prefs, TAUGHT: taught}
                try:
                    await self._commit(record, step, result)
                except VersionConflict:
                    # Another process moved this game: re-read and re-check on the new state.
                    record = await self.get(record.id)
                    continue
                await self._run_ai(record, result)
                return result
            raise ServiceError(_("The game was busy; please try that again."))

    def _taught(self, record: GameRecord, user: str) -> list[str]:
        """At a teaching table, the lessons taught once the learner makes the decision their
        panel shows now (those lessons among them; saved with the move); [] elsewhere."""
        if not record.prefs.get(TEACHING) or record.status != ACTIVE:
            return []
        read = self.read(record)
        done = list(record.prefs.get(TAUGHT, []))
        lessons = due(COURSES[record.game], read.view(user), read.legal(user), done)
        return [*done, *(lesson.key for lesson in lessons)] if lessons else []

    async def mistake(self, before: ReadModel, user: str, action: dict[str, Any]) -> str | None:
        """At a teaching table, the private note on the learner's move ``action``, chosen
        from ``before`` (the game as they saw it), if it lost clearly more than the best move:
        judged in the AI's workers (``think``), at most once a turn; None otherwise."""
        record = before.record
        if not record.prefs.get(TEACHING) or before.state is None:
            return None
        legal = before.legal(user)
        turn = before.engine.turn(before.state)
        if action not in legal or len(legal) < 2 or self._noted.get(record.id) == turn:
            return None
        seed = seed_of(record.seed or "", before.version, user)
        found = await self.think(judge, record.game, before.view(user), legal, action, seed)
        if found is None:
            return None
        self._noted[record.id] = turn
        self._noted.move_to_end(record.id)
        while len(self._noted) > PLAYED_KEPT:
            self._noted.popitem(last=False)
        return note(before.engine, before.state, user, action, found, before.names)

    def refusal(self, record: GameRecord, user: str, action: dict[str, Any]) -> str | None:
        """Why the rules would refuse ``action`` by ``user`` now (``ReadModel.refusal``)."""
        return self.read(record).refusal(user, action)

    def turn_message(self, record: GameRecord) -> str:
        return self.read(record).turn_message()

    def _apply(self, record: GameRecord, user: str, action: dict[str, Any]) -> Step:
        """Play ``action`` on the record's state (in memory; ``_commit`` persists it)."""
        game = self.engine(record)
        state = self.read(record).state
        if record.seat_of(user) is None:
            raise ServiceError(_("You are not playing in game `{id}`.").format(id=record.id))
        standing = user not in game.to_move(state) and game.is_standing_order(action)
        if user not in game.to_move(state) and not standing:
            raise ServiceError(self.turn_message(record))
        try:
            new_state, events = game.play(state, user, action)
        except IllegalAction as error:
            raise ServiceError(say(error.reason)) from error
        record.state = game.dump(new_state)
        record.to_move = game.to_move(new_state)
        self._remember(record, new_state)
        if game.outcome(new_state) is not None:
            record.status = FINISHED
        return Step(user, action, events, standing, game.turn(new_state) != game.turn(state))

    async def _commit(self, record: GameRecord, step: Step, result: MoveResult) -> bool:
        """Persist one step (CAS on the version) and keep the journal of the turn in progress:
        while the same player alone still owes a decision the step waits in the journal;
        once the turn is over, the journal and the step are told and the journal is emptied.
        The game says when a turn is over (its turn number moves on, ``Game.turn``), so a turn
        may end even when the same player moves again (everyone else has passed, say). Returns
        whether a turn ended.

        A standing order is counted in the journal, never told, so the turn's version
        (``turn_version``) stays: the mover's open panel remains valid."""
        expected, journal = record.version, record.journal
        entry = {"player": step.player, "action": step.action, "events": step.events}
        turn_over = record.status != ACTIVE or step.ends_turn
        timers = record.remind_at, record.deadline, record.clocks
        if step.standing:  # the turn in progress, its steps and its clock go on untouched
            turn_over = False
            record.journal = [*journal, {"player": step.player, "standing": True}]
        else:
            record.journal = [] if turn_over else [*journal, entry]
            self._arm_timers(record, mover=step.player)
        record.version = expected + 1
        record.updated_at = self._clock()
        told = [*turn_steps(journal), entry] if turn_over else []
        over = record.status != ACTIVE
        owed = self._owe(record, outbox.TURN, {"steps": told, "over": over}) if turn_over else None
        final = self._owe(record, outbox.FINAL, {}) if over else None
        if turn_over and not over:  # the board pings: each player's own alert goes with it
            kept = timers[2]  # a seat still on the clock of an earlier decision: told then
            fresh = [p for p in self.waiting_humans(record) if p == step.player or p not in kept]
            await self._owe_alerts(record, fresh)
        try:
            await self.store.commit_move(record, expected, step.player, step.action)
        except VersionConflict:
            record.version, record.journal, record.owed = expected, journal, []
            record.remind_at, record.deadline, record.clocks = timers
            raise
        if owed is not None:
            result.owed.append(owed.key)
        if final is not None:
            result.final = final.key
        self.changes.publish(record.id, record.version)
        log.info(
            "game %s v%d: %s %s", record.id, record.version, step.player, step.action.get("type")
        )
        if record.status == FINISHED:  # after the commit: a failure here cannot lose the move
            result.results = await self.results.record(record)
            await self._tell(record, [])
        result.steps.append(step)
        result.played = self._known(record)
        if turn_over:
            result.told.extend(Step(e["player"], e["action"], e["events"]) for e in told[:-1])
            result.told.append(step)
        return turn_over

    def _owe(self, record: GameRecord, kind: str, payload: dict[str, Any]) -> Owed:
        """Add a post the change about to be saved owes the table (``bot.outbox``): the store
        writes it in the change's transaction; this process's front door has the first go."""
        owed = outbox.owed(kind, payload, self.holder, self._clock())
        record.owed.append(owed)
        return owed

    async def _run_ai(self, record: GameRecord, result: MoveResult) -> None:
        """Let AI seats decide until a human owes a decision or the game ends."""
        ai_seats = {seat.user for seat in record.seats if seat.played_by_ai}
        game = self.engine(record)
        for _attempt in range(MAX_AI_STEPS):
            if record.status != ACTIVE:
                return
            state = self.read(record).state
            waiting = [p for p in game.to_move(state) if p in ai_seats]
            if not waiting:
                return
            player = waiting[0]
            action = await self._decide(record, state, player, level_of(player))
            await self._commit(record, self._apply(record, player, action), result)
        raise ServiceError(
            _("Game `{id}`: the AI seats did not finish their turns.").format(id=record.id)
        )

    async def _decide(self, record: GameRecord, state: Any, player: str, level: str) -> dict:
        """An AI decision for ``player`` from their seat's view and legal moves only, awaited
        off the event loop; seeded by the game and its version, so it is repeatable."""
        game = self.engine(record)
        view, legal = game.view(state, player), game.legal(state, player)
        seed = f"{record.id}:{record.version}:{player}"
        if level == HARD and keeps_memory(game.id):
            # hard reads what the seat saw of the game (bot.ai.memory): rebuilt from the log.
            rows = await self.store.actions(record.id)
            memory = await asyncio.to_thread(recalled, game, record, rows, player)
            return await self.decide(game.id, level, view, legal, seed, self.ai_budget, memory)
        return await self.decide(game.id, level, view, legal, seed, self.ai_budget)

    # -- time: reminders and timeouts -----------------------------------------------------

    def waiting_humans(self, record: GameRecord) -> list[str]:
        return self.read(record).waiting_humans

    def _arm_timers(self, record: GameRecord, mover: str | None = None) -> None:
        """Run one clock for each human who owes a decision: a seat that starts to owe one,
        or whose player (``mover``, or their AI) just acted, gets a fresh reminder and
        deadline; a seat still waiting keeps its own, so at a decision several owe at once
        each player has their own time. The game's ``remind_at``/``deadline`` are the
        soonest of them."""
        waiting = self.waiting_humans(record) if record.status == ACTIVE else []
        now = self._clock()
        remind_after, timeout_after = self.clock_of(record)
        kept = self._legacy_clocks(record)
        fresh = [now + remind_after if remind_after else None]
        fresh.append(now + timeout_after if timeout_after else None)
        clocks = {p: kept[p] if p in kept and p != mover else list(fresh) for p in waiting}
        record.clocks = {p: c for p, c in clocks.items() if c != [None, None]}
        self._soonest(record)

    def _soonest(self, record: GameRecord) -> None:
        """The game's ``remind_at``/``deadline`` from its seats' clocks, after holding back the
        reminder of each seat on a planned absence (`/game away until:`) to the day it ends:
        a player who said they are away is not pinged meanwhile, and no reminder then counts
        toward the host's stall message. Their deadline runs on (it spends vacation days)."""
        now = self._clock()
        for player, until in record.prefs.get(AWAY_UNTIL, {}).items():
            clock = record.clocks.get(player)
            if clock and clock[0] is not None and clock[0] < until and until > now:
                clock[0] = until
        reminders = [c[0] for c in record.clocks.values() if c[0] is not None]
        deadlines = [c[1] for c in record.clocks.values() if c[1] is not None]
        record.remind_at = min(reminders, default=None)
        record.deadline = min(deadlines, default=None)

    def clock_of(self, record: GameRecord) -> tuple[float | None, float | None]:
        """(seconds to a reminder, seconds to the timeout) for a decision in this game: its
        own clock if the host or the server chose one, else the bot's."""
        clock = record.prefs.get("clock")
        if clock is None:
            return self.remind_after, self.timeout_after
        return clock_seconds(clock)

    async def due(self, now: float, shards: Shards | None = None) -> list[GameRecord]:
        """Games whose reminder or deadline has come (of the guilds on ``shards``: a sharded
        process serves its own, so several processes never remind a table twice)."""
        return await self.store.due_games(now, shards)

    async def remind(self, record: GameRecord, now: float) -> list[str]:
        """Claim the reminders due at ``now`` (``claim_reminders``); who to remind."""
        return (await self.claim_reminders(record, now))[0]

    async def claim_reminders(self, record: GameRecord, now: float) -> tuple[list[str], str | None]:
        """Claim the reminders of one game due at ``now``: who to remind and the key of the
        reminder's outbox row (nobody and None if the game moved since ``record`` was read,
        or another scheduler claimed them first). The version is untouched, so the board's
        buttons stay valid."""
        clock = Clock(
            record.id,
            record.game,
            record.guild,
            record.channel,
            record.thread,
            record.version,
            record.remind_at,
            record.deadline,
            self._legacy_clocks(record),
        )
        for _clock, users, key in await self.claim_due_reminders([clock], now):
            return users, key
        return [], None

    async def claim_due_reminders(
        self, clocks: list[Clock], now: float
    ) -> list[tuple[Clock, list[str], str]]:
        """Claim the reminders due at ``now`` of these games (their clocks, as the store's
        ``due_clocks`` gives them), in one transaction; for each game won: who to remind and
        the key of the reminder's outbox row. A claim compares the reminder time read, so of
        two schedulers on one database only one reminds each table. Pure bookkeeping between
        two awaits: no state is loaded, and the event loop is given back every
        ``YIELD_EVERY`` games."""
        claims, due_of = [], {}
        reminded = {p for c in clocks for p, t in c.clocks.items() if t[0] is not None}
        quiet = await self._quiet_ends(sorted(reminded), now)
        for n, clock in enumerate(clocks):
            if n % YIELD_EVERY == YIELD_EVERY - 1:
                await asyncio.sleep(0)
            mine = {p: list(c) for p, c in clock.clocks.items()}
            due = [p for p, c in mine.items() if c[0] is not None and c[0] <= now]
            if clock.remind_at is None or not due:
                continue
            stalled = []
            for player in due:
                entry = mine[player]
                if player in quiet:  # in their quiet hours: reminded when they end, not counted
                    entry[0] = quiet[player]
                    continue
                entry.extend([None] * (REMINDED + 1 - len(entry)))
                entry[0] = None
                entry[REMINDED] = count = int(entry[REMINDED] or 0) + 1
                if count == STALL_AFTER:  # once: the host's message with the choices
                    payload = {"user": player}
                    stalled.append(outbox.owed(outbox.STALL, payload, None, now))
            due = [p for p in due if p not in quiet]
            remind_at = min((c[0] for c in mine.values() if c[0] is not None), default=None)
            deadline = min((c[1] for c in mine.values() if c[1] is not None), default=None)
            if not due:  # every reminder waits for quiet hours to end: new times only
                claims.append(
                    ReminderClaim(
                        clock.id, clock.version, clock.remind_at, remind_at, deadline, mine, None
                    )
                )
                continue
            owed = outbox.owed(outbox.REMINDER, {"users": due}, self.holder, now)
            claims.append(
                ReminderClaim(
                    clock.id,
                    clock.version,
                    clock.remind_at,
                    remind_at,
                    deadline,
                    mine,
                    owed,
                    tuple(stalled),
                )
            )
            due_of[clock.id] = (clock, due)
        won = await self.store.claim_reminders(claims) if claims else []
        return [
            (*due_of[claim.game_id], claim.owed.key)
            for claim, ok in zip(claims, won, strict=True)
            if ok and claim.owed is not None
        ]

    async def quiet_seats(self, record: GameRecord) -> dict[str, float]:
        """The players of a game in their quiet hours now, and when these end (their pings,
        DMs and reminders wait until then; their clocks run)."""
        humans = [s.user for s in record.seats if not s.played_by_ai]
        return await self._quiet_ends(humans, self._clock())

    async def _quiet_ends(self, users: list[str], now: float) -> dict[str, float]:
        """When the quiet hours end of those of ``users`` in them at ``now``."""
        if not users:
            return {}
        prefs = await self.store.player_prefs(users)
        ends = {u: alerts.quiet_until(p, now) for u, p in prefs.items()}
        return {u: end for u, end in ends.items() if end is not None}

    def _legacy_clocks(self, record: GameRecord) -> dict[str, list[float | None]]:
        """The seats' clocks; one game clock (stored before seats had their own) is every
        waiting human's."""
        if record.clocks or (record.remind_at is None and record.deadline is None):
            return {p: list(c) for p, c in record.clocks.items()}
        return {p: [record.remind_at, record.deadline] for p in self.waiting_humans(record)}

    async def time_out(self, game_id: str, now: float) -> MoveResult:
        """Deadlines passed: each human whose own deadline has come has the turn they owe
        finished by the AI, which then hands back (their seat stays theirs for their next
        turn, even one that follows at once), then AI seats play on as usual. Others who
        owe a decision keep their time."""
        async with self._lock(game_id):
            record = await self.get(game_id)
            result = self._result(record)
            if record.status != ACTIVE:
                return result
            clocks = self._legacy_clocks(record)
            late = [p for p, c in clocks.items() if c[1] is not None and c[1] <= now]
            try:
                await self._stand_in(record, late, now, result)
                await self._run_ai(record, result)
            except VersionConflict:
                # Another process (a second bot on the database) timed the game out first,
                # or a player moved: losing this race is normal, and the game is theirs.
                log.info("game %s: changed by another process during its timeout", record.id)
                if not result.steps:
                    result.timed_out.clear()
                return result
            log.info("game %s: timed out %s", record.id, result.timed_out)
            if result.timed_out:
                await self._tell(record, result.timed_out)
            return result

    async def _stand_in(
        self, record: GameRecord, late: list[str], now: float, result: MoveResult
    ) -> None:
        """Each of the ``late`` humans who owes a decision spends a vacation day or has the
        turn they owe finished by their AI."""
        game = self.engine(record)
        for player in [p for p in self.waiting_humans(record) if p in late]:
            if await self._spend_vacation_day(record, player, now):
                continue
            result.timed_out.append(player)
            for _attempt in range(MAX_AI_STEPS):
                state = self.read(record).state
                if record.status != ACTIVE or player not in game.to_move(state):
                    break
                action = await self._decide(record, state, player, STAND_IN)
                if await self._commit(record, self._apply(record, player, action), result):
                    break

    async def decide_on_time(self, game_id: str) -> MoveResult:
        """A tournament round's deadline has come and this game is not over: the clock rules
        decide it. Who owes a decision now timed out; every decision left to the end is the
        AI's, for every seat."""
        async with self._lock(game_id):
            record = await self.get(game_id)
            result = self._result(record)
            result.timed_out = self.waiting_humans(record) if record.status == ACTIVE else []
            for _attempt in range(MAX_AI_STEPS):
                if record.status != ACTIVE:
                    break
                waiting = self.waiting_humans(record)
                if not waiting:
                    await self._run_ai(record, result)
                    continue
                player = waiting[0]
                state = self.read(record).state
                action = await self._decide(record, state, player, STAND_IN)
                await self._commit(record, self._apply(record, player, action), result)
            log.info("game %s: decided on time, %s timed out", record.id, result.timed_out)
            if result.timed_out:
                await self._tell(record, result.timed_out)
            return result

    async def _tell(self, record: GameRecord, timed_out: list[str]) -> None:
        """Tell the listeners of a finished game or a timeout; one that fails is logged (the
        change is saved, and the tournament reads the game again at its next tick)."""
        for listener in self.listeners:
            try:
                await listener(record, timed_out)
            except Exception:
                log.exception("game %s: a listener failed", record.id)

    async def _spend_vacation_day(self, record: GameRecord, player: str, now: float) -> bool:
        """A late player's clock spends one of their vacation days on this server, if they
        have one left this year and the game's clock is a day or longer (vacation days are
        for games played over days; a host who chose an hour's clock keeps that pace): their
        deadline moves a day on (a reminder at half of it), and the table is told who is on
        vacation until when (an outbox row, written with it). False: none left (or the game
        moved), so their AI decides as before."""
        timeout = self.clock_of(record)[1]
        if timeout is None or timeout < DAY:  # a game on a shorter clock keeps its pace
            return False
        allowance = (await self.guild_settings(record.guild)).vacation_days
        if allowance <= 0:
            return False
        clocks = self._legacy_clocks(record)
        until = (clocks[player][1] or now) + DAY
        # The reminders in a row go on counting (``REMINDED``): a stall is told across days.
        clocks[player] = [until - DAY / 2, until, until, *clocks[player][REMINDED:]]
        changed = replace(record, clocks=clocks, owed=[])
        self._soonest(changed)
        year = time.gmtime(now).tm_year
        owed = outbox.owed(outbox.VACATION, {"user": player, "until": until}, None, now)
        left = await self.store.spend_vacation_day(player, year, allowance, changed, owed)
        if left is None:
            return False
        record.clocks, record.remind_at, record.deadline = (
            clocks,
            changed.remind_at,
            changed.deadline,
        )
        log.info("game %s: %s spent a vacation day (%d left)", record.id, player, left)
        return True

    async def extend_clock(
        self, guild: str, game_id: str, by: str, target: str, is_admin: bool
    ) -> tuple[GameRecord, float]:
        """The host's choice at a stalled table (or a server manager's): ``target``'s clock
        runs a day longer, no vacation day spent; the version stays (no button goes stale).
        Returns the game and the new deadline."""
        async with self._lock(game_id):
            record = await self.get(game_id, guild)
            if by != record.host and not is_admin:
                raise ServiceError(
                    _("Only the host or someone with Manage Server can extend a clock.")
                )
            clocks = self._legacy_clocks(record)
            if record.status != ACTIVE or target not in clocks or clocks[target][1] is None:
                raise ServiceError(
                    _("That seat has no clock running in game `{id}`.").format(id=record.id)
                )
            until = max(clocks[target][1] or 0.0, self._clock()) + DAY
            clocks[target] = [until - DAY / 2, until, *clocks[target][2:]]
            record.clocks = clocks
            self._soonest(record)
            moved = not await self.store.set_timers(
                record.id, record.version, record.remind_at, record.deadline, clocks
            )
            if moved:
                raise ServiceError(_("The game was busy; please try that again."))
            return record, until

    async def vacation_days_left(self, guild: str, player: str, now: float) -> int:
        """The vacation days ``player`` has left this year on ``guild``."""
        allowance = (await self.guild_settings(guild)).vacation_days
        spent = await self.store.vacation_days_spent(guild, player, time.gmtime(now).tm_year)
        return max(0, allowance - spent)

    # -- undo (bot.undo) -----------------------------------------------------------------

    async def forget(self, user: str) -> tuple[Forgotten, list[MoveResult]]:
        """`/game forget-me`, `python -m bot forget`: the player becomes a former player in
        every game they sat in and their results and ratings go (``bot.store.forget``); then
        their seats in running games pass to the AI and they leave the lobbies. Renamed first,
        so nothing logged afterwards names them. Returns what changed, and the moves made."""
        forgotten = await self.store.forget_player(user)
        await self.store.forget_in_tournaments(user)  # their entries, standings and tables
        await self.store.forget_in_seasons(user)  # their lines in the past seasons' tables
        await self.store.forget_in_titles(user)  # their titles, and those they gave
        moved = []
        for game_id, former in forgotten.seats:
            async with self._lock(game_id):
                record = await self.store.get_game(game_id)
                seat = None if record is None else record.seat_of(former)
                if record is None or record.status not in OPEN_STATUSES or seat is None:
                    continue
                if not seat.ai:
                    moved.append(await self._unseat(record, seat, "a former player's seat"))
        log.info(
            "a player was forgotten: %d games, %d results, %d ratings",
            len(forgotten.seats),
            forgotten.results,
            forgotten.ratings,
        )
        return forgotten, moved

    async def propose_undo(
        self, guild: str, channel: str, user: str, ref: str | None = None
    ) -> undo.Outcome:
        """`/game undo`: ``user`` proposes to take back their last decision (``bot.undo``),
        under the game's lock; applied at once when nobody else must accept."""
        async with self._lock_for_ref(guild, channel, user, ref) as record:
            return await undo.propose(self, record, user, self._clock())

    async def answer_undo(
        self,
        guild: str,
        game_id: str,
        user: str,
        accept: bool,
        version: int,
        number: int | None,
    ) -> undo.Outcome:
        """A click on an undo proposal's Accept or Decline (``bot.undo.answer``), under the
        game's lock; the last acceptance applies it in one compare-and-swap."""
        async with self._lock(game_id):
            record = await self.get(game_id, guild)
            return await undo.answer(self, record, user, accept, version, number, self._clock())

    async def write_undo(
        self, record: GameRecord, expected: int, request: UndoRequest, now: float
    ) -> list[UndoneAction]:
        """bot.undo's write (``undo.Table``): the clocks of whoever owes a decision in the
        replayed state armed as after the proposer's move, then one compare-and-swap; the web
        table's pages are told."""
        self._arm_timers(record, mover=request.requested_by)
        record.to_move = self.read(record).to_move
        audit = await self.store.undo(record, expected, request.keep, request.requested_by, now)
        self.changes.publish(record.id, record.version)  # the web table's pages go back too
        return audit

    async def play_on(self, record: GameRecord) -> MoveResult:
        """After an undo (``undo.Table``): the AI seats play on, as after a move."""
        result = self._result(record)
        await self._run_ai(record, result)
        return result

    # -- helpers -------------------------------------------------------------------------

    class _RecordLock:
        """Resolve a game, then hold its in-process lock while the caller changes it.

        ``game_id``: the game is named (a button, ``game:``), so its lock is taken first and
        it is read once, under the lock, instead of once to find it and again under the lock.
        """

        def __init__(self, service: GameService, resolver: Any, game_id: str | None = None) -> None:
            self._service = service
            self._resolver = resolver
            self._game_id = game_id
            self._lock: asyncio.Lock | None = None

        async def __aenter__(self) -> GameRecord:
            if self._game_id is not None:
                self._lock = self._service._lock(self._game_id)
                await self._lock.acquire()
                try:
                    return await self._resolver()
                except BaseException:
                    self._lock.release()
                    raise
            record = await self._resolver()
            self._lock = self._service._lock(record.id)
            await self._lock.acquire()
            # Re-read under the lock: the record may have changed while we waited.
            return await self._service.get(record.id)

        async def __aexit__(self, *exc_info: object) -> None:
            assert self._lock is not None
            self._lock.release()

    def _lock(self, game_id: str) -> asyncio.Lock:
        """The game's lock, shared by everyone changing it now; kept only while referenced."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _result(self, record: GameRecord) -> MoveResult:
        return MoveResult(record, self.engine(record), self.pictures)

    def _lock_for_ref(
        self, guild: str, channel: str, user: str, ref: str | None
    ) -> GameService._RecordLock:
        named = ref.strip().lower() if ref else None  # the id ``get`` looks up

        async def find() -> GameRecord:
            if ref:
                return await self.get(ref, guild)
            return await self._seated(guild, channel, user)  # ``get`` reads it under the lock

        return GameService._RecordLock(self, find, named)

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
                _("No game is waiting for players in this channel — open one with `/game new`.")
            )
        if len(lobbies) > 1:  # a few ids, never a list that grows past a message
            ids = ", ".join(f"`{r.id}`" for r in lobbies[:5]) + (", …" if len(lobbies) > 5 else "")
            raise ServiceError(
                _("Several games are waiting here ({ids}): `/game join game:<id>`.").format(ids=ids)
            )
        return lobbies[0]

    async def _ensure_free(
        self, guild: str, channel: str, user: str, *, opening: bool = False
    ) -> None:
        """At most one open game per player per channel, so commands resolve without an id;
        and the caps of ``bot.limits`` on seats, and on lobbies when ``opening`` one."""
        records = await self.store.games_in_channel(guild, channel)
        for record in records:
            seat = record.seat_of(user)
            if seat is not None and not seat.ai:
                raise ServiceError(
                    _(
                        "You are already in game `{id}` in this channel — `/game leave` it "
                        "first, or play it out."
                    ).format(id=record.id)
                )
        if opening:
            await limits.check_new_lobby(self.store, guild, records, user)
        await limits.check_seat(self.store, await self.guild_settings(guild), guild, user)

    async def _save_lobby(self, record: GameRecord, what: str) -> GameRecord:
        expected = record.version
        record.version = expected + 1
        record.updated_at = self._clock()
        try:
            await self.store.save_lobby(record, expected)
        except VersionConflict as error:
            record.owed = []
            raise ServiceError("The game changed meanwhile; please try again.") from error
        self.changes.publish(record.id, record.version)
        log.info("game %s v%d: %s", record.id, record.version, what)
        return record

    def _require_lobby(self, record: GameRecord) -> None:
        if record.status != LOBBY:
            raise ServiceError(
                _("Game `{id}` has already started — open a new one with `/game new`.").format(
                    id=record.id
                )
                if record.status == ACTIVE
                else self._not_active_message(record)
            )

    def _require_host(self, record: GameRecord, user: str, refusal: str) -> None:
        """``refusal``: the sentence (an ``N_`` message id with a ``{host}`` field) for anyone
        but the host."""
        if user != record.host:
            host = self.names(record).get(record.host, _("the host"))
            raise ServiceError(_(refusal).format(host=host))

    def _not_active_message(self, record: GameRecord) -> str:
        return not_active_message(record)
