"""`python -m bench.load`: the bot under load, as ratios to a trivial bot run the same way.

Many Street Art games are driven at once through discord.py's real dispatch with the offline
harness (tests/harness): raw INTERACTION_CREATE payloads in, recorded HTTP out. At each level
N, rounds of N interactions are delivered together (one per game: a Board click by a player
who waits, My hand by the player to move, then their pick) and the bot is left to finish the
round. First response = the interaction's callback (answer, defer or update) minus its
delivery; event-loop lag = how late a 5 ms ticker wakes. The floor is a trivial bot on the same
harness in the same run: it defers, then follows up with a file the size of a board. Only the
ratios mean something: the harness shares the loop and the machine may be shared.

Also measured: boards a second drawn by the worker pool as a multiple of one core's rate; cold
start with 10,000 stored games; resident memory with 1,000 stored games and with 100 active.
It reports and never fails on a figure.

With ``--postgres`` each level then runs again on a fresh SQLite file and straight after on
PostgreSQL (a fresh schema on the server of the URL, or of TEST_POSTGRES_URL; `.ci/with-postgres`
starts a throwaway one), so both meet the same machine, and PostgreSQL's figures are reported as
ratios to SQLite's.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import json
import math
import multiprocessing
import os
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.ai import RandomAgent
from bot.config import Settings
from bot.guild_settings import GuildSettings
from bot.pictures import draw_board
from bot.pool import WorkerPool
from bot.service import GameService
from bot.store import open_store
from bot.store.base import ACTIVE
from bot.store.postgres import where
from cogs.app import create_bot
from rules import GAMES
from tests.backends import drop_schema, fresh_schema, with_schema
from tests.harness import Channel, FakeDiscord, Harness, Response, SeenMessage, User
from tests.harness import validate as payload_checks
from tests.harness.fake_discord import InteractionRecord

GAME = "street-art"
PLAYERS = [
    User(id=1001, name="ana", global_name="Ana"),
    User(id=1002, name="bo", global_name="Bo"),
    User(id=1003, name="cy", global_name="Cy"),
]
TICK = 0.005
DEADLINE = 3.0  # Discord's window for the first response


# -- the harness, driven many interactions at a time ----------------------------------------------


class LoadHarness(Harness):
    """The test harness with one change: a verb (``slash``, ``click``, ``select``) delivers its
    interaction and returns at once, without waiting for the bot, so many are in flight;
    ``settle()`` then waits for all of them. The returned Response carries only the
    interaction's record; what the bot sent is read from the fake afterwards."""

    async def _interact(
        self, record: InteractionRecord, payload: dict[str, Any], *, allow_errors: bool
    ) -> Response:
        record.created_at = time.monotonic()  # delivery, not the building of the payload
        await self.dispatch_gateway("INTERACTION_CREATE", payload)
        return Response(interaction=record, messages=[], deleted_ids=[], requests=[])

    def sent(self, record: InteractionRecord) -> list[SeenMessage]:
        """The messages an interaction's answer and follow-ups are now (updates included)."""
        ids = [i for i in (record.original_id, *record.followup_ids) if i is not None]
        return [self.fake.stored(i).snapshot() for i in ids if i in self.fake.messages]

    def forget(self, keep: set[int]) -> list[str]:
        """Drop what the fake recorded of finished interactions (requests with their files,
        messages other than ``keep``), so a long run measures the bot's memory, not the
        recording's. Returns the recorded requests' payload issues first."""
        issues = [f"{r.method} {r.path}: {i}" for r in self.fake.requests for i in r.issues]
        self.fake.requests.clear()
        self.fake.log.clear()
        self.fake.messages = {k: m for k, m in self.fake.messages.items() if k in keep}
        live = {t: r for t, r in self.fake.interactions.items() if r.original_id in keep}
        self.fake.interactions = live
        return issues


class LoopLag:
    """How late a ticker wakes on the event loop: every delay here is one every handler felt."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self.task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(TICK)
            self.samples.append(time.perf_counter() - start - TICK)

    def start(self, harness: Harness) -> None:
        self.samples = []
        self.task = asyncio.create_task(self._tick())
        harness.settler.ignore = lambda task: task is self.task  # it never settles by design

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


class TimedLock:
    """Stands in for the store's ``asyncio.Lock`` and records how long each acquire waited."""

    def __init__(self, lock: asyncio.Lock) -> None:
        self._lock = lock
        self.waits: list[float] = []

    async def __aenter__(self) -> None:
        start = time.perf_counter()
        await self._lock.acquire()
        self.waits.append(time.perf_counter() - start)

    async def __aexit__(self, *exc_info: object) -> None:
        self._lock.release()


