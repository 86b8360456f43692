"""The PostgreSQL schema, as numbered steps applied once each (``schema_migrations``).

The tables mirror SQLite's (``bot.store.migrations``) column for column, so one row codec
(``bot.store.rows``) reads both and ``python -m bot migrate`` copies between them. JSON columns
stay ``text``: the database never looks inside a snapshot, a move rewrites it whole, and keeping
the bytes as written means a damaged value is contained by the same per-row decoding as SQLite's
instead of failing a whole query. Each step runs in its own transaction (PostgreSQL's DDL is
transactional, so a failed step leaves nothing behind), under an advisory lock: several bot
processes starting at once on one database migrate it exactly once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import asyncpg

from bot.store import movers
from bot.store.base import StoreError

#: A step's statements; a function of the connection is a backfill SQL cannot compute, run in
#: the step's transaction.
Step = tuple["str | Callable[[asyncpg.Connection], Awaitable[None]]", ...]


async def _backfill_to_move(conn: asyncpg.Connection) -> None:
    """Whose move each active game is, from its snapshot (``bot.store.movers``)."""
    rows = await conn.fetch(movers.BACKFILL_ROWS)
    await conn.executemany(
        "UPDATE games SET to_move = $1 WHERE id = $2",
        movers.backfill([(r[0], r[1], r[2]) for r in rows]),
    )


MIGRATIONS: list[Step] = [
    # 1: games, seats, the append-only log, posted messages and servers' settings: SQLite's
    # schema at its version 5. ``ord`` stands in for SQLite's rowid, the tie-break of equal
    # creation times (insertion order).
    (
        """
        CREATE TABLE games (
            id         text PRIMARY KEY,
            ord        bigint GENERATED ALWAYS AS IDENTITY,
            game       text NOT NULL,
            guild      text NOT NULL,
            channel    text NOT NULL,
            thread     text,
            host       text NOT NULL,
            status     text NOT NULL,
            seed       text NOT NULL DEFAULT '',
            options    text NOT NULL DEFAULT '{}',
            state      text,
            version    bigint NOT NULL,
            journal    text NOT NULL DEFAULT '[]',
            created_at double precision NOT NULL,
            updated_at double precision NOT NULL,
            remind_at  double precision,
            deadline   double precision,
            attention  text,
            prefs      text NOT NULL DEFAULT '{}',
            archive_at double precision,
            clocks     text NOT NULL DEFAULT '{}'
        )
        """,
        "CREATE INDEX games_by_channel ON games (guild, channel, status)",
        "CREATE INDEX games_by_thread ON games (guild, thread, status) WHERE thread IS NOT NULL",
        "CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL",
        "CREATE INDEX games_by_reminder ON games (remind_at) WHERE remind_at IS NOT NULL",
        "CREATE INDEX games_by_archive ON games (archive_at) WHERE archive_at IS NOT NULL",
        "CREATE INDEX games_needing_attention ON games (guild, channel) "
        "WHERE attention IS NOT NULL",
        """
        CREATE TABLE seats (
            game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat    integer NOT NULL,
            player  text NOT NULL,
            ai      boolean NOT NULL DEFAULT false,
            name    text NOT NULL DEFAULT '',
            away    boolean NOT NULL DEFAULT false,
            PRIMARY KEY (game_id, seat)
        )
        """,
        "CREATE INDEX seats_by_player ON seats (player)",
        """
        CREATE TABLE actions (
            game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq     integer NOT NULL,
            player  text NOT NULL,
            action  text NOT NULL,
            at      double precision NOT NULL,
            PRIMARY KEY (game_id, seq)
        )
        """,
        # The log is append-only (undo moves rows out, it never edits one): refused here too.
        """
        CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the action log is append-only';
        END
        $$
        """,
        "CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions "
        "FOR EACH ROW EXECUTE FUNCTION actions_append_only()",
        """
        CREATE TABLE messages (
            game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind    text NOT NULL,
            channel text NOT NULL,
            message text NOT NULL,
            at      double precision NOT NULL,
            PRIMARY KEY (game_id, kind)
        )
        """,
        """
        CREATE TABLE guild_settings (
            guild      text PRIMARY KEY,
            settings   text NOT NULL DEFAULT '{}',
            updated_at double precision NOT NULL
        )
        """,
    ),
    # 2: the memory of the table (issue 15): one row per seat of each finished game, and each
    # identity's rating per server and game (humans by user id, AI seats by ``ai:<level>``).
    (
        """
        CREATE TABLE results (
            game_id      text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            position     integer NOT NULL,
            game         text NOT NULL,
            guild        text NOT NULL,
            player       text NOT NULL,
            rated_as     text NOT NULL,
            ai           boolean NOT NULL,
            name         text NOT NULL,
            rank         integer NOT NULL,
            score        integer NOT NULL,
            winner       boolean NOT NULL,
            players      integer NOT NULL,
            options      text NOT NULL,
            finished_at  double precision NOT NULL,
            mu_before    double precision NOT NULL,
            sigma_before double precision NOT NULL,
            mu_after     double precision NOT NULL,
            sigma_after  double precision NOT NULL,
            PRIMARY KEY (game_id, player)
        )
        """,
        "CREATE INDEX results_by_player ON results (guild, player, finished_at)",
        """
        CREATE TABLE ratings (
            guild  text NOT NULL,
            game   text NOT NULL,
            player text NOT NULL,
            mu     double precision NOT NULL,
            sigma  double precision NOT NULL,
            games  integer NOT NULL DEFAULT 0,
            ai     boolean NOT NULL DEFAULT false,
            name   text NOT NULL DEFAULT '',
            PRIMARY KEY (guild, game, player)
        )
        """,
        "CREATE INDEX ratings_by_ordinal ON ratings (guild, game, (mu - 3 * sigma) DESC)",
    ),
    # 3: the undo audit (issue 15): actions taken back leave the log but are kept here. The
    # same seq may be undone more than once (undone, played again, undone), hence ``id``.
    (
        """
        CREATE TABLE undone_actions (
            id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            game_id      text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq          integer NOT NULL,
            player       text NOT NULL,
            action       text NOT NULL,
            at           double precision NOT NULL,
            undone_at    double precision NOT NULL,
            requested_by text NOT NULL
        )
        """,
        "CREATE INDEX undone_by_game ON undone_actions (game_id, id)",
    ),
    # 4: the rest of SQLite's step 7 (undo). An audit row is one seq undone at one time, as
    # SQLite's key has it, so a copy (``import_undone``) written twice keeps one. The log gives
    # up a row only once its copy is in the audit, so nothing but ``undo`` shortens it (a
    # game's own deletion still takes its rows with it: the game is gone when its rows go). A
    # pending proposal is kept too (one per game), so a restart loses no request nor consents.
    (
        "CREATE UNIQUE INDEX undone_once ON undone_actions (game_id, undone_at, seq)",
        "DROP INDEX undone_by_game",  # the audit reads in the order of ``undone_once``
        """
        CREATE FUNCTION actions_delete_only_undone() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id) AND NOT EXISTS (
                SELECT 1 FROM undone_actions u
                WHERE u.game_id = OLD.game_id AND u.seq = OLD.seq AND u.player = OLD.player
                AND u.action = OLD.action AND u.at = OLD.at
            ) THEN
                RAISE EXCEPTION 'the action log loses its tail only to an undo, audited first';
            END IF;
            RETURN OLD;
        END
        $$
        """,
        "CREATE TRIGGER actions_delete_only_undone BEFORE DELETE ON actions "
        "FOR EACH ROW EXECUTE FUNCTION actions_delete_only_undone()",
        """
        CREATE TABLE undo_requests (
            game_id      text PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            requested_by text NOT NULL,
            version      bigint NOT NULL,
            keep         integer NOT NULL,
            awaiting     text NOT NULL DEFAULT '[]',
            accepted     text NOT NULL DEFAULT '[]',
            at           double precision NOT NULL,
            expires_at   double precision NOT NULL
        )
        """,
    ),
    # (issue 23, forgetting a player): the log stays append-only, except that a forgotten
    # player's rows are renamed to their former seat (``bot.store.forget``): who played a row,
    # and an action that names them; nothing else about a row may change.
    (
        """
        CREATE OR REPLACE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.game_id = OLD.game_id AND NEW.seq = OLD.seq AND NEW.at = OLD.at
                AND (NEW.player = OLD.player OR NEW.player LIKE 'former:%')
                AND (NEW.action = OLD.action OR NEW.action LIKE '%"former:%') THEN
                RETURN NEW;
            END IF;
            RAISE EXCEPTION 'the action log is append-only';
        END
        $$
        """,
    ),
    # (issue 22, delivery): the outbox, as in the SQLite step: every public post a change owes
    # is a row written in the change's transaction, claimed and sent by a delivery worker.
    (
        """
        CREATE TABLE outbox (
            seq         bigserial PRIMARY KEY,
            key         text NOT NULL UNIQUE,
            game_id     text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind        text NOT NULL,
            payload     text NOT NULL DEFAULT '{}',
            created_at  double precision NOT NULL,
            holder      text,
            lease_until double precision NOT NULL DEFAULT 0,
            attempts    integer NOT NULL DEFAULT 0,
            sent_at     double precision,
            channel     text,
            message     text
        )
        """,
        "CREATE INDEX outbox_unsent ON outbox (game_id, seq) WHERE sent_at IS NULL",
        # The bot processes on this database and the shards each serves (None: all), seen at
        # every scheduler tick: a start-up warns of another live process whose shards overlap.
        """
        CREATE TABLE processes (
            holder     text PRIMARY KEY,
            shards     text,
            started_at double precision NOT NULL,
            seen_at    double precision NOT NULL
        )
        """,
    ),
    # The web table (issue 26): each game's public id (what its page's address names, never
    # the six-letter id) and whether its channel is one everyone on its server can view.
    (
        """
        CREATE TABLE web_tables (
            game_id    text PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            public_id  text NOT NULL UNIQUE,
            public     boolean NOT NULL DEFAULT false,
            updated_at double precision NOT NULL
        )
        """,
    ),
    # Turn alerts (issue 27): each player's own choices, over every server (how they are told
    # of a turn, per game too; their time zone and quiet hours), as JSON (``bot.alerts``).
    (
        """
        CREATE TABLE player_prefs (
            player     text PRIMARY KEY,
            prefs      text NOT NULL,
            updated_at double precision NOT NULL
        )
        """,
    ),
    # Vacation days (issue 27): how many of a year's days a player has spent on a server.
    (
        """
        CREATE TABLE vacation_days (
            guild  text NOT NULL,
            player text NOT NULL,
            year   integer NOT NULL,
            spent  integer NOT NULL,
            PRIMARY KEY (guild, player, year)
        )
        """,
    ),
    # (issue 28, scale; as the SQLite step): ``results_pending``, the finished games whose
    # results are not yet written, kept by triggers so the start-up sweep reads only those;
    # ``games_open_by_update``, /game list's keyset order over a server's open games;
    # ``ratings_of_ai``, the AI identities' ratings read at a game's end; ``games_open_by_status``,
    # a server's open games by status, which the caps count; ``results_by_rating``, the games a
    # leaderboard entry was earned in.
    (
        """
        CREATE TABLE results_pending (
            game_id text PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE
        )
        """,
        """
        INSERT INTO results_pending (game_id)
        SELECT id FROM games g WHERE status = 'finished'
        AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)
        """,
        """
        CREATE FUNCTION results_pending_of_game() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.status = 'finished' AND (TG_OP = 'INSERT' OR OLD.status != 'finished')
               AND NOT EXISTS (SELECT 1 FROM results WHERE game_id = NEW.id) THEN
                INSERT INTO results_pending (game_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
            ELSIF TG_OP = 'UPDATE' AND NEW.status != 'finished' AND OLD.status = 'finished' THEN
                DELETE FROM results_pending WHERE game_id = NEW.id;
            END IF;
            RETURN NULL;
        END
        $$
        """,
        "CREATE TRIGGER results_pending_of_game AFTER INSERT OR UPDATE OF status ON games "
        "FOR EACH ROW EXECUTE FUNCTION results_pending_of_game()",
        """
        CREATE FUNCTION results_pending_done() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM results_pending WHERE game_id = NEW.game_id;
            RETURN NULL;
        END
        $$
        """,
        "CREATE TRIGGER results_pending_done AFTER INSERT ON results "
        "FOR EACH ROW EXECUTE FUNCTION results_pending_done()",
        "CREATE INDEX games_open_by_update ON games (guild, updated_at DESC, id DESC) "
        "WHERE status IN ('lobby', 'active') AND attention IS NULL",
        "CREATE INDEX ratings_of_ai ON ratings (guild, game) WHERE ai",
        "CREATE INDEX games_open_by_status ON games (guild, status) "
        "WHERE status IN ('lobby', 'active')",
        "CREATE INDEX results_by_rating ON results (guild, game, rated_as)",
    ),
    # (issue 28, scale; as the SQLite step): whose move each game is, written by every save
    # beside the snapshot, so a listing reads the columns it shows and never a state.
    (
        "ALTER TABLE games ADD COLUMN to_move text NOT NULL DEFAULT '[]'",
        _backfill_to_move,
    ),
    # (issue 28, scale; as the SQLite step): the sent rows by the time they were sent, which
    # the delivery worker prunes a page at a time once kept long enough (``bot.outbox``).
    ("CREATE INDEX outbox_sent ON outbox (sent_at) WHERE sent_at IS NOT NULL",),
    # (issue 35): secrets the bot makes once and keeps, so every process and restart agrees
    # on them: the web table's key when WEB_SECRET is not set.
    (
        """
        CREATE TABLE kept_secrets (
            name  text PRIMARY KEY,
            value text NOT NULL
        )
        """,
    ),
    # (issue 38): tournaments, each one document under a version (``bot.store.tournaments_sql``).
    (
        """
        CREATE TABLE tournaments (
            id         text PRIMARY KEY,
            guild      text NOT NULL,
            channel    text NOT NULL,
            status     text NOT NULL,
            version    integer NOT NULL,
            due_at     double precision,
            created_at double precision NOT NULL,
            data       text NOT NULL
        )
        """,
        "CREATE INDEX tournaments_due ON tournaments (due_at) WHERE due_at IS NOT NULL",
        "CREATE INDEX tournaments_by_guild ON tournaments (guild, created_at)",
    ),
    # (issue 39; as the SQLite step): who took a hint in which game (``bot.hints``).
    (
        """
        CREATE TABLE hints_taken (
            game_id text NOT NULL,
            player  text NOT NULL,
            at      double precision NOT NULL,
            PRIMARY KEY (game_id, player)
        )
        """,
        "ALTER TABLE results ADD COLUMN hinted boolean NOT NULL DEFAULT false",
    ),
    # (issue 38, seasons): as SQLite's: seasons, who timed out of each game, and the results
    # of a server's game by time finished.
    (
        """
        CREATE TABLE seasons (
            guild     text NOT NULL,
            game      text NOT NULL,
            number    integer NOT NULL,
            status    text NOT NULL,
            version   integer NOT NULL,
            starts_at double precision NOT NULL,
            ends_at   double precision NOT NULL,
            due_at    double precision,
            data      text NOT NULL,
            PRIMARY KEY (guild, game, number)
        )
        """,
        "CREATE INDEX seasons_due ON seasons (due_at) WHERE due_at IS NOT NULL",
        """
        CREATE TABLE timeouts (
            game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            player  text NOT NULL,
            PRIMARY KEY (game_id, player)
        )
        """,
        "CREATE INDEX results_by_season ON results (guild, game, finished_at)",
    ),  # (issue 38, titles): as SQLite's.
    (
        """
        CREATE TABLE titles (
            guild    text NOT NULL,
            player   text NOT NULL,
            title    text NOT NULL,
            game_id  text NOT NULL DEFAULT '',
            given_by text NOT NULL DEFAULT '',
            at       double precision NOT NULL,
            PRIMARY KEY (guild, player, title, game_id, given_by)
        )
        """,
        "CREATE UNIQUE INDEX titles_given_once ON titles (game_id, given_by) WHERE given_by <> ''",
    ),
    # (issue 38, across servers): as SQLite's: tournaments open to other servers.
    (
        "ALTER TABLE tournaments ADD COLUMN cross_server boolean NOT NULL DEFAULT false",
        "CREATE INDEX tournaments_cross_server ON tournaments (status, created_at) "
        "WHERE cross_server",
    ),
]

LATEST = len(MIGRATIONS)

#: Serialises migrations of one schema across processes (the key is a hash of this and the
#: schema's name, so test schemas side by side do not wait for each other).
_LOCK = "tabletop-bot migrations"


async def schema_version(conn: asyncpg.Connection) -> int:
    """The highest step applied to the current schema (0 for a fresh one)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


async def migrate(conn: asyncpg.Connection, steps: Sequence[Step] = MIGRATIONS) -> list[int]:
    """Bring the current schema up to ``len(steps)``; return the versions applied.

    A schema newer than ``steps`` is refused: old code on a newer schema could corrupt it.
    """
    applied: list[int] = []
    target = len(steps)
    while True:
        async with conn.transaction():
            await conn.execute(
                "SELECT pg_advisory_xact_lock(hashtext($1 || current_schema()))", _LOCK
            )
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            current = await schema_version(conn)
            if current > target:
                raise StoreError(
                    f"database schema version {current} is newer than this code knows "
                    f"({target}); upgrade the bot"
                )
            if current == target:
                return applied
            for statement in steps[current]:
                if isinstance(statement, str):
                    await conn.execute(statement)
                else:
                    await statement(conn)
            await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", current + 1)
        applied.append(current + 1)
