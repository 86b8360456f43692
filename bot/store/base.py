"""The store interface: what the service needs from persistence, whatever the backend.

SQLite (``bot.store.sqlite``) is the embedded default; a PostgreSQL implementation of the same
interface is the path to several bot processes (docs/architecture.md, "The store"). Nothing
above the store may assume SQLite.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.store.damage import Damage
    from bot.store.forget import Forgotten

from bot.seasons.model import Season
from bot.store.titles_sql import KeptTitle
from bot.store.web_tables import PlacedTable, WebTable
from bot.tournaments.model import Tournament

LOBBY, ACTIVE, FINISHED, ABANDONED = "lobby", "active", "finished", "abandoned"
OPEN_STATUSES = (LOBBY, ACTIVE)


class StoreError(Exception):
    """The store cannot do what was asked (unwritable path, unknown id); the message says why."""


class StoreUnavailable(StoreError):
    """The store cannot be reached or written just now (the server is down, the disk is full,
    an I/O error): nothing was saved, and trying again later may work. Not a bug: the player
    is told so in those words (``bot.store.outage``)."""


class VersionConflict(StoreError):
    """A compare-and-swap lost: the game changed since it was read. Re-read and retry."""


class UnreadableLog(StoreError):
    """An entry of a game's action log does not decode: the game's history cannot be replayed
    (the game itself plays on from its snapshot)."""


class DamagedDatabase(StoreError):
    """The database file itself is damaged; the message names it and says to restore a backup."""


class ReadOnlyDatabase(StoreError):
    """The bot may read the database file but not write it (restored as another user, say):
    the message is one sentence naming the file, its owner and the bot's user."""


@dataclass
class Seat:
    """One seat at a table: a Discord user id (as a string) or an AI id such as ``ai:1``."""

    user: str
    ai: bool = False
    name: str = ""
    #: The player is away (`/game away`): their AI plays the seat until they are back.
    away: bool = False

    @property
    def played_by_ai(self) -> bool:
        return self.ai or self.away


@dataclass
class GameRecord:
    """One game as stored: the lobby facts, the latest state snapshot and its version.

    ``version`` is bumped by every change (lobby or move); buttons carry it in their custom id
    so a click on an out-of-date message is recognised. ``state`` is the engine's ``dump()``.
    ``journal`` holds the steps of the turn in progress that no public post has told yet (a
    turn can span several decisions and hours), so the post at the turn's end tells it whole.
    """

    id: str
    game: str
    guild: str
    channel: str
    host: str
    status: str = LOBBY
    seed: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)
    state: dict[str, Any] | None = None
    version: int = 0
    thread: str | None = None
    journal: list[dict[str, Any]] = field(default_factory=list)
    #: When to remind the players who owe a decision, and when their AI decides for them:
    #: the soonest of the seats' own clocks (``clocks``: player -> [remind_at, deadline]).
    remind_at: float | None = None
    deadline: float | None = None
    clocks: dict[str, list[float | None]] = field(default_factory=dict)
    created_at: float = 0.0
    updated_at: float = 0.0
    #: How the table runs, apart from the rules' options (which the engine checks): whether
    #: the game gets a thread of its own, and the like. Chosen at ``/game new``.
    prefs: dict[str, Any] = field(default_factory=dict)
    #: When the bot archives the game's thread (an hour after the end); None: nothing to do.
    archive_at: float | None = None
    #: The seats ``state`` waits for (the engine's ``to_move``) while the game is active, kept
    #: beside the snapshot by every save so a listing shows whose move it is without loading
    #: the state (``GameSummary``). The service sets it with every state it saves; a game not
    #: active is stored with none.
    to_move: list[str] = field(default_factory=list)
    #: The public posts the change being saved owes the table (``bot.outbox``): the store
    #: writes them to the outbox in the same transaction as the change, then empties this.
    owed: list[Owed] = field(default_factory=list, compare=False, repr=False)

    @property
    def home(self) -> str:
        """Where the game's posts go: its thread once it has one, else its channel."""
        return self.thread or self.channel

    def seat_of(self, user: str) -> Seat | None:
        return next((seat for seat in self.seats if seat.user == user), None)