def time_store_lock(bot: Any) -> Any:
    """What records the store's waits for its writer, as ``.waits``: a wrapped lock if the store
    has one, the dedicated writer's own record if it has that (SqliteStore's ``_conn``), else
    None."""
    store = getattr(bot, "store", None)
    lock = getattr(store, "_lock", None)
    if isinstance(lock, asyncio.Lock):
        store._lock = TimedLock(lock)  # type: ignore[union-attr]
        return store._lock  # type: ignore[union-attr]
    writer = getattr(store, "_conn", None)
    if writer is None or not hasattr(writer, "waits"):
        return None
    writer.waits = []
    return writer


# -- figures ----------------------------------------------------------------------------------


def quantile(samples: list[float], q: float) -> float:
    """The sample at rank ceil(q·n) (nearest rank): p99 of 100 samples is the 99th."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass
class Phase:
    """What one bot did at one level: first responses, loop lag, and anything that went wrong."""

    acks: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    lag: list[float] = field(default_factory=list)
    late: int = 0
    unanswered: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def record(self, kind: str, record: InteractionRecord) -> None:
        if record.acked_at is None:
            self.unanswered += 1
            return
        seconds = record.acked_at - record.created_at
        self.acks.append(seconds)
        self.by_kind.setdefault(kind, []).append(seconds)
        self.late += seconds > DEADLINE

    def figures(self) -> dict[str, Any]:
        ms = 1000
        return {
            "interactions": len(self.acks) + self.unanswered,
            "first_response_p50_ms": round(quantile(self.acks, 0.5) * ms, 1),
            "first_response_p99_ms": round(quantile(self.acks, 0.99) * ms, 1),
            "first_response_max_ms": round(max(self.acks, default=math.nan) * ms, 1),
            "p99_by_kind_ms": {
                k: round(quantile(v, 0.99) * ms, 1) for k, v in sorted(self.by_kind.items())
            },
            "loop_lag_p50_ms": round(quantile(self.lag, 0.5) * ms, 2),
            "loop_lag_max_ms": round(max(self.lag, default=math.nan) * ms, 1),
            "over_3s": self.late,
            "unanswered": self.unanswered,
            "errors": self.errors[:5],
            "seconds": round(self.seconds, 1),
        }


Fire = Callable[[], Awaitable[Response]]


async def burst(
    harness: LoadHarness, fires: list[tuple[str, Fire]], phase: Phase | None
) -> list[InteractionRecord]:
    """Deliver every interaction of ``fires`` at once, then wait until the bot is idle."""
    records = [(await fire()).interaction for _, fire in fires]
    try:
        await harness.settle(timeout=300)
    except AssertionError as error:  # a BotError or SettleTimeout: count it, keep measuring
        if phase is None:
            raise
        phase.errors.append(str(error)[:500])
    if phase is not None:
        for (kind, _), record in zip(fires, records, strict=True):
            phase.record(kind, record)
    return records


# -- the project's bot: Street Art tables ----------------------------------------------------


def players_at(table: int) -> list[User]:
    """The three players of one table, its own: a player may host only a few lobbies at once
    and sit in a bounded number of games (``bot.limits``), as on a real server."""
    base = 2_000_000 + 3 * table
    return [User(id=base + k, name=f"{name}{table}") for k, name in enumerate(("ana", "bo", "cy"))]


@dataclass
class Table:
    """One game in its own channel, and what its players would do next."""

    channel: Channel
    players: list[User]
    board: SeenMessage | None = None
    panel: SeenMessage | None = None
    turn: int = 0

    @property
    def over(self) -> bool:
        return self.board is None or not self.board.mentions

    def mover(self) -> User:
        assert self.board is not None
        return next(p for p in self.players if p.id == self.board.mentions[0])

    def watcher(self) -> User:
        return next(p for p in self.players if p.id != self.mover().id)

    def keep(self) -> set[int]:
        return {m.id for m in (self.board, self.panel) if m is not None}


def is_board(message: SeenMessage) -> bool:
    return not message.ephemeral and "board.png" in message.files


def is_panel(message: SeenMessage) -> bool:
    """An ephemeral message offering moves: a select of legal actions or action buttons."""
    ids = [c.custom_id or "" for c in (*message.selects, *message.buttons)]
    return message.ephemeral and any(":pick" in i or ":act:" in i for i in ids)


def next_interaction(h: LoadHarness, table: Table, rng: random.Random) -> tuple[str, Fire]:
    """The table's next click: a pending choice first, else Board (a waiting player) and My
    hand (the player to move) in turn."""
    panel = table.panel
    if panel is not None:
        mover = table.mover()
        if panel.selects:
            select = panel.selects[0]
            value = rng.choice(select.options)["value"]
            return "pick", lambda: h.select(mover, panel, select.custom_id, [value])
        acts = [b for b in panel.buttons if ":act:" in (b.custom_id or "")]
        button = rng.choice(acts)
        return "pick", lambda: h.click(mover, panel, button.custom_id)
    assert table.board is not None
    board = table.board
    table.turn += 1
    if table.turn % 2:
        return "board", lambda: h.click(table.watcher(), board, label="Board")
    return "hand", lambda: h.click(table.mover(), board, label="My hand")


def advance(h: LoadHarness, table: Table, record: InteractionRecord) -> None:
    """Read what the interaction left: a new public board, a panel to choose on, or neither."""
    sent = h.sent(record)
    boards = [m for m in sent if is_board(m)]
    panels = [m for m in sent if is_panel(m)]
    if boards:
        table.board, table.panel = boards[-1], None
    elif panels:
        table.panel = panels[-1]
    elif table.panel is not None:  # a choice answered without a new board: look in the channel
        posted = [m for m in h.fake.channel_messages(table.channel.id) if is_board(m)]
        table.board, table.panel = (posted[-1] if posted else table.board), None


async def open_games(h: LoadHarness, tables: list[Table]) -> None:
    """A fresh three-player game at every table, four bursts of commands (not measured)."""
    # In the channel (no thread): every board comes back as the interaction's own answer.
    opened = [("", _slash(h, t.players[0], t, "game new", game=GAME, thread=False)) for t in tables]
    await burst(h, opened, None)
    for seat in (1, 2):
        await burst(h, [("", _slash(h, t.players[seat], t, "game join")) for t in tables], None)
    starts = [("", _slash(h, t.players[0], t, "game start")) for t in tables]
    records = await burst(h, starts, None)
    for table, record in zip(tables, records, strict=True):
        table.board, table.panel = next(m for m in h.sent(record) if is_board(m)), None


def _slash(h: LoadHarness, user: User, table: Table, command: str, **options: Any) -> Fire:
    return lambda: h.slash(user, command, channel=table.channel, **options)


async def measured(
    h: LoadHarness, rounds: int, one_round: Callable[[Phase], Awaitable[None]]
) -> Phase:
    """``rounds`` rounds with the loop-lag ticker on and the collector frozen (a collection
    pause of 100-200 ms would otherwise be most of the lag figure)."""
    phase = Phase()
    lag = LoopLag()
    gc.collect()
    gc.freeze()
    start = time.perf_counter()
    lag.start(h)
    for _ in range(rounds):
        await one_round(phase)
    await lag.stop()
    phase.seconds = time.perf_counter() - start
    phase.lag = lag.samples
    return phase


async def project_level(
    h: LoadHarness, tables: list[Table], level: int, rounds: int, rng: random.Random
) -> Phase:
    playing = tables[:level]

    async def one_round(phase: Phase) -> None:
        finished = [t for t in playing if t.over]
        if finished:
            await open_games(h, finished)
        fires = [next_interaction(h, t, rng) for t in playing]
        records = await burst(h, fires, phase)
        for table, record in zip(playing, records, strict=True):
            advance(h, table, record)
        phase.errors += h.forget(set().union(*(t.keep() for t in tables)))

    return await measured(h, rounds, one_round)


# -- the floor: a trivial bot ------------------------------------------------------------------


class TrivialBot(discord.Client):
    """Defers, then follows up with a board-sized PNG: the least any bot that posts a board
    does per interaction, through the same discord.py and the same harness."""

    def __init__(self, png: bytes) -> None:
        super().__init__(
            intents=discord.Intents.default(), allowed_mentions=discord.AllowedMentions.none()
        )
        self.tree = app_commands.CommandTree(self)
        self.png = png

        @self.tree.command(name="board", description="A board-sized picture")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            picture = discord.File(io.BytesIO(self.png), filename="board.png")
            await interaction.followup.send(file=picture)


async def floor_level(h: LoadHarness, channels: list[Channel], level: int, rounds: int) -> Phase:
    async def one_round(phase: Phase) -> None:
        fires: list[tuple[str, Fire]] = [
            ("board", _floor_fire(h, PLAYERS[i % 3], c)) for i, c in enumerate(channels[:level])
        ]
        await burst(h, fires, phase)
        phase.errors += h.forget(set())

    return await measured(h, rounds, one_round)


def _floor_fire(h: LoadHarness, user: User, channel: Channel) -> Fire:
    return lambda: h.slash(user, "board", channel=channel)


# -- stored games, cold start, memory ------------------------------------------------------------


def rss_mib(pid: int | str = "self") -> float:
    """Resident memory of a process (Linux /proc), MiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return math.nan


