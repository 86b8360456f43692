"""Replays: a game's public boards turn by turn, rebuilt from its seed, options, seats and log.

A game is a function of *(players, seed, options, action log)*, so every board it ever showed
can be drawn again. A replay turn is one public post's worth: the steps a turn post told
(``Step.ends_turn``) and the state that turn left. Only told turns are kept, so a running
game's replay stops at its last public post: the turn in progress (its journal, which only the
mover has seen) and the standing orders (never told) are left out, and every board is drawn
from the public view (``Game.view(state, None)``).

The export is the log as JSON (players, options, actions); it carries the seed only once the
game is over, because the seed reveals every hidden card. ``python -m bot replay FILE`` reads
one back and draws its boards offline. The GIF of a finished game is its boards, scaled down
until it fits Discord's 8 MB.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from bot.errors import ServiceError
from bot.i18n import _, current
from bot.pictures import GIF, PictureKey, Pictures, draw_board
from bot.pool import WorkerPool
from bot.service import GameService, Step, replay
from bot.store.base import ABANDONED, FINISHED, GameRecord, LoggedAction, Seat
from bot.words import tell
from rules import GAMES, Game

log = logging.getLogger(__name__)

#: What the export's ``format`` field says, and the version of its shape.
FORMAT = "tabletop-game-log"
FORMAT_VERSION = 1
#: Discord's attachment limit for a server without boosts.
GIF_LIMIT = 8 * 2**20
#: Frames never start wider than this: a GIF of full-size boards is mostly wasted bytes.
GIF_START_WIDTH = 800
#: Below this width a board is no longer legible: drop frames instead of shrinking further.
GIF_MIN_WIDTH = 320
#: Frames encoded to estimate a long game's GIF before encoding it whole.
GIF_SAMPLE = 24
GIF_FRAME_MS = 1200
GIF_LAST_MS = 5000
#: Rebuilt replays kept, newest used last: paging a viewer must not replay the log each click.
KEEP_REPLAYS = 8


@dataclass(frozen=True)
class Turn:
    """One public post's worth: the steps it told and the state it left (``state`` is the
    engine's own object; only its public view is ever shown)."""

    steps: list[Step]
    state: Any


@dataclass(frozen=True)
class Replay:
    """A game's told turns, turn 0 being the deal; ``over``: the game can take no more moves,
    so nothing is hidden any more."""

    record: GameRecord
    game: Game
    names: dict[str, str]
    turns: list[Turn]
    #: The indices in the log of the actions the public posts told: neither a standing order
    #: nor a step of the turn in progress.
    told_rows: tuple[int, ...]

    @property
    def over(self) -> bool:
        return self.record.status in (FINISHED, ABANDONED)

    @property
    def last(self) -> int:
        return len(self.turns) - 1

    def view(self, turn: int) -> dict[str, Any]:
        """The public view after ``turn``: all anyone at the table saw."""
        return self.game.view(self.turns[turn].state, None)

    def lines(self, turn: int) -> list[str]:
        """``turn`` told in sentences, as its post told it (the deal tells nothing)."""
        steps = self.turns[turn].steps
        return tell(self.record.game, [(s.player, s.events) for s in steps], self.names)

    def all_lines(self) -> list[str]:
        """Every told turn's sentences, in order: the game's history."""
        return [line for turn in range(len(self.turns)) for line in self.lines(turn)]


def names_of(record: GameRecord) -> dict[str, str]:
    return {seat.user: seat.name or seat.user for seat in record.seats}


def told_turns(steps: list[Step], states: list[Any]) -> tuple[list[Turn], tuple[int, ...]]:
    """The deal, then a turn at each step that ended one (``states[i + 1]`` follows
    ``steps[i]``); standing orders are never told, and steps after the last turn's end are the
    turn in progress, left out. Also returns the indices of the steps told."""
    turns = [Turn([], states[0])]
    pending: list[int] = []
    told: list[int] = []
    for index, step in enumerate(steps):
        if not step.standing:
            pending.append(index)
        if step.ends_turn:
            turns.append(Turn([steps[i] for i in pending], states[index + 1]))
            told.extend(pending)
            pending = []
    return turns, tuple(told)


