"""Listings that stay flat as a server's history grows (issue 28): paged by a key, and every
query the store runs read through an index, never a whole table or a whole server.

The plan test records the statements a day of a server makes the store run (the SQL each
connection is handed: SQLite's trace with its parameters bound, asyncpg's query logger) and asks
the database how it would run each one: ``EXPLAIN QUERY PLAN`` on SQLite, ``EXPLAIN`` on
PostgreSQL with sequential scans priced out (a small table is cheaper to scan, so without it the
planner would scan whatever index there is). A plan fails when it scans a table, walks a whole
index, or searches by the server alone (every game the server ever had), except the one listing
whose partial index holds only open games and whose order, with its LIMIT, stops it at a page.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import asyncpg
import pytest

from bench.scale import result_rows
from bot.service import GameService
from bot.store import FINISHED, GameRecord, Store
from bot.store.base import ACTIVE, LOBBY, Rating, ResultRow, page_key
from tests.backends import Backend
from tests.store.games import GUILD, PLAYERS, play, started

#: Indexes whose search by the server alone stays small: open games only, or ratings, in the
#: order of a page (its LIMIT stops the read at the page, unless the rows are sorted again)...
PAGED = {"games_open_by_update", "ratings_by_ordinal"}
#: ... and the AI identities of a server's game (one per level), a server's settings.
BOUNDED = PAGED | {"ratings_of_ai", "guild_settings_pkey"}
#: A table of markers, and partial indexes, as long as what is owed (results not yet written,
#: posts not yet sent, threads not yet archived: ``archive_at`` is cleared once done), not as
#: the history: walked whole, they cost what is owed. (``outbox_sent``, the sent posts kept a
#: week, is not one: the prune must search it by time, and so it does.)
MARKERS = {"results_pending", "outbox_unsent", "games_by_archive"}


def history(record: GameRecord, count: int) -> list[GameRecord]:
    """``count`` copies of ``record`` in three channels, every other one in a thread, half
    finished, each with players of its own but the first (who sits at every fifth): a server
    with a past."""
    copies = []
    for i in range(count):
        game = replace(record, id=f"h{i:04d}", channel=f"c{i % 3}", status=ACTIVE, version=1)
        game.thread = f"t{i}" if i % 2 else None
        game.created_at = game.updated_at = 1000.0 + i
        game.remind_at = game.deadline = None
        game.status = (FINISHED, ACTIVE, LOBBY, FINISHED)[i % 4]
        game.seats = [
            replace(seat, user=seat.user if i % 5 == 0 else f"{seat.user}-{i}")
            for seat in record.seats
        ]
        copies.append(game)
    return copies


def one_result(record: GameRecord) -> Callable[[dict[str, Rating]], Any]:
    """A ``RateGame`` writing ``record``'s result rows as the bench does, and a rating each."""

    def rate(current: dict[str, Rating]) -> tuple[list[ResultRow], list[Rating]]:
        rows = result_rows(record)
        return rows, [Rating(r.guild, r.game, r.player, r.mu_after, r.sigma_after) for r in rows]

    return rate


async def a_day(store: Store) -> None:
    """What a busy server asks of the store: games started and played, every listing, a page
    after another and back, a game's results and the leaderboard."""
    service = GameService(store, seed_factory=lambda: "plans")
    record = await play(service, await started(service, "c0"), 6)
    for game in history(record, 40):
        await store.create_game(game)
    home = record.home
    await store.games_in_channel(GUILD, "c0")
    await store.games_in_channel(GUILD, "t1")
    await store.games_in_channel(GUILD, "c1", (FINISHED,))
    for where in (None, "c1"):
        first = await store.games_in_guild(GUILD, where, limit=5)
        second = await store.games_in_guild(GUILD, where, limit=5, after=page_key(first[-1]))
        await store.games_in_guild(GUILD, where, limit=5, before=page_key(second[0]))
    await store.games_of_player(GUILD, PLAYERS[0], limit=25)
    await store.latest_messages([record.id, "h0001"], "board")
    await store.needing_attention(GUILD, home)
    await store.get_game(record.id)
    await store.actions(record.id)
    await store.get_message(record.id, "board")
    await store.due_games(2000.0)
    await store.expired_lobbies(2000.0)
    await store.threads_to_archive(2000.0)
    for owed in await store.finished_without_results(10):
        await store.record_results(owed.id, one_result(owed))
    await store.results_of_game("h0000")
    await store.player_results(GUILD, PLAYERS[0], record.game)
    await store.ratings(GUILD, record.game, list(PLAYERS))
    await store.leaderboard(GUILD, record.game, limit=10)
    await store.undo_request(record.id)
    await store.guild_settings(GUILD)
    await store.rated_places(GUILD, record.game, PLAYERS[0])
    await store.due_clocks(2000.0)
    await store.claim_outbox("plans", 2000.0, 30.0, 10)
    await store.prune_outbox(1000.0, 500)
    await store.unsent(record.id)
    await store.web_table_of(record.id)
    await store.vacation_days_spent(GUILD, PLAYERS[0], 2026)
    await store.count_threads(GUILD)
    await store.finished_threads(GUILD, 10)