def children_rss_mib() -> float:
    """Resident memory of this process's worker processes (a pool's), MiB."""
    return round(sum(rss_mib(p.pid) for p in multiprocessing.active_children()), 1)


async def store_games(url: str, count: int) -> None:
    """``count`` active Street Art games in the store, copies of one real started game, each in
    a channel of its own: what a server full of idle games looks like to a starting bot."""
    store = open_store(url)
    await store.open()
    try:
        service = GameService(store, seed_factory=lambda: "stored")
        seats = [str(p.id) for p in PLAYERS]
        record = await service.new_game(GAME, "stored", "template", seats[0], "Ana")
        for seat, name in zip(seats[1:], ("Bo", "Cy"), strict=True):
            await service.join("stored", "template", seat, name, record.id)
        record = (await service.start("stored", "template", seats[0], record.id)).record
        for i in range(count):
            copy = replace(record, id=f"s{i:05d}", channel=f"stored-{i}", status=ACTIVE)
            copy.remind_at = copy.deadline = None
            await store.create_game(copy)
    finally:
        await store.close()


def new_harness(bot: discord.Client, channels: list[Channel]) -> Awaitable[Harness]:
    members = PLAYERS + [p for table in range(len(channels)) for p in players_at(table)]
    return LoadHarness.start(
        bot, FakeDiscord(), channels=channels, members=members, settle_timeout=300
    )