def rebuild(game: Game, record: GameRecord, rows: list[LoggedAction]) -> tuple[Replay, bool]:
    """The replay of ``record`` from its log, and whether playing the log lands exactly on the
    stored snapshot (pure work on its own objects: it runs in a thread)."""
    states: list[Any] = []
    steps, exact = replay(game, record, rows, states)
    if len(steps) < len(rows):
        raise ServiceError(
            _("Game `{id}`: its log could not be replayed (action {seq} is refused).").format(
                id=record.id, seq=len(steps) + 1
            )
        )
    turns, told = told_turns(steps, states)
    return Replay(record, game, names_of(record), turns, told), exact


class ReplayCache:
    """The last few rebuilt replays, by game and version: a version names one log exactly."""

    def __init__(self, keep: int = KEEP_REPLAYS) -> None:
        self.keep = keep
        self._entries: OrderedDict[tuple[str, int, str], Replay] = OrderedDict()

    def get(self, record: GameRecord) -> Replay | None:
        key = (record.id, record.version, record.seed)
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, replayed: Replay) -> None:
        record = replayed.record
        self._entries[(record.id, record.version, record.seed)] = replayed
        while len(self._entries) > self.keep:
            self._entries.popitem(last=False)


CACHE = ReplayCache()


async def open_replay(service: GameService, record: GameRecord) -> Replay:
    """The told turns of a started game, rebuilt from the store's log off the event loop; the
    replay must land on the stored snapshot, as ``GameService.history`` checks."""
    if record.state is None:
        raise ServiceError(
            _("Game `{id}` has not started yet: there is nothing to replay.").format(id=record.id)
        )
    cached = CACHE.get(record)
    if cached is not None:
        return cached
    rows = await service.log_of(record)
    latest = await service.store.get_game(record.id)
    if latest is not None and latest.version != record.version:
        # A move landed between reading the game and its log (a live page reads while the
        # table plays): replay the newer game, whose log this is.
        return await open_replay(service, latest)
    replayed, exact = await asyncio.to_thread(rebuild, service.engine(record), record, rows)
    if not exact:
        log.error("game %s: replaying the log does not reproduce the snapshot", record.id)
        raise service.unreplayable(record)
    CACHE.put(replayed)
    return replayed


async def board(pictures: Pictures, replayed: Replay, turn: int) -> bytes:
    """The public board after ``turn``, drawn as its post drew it (with that turn's lines), in
    the worker pool and cached under the game's version (a later move or an undo names a new
    log, so a cached board is never shown for a turn that changed)."""
    record = replayed.record
    key = f"{record.id}:replay:{record.version}"
    view = replayed.view(turn)
    return await pictures.board(key, turn, record.game, view, replayed.names, replayed.lines(turn))


# -- export and import ------------------------------------------------------------------------


def export(replayed: Replay, rows: list[LoggedAction]) -> dict[str, Any]:
    """The game's log as JSON: players with names, options, actions with seq, player, action
    and time. A running game's export holds only its told turns, without standing orders (a
    policy is never told), and no seed: the seed reveals every hidden card."""
    record = replayed.record
    told = rows if replayed.over else [rows[i] for i in replayed.told_rows]
    data: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game_id": record.id,
        "game": record.game,
        "title": replayed.game.title,
        "status": record.status,
        "players": [
            {"id": seat.user, "name": seat.name or seat.user, "ai": seat.ai}
            for seat in record.seats
        ],
        "options": dict(record.options),
        "actions": [
            {"seq": row.seq, "player": row.player, "action": row.action, "at": row.at}
            for row in told
        ],
    }
    if replayed.over:
        data["seed"] = record.seed
    return data


def export_bytes(replayed: Replay, rows: list[LoggedAction]) -> bytes:
    """``export`` as the UTF-8 JSON file ``/game replay view:log`` attaches."""
    return json.dumps(export(replayed, rows), indent=1, ensure_ascii=False).encode("utf-8")


async def export_game(service: GameService, record: GameRecord) -> tuple[Replay, bytes]:
    """A started game's export (``export``), and its replay."""
    replayed = await open_replay(service, record)
    rows = await service.log_of(record)
    return replayed, export_bytes(replayed, rows)