@dataclass
class GameSummary:
    """What a listing shows of a game (`/game list`, `/game mine`, a game's autocomplete),
    read without its state snapshot and journal, the bulk of a row: its place, status, seats,
    clocks and whose move it is (``GameRecord``'s fields of the same names). Not a record to
    play or save: ``Store.get_game`` reads one whole."""

    id: str
    game: str
    guild: str
    channel: str
    thread: str | None
    host: str
    status: str
    options: dict[str, Any]
    version: int
    created_at: float
    updated_at: float
    remind_at: float | None
    deadline: float | None
    clocks: dict[str, list[float | None]]
    to_move: list[str]
    seats: list[Seat] = field(default_factory=list)

    @property
    def home(self) -> str:
        return self.thread or self.channel


@dataclass(frozen=True)
class Owed:
    """One public post a change owes the table, written with the change (the outbox): what
    kind of post (``bot.outbox`` names them) and what it needs to be made again later.
    ``holder`` (a process) has the first go at sending it until ``lease_until``; after that
    any delivery worker may claim it."""

    key: str
    kind: str
    payload: dict[str, Any]
    holder: str | None = None
    lease_until: float = 0.0


@dataclass(frozen=True)
class OutboxRow:
    """One pending row of the outbox as claimed by a delivery worker."""

    seq: int
    key: str
    game_id: str
    kind: str
    payload: dict[str, Any]
    created_at: float
    attempts: int


@dataclass(frozen=True)
class CopiedPost:
    """An outbox row as ``python -m bot migrate`` copies it from one store to another: a
    post a game owes, with whatever became of it in the store it was read from. Two compare
    equal when they are the same post (key, game, kind, payload, time owed); its tries, wait
    and sending are the state of one store's delivery, so they are left out of the
    comparison."""

    key: str
    game_id: str
    kind: str
    payload: dict[str, Any]
    created_at: float
    attempts: int = field(default=0, compare=False)
    #: When any worker may claim it, its lease released: a holder's lease is gone (0: at
    #: once), a wait of its own is kept (a player's alert waiting for their quiet hours to
    #: end, a failed send's backoff).
    lease_until: float = field(default=0.0, compare=False)
    sent_at: float | None = field(default=None, compare=False)
    channel: str | None = field(default=None, compare=False)
    message: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Clock:
    """What a reminder needs of a game: where it is played, its version and its clocks
    (``GameRecord``'s fields of the same names), without its state."""

    id: str
    game: str
    guild: str
    channel: str
    thread: str | None
    version: int
    remind_at: float | None
    deadline: float | None
    clocks: dict[str, list[float | None]]

    @property
    def home(self) -> str:
        return self.thread or self.channel


@dataclass(frozen=True)
class ReminderClaim:
    """One game's reminders to claim (``Store.claim_reminders``)."""

    game_id: str
    version: int
    expected_remind_at: float
    remind_at: float | None
    deadline: float | None
    clocks: dict[str, list[float | None]]
    #: The reminder's post; None: only its times move (every player due is in quiet hours).
    owed: Owed | None
    #: The host's message at a table the reminders found stalled (issue 27), owed with it.
    stalled: tuple[Owed, ...] = ()

    @property
    def posts(self) -> list[Owed]:
        """Every post the claim owes: the reminder (if any), then any stall message."""
        return [*([self.owed] if self.owed is not None else []), *self.stalled]


@dataclass(frozen=True)
class Attention:
    """A game that could not be loaded (a row or a log that does not read back), so its host
    can be told: it is left out of every other read until someone restores or abandons it."""

    id: str
    game: str
    host: str
    reason: str


@dataclass(frozen=True)
class LoggedAction:
    """One row of the append-only action log."""

    seq: int
    player: str
    action: dict[str, Any]
    at: float


@dataclass(frozen=True)
class Rating:
    """A player's skill in one game on one server (openskill's Plackett–Luce ``mu``/``sigma``).

    AI seats are rated by level, under the id ``ai:<level>`` (``ai`` is True), so a server sees
    how its players fare against each level."""

    guild: str
    game: str
    player: str
    mu: float
    sigma: float
    games: int = 0
    ai: bool = False
    name: str = ""

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate leaderboards sort by (``mu - 3 sigma``)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class ResultRow:
    """One seat of one finished game: who, how they placed, and their rating before and after.

    ``player`` is the seat's user id (an AI seat keeps its seat id, ``ai:<level>:<n>``);
    ``rated_as`` is the identity rated for it (the user id, or ``ai:<level>``). ``rank`` is 1
    for the winners; tied players share a rank."""

    game_id: str
    game: str
    guild: str
    player: str
    rated_as: str
    ai: bool
    name: str
    rank: int
    score: int
    winner: bool
    players: int
    options: dict[str, Any]
    finished_at: float
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    #: Whether the player took a hint in a game with an AI seat, so their rating did not
    #: move (``bot.hints``).
    hinted: bool = False