async def room_for(h: Harness, tables: int) -> None:
    """Lets the harness's server run ``tables`` games at once: more than the default cap of
    running games a server may hold (``server_games``), as an admin of a busy server would."""
    service = h.bot.service
    assert service is not None
    cap = max(tables, GuildSettings().server_games)
    await service.configure(str(h.world.guild_id), server_games=cap)


async def cold_start(folder: Path, stored: int) -> dict[str, Any]:
    """Seconds from a new bot to one that is logged in, synced and idle, with ``stored`` games."""
    url = f"sqlite:///{folder / 'cold.db'}"
    await store_games(url, stored)
    start = time.perf_counter()
    h = await new_harness(create_bot(database_url=url, discord_token=""), [Channel(9, "cold")])
    seconds = time.perf_counter() - start
    await h.close()
    return {"stored_games": stored, "seconds": round(seconds, 2)}


async def memory(folder: Path, stored: int, active: int, rng: random.Random) -> dict[str, Any]:
    """RSS of the bot's process (the in-process fake Discord included) and its workers, idle
    with ``stored`` games, then with ``active`` games that each just had a turn's clicks."""
    url = f"sqlite:///{folder / 'memory.db'}"
    await store_games(url, stored)
    channels = [Channel(id=50_000 + i, name=f"memory-{i}") for i in range(active)]
    gc.collect()
    before = rss_mib()
    h = await new_harness(create_bot(database_url=url, discord_token=""), channels)
    assert isinstance(h, LoadHarness)
    gc.collect()
    idle = {"process_mib": rss_mib(), "workers_mib": children_rss_mib()}
    tables = [Table(c, players_at(i)) for i, c in enumerate(channels)]
    await open_games(h, tables)
    for _ in range(3):  # Board, My hand, a pick at every table
        records = await burst(h, [next_interaction(h, t, rng) for t in tables], None)
        for table, record in zip(tables, records, strict=True):
            advance(h, table, record)
        h.forget(set().union(*(t.keep() for t in tables)))
    gc.collect()
    busy = {"process_mib": rss_mib(), "workers_mib": children_rss_mib()}
    await h.close()
    return {
        "before_bot_mib": before,
        f"stored_{stored}": idle,
        f"active_{active}": busy,
    }