# -- keyset paging ------------------------------------------------------------------------------


async def test_a_server_list_pages_by_key_latest_moved_first_and_back(store: Store) -> None:
    service = GameService(store, seed_factory=lambda: "pages")
    record = await started(service, "c0")
    for game in history(record, 23):
        await store.create_game(game)
    open_ids = [
        g.id
        for g in sorted(
            [record, *history(record, 23)], key=lambda g: (g.updated_at, g.id), reverse=True
        )
        if g.status in (LOBBY, ACTIVE)
    ]
    pages: list[list[GameRecord]] = []
    after = None
    while True:
        page = await store.games_in_guild(GUILD, None, limit=4, after=after)
        if not page:
            break
        pages.append(page)
        after = page_key(page[-1])
    assert [g.id for page in pages for g in page] == open_ids  # each once, latest moved first
    assert all(len(page) == 4 for page in pages[:-1])
    back = await store.games_in_guild(GUILD, None, limit=4, before=page_key(pages[2][0]))
    assert back == pages[1]  # Previous shows the page that was there, in the same order

    here = await store.games_in_guild(GUILD, "c1", limit=50)
    assert [g.id for g in here] == [
        g
        for g in open_ids
        if g != record.id and int(g[1:]) % 3 == 1  # (a random id may start "h")
    ]
    in_thread = await store.games_in_guild(GUILD, "t13", limit=50)
    assert [g.id for g in in_thread] == ["h0013"]  # from its thread, the thread's game
    assert await store.games_in_guild("other", None, limit=4) == []


# -- plans ---------------------------------------------------------------------------------------

STATEMENT = re.compile(r"^\s*(SELECT|WITH|UPDATE|DELETE|INSERT)\b", re.IGNORECASE)


def server_wide(columns: list[str]) -> bool:
    """Whether an index searched on ``columns`` alone yields a whole server's rows (of one
    game, at most): every game, result or rating it ever had."""
    return bool(columns) and set(columns) <= {"guild", "game"}


def sqlite_faults(plan: list[str]) -> list[str]:
    """What in an ``EXPLAIN QUERY PLAN`` reads a whole table or a whole server."""
    sorts = any(line.startswith("USE TEMP B-TREE FOR ORDER BY") for line in plan)
    faults = []
    for line in plan:
        scan = re.match(r"SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?", line)
        if scan and not {scan[1], scan[2]} & MARKERS and scan[1] != "CONSTANT":
            faults.append(line)
        search = re.match(r"SEARCH \w+ USING (?:COVERING )?INDEX (\w+) \((.*)\)$", line)
        if (
            search
            and server_wide(re.findall(r"(\w+)[=<>]", search[2]))
            and (search[1] not in BOUNDED or (search[1] in PAGED and sorts))
        ):
            faults.append(line)
    return faults


def postgres_faults(plan: list[str]) -> list[str]:
    """What in an ``EXPLAIN`` reads a whole table or a whole server: a sequential scan, an
    index walked without a condition, or searched by the server alone."""
    faults = []
    for at, line in enumerate(plan):
        if "Seq Scan" in line:
            faults.append(line)
        node = re.search(
            r"(?:Index|Index Only|Bitmap Index) Scan(?: Backward)? using (\w+)(?: on (\w+))?", line
        )
        if node is None or {node[1], node[2]} & MARKERS:
            continue
        rest = []
        for below in plan[at + 1 :]:
            if "->" in below:
                break
            rest.append(below)
        cond = next((r for r in rest if "Index Cond:" in r), None)
        if cond is None:
            faults.append(f"{line} (no condition)")
        elif server_wide(re.findall(r"\((\w+) [=<>]", cond)) and node[1] not in BOUNDED:
            faults.append(f"{line} {cond}")
    return faults


