"""Schema migrations for the SQLite store, tracked by ``PRAGMA user_version``.

Each step is a tuple of SQL statements. Step ``n`` (1-based) moves the schema from
``user_version = n - 1`` to ``n`` inside one ``BEGIN IMMEDIATE`` transaction, so a crash or a
failing statement leaves the database at the previous version rather than half migrated, and two
processes opening the same file at once cannot both apply a step (the second one re-reads
``user_version`` after taking the write lock and finds nothing to do).

Steps are append-only: never edit a released step, add a new one. Statements are kept apart
(not one script) because ``sqlite3.executescript`` commits any open transaction first, which
would break the one-transaction-per-step guarantee. A statement may be a function of the
connection instead, for a backfill SQL cannot compute (it runs in the step's transaction too).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import aiosqlite

from bot.store import movers
from bot.store.base import StoreError
from bot.store.connection import Connection

#: Either kind of connection runs them: the store's own (its writer) or a plain aiosqlite one.
Statements = aiosqlite.Connection | Connection

Step = tuple["str | Callable[[Statements], Awaitable[None]]", ...]


async def _backfill_to_move(conn: Statements) -> None:
    """Whose move each active game is, from its snapshot (``bot.store.movers``)."""
    rows = await conn.execute_fetchall(movers.BACKFILL_ROWS)
    await conn.executemany(movers.BACKFILL_SET, movers.backfill([tuple(r) for r in rows]))


MIGRATIONS: list[Step] = [
    # 1: the initial schema.
    (
        """
        CREATE TABLE games (
            id         TEXT PRIMARY KEY,
            game       TEXT NOT NULL,
            guild      TEXT NOT NULL,
            channel    TEXT NOT NULL,
            thread     TEXT,
            host       TEXT NOT NULL,
            status     TEXT NOT NULL,
            seed       TEXT NOT NULL DEFAULT '',
            options    TEXT NOT NULL DEFAULT '{}',
            state      TEXT,
            version    INTEGER NOT NULL,
            journal    TEXT NOT NULL DEFAULT '[]',
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            remind_at  REAL,
            deadline   REAL
        )
        """,
        # A player's command resolves to the open games of one channel: this is the hot lookup.
        "CREATE INDEX games_by_channel ON games (guild, channel, status)",
        # The scheduler looks for the next reminder or deadline among open games.
        "CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL",
        "CREATE INDEX games_by_reminder ON games (remind_at) WHERE remind_at IS NOT NULL",
        """
        CREATE TABLE seats (
            game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat    INTEGER NOT NULL,
            user    TEXT NOT NULL,
            ai      INTEGER NOT NULL DEFAULT 0,
            name    TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (game_id, seat)
        )
        """,
        "CREATE INDEX seats_by_user ON seats (user)",
        """
        CREATE TABLE actions (
            game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq     INTEGER NOT NULL,
            player  TEXT NOT NULL,
            action  TEXT NOT NULL,
            at      REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID
        """,
        # The log is append-only: refuse edits at the database level, not just by convention.
        """
        CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
        BEGIN
            SELECT RAISE(ABORT, 'the action log is append-only');
        END
        """,
        """
        CREATE TABLE messages (
            game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind    TEXT NOT NULL,
            channel TEXT NOT NULL,
            message TEXT NOT NULL,
            at      REAL NOT NULL,
            PRIMARY KEY (game_id, kind)
        ) WITHOUT ROWID
        """,
    ),
    # 2: games that could not be loaded are marked (why, in words) so their host can be told,
    # and every other read leaves them out instead of failing on them.
    (
        "ALTER TABLE games ADD COLUMN attention TEXT",
        "CREATE INDEX games_needing_attention ON games (guild, channel) "
        "WHERE attention IS NOT NULL",
    ),
    # 3: a game's table (issue 13): how it runs apart from the rules' options (a thread of its
    # own or not, ...) and when its thread is archived; commands sent from inside a thread find
    # their game by the thread's id.
    (
        "ALTER TABLE games ADD COLUMN prefs TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE games ADD COLUMN archive_at REAL",
        "CREATE INDEX games_by_thread ON games (guild, thread, status) WHERE thread IS NOT NULL",
        "CREATE INDEX games_by_archive ON games (archive_at) WHERE archive_at IS NOT NULL",
    ),
    # 4: each server's own settings (`/game config`: threads, lobby hours, the clock), as JSON
    # so a setting added later needs no migration of its own.
    (
        """
        CREATE TABLE guild_settings (
            guild      TEXT PRIMARY KEY,
            settings   TEXT NOT NULL DEFAULT '{}',
            updated_at REAL NOT NULL
        ) WITHOUT ROWID
        """,
    ),
    # 5: a clock for each seat that owes a decision ({player: [remind_at, deadline]}); the
    # games' remind_at and deadline stay the soonest of them, for the scheduler's indexes.
    # A seat away (`/game away`) is played by its AI until its player is back.
    (
        "ALTER TABLE games ADD COLUMN clocks TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0",
    ),
    # 6: the memory of the table (issue 15): one result row per seat of a finished game
    # (``seat`` keeps the seat order for ties of rank) and each server's ratings per game.
    # A player's stats read ``results_by_player``; a leaderboard reads ``ratings_by_ordinal``.
    (
        """
        CREATE TABLE results (
            game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            player       TEXT NOT NULL,
            seat         INTEGER NOT NULL,
            game         TEXT NOT NULL,
            guild        TEXT NOT NULL,
            rated_as     TEXT NOT NULL,
            ai           INTEGER NOT NULL DEFAULT 0,
            name         TEXT NOT NULL DEFAULT '',
            rank         INTEGER NOT NULL,
            score        INTEGER NOT NULL,
            winner       INTEGER NOT NULL,
            players      INTEGER NOT NULL,
            options      TEXT NOT NULL DEFAULT '{}',
            finished_at  REAL NOT NULL,
            mu_before    REAL NOT NULL,
            sigma_before REAL NOT NULL,
            mu_after     REAL NOT NULL,
            sigma_after  REAL NOT NULL,
            PRIMARY KEY (game_id, player)
        )
        """,
        "CREATE INDEX results_by_player ON results (guild, player, game, finished_at)",
        """
        CREATE TABLE ratings (
            guild      TEXT NOT NULL,
            game       TEXT NOT NULL,
            player     TEXT NOT NULL,
            mu         REAL NOT NULL,
            sigma      REAL NOT NULL,
            games      INTEGER NOT NULL DEFAULT 0,
            ai         INTEGER NOT NULL DEFAULT 0,
            name       TEXT NOT NULL DEFAULT '',
            updated_at REAL NOT NULL,
            PRIMARY KEY (guild, game, player)
        )
        """,
        "CREATE INDEX ratings_by_ordinal ON ratings (guild, game, (mu - 3 * sigma))",
    ),
    # 7 (issue 15, undo; after 6, the results): a taken-back action leaves the log for an
    # audit table, and the log gives up a row only once its copy is there, so nothing but
    # ``undo`` can shorten it (a game's own deletion still takes its rows with it). A pending
    # proposal is kept too (one per game), so a restart loses no request nor its consents.
    (
        """
        CREATE TABLE undone_actions (
            game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq          INTEGER NOT NULL,
            player       TEXT NOT NULL,
            action       TEXT NOT NULL,
            at           REAL NOT NULL,
            undone_at    REAL NOT NULL,
            requested_by TEXT NOT NULL,
            PRIMARY KEY (game_id, undone_at, seq)
        ) WITHOUT ROWID
        """,
        """
        CREATE TRIGGER actions_delete_only_undone BEFORE DELETE ON actions
        WHEN EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id)
        AND NOT EXISTS (
            SELECT 1 FROM undone_actions u
            WHERE u.game_id = OLD.game_id AND u.seq = OLD.seq AND u.player = OLD.player
            AND u.action = OLD.action AND u.at = OLD.at
        )
        BEGIN
            SELECT RAISE(ABORT, 'the action log loses its tail only to an undo, audited first');
        END
        """,
        """
        CREATE TABLE undo_requests (
            game_id      TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            requested_by TEXT NOT NULL,
            version      INTEGER NOT NULL,
            keep         INTEGER NOT NULL,
            awaiting     TEXT NOT NULL DEFAULT '[]',
            accepted     TEXT NOT NULL DEFAULT '[]',
            at           REAL NOT NULL,
            expires_at   REAL NOT NULL
        ) WITHOUT ROWID
        """,
    ),
    # (issue 23, forgetting a player): the log stays append-only, except that a forgotten
    # player's rows are renamed to their former seat (``bot.store.forget``): who played a row,
    # and an action that names them; nothing else about a row may change.
    (
        "DROP TRIGGER actions_append_only",
        """
        CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
        WHEN NOT (
            NEW.game_id = OLD.game_id AND NEW.seq = OLD.seq AND NEW.at = OLD.at
            AND (NEW.player = OLD.player OR NEW.player LIKE 'former:%')
            AND (NEW.action = OLD.action OR NEW.action LIKE '%"former:%')
        )
        BEGIN
            SELECT RAISE(ABORT, 'the action log is append-only');
        END
        """,
    ),
    # (issue 22, delivery): the outbox. Every public post a change owes the table is a row
    # written in the change's own transaction; a delivery worker claims (``holder`` until
    # ``lease_until``) and sends the unsent ones, oldest first per game, until Discord accepts
    # (``sent_at``, and the message). A reminder's claim is written the same way.
    (
        """
        CREATE TABLE outbox (
            seq         INTEGER PRIMARY KEY AUTOINCREMENT,
            key         TEXT NOT NULL UNIQUE,
            game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind        TEXT NOT NULL,
            payload     TEXT NOT NULL DEFAULT '{}',
            created_at  REAL NOT NULL,
            holder      TEXT,
            lease_until REAL NOT NULL DEFAULT 0,
            attempts    INTEGER NOT NULL DEFAULT 0,
            sent_at     REAL,
            channel     TEXT,
            message     TEXT
        )
        """,
        # The worker reads only what is unsent, by game and order.
        "CREATE INDEX outbox_unsent ON outbox (game_id, seq) WHERE sent_at IS NULL",
        # The bot processes on this database and the shards each serves (None: all), seen at
        # every scheduler tick: a start-up warns of another live process whose shards overlap.
        """
        CREATE TABLE processes (
            holder     TEXT PRIMARY KEY,
            shards     TEXT,
            started_at REAL NOT NULL,
            seen_at    REAL NOT NULL
        ) WITHOUT ROWID
        """,
    ),
    # The web table (issue 26): each game's public id (what its page's address names, never
    # the six-letter id) and whether its channel is one everyone on its server can view.
    (
        """
        CREATE TABLE web_tables (
            game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            public_id  TEXT NOT NULL UNIQUE,
            public     INTEGER NOT NULL DEFAULT 0,
            updated_at REAL NOT NULL
        ) WITHOUT ROWID
        """,
    ),
    # Turn alerts (issue 27): each player's own choices, over every server (how they are told
    # of a turn, per game too; their time zone and quiet hours), as JSON (``bot.alerts``).
    (
        """
        CREATE TABLE player_prefs (
            player     TEXT PRIMARY KEY,
            prefs      TEXT NOT NULL,
            updated_at REAL NOT NULL
        ) WITHOUT ROWID
        """,
    ),
    # Vacation days (issue 27): how many of a year's days a player has spent on a server.
    (
        """
        CREATE TABLE vacation_days (
            guild  TEXT NOT NULL,
            player TEXT NOT NULL,
            year   INTEGER NOT NULL,
            spent  INTEGER NOT NULL,
            PRIMARY KEY (guild, player, year)
        ) WITHOUT ROWID
        """,
    ),
    # (issue 28, scale): what can grow with a server's history is read by an index or a
    # marker. ``results_pending`` holds the finished games whose results are not yet written,
    # kept by triggers (a game finishing, a finished game copied in, its results written), so
    # the start-up sweep reads only those. ``games_open_by_update`` is /game list's keyset
    # order over a server's open games, and holds open games only; ``ratings_of_ai`` the AI
    # identities' ratings read at a game's end; ``games_open_by_status`` the open games the caps
    # count; ``results_by_rating`` the games a leaderboard entry was earned in.
    (
        """
        CREATE TABLE results_pending (
            game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE
        ) WITHOUT ROWID
        """,
        """
        INSERT INTO results_pending (game_id)
        SELECT id FROM games g WHERE status = 'finished'
        AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)
        """,
        """
        CREATE TRIGGER results_pending_on_finish AFTER UPDATE OF status ON games
        WHEN NEW.status = 'finished' AND OLD.status != 'finished'
        BEGIN
            INSERT OR IGNORE INTO results_pending (game_id)
            SELECT NEW.id WHERE NOT EXISTS (SELECT 1 FROM results WHERE game_id = NEW.id);
        END
        """,
        """
        CREATE TRIGGER results_pending_on_unfinish AFTER UPDATE OF status ON games
        WHEN NEW.status != 'finished' AND OLD.status = 'finished'
        BEGIN
            DELETE FROM results_pending WHERE game_id = NEW.id;
        END
        """,
        """
        CREATE TRIGGER results_pending_on_insert AFTER INSERT ON games
        WHEN NEW.status = 'finished'
        BEGIN
            INSERT OR IGNORE INTO results_pending (game_id)
            SELECT NEW.id WHERE NOT EXISTS (SELECT 1 FROM results WHERE game_id = NEW.id);
        END
        """,
        """
        CREATE TRIGGER results_pending_done AFTER INSERT ON results
        BEGIN
            DELETE FROM results_pending WHERE game_id = NEW.game_id;
        END
        """,
        "CREATE INDEX games_open_by_update ON games (guild, updated_at, id) "
        "WHERE status IN ('lobby', 'active') AND attention IS NULL",
        # The AI identities of a server's game (at most one per level), read at a game's end.
        "CREATE INDEX ratings_of_ai ON ratings (guild, game) WHERE ai = 1",
        # A server's open games by status, which the caps count (``bot.limits``).
        "CREATE INDEX games_open_by_status ON games (guild, status) "
        "WHERE status IN ('lobby', 'active')",
        # The finished games a rating was moved by, which a leaderboard entry's places are.
        "CREATE INDEX results_by_rating ON results (guild, game, rated_as)",
    ),
    # (issue 28, scale): whose move each game is (``GameRecord.to_move``), written by every
    # save beside the snapshot, so a listing reads the columns it shows and never a state.
    (
        "ALTER TABLE games ADD COLUMN to_move TEXT NOT NULL DEFAULT '[]'",
        _backfill_to_move,
    ),
    # (issue 28, scale): the sent rows by the time they were sent, which the delivery worker
    # prunes a page at a time once kept long enough (``bot.outbox.prune``): the prune reads
    # this index, never the table, and keeps it as short as a week of posts.
    ("CREATE INDEX outbox_sent ON outbox (sent_at) WHERE sent_at IS NOT NULL",),
    # (issue 35): secrets the bot makes once and keeps, so every process and restart agrees
    # on them: the web table's key when WEB_SECRET is not set.
    (
        """
        CREATE TABLE kept_secrets (
            name  TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID
        """,
    ),
    # (issue 38): tournaments, each one document under a version (``bot.store.tournaments_sql``),
    # and when it next wants attention (a start, a round's end), which the scheduler reads.
    (
        """
        CREATE TABLE tournaments (
            id         TEXT PRIMARY KEY,
            guild      TEXT NOT NULL,
            channel    TEXT NOT NULL,
            status     TEXT NOT NULL,
            version    INTEGER NOT NULL,
            due_at     REAL,
            created_at REAL NOT NULL,
            data       TEXT NOT NULL
        )
        """,
        "CREATE INDEX tournaments_due ON tournaments (due_at) WHERE due_at IS NOT NULL",
        "CREATE INDEX tournaments_by_guild ON tournaments (guild, created_at)",
    ),
    # (issue 39): who took a hint in which game (``bot.hints``), and on a result row whether
    # its player took one: their rating did not move when that game with an AI seat ended.
    (
        """
        CREATE TABLE hints_taken (
            game_id TEXT NOT NULL,
            player  TEXT NOT NULL,
            at      REAL NOT NULL,
            PRIMARY KEY (game_id, player)
        )
        """,
        "ALTER TABLE results ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0",
    ),
    # (issue 38, seasons): each server's seasons per game, a document under a version
    # (``bot.store.seasons_sql``) and when it next wants the scheduler; the players who timed
    # out of each game (a timeout is a loss for the season); a season reads its results by
    # server, game and time finished.
    (
        """
        CREATE TABLE seasons (
            guild     TEXT NOT NULL,
            game      TEXT NOT NULL,
            number    INTEGER NOT NULL,
            status    TEXT NOT NULL,
            version   INTEGER NOT NULL,
            starts_at REAL NOT NULL,
            ends_at   REAL NOT NULL,
            due_at    REAL,
            data      TEXT NOT NULL,
            PRIMARY KEY (guild, game, number)
        )
        """,
        "CREATE INDEX seasons_due ON seasons (due_at) WHERE due_at IS NOT NULL",
        """
        CREATE TABLE timeouts (
            game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            player  TEXT NOT NULL,
            PRIMARY KEY (game_id, player)
        )
        """,
        "CREATE INDEX results_by_season ON results (guild, game, finished_at)",
    ),  # (issue 38, titles): the titles kept for a player on a server (``bot.titles``): earned
    # at a game's end once (no game, no giver), or given by another player for one game
    # (one a giver a game).
    (
        """
        CREATE TABLE titles (
            guild    TEXT NOT NULL,
            player   TEXT NOT NULL,
            title    TEXT NOT NULL,
            game_id  TEXT NOT NULL DEFAULT '',
            given_by TEXT NOT NULL DEFAULT '',
            at       REAL NOT NULL,
            PRIMARY KEY (guild, player, title, game_id, given_by)
        )
        """,
        "CREATE UNIQUE INDEX titles_given_once ON titles (game_id, given_by) WHERE given_by <> ''",
    ),
    # (issue 38, across servers): whether a tournament is open to players of other servers
    # (``/game tournament new open:``), and those in sign-up, the newest first, for the list
    # an opted-in server's players read.
    (
        "ALTER TABLE tournaments ADD COLUMN cross_server INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX tournaments_cross_server ON tournaments (status, created_at) "
        "WHERE cross_server = 1",
    ),
]

LATEST = len(MIGRATIONS)


async def user_version(conn: Statements) -> int:
    """The schema version recorded in the database file (0 for a fresh one)."""
    rows = await conn.execute_fetchall("PRAGMA user_version")
    return int(next(iter(rows))[0])


async def migrate(conn: Statements, steps: Sequence[Step] = MIGRATIONS) -> list[int]:
    """Bring the schema up to ``len(steps)``; return the versions applied (empty if none).

    ``conn`` must be in autocommit mode (``isolation_level=None``) so that the explicit
    ``BEGIN IMMEDIATE`` here is the only transaction. A database newer than ``steps`` is refused:
    running old code against a newer schema could silently corrupt it.
    """
    applied: list[int] = []
    target = len(steps)
    while True:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            current = await user_version(conn)
            if current > target:
                raise StoreError(
                    f"database schema version {current} is newer than this code knows "
                    f"({target}); upgrade the bot"
                )
            if current == target:
                await conn.execute("COMMIT")
                return applied
            for statement in steps[current]:
                if isinstance(statement, str):
                    await conn.execute(statement)
                else:
                    await statement(conn)
            # PRAGMA arguments cannot be bound; the value is our own integer.
            await conn.execute(f"PRAGMA user_version = {current + 1:d}")
            await conn.execute("COMMIT")
        except BaseException:
            # Some errors already end the transaction in SQLite; only roll back an open one.
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
        applied.append(current + 1)