class ReplayFileError(Exception):
    """An export file that cannot be replayed; the message says why, in a sentence."""


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise ReplayFileError(
            _("The file has no valid `{key}` field: is it a `/game replay view:log` file?").format(
                key=key
            )
        )
    return value


def imported(data: Any) -> tuple[Game, GameRecord, list[LoggedAction]]:
    """An export read back as the engine, a record (no snapshot) and the log to replay.

    A file without a seed (a running game's export) is refused: without the seed the deal,
    and so every state, cannot be rebuilt."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayFileError(_("This is not a game log exported with `/game replay view:log`."))
    game = GAMES.get(_field(data, "game", str))
    if game is None:
        raise ReplayFileError(
            _("This bot does not know the game `{game}`.").format(game=str(data["game"])[:40])
        )
    seed = data.get("seed")
    if not isinstance(seed, str):
        raise ReplayFileError(
            _(
                "This log has no seed (it was exported while the game was running), so its "
                "boards cannot be rebuilt: export it again once the game is over."
            )
        )
    try:
        seats = [
            Seat(user=str(p["id"]), ai=bool(p.get("ai")), name=str(p.get("name", "")))
            for p in _field(data, "players", list)
        ]
        rows = [
            LoggedAction(int(a["seq"]), str(a["player"]), dict(a["action"]), float(a["at"]))
            for a in _field(data, "actions", list)
        ]
    except (KeyError, TypeError, ValueError) as error:
        raise ReplayFileError(
            _("The file's players or actions are damaged ({error}).").format(error=error)
        ) from error
    record = GameRecord(
        id=str(data.get("game_id", "offline")),
        game=game.id,
        guild="offline",
        channel="offline",
        host=seats[0].user if seats else "",
        status=str(data.get("status", FINISHED)),
        seed=seed,
        options=dict(_field(data, "options", dict)),
        seats=seats,
    )
    return game, record, rows


def rebuild_file(data: Any) -> Replay:
    """The replay of an export file (``imported``), refused with a sentence if it does not
    play (an engine that changed, a damaged log)."""
    game, record, rows = imported(data)
    try:
        replayed, _exact = rebuild(game, record, rows)  # no snapshot to compare with offline
    except ServiceError as error:
        raise ReplayFileError(error.message) from error
    except Exception as error:  # a start the engine refuses (a bad seat count, an option)
        raise ReplayFileError(
            _("The game cannot be dealt again from this file ({error}).").format(error=error)
        ) from error
    return replayed


async def render_folder(data: Any, out_dir: Path, pictures: Pictures) -> list[Path]:
    """Draw every told turn's public board of an export into ``out_dir`` (one PNG a turn,
    ``turn-000.png`` the deal), with ``turns.txt`` telling each turn; returns the PNGs."""
    replayed = rebuild_file(data)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths, told = [], []
    for turn, png in enumerate(await boards(pictures, replayed)):
        path = out_dir / f"turn-{turn:03d}.png"
        path.write_bytes(png)
        paths.append(path)
        told.append(f"-- {path.name}")
        told.extend(replayed.lines(turn))
    (out_dir / "turns.txt").write_text("\n".join(told) + "\n", encoding="utf-8")
    return paths


# -- the GIF of a finished game ---------------------------------------------------------------


class Frames:
    """The boards of a GIF kept as PNGs and decoded one at a time for each encoding, so a game
    of hundreds of turns never holds hundreds of full-size RGB pictures."""

    def __init__(self, pngs: list[bytes]) -> None:
        self.pngs = pngs
        sizes = [Image.open(io.BytesIO(png)).size for png in pngs]  # reads headers only
        self.width, self.height = max(w for w, _h in sizes), max(h for _w, h in sizes)

    def frame(self, png: bytes, width: int) -> Image.Image:
        """One board at ``width``, in a palette of its own; a board smaller than the largest
        (boards of one game share a size) sits top left on a canvas of its corner colour."""
        picture = Image.open(io.BytesIO(png)).convert("RGB")
        if picture.size != (self.width, self.height):
            canvas = Image.new("RGB", (self.width, self.height), picture.getpixel((0, 0)))
            canvas.paste(picture, (0, 0))
            picture = canvas
        height = max(1, round(self.height * width / self.width))
        small = picture.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)
        return small.quantize(255, Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)

    def encode(self, pngs: list[bytes], width: int) -> bytes:
        """``pngs`` (some or all of the boards) at ``width`` as a GIF played once (no loop
        count), the last frame shown longest."""
        frames = [self.frame(png, width) for png in pngs]
        durations = [GIF_FRAME_MS] * (len(frames) - 1) + [GIF_LAST_MS]
        out = io.BytesIO()
        frames[0].save(
            out,
            format="GIF",
            save_all=True,
            append_images=frames[1:],
            duration=durations,
            optimize=True,
        )
        return out.getvalue()


def encode_gif(pngs: list[bytes], limit: int = GIF_LIMIT) -> bytes:
    """The boards as one animated GIF of at most ``limit`` bytes: smaller frames until it fits,
    and below a legible width every other turn left out (the first and last kept)."""
    frames = Frames(pngs)
    width = min(GIF_START_WIDTH, frames.width)
    # A sample of the turns says roughly what the whole would weigh (a little more: turns
    # further apart differ more), so a long game is not encoded whole at a width that fails.
    sample = pngs[:: max(1, len(pngs) // GIF_SAMPLE)]
    estimate = len(frames.encode(sample, width)) * len(pngs) / len(sample)
    if estimate > limit:
        width = max(GIF_MIN_WIDTH, int(width * (limit / estimate) ** 0.5))
    kept = pngs
    for _attempt in range(12):
        gif = frames.encode(kept, width)
        if len(gif) <= limit:
            return gif
        shrink = (limit / len(gif)) ** 0.5 * 0.95
        if width * shrink >= GIF_MIN_WIDTH or len(kept) <= 2:
            width = max(16, int(width * shrink))
        else:
            kept = [*kept[:-1:2], kept[-1]]
    raise ValueError(f"no GIF of these {len(pngs)} boards fits in {limit} bytes")


def draw_gif(
    game_id: str, views: list[dict[str, Any]], names: dict[str, str], told: list[list[str]]
) -> bytes:
    """A worker job: every turn's public board (``views``, each with its lines ``told``) drawn
    and encoded in one process, so only the GIF comes back and the boards never crowd the
    picture cache the live posts use."""
    turns = zip(views, told, strict=True)
    return encode_gif([draw_board(game_id, view, names, lines) for view, lines in turns])


def gif_key(replayed: Replay) -> PictureKey:
    """What a game's GIF depends on: the game at its version, and the language of its words."""
    return PictureKey(replayed.record.id, replayed.record.version, None, GIF, current())


