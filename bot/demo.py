"""`make demo`: a whole AI game through the real service and store, boards written to disk.

No Discord token is needed: AI agents choose every decision, the service applies it exactly as
it would a player's, and each public board the bot would post is drawn as the bot draws it (in
the worker pool, through the picture cache) and written as a PNG.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bot.ai import RandomAgent
from bot.i18n import _, use
from bot.pictures import Pictures
from bot.pool import WorkerPool
from bot.service import GameService, Step
from bot.store import open_store
from bot.words import tell
from rules import GAMES

SEAT_NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli")
MAX_DECISIONS = 20_000


@dataclass
class DemoResult:
    game_id: str
    boards: list[Path]
    log_path: Path
    scores: dict[str, int]
    winners: list[str]


def plain(text: str) -> str:
    """Discord markdown to plain text for the log file."""
    return re.sub(r"\*\*|`", "", text)


async def run_demo(
    game: str,
    database_url: str,
    out_dir: Path,
    players: int = 4,
    seed: str = "demo",
    options: dict[str, str] | None = None,
    pool: WorkerPool | None = None,
    lang: str = "en",
) -> DemoResult:
    """Play one game with AI agents in every seat; return where the boards and log went.

    Pictures are drawn in ``pool`` (closed here), by default one worker process per core; the
    boards and the log are in ``lang``, as a server of that language would see them.
    """
    with use(lang):
        return await _play_demo(game, database_url, out_dir, players, seed, options, pool, lang)


async def _play_demo(
    game: str,
    database_url: str,
    out_dir: Path,
    players: int,
    seed: str,
    options: dict[str, str] | None,
    pool: WorkerPool | None,
    lang: str,
) -> DemoResult:
    """``run_demo``'s game, its sentences in the language ``run_demo`` set."""
    if game not in GAMES:
        raise SystemExit(f"Unknown game {game!r}; games: {', '.join(GAMES)}")
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("board-*"):  # only what a previous demo wrote: DEMO_DIR may be shared
        old.unlink()
    store = open_store(database_url)
    await store.open()
    pool = pool or WorkerPool()
    pictures = Pictures(pool)
    try:
        service = GameService(store, seed_factory=lambda: seed)
        agent = RandomAgent(seed)
        seats = [f"ai:{i}" for i in range(1, players + 1)]
        names = dict(zip(seats, SEAT_NAMES, strict=False))
        guild, channel = "demo", f"demo-{seed}"
        for stale in await store.games_in_channel(guild, channel):  # a previous demo's leftovers
            await service.abandon(guild, channel, stale.host, True, stale.id)
        record = await service.new_game(game, guild, channel, seats[0], names[seats[0]], options)
        for seat in seats[1:]:
            record = await service.join(guild, channel, seat, names[seat], record.id)
        result = await service.start(guild, channel, seats[0], record.id)
        record = result.record
        boards: list[Path] = []
        log_lines = [
            _("{title} · game {id} · seed {seed}").format(
                title=GAMES[game].title, id=record.id, seed=seed
            )
        ]

        async def publish(steps: list[Step]) -> None:
            told = tell(game, [(s.player, s.events) for s in steps], names)
            log_lines.extend(plain(line) for line in told)
            stem = f"board-{len(boards):03d}"
            view = service.view(record, None)
            path = out_dir / f"{stem}.png"
            at = (record.id, record.version, game, view, names)
            path.write_bytes(await pictures.board(*at, told, lang=lang))
            boards.append(path)
            events = [event for step in steps for event in step.events]
            extras = await pictures.second_pictures(*at, lang=lang)
            extras += await pictures.turn_extras(*at, events, lang=lang)
            for name, data in extras:  # a race replayed, say
                (out_dir / f"{stem}-{name}").write_bytes(data)
                log_lines.append(f"-- {stem}-{name}")
            waiting = ", ".join(names.get(p, p) for p in service.to_move(record))
            if waiting:
                line = _("-- board {file}; next: {names}").format(file=path.name, names=waiting)
                log_lines.append(line)

        await publish([])
        for _decision in range(MAX_DECISIONS):
            waiting = service.to_move(record)
            if not waiting:
                break
            player = waiting[0]
            state = service.state(record)
            action = agent.choose(service.engine(record), state, player)
            result = await service.move(guild, channel, player, action, ref=record.id)
            record = result.record
            if result.turn_over:
                await publish(result.told)
        outcome = service.outcome(record)
        if outcome is None:
            raise RuntimeError(f"demo game {record.id} did not finish")
        named = {names[p]: s for p, s in outcome.scores.items()}
        scores = ", ".join(f"{n} {s}" for n, s in named.items())
        log_lines.append(_("Final scores: {scores}").format(scores=scores))
        winners = ", ".join(names[p] for p in outcome.winners)
        log_lines.append(_("Winner(s): {names}").format(names=winners))
        log_path = out_dir / "log.txt"
        log_path.write_text("\n".join(log_lines) + "\n", encoding="utf-8")
        return DemoResult(record.id, boards, log_path, named, [names[p] for p in outcome.winners])
    finally:
        await store.close()
        await pool.close()