# -- boards a second -----------------------------------------------------------------------------


def sample_views(
    count: int, rng: random.Random
) -> list[tuple[str, dict[str, Any], dict[str, str]]]:
    """Public views of every game at random points of random games: the boards to draw."""
    agent = RandomAgent("load")
    out = []
    for game_id in sorted(GAMES):
        game = GAMES[game_id]
        seats = max(game.min_players, min(4, game.max_players))
        players = [f"p{i}" for i in range(seats)]
        names = {p: f"Player {p}" for p in players}
        for n in range(count // len(GAMES)):
            state = game.start(players, f"load-{n}", dict(game.default_options))
            for _ in range(rng.randrange(0, 40)):
                waiting = game.to_move(state)
                if not waiting or game.outcome(state) is not None:
                    break
                state, _ = game.play(state, waiting[0], agent.choose(game, state, waiting[0]))
            out.append((game_id, game.view(state, None), names, []))
    return out


def children_cpu_seconds() -> float:
    """User and system CPU time of this process's worker processes so far (Linux /proc)."""
    total = 0
    for child in multiprocessing.active_children():
        try:
            fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15 of stat
    return total / os.sysconf("SC_CLK_TCK")


async def boards_per_second(workers: int, rng: random.Random) -> dict[str, Any]:
    """Boards a second drawn inline on one core, and by the pool on every worker. The CPU
    seconds the workers used per second of the run tell how many cores the machine really
    gave them: on a shared machine that, not the pool, may be the limit."""
    views = sample_views(48, rng)
    for item in views:  # warm this process's caches as the workers warm theirs
        draw_board(*item)
    start, cpu = time.perf_counter(), time.process_time()
    for item in views:
        draw_board(*item)
    wall = time.perf_counter() - start
    one_core, inline_cpu = len(views) / wall, (time.process_time() - cpu) / len(views)
    pool = WorkerPool(workers)
    try:
        await pool.ready()
        await asyncio.gather(*(pool.run(draw_board, *item) for item in views))  # warm, untimed
        start, cpu = time.perf_counter(), children_cpu_seconds()
        await asyncio.gather(*(pool.run(draw_board, *item) for item in views * 3))
        wall = time.perf_counter() - start
        pool_cpu = children_cpu_seconds() - cpu
    finally:
        await pool.close()
    pooled = 3 * len(views) / wall
    return {
        "workers": pool.workers,
        "one_core_per_s": round(one_core, 1),
        "pool_per_s": round(pooled, 1),
        "multiple_of_one_core": round(pooled / one_core, 2),
        "inline_cpu_ms_per_board": round(inline_cpu * 1000, 1),
        "pool_cpu_ms_per_board": round(pool_cpu / (3 * len(views)) * 1000, 1),
        "cores_the_workers_got": round(pool_cpu / wall, 2),
    }


# -- the run -------------------------------------------------------------------------------------


def rounds_for(level: int, samples: int) -> int:
    return max(3, math.ceil(samples / level))


async def load(
    folder: Path,
    levels: list[int],
    samples: int,
    rng: random.Random,
    url: str = "",
    checks: DeferredChecks | None = None,
) -> dict:
    """The load scenario on the store at ``url`` (default: a SQLite file in ``folder``);
    ``checks``: the payload checks deferred to after each level's timed phases."""
    channels = [Channel(id=10_000 + i, name=f"table-{i}") for i in range(max(levels))]
    sample = sample_views(len(GAMES), rng)
    png = draw_board(*next(v for v in sample if v[0] == GAME))
    floor = await new_harness(TrivialBot(png), channels)
    bot = create_bot(database_url=url or f"sqlite:///{folder / 'load.db'}", discord_token="")
    project = await new_harness(bot, channels)
    assert isinstance(floor, LoadHarness) and isinstance(project, LoadHarness)
    lock = time_store_lock(bot)
    tables = [Table(c, players_at(i)) for i, c in enumerate(channels)]
    await room_for(project, len(tables))
    await open_games(project, tables)
    results = []
    try:
        for level in levels:
            rounds = rounds_for(level, samples)
            low = await floor_level(floor, channels, level, rounds)
            if lock is not None:
                lock.waits.clear()
            high = await project_level(project, tables, level, rounds, rng)
            waits = list(lock.waits) if lock is not None else []
            issues = checks.run() if checks is not None else []
            results.append(
                {
                    "in_flight": level,
                    "rounds": rounds,
                    "floor": low.figures(),
                    "project": high.figures(),
                    "store_lock_wait_p50_ms": round(quantile(waits, 0.5) * 1000, 1),
                    "store_lock_wait_p99_ms": round(quantile(waits, 0.99) * 1000, 1),
                    "ratio_p99": round(quantile(high.acks, 0.99) / quantile(low.acks, 0.99), 2),
                    "ratio_lag_max": round(max(high.lag) / max(low.lag), 2),
                    "payload_issues": issues,
                }
            )
            print(table_row(results[-1]), flush=True)
            if issues:
                print(f"{len(issues)} requests broke Discord's rules: {issues[:3]}", flush=True)
    finally:
        gc.unfreeze()
        await floor.close()
        await project.close()
    return {"board_png_kb": round(len(png) / 1024, 1), "levels": results}


HEADER = (
    "| in flight | floor p50 / p99 ms | project p50 / p99 ms | ratio p99 | floor lag p50 / max ms "
    "| project lag p50 / max ms | ratio lag max | store lock wait p99 ms |\n"
    "|---|---|---|---|---|---|---|---|"
)


def table_row(row: dict[str, Any]) -> str:
    f, p = row["floor"], row["project"]
    return (
        f"| {row['in_flight']} | {f['first_response_p50_ms']} / {f['first_response_p99_ms']} "
        f"| {p['first_response_p50_ms']} / {p['first_response_p99_ms']} | {row['ratio_p99']} "
        f"| {f['loop_lag_p50_ms']} / {f['loop_lag_max_ms']} "
        f"| {p['loop_lag_p50_ms']} / {p['loop_lag_max_ms']} | {row['ratio_lag_max']} "
        f"| {row['store_lock_wait_p99_ms']} |"
    )


class DeferredChecks:
    """The fake Discord's check of every request against Discord's limits and OpenAPI spec,
    run after each timed phase instead of inside it (``--payload-checks after``, the default).

    Discord does that checking on its own servers; in the harness it would run on the bot's
    event loop, where it is most of a board post's cost, and a bot with richer posts than the
    floor's would pay more of it. Deferred, every request is still checked, with the checks'
    own code, and the figures say how many broke a rule (there should be none); only the clock
    no longer counts them. ``inline`` keeps them on the loop; ``off`` skips them."""

    def __init__(self) -> None:
        self.hard = payload_checks.hard_issues
        self.policy = payload_checks.policy_issues
        self.pending: list[tuple[Any, set[str] | None]] = []
        self.checked = 0

    def install(self) -> None:
        def later(request: Any, attached: set[str] | None = None) -> list[str]:
            self.pending.append((request, attached))
            return []

        def nothing(request: Any) -> list[str]:
            return []

        payload_checks.hard_issues = nothing
        payload_checks.policy_issues = later

    def run(self) -> list[str]:
        """Check every request recorded since the last run; the rules each one broke."""
        issues = []
        for request, attached in self.pending:
            issues += self.hard(request) + self.policy(request, attached)
        self.checked += len(self.pending)
        self.pending.clear()
        return issues


def skip_payload_checks() -> None:
    """``--payload-checks off``: no request is checked, for either bot."""

    def none(request: Any, attached: set[str] | None = None) -> list[str]:
        return []

    payload_checks.hard_issues = none
    payload_checks.policy_issues = none


async def load_on_postgres(
    server: str, folder: Path, args: argparse.Namespace, checks: DeferredChecks | None
) -> list[dict]:
    """Each level on SQLite and then at once on PostgreSQL (a fresh database for each, a fresh
    schema dropped after), so both meet the same machine; PostgreSQL's first responses and loop
    lag as ratios to SQLite's, and each against its own floor."""
    print(f"SQLite, then PostgreSQL ({where(server)}), at each level:\n{HEADER}", flush=True)
    rows, lines = [], []
    for level in args.levels:
        pair: dict[str, Any] = {}
        for name in ("sqlite", "postgres"):
            rng = random.Random(f"{args.seed}-{level}")
            if name == "sqlite":
                url = f"sqlite:///{folder / f'pair-{level}.db'}"
                pair[name] = (await load(folder, [level], args.samples, rng, url, checks))[
                    "levels"
                ][0]
                continue
            schema = await fresh_schema(server)
            try:
                url = with_schema(server, schema)
                pair[name] = (await load(folder, [level], args.samples, rng, url, checks))[
                    "levels"
                ][0]
            finally:
                await drop_schema(server, schema)
        sq, pg = pair["sqlite"]["project"], pair["postgres"]["project"]
        row = {
            "in_flight": level,
            "sqlite": pair["sqlite"],
            "postgres": pair["postgres"],
            "p50_ratio": round(pg["first_response_p50_ms"] / sq["first_response_p50_ms"], 2),
            "p99_ratio": round(pg["first_response_p99_ms"] / sq["first_response_p99_ms"], 2),
            "lag_max_ratio": round(pg["loop_lag_max_ms"] / sq["loop_lag_max_ms"], 2),
        }
        rows.append(row)
        lines.append(
            f"| {level} | {sq['first_response_p50_ms']} / {sq['first_response_p99_ms']} "
            f"| {pg['first_response_p50_ms']} / {pg['first_response_p99_ms']} "
            f"| {row['p50_ratio']} / {row['p99_ratio']} | {row['lag_max_ratio']} "
            f"| {pair['sqlite']['ratio_p99']} / {pair['postgres']['ratio_p99']} |"
        )
    print(POSTGRES_HEADER, *lines, sep="\n", flush=True)
    return rows


POSTGRES_HEADER = (
    "| in flight | SQLite p50 / p99 ms | PostgreSQL p50 / p99 ms | PostgreSQL ÷ SQLite p50 / p99 "
    "| ÷ SQLite lag max | p99 ÷ floor SQLite / PostgreSQL |\n|---|---|---|---|---|---|"
)


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    workers = args.workers or Settings.load().render_workers
    checks = DeferredChecks() if args.payload_checks == "after" else None
    if checks is not None:
        checks.install()
    elif args.payload_checks == "off":
        skip_payload_checks()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        figures: dict[str, Any] = {"cores": os.cpu_count(), "load_avg_at_start": os.getloadavg()}
        figures["payload_checks"] = args.payload_checks
        figures["memory"] = await memory(folder, args.memory_games, args.active, rng)
        print("memory:", json.dumps(figures["memory"]), flush=True)
        figures["cold_start"] = await cold_start(folder, args.cold_games)
        print("cold start:", json.dumps(figures["cold_start"]), flush=True)
        figures["boards_per_second"] = await boards_per_second(workers, rng)
        print("boards a second:", json.dumps(figures["boards_per_second"]), flush=True)
        print(HEADER, flush=True)
        figures["load"] = await load(folder, args.levels, args.samples, rng, checks=checks)
        if checks is not None:
            figures["payload_requests_checked"] = checks.checked
        if args.postgres is not None:
            server = args.postgres or os.environ.get("TEST_POSTGRES_URL", "")
            if not server:
                raise SystemExit("--postgres needs a URL, or TEST_POSTGRES_URL set")
            figures["load_postgres"] = await load_on_postgres(server, folder, args, checks)
    figures["load_avg_at_end"] = os.getloadavg()
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--levels", type=lambda s: [int(x) for x in s.split(",")], default=[10, 40, 80, 160]
    )
    parser.add_argument("--samples", type=int, default=240, help="interactions per level, at least")
    parser.add_argument("--cold-games", type=int, default=10_000)
    parser.add_argument("--memory-games", type=int, default=1_000)
    parser.add_argument("--active", type=int, default=100)
    parser.add_argument("--workers", type=int, default=0, help="pool size (0: RENDER_WORKERS)")
    parser.add_argument("--seed", default="load")
    parser.add_argument(
        "--payload-checks",
        choices=("after", "inline", "off"),
        default="after",
        help="when the fake Discord checks each request against Discord's rules: after each "
        "timed phase (default: Discord checks on its servers, not on the bot's loop), inline "
        "on the bot's loop, or never",
    )
    parser.add_argument(
        "--postgres",
        nargs="?",
        const="",
        metavar="URL",
        help="also run the load on PostgreSQL (URL, or TEST_POSTGRES_URL), as ratios to SQLite",
    )
    parser.add_argument("--out", type=Path, default=Path("out/load.json"))
    args = parser.parse_args(argv)
    figures = asyncio.run(measure(args))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"figures in {args.out}")


if __name__ == "__main__":
    main()