async def gif(pictures: Pictures, replayed: Replay) -> bytes:
    """The animated GIF of a game that is over: every told turn's public board, drawn and
    encoded in the worker pool once per version and language (about two seconds of
    drawing), however many ask at once."""
    if not replayed.over:
        raise ServiceError(
            _("Game `{id}` is still running: its GIF can be made once it is over.").format(
                id=replayed.record.id
            )
        )
    turns = range(len(replayed.turns))
    views = [replayed.view(turn) for turn in turns]
    told = [replayed.lines(turn) for turn in turns]
    game, names = replayed.record.game, replayed.names
    return await pictures.gifs.get(
        gif_key(replayed), lambda: pictures.pool.run(draw_gif, game, views, names, told)
    )


async def boards(pictures: Pictures, replayed: Replay) -> list[bytes]:
    """Every told turn's public board, drawn side by side in the pool's workers."""
    turns = range(len(replayed.turns))
    return list(await asyncio.gather(*(board(pictures, replayed, turn) for turn in turns)))


async def render_file(path: Path, out_dir: Path, pool: WorkerPool) -> list[Path]:
    """``python -m bot replay FILE``: the export at ``path`` drawn into ``out_dir`` with the
    worker pool (closed here); a file that cannot be read is a ``ReplayFileError``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReplayFileError(
            _("Cannot read {path} as a game log ({error}).").format(path=path, error=error)
        ) from error
    try:
        return await render_folder(data, out_dir, Pictures(pool))
    except OSError as error:  # a folder that cannot be written
        raise ReplayFileError(
            _("Cannot write the boards to {folder} ({error}).").format(folder=out_dir, error=error)
        ) from error
    finally:
        await pool.close()