#: Given the current ratings of the identities of a finished game (missing ones absent),
#: the rows and ratings to write. Runs inside the results transaction, so two games ending
#: at once for the same player never lose an update; it must be pure and quick.
RateGame = Callable[[dict[str, Rating]], tuple[list[ResultRow], list[Rating]]]


@dataclass(frozen=True)
class UndoneAction:
    """A taken-back action, kept for audit after it left the log (``/game undo``)."""

    game_id: str
    seq: int
    player: str
    action: dict[str, Any]
    at: float
    undone_at: float
    requested_by: str


@dataclass(frozen=True)
class UndoRequest:
    """A pending ``/game undo`` proposal, stored so a restart loses neither it nor the consents
    given: who asked, the game's version then (any change since makes it moot), the log's
    length to keep, the humans who must accept and those who have, and when it lapses."""

    game_id: str
    requested_by: str
    version: int
    keep: int
    awaiting: tuple[str, ...]
    accepted: tuple[str, ...] = ()
    at: float = 0.0
    expires_at: float = 0.0


@dataclass(frozen=True)
class Shards:
    """The shards one bot process serves: a game belongs to shard
    ``(int(guild) >> 22) % count`` (Discord's own formula), and a process only ticks the games
    of its shards (``ids``)."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild: str) -> bool:
        return (int(guild) >> 22) % self.count in self.ids


#: Where a page of ``games_in_guild`` ends: a game's ``(updated_at, id)``.
PageKey = tuple[float, str]


def page_key(record: GameRecord | GameSummary) -> PageKey:
    """The key of ``record`` in ``games_in_guild``'s order."""
    return (record.updated_at, record.id)