def logged_query(query: Any) -> tuple[str, tuple[Any, ...]]:
    """A query asyncpg ran and its arguments (the first row's, of an ``executemany``, whose
    arguments are a list of rows rather than a tuple)."""
    args = query.args if isinstance(query.args, tuple) else next(iter(query.args), ())
    return query.query, tuple(args)


async def statements_of_a_day(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The statements ``a_day`` ran (after the store opened: its migrations are not asked),
    with their parameters: SQL text on SQLite, (query, args) on PostgreSQL."""
    seen: list[Any] = []
    recording = [False]
    if backend.name == "sqlite":
        connect = sqlite3.connect

        def traced(*args: Any, **kwargs: Any) -> sqlite3.Connection:
            conn = connect(*args, **kwargs)
            conn.set_trace_callback(lambda sql: recording[0] and seen.append(sql))
            return conn

        monkeypatch.setattr(sqlite3, "connect", traced)
    else:
        create_pool = asyncpg.create_pool

        async def logged(conn: asyncpg.Connection) -> None:
            conn.add_query_logger(lambda query: recording[0] and seen.append(logged_query(query)))

        def pool(*args: Any, **kwargs: Any) -> Any:
            return create_pool(*args, init=logged, **kwargs)

        monkeypatch.setattr(asyncpg, "create_pool", pool)
    store = await backend.opened()
    # asyncpg hands a query to its loggers with ``call_soon``, once the query is done, so a
    # flag set in line would count the open's last queries or miss the day's, as the loop
    # happens to run: each flip is queued behind the loggers of the queries run before it.
    loop = asyncio.get_running_loop()
    loop.call_soon(recording.__setitem__, 0, True)
    try:
        await a_day(store)
    finally:
        loop.call_soon(recording.__setitem__, 0, False)
        await asyncio.sleep(0)  # the loop runs what was queued, the flip last, then this
        await store.close()
    return seen


async def test_no_query_of_a_day_scans_a_table_or_a_server(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = await statements_of_a_day(backend, monkeypatch)
    monkeypatch.undo()
    # The posts sent long ago stay in the outbox: a claim must not walk them.
    await backend.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) "
        "INSERT INTO outbox (key, game_id, kind, payload, created_at, sent_at) "
        "SELECT 'sent-' || i, 'h0000', 'board', '{}', 1.0, 2.0 FROM n"
    )
    faults: dict[str, list[str]] = {}
    explained = 0
    if backend.name == "sqlite":
        conn = sqlite3.connect(backend.url.removeprefix("sqlite:///"))
        try:
            for sql in dict.fromkeys(s for s in seen if STATEMENT.match(s)):
                plan = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}")]
                explained += 1
                if found := sqlite_faults(plan):
                    faults[sql] = found
        finally:
            conn.close()
    else:
        conn = await asyncpg.connect(backend.url)
        try:
            async with conn.transaction():
                await analyzed(conn)
                # A small table is cheaper to scan, or to hash whole: priced out, the planner
                # shows the plan a large one gets, by key, or a scan if the query leaves it no
                # other.
                for method in ("seqscan", "hashjoin", "mergejoin"):
                    await conn.execute(f"SET LOCAL enable_{method} = off")
                queries = {  # not a script (tables emptied), nor asyncpg's look at the catalog
                    query: args
                    for query, args in seen
                    if STATEMENT.match(query)
                    and ";" not in query.strip().rstrip(";")
                    and "pg_type" not in query
                }
                for query, args in queries.items():
                    plan = [row[0] for row in await conn.fetch(f"EXPLAIN {query}", *args)]
                    explained += 1
                    if found := postgres_faults(plan):
                        faults[query] = [*found, "the plan:", *plan]
        finally:
            await conn.close()
    assert explained > 30  # the day ran, and was recorded
    assert faults == {}, "\n".join(
        f"{q[:300]}\n" + "\n".join(f"    {line}" for line in f) for q, f in faults.items()
    )


async def analyzed(conn: asyncpg.Connection) -> None:
    """``ANALYZE`` this schema's tables, as autovacuum keeps a live server's, in the caller's
    transaction: until it ends, their statistics are the ones every plan is asked with. The
    lock ``ANALYZE`` holds to the end keeps autovacuum from vacuuming or analyzing them again
    meanwhile (a vacuum marks pages all-visible, which makes an index-only scan cheaper); and
    no other schema on the server is analyzed, so another run's tables (pytest-xdist's other
    workers', locked, truncated or dropped) are never waited for."""
    tables = await conn.fetch(
        "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = current_schema()"
    )
    await conn.execute(f"ANALYZE {', '.join(row[0] for row in tables)}")