class Store(Protocol):
    #: Damage found while the bot runs (``bot.store.damage``): no write is taken after it.
    damage: Damage

    async def open(self) -> None:
        """Connect, create or migrate the schema. Raise StoreError naming an unusable path."""

    async def check(self) -> None:
        """The full integrity check (``python -m bot check``), in time that grows with the
        data: raise DamagedDatabase (or StoreError) naming what is wrong."""

    async def watch(self) -> None:
        """After start-up, in the background and at low priority: check what start-up did not
        read, repair what can be rebuilt (an index), and mark the store damaged otherwise."""

    async def close(self) -> None: ...

    async def create_game(self, record: GameRecord) -> None:
        """Insert a new game with its seats (record.version is stored as given)."""

    async def get_game(self, game_id: str) -> GameRecord | None: ...

    async def games_in_channel(
        self, guild: str, channel: str, statuses: tuple[str, ...] = OPEN_STATUSES
    ) -> list[GameRecord]:
        """Games of one channel with one of ``statuses``, oldest first; ``channel`` may be a
        game's thread, which holds that game."""

    async def games_of_player(
        self, guild: str | None, user: str, *, limit: int, offset: int = 0
    ) -> list[GameSummary]:
        """Open games of one server (None: of every server) where ``user`` holds a seat of
        their own (not handed to an AI): games in progress first, the longest unchanged
        leading, then lobbies; one page of them, summaries only (no state is read)."""

    async def games_in_guild(
        self,
        guild: str,
        channel: str | None = None,
        *,
        limit: int,
        after: PageKey | None = None,
        before: PageKey | None = None,
    ) -> list[GameSummary]:
        """Open games of one server (of one channel, if given), the latest moved first; one
        page, by a key rather than an offset (so page 40 costs what page 1 does): the games
        after ``after`` (the last of the page before), or, newest first still, the ``limit``
        games just before ``before`` (the first of the page after). Summaries: a page reads
        the columns it shows, never a state."""

    async def latest_messages(self, game_ids: list[str], kind: str) -> dict[str, tuple[str, str]]:
        """(channel id, message id) of the last message of ``kind`` of each of these games."""

    async def rated_places(
        self, guild: str, game: str, rated_as: str
    ) -> list[tuple[str, str | None]]:
        """The places, (channel, thread), of the finished games of ``game`` on a server that
        a rating (``rated_as``) was moved by: a leaderboard entry is shown only to those who
        may see all of them."""

    async def count_games(
        self, guild: str, statuses: Sequence[str], *, player: str | None = None
    ) -> int:
        """How many games of a server are in one of ``statuses`` (with ``player``: where that
        user holds a seat of their own): the caps of ``bot.limits`` count with it."""

    async def needing_attention(self, guild: str, channel: str) -> list[Attention]:
        """Games of one channel that could not be loaded, and why, oldest first."""

    async def save_lobby(self, record: GameRecord, expected_version: int) -> None:
        """Write status, seats, options, seed, state, journal, timers and version of ``record``
        if the stored
        version still equals ``expected_version``; otherwise raise VersionConflict. Used for
        join/leave/start/abandon (start also writes the first state snapshot)."""

    async def commit_move(
        self,
        record: GameRecord,
        expected_version: int,
        player: str,
        action: dict[str, Any],
    ) -> int:
        """One transaction: append ``action`` to the log, write ``record.state``,
        ``record.status``, ``record.journal``, the timers and ``record.version``, only if the
        stored version equals
        ``expected_version`` (else VersionConflict, nothing written). Returns the action's seq."""

    async def set_timers(
        self,
        game_id: str,
        version: int,
        remind_at: float | None,
        deadline: float | None,
        clocks: dict[str, list[float | None]] | None = None,
    ) -> bool:
        """Set a game's reminder time and deadline (and its seats' clocks, if given; else
        they are cleared) if it is still at ``version``, without changing the version; False
        if the game moved meanwhile (its clock restarted)."""

    async def due_clocks(
        self, now: float, shards: Shards | None = None, *, limit: int = 1000
    ) -> list[Clock]:
        """The clocks (not the states) of active games whose ``remind_at`` is at or before
        ``now`` (of the guilds on ``shards``; all, if None), soonest first, at most
        ``limit``: what a reminder needs, decoded off the event loop where the backend
        can."""

    async def claim_reminders(self, claims: Sequence[ReminderClaim]) -> list[bool]:
        """Claim reminders, all in one transaction: for each, set the timers as
        ``set_timers`` does only if the game is still at ``version`` and its ``remind_at`` is
        still ``expected_remind_at`` (so of two schedulers only one sends it), and write its
        ``owed`` post with it. For each claim, whether it was won (False: someone else
        claimed it, or the game moved)."""

    async def claim_outbox(
        self, holder: str, now: float, lease: float, limit: int, shards: Shards | None = None
    ) -> list[OutboxRow]:
        """Claim for ``holder`` until ``now + lease`` the oldest unsent row of each game whose
        rows are all unleased (or their lease ran out), oldest games first, at most ``limit``
        (of the guilds on ``shards``; all, if None). A compare-and-swap: two workers on one
        database never claim the same row. Each claim counts an attempt."""

    async def outbox_sent(self, key: str, channel: str | None, message: str | None) -> None:
        """Mark a row sent (Discord accepted it: its message, if any); it is never sent
        again."""

    async def outbox_sent_many(self, sent: Sequence[tuple[str, str | None, str | None]]) -> None:
        """``outbox_sent`` for several rows (key, channel, message) in one transaction."""

    async def prune_outbox(self, before: float, limit: int) -> int:
        """Delete at most ``limit`` sent rows sent before ``before``, the oldest first,
        through the partial index of sent rows (``outbox_sent``), never a scan of the table;
        how many went. Unsent rows are never deleted."""

    async def release_owed(self, key: str, holder: str, retry_at: float) -> None:
        """Give back a row ``holder`` could not send: any worker may claim it from
        ``retry_at``."""

    async def unsent(self, game_id: str | None = None) -> list[OutboxRow]:
        """The unsent rows (of one game, if given), oldest first."""

    async def announce_process(
        self, holder: str, shards: Shards | None, now: float, alive_since: float
    ) -> list[tuple[str, Shards | None]]:
        """Record that process ``holder`` serving ``shards`` (None: all) is alive at ``now``;
        the other processes seen since ``alive_since``, with their shards."""

    async def forget_process(self, holder: str) -> None:
        """Process ``holder`` stopped."""

    async def set_thread(self, game_id: str, thread: str | None) -> None:
        """Record the thread a game is played in, without changing its version (where the
        game is shown is not part of it: no button goes out of date)."""

    async def set_archive(self, game_id: str, at: float | None) -> None:
        """When to archive a game's thread (None: done, or never)."""

    async def threads_to_archive(
        self, now: float, shards: Shards | None = None
    ) -> list[GameRecord]:
        """Games whose thread is due to be archived at ``now``
        (of the guilds on ``shards``; all, if None)."""

    async def spend_vacation_day(
        self, player: str, year: int, allowance: int, record: GameRecord, owed: Owed
    ) -> int | None:
        """One transaction: spend one of ``player``'s ``allowance`` vacation days of ``year``
        on the record's server, set the record's timers and clocks (only while the game is at
        ``record.version``, which stays) and write ``owed``. The days left after it; None:
        none was left, or the game moved (nothing written)."""
        ...

    async def vacation_days_spent(self, guild: str, player: str, year: int) -> int:
        """The vacation days ``player`` has spent on ``guild`` in ``year``."""
        ...

    async def count_threads(self, guild: str) -> int:
        """The threads of ``guild``'s games the bot keeps open: a lobby's or a running game's,
        and a finished game's until it is archived (Discord caps a server's active threads)."""
        ...

    async def finished_threads(self, guild: str, limit: int) -> list[GameRecord]:
        """At most ``limit`` games of ``guild`` whose thread waits to be archived, oldest first."""
        ...

    async def expired_lobbies(self, now: float, shards: Shards | None = None) -> list[GameRecord]:
        """Lobbies whose deadline (when they close unstarted) is at or before
        ``now`` (of the guilds on ``shards``; all, if None)."""

    async def due_games(self, now: float, shards: Shards | None = None) -> list[GameRecord]:
        """Active games whose ``remind_at`` or ``deadline`` is at or before
        ``now`` (of the guilds on ``shards``; all, if None)."""

    async def actions(self, game_id: str) -> list[LoggedAction]:
        """The action log of a game, in order."""

    async def save_message(self, game_id: str, kind: str, channel: str, message: str) -> None:
        """Remember a posted message (kind: ``lobby``, ``board``) to edit it later."""

    async def get_message(self, game_id: str, kind: str) -> tuple[str, str] | None:
        """(channel id, message id) of the last message of ``kind`` for a game."""

    async def player_prefs(self, players: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Each of ``players``' own choices (``bot.alerts``); a player who chose nothing, or
        whose row does not read, is left out."""

    async def save_player_prefs(self, player: str, prefs: dict[str, Any]) -> None:
        """Replace a player's own choices."""

    async def digests_due(self, now: float, limit: int) -> dict[str, dict[str, Any]]:
        """The players whose daily digest (``bot.alerts``) is due at ``now``, with their
        choices; at most ``limit`` of them, the longest due first."""

    async def claim_digest(
        self, player: str, due: float, prefs: dict[str, Any], game_id: str | None, owed: Owed | None
    ) -> bool:
        """Take a player's digest due at ``due``: their choices become ``prefs`` (the next
        one's time) only if that digest is still due (of two schedulers, one wins), and the
        digest's DM is owed (``owed``, under one of their games ``game_id``; None: nothing
        to tell today), in one transaction. Whether this claim won."""

    async def guild_settings(self, guild: str) -> dict[str, Any]:
        """A server's settings as saved (empty if it never chose any)."""

    async def save_guild_settings(self, guild: str, settings: dict[str, Any]) -> None:
        """Replace a server's settings."""

    async def backup(self, target: str) -> int:
        """Copy the whole database to a new file ``target`` while others keep playing;
        returns the number of games copied."""

    # -- memory of the table (results, ratings, undo) ------------------------------------

    async def record_results(self, game_id: str, rate: RateGame) -> bool:
        """One transaction: read the current ratings of the game's identities, call ``rate``,
        insert its result rows and upsert its ratings. Idempotent: if the game already has
        result rows nothing is written and False is returned.

        The identities read are, in the game's guild and game, its seats' users and every AI
        identity (``ai`` true; an AI seat's id is not the id it is rated under). The rows
        keep the order ``rate`` returns them in (seat order) for ``results_of_game``."""

    async def results_of_game(self, game_id: str) -> list[ResultRow]:
        """The result rows of one finished game, by rank then seat order."""

    async def take_hint(self, game_id: str, player: str, at: float) -> None:
        """Remember that ``player`` took a hint in a game (once: again changes nothing)."""

    async def hinted(self, game_id: str) -> set[str]:
        """The players who took a hint in a game."""

    async def hints_taken(self, game_id: str) -> list[tuple[str, float]]:
        """Who took a hint in a game and when, first taken first (``python -m bot migrate``
        copies them)."""

    async def player_results(
        self, guild: str, player: str, game: str | None = None
    ) -> list[ResultRow]:
        """Every result row of ``player`` on one server (of one game, if given), oldest first."""

    async def season_results(
        self, guild: str, game: str, since: float, until: float
    ) -> list[ResultRow]:
        """The result rows of a server's games of one kind begun at or after ``since`` and
        finished before ``until`` (a season's), in the order finished, seats in seat order."""

    async def ratings(self, guild: str, game: str, players: list[str]) -> dict[str, Rating]:
        """The ratings of these identities in one game on one server (unrated ones absent)."""

    async def leaderboard(
        self, guild: str, game: str, *, limit: int, offset: int = 0
    ) -> list[Rating]:
        """One page of a server's ratings in one game, highest ordinal first."""

    async def finished_without_results(self, limit: int = 100) -> list[GameRecord]:
        """Finished games whose results were never recorded (the process stopped between the
        last move and the results): the service records them at start-up."""

    async def undo(
        self,
        record: GameRecord,
        expected_version: int,
        keep: int,
        requested_by: str,
        at: float,
    ) -> list[UndoneAction]:
        """One transaction: move every logged action with ``seq > keep`` to the undo audit,
        delete it from the log, and write ``record`` (state, status, journal, timers,
        version) if the stored version still equals ``expected_version`` (else
        VersionConflict, nothing written). Returns the audit rows written."""

    async def undone_actions(self, game_id: str) -> list[UndoneAction]:
        """The undo audit of one game, oldest first."""

    async def games_by_status(self) -> dict[str, int]:
        """How many games each status has (the ``tabletop_games`` metric, read per scrape)."""

    async def outbox_pending(self) -> int:
        """How many outbox rows are not sent yet, leased or not (the
        ``tabletop_outbox_pending`` metric, read per scrape)."""

    # -- copying a whole store (``python -m bot migrate``) --------------------------------

    async def all_game_ids(self) -> list[str]:
        """The id of every game, of every status (those needing attention too), oldest
        first."""

    async def messages_of(self, game_id: str) -> dict[str, tuple[str, str]]:
        """Every remembered message of a game: kind -> (channel id, message id)."""

    async def all_guild_settings(self) -> dict[str, dict[str, Any]]:
        """Every server's saved settings (servers that never chose any are absent)."""

    async def all_vacation_days(self) -> list[tuple[str, str, int, int]]:
        """Every (server, player, year, days spent) row, in that order (``python -m bot
        migrate`` copies them)."""
        ...

    async def import_vacation_days(self, rows: Sequence[tuple[str, str, int, int]]) -> None:
        """Write these rows as they are (a row of the same server, player and year is
        replaced: the copy's source is the truth)."""
        ...

    async def import_game(
        self, record: GameRecord, actions: Sequence[LoggedAction], *, replace: bool = False
    ) -> None:
        """One transaction: store a game copied from another store as it is there (version,
        timestamps, seats, and its log with each action's seq and time). A game of that id
        already here is refused (StoreError), unless ``replace``: then it is deleted first
        with everything of it (seats, log, messages, results, undo audit)."""

    async def import_undone(self, rows: Sequence[UndoneAction]) -> None:
        """Store undo audit rows copied from another store as they are there (a row already
        here is kept as it is)."""

    async def rebuild_snapshot(self, record: GameRecord, reason: str) -> GameRecord | None:
        """A game whose snapshot decodes but that its engine refuses (``reason`` says how; the
        store knows no engine, its reader found out): its snapshot rebuilt from the seed and
        the log and stored at the same version, as one that does not decode is on any read
        (``record`` with it, a copy). None: it cannot be rebuilt either (no ``rebuild``, or
        the log does not replay), and the game is marked as needing attention."""

    async def owed_posts(self, game_id: str) -> list[CopiedPost]:
        """The game's unsent outbox rows, oldest first, with their leases released (what
        ``migrate`` copies), read through the partial index of unsent rows."""

    async def posts(self, keys: Sequence[str]) -> list[CopiedPost]:
        """The outbox rows of these keys, sent or not (a key not here is absent), each found
        by its key's unique index."""

    async def import_posts(self, posts: Sequence[CopiedPost]) -> None:
        """Store unsent outbox rows copied from another store, without a holder and
        claimable from their ``lease_until``, so this store's delivery worker sends them; a
        row whose key is here already (unsent, or sent meanwhile) is kept as it is."""

    async def save_undo_request(self, request: UndoRequest) -> None:
        """Store the game's pending undo proposal, replacing any earlier one."""

    async def undo_request(self, game_id: str) -> UndoRequest | None:
        """The game's pending undo proposal (None: there is none)."""

    async def forget_player(self, user: str) -> Forgotten:
        """Rename ``user`` to a former player in every game they sat in, and delete their
        results and ratings, in one transaction (``bot.store.forget``)."""

    async def drop_undo_request(self, game_id: str) -> None:
        """Forget the game's pending undo proposal (done, declined or lapsed)."""

    # -- the web table (``bot.store.web_tables``) ----------------------------------------

    async def save_web_table(self, table: WebTable) -> None:
        """Record (or update) a game's public id and whether its channel is public."""

    async def web_table(self, public_id: str) -> WebTable | None:
        """The game a web page's address names (None: no such page)."""

    async def web_table_of(self, game_id: str) -> WebTable | None:
        """A game's web-table row, if it has one."""

    async def web_tables_in(self, guild: str, channel: str | None = None) -> list[PlacedTable]:
        """Every web-table row of a server's games (of those played in ``channel``, a
        channel or thread, if given), with where each game is played."""

    async def kept_secret(self, name: str, fresh: str) -> str:
        """The secret kept under ``name``; ``fresh`` is kept and returned if none was yet
        (whichever process writes first, every process reads the same)."""

    async def all_kept_secrets(self) -> dict[str, str]:
        """Every secret kept, by name (``python -m bot migrate`` copies them)."""

    async def copy_kept_secrets(self, kept: dict[str, str]) -> None:
        """Keep ``kept`` (copied from another store) in place of what is kept here: the
        source of a move is the truth, so the links it signed keep working."""

    # -- tournaments (``bot.store.tournaments_sql``) ---------------------------------------

    async def create_tournament(self, t: Tournament) -> None: ...

    async def get_tournament(self, tournament_id: str) -> Tournament | None: ...

    async def save_tournament(self, t: Tournament, expected: int) -> None: ...

    async def due_tournaments(self, now: float, limit: int) -> list[Tournament]: ...

    async def tournaments_in_guild(self, guild: str, limit: int) -> list[Tournament]: ...

    async def cross_server_signups(self, limit: int) -> list[Tournament]: ...

    async def forget_in_tournaments(self, user: str) -> int: ...

    async def all_tournaments(self) -> list[Tournament]: ...

    # -- seasons (``bot.store.seasons_sql``) -----------------------------------------------

    async def create_season(self, s: Season) -> bool: ...

    async def seasons_of(self, guild: str, game: str, limit: int) -> list[Season]: ...

    async def get_season(self, guild: str, game: str, number: int) -> Season | None: ...

    async def save_season(self, s: Season, expected: int) -> None: ...

    async def due_seasons(self, now: float, limit: int) -> list[Season]: ...

    async def note_timeouts(self, game_id: str, players: list[str]) -> None: ...

    async def timeouts_of(self, guild: str, game: str, since: float) -> dict[str, set[str]]: ...

    async def forget_in_seasons(self, user: str) -> int: ...

    async def game_timeouts(self, game_id: str) -> list[str]: ...

    async def all_seasons(self) -> list[Season]: ...

    # -- titles (``bot.store.titles_sql``) -------------------------------------------------

    async def keep_title(self, kept: KeptTitle) -> bool: ...

    async def titles_of(self, guild: str, player: str) -> list[tuple[str, str]]: ...

    async def player_timeouts(self, guild: str, player: str) -> set[str]: ...

    async def forget_in_titles(self, user: str) -> None: ...

    async def all_titles(self) -> list[KeptTitle]: ...
