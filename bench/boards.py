"""`python -m bench.boards`: every game's board at every table size, early, mid-game and final.

The states come from seeded playouts of the rules engines, a random legal move each decision
(giving something up only when nothing else is legal, so games end). Per game, table size and
stage the bench prints the board's size, its aspect (width / height: Discord shows a picture
wider than 1.3:1 large inline), its PNG bytes, and its render ratio: the median render against
the floor, re-encoding the very same pixels as PNG at compress level 1, both in processor time
and taken in turns. A ratio, not milliseconds, is the figure to compare across machines.
"""

from __future__ import annotations

import io
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

from PIL import Image

import images
from bot.words import tell
from rules import GAMES, IllegalAction

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli")
STAGES = ("early", "mid", "final")
MAX_DECISIONS = 20_000


@dataclass(frozen=True)
class Snapshot:
    """A public view at one stage of a playout, with the names and the last turn in words."""

    game: str
    players: int
    stage: str
    view: dict[str, Any]
    names: dict[str, str]
    last: list[str]


def _steps_of_last_turn(steps: list[tuple[str, list[dict[str, Any]]]]) -> list[tuple[str, Any]]:
    """The trailing run of steps by one player: the turn the board follows."""
    if not steps:
        return []
    who = steps[-1][0]
    start = len(steps)
    while start and steps[start - 1][0] == who:
        start -= 1
    return steps[start:]


def start(game: Any, seats: list[str], seed: str) -> Any:
    """A new game with the default options, or, for a table size that needs one (Street Art's
    two-player variant), with the first yes/no option that allows it."""
    try:
        return game.start(seats, seed, {})
    except IllegalAction:
        for key, default in game.default_options.items():
            if default is False:
                try:
                    return game.start(seats, seed, {key: True})
                except IllegalAction:
                    continue
        raise


def playout(game_id: str, players: int, seed: str = "boards") -> list[Snapshot]:
    """Early (after the first few decisions), mid-game and final public views of one seeded
    random game."""
    game = GAMES[game_id]
    rng = random.Random(f"{game_id}:{players}:{seed}")
    seats = [f"p{i}" for i in range(players)]
    names = dict(zip(seats, NAMES, strict=False))
    passive: frozenset[str] = getattr(game, "passive_actions", frozenset())
    state = start(game, seats, seed)
    history: list[tuple[Any, list[tuple[str, list[dict[str, Any]]]]]] = []
    steps: list[tuple[str, list[dict[str, Any]]]] = []
    for _ in range(MAX_DECISIONS):
        waiting = game.to_move(state)
        if not waiting:
            break
        player = waiting[0]
        legal = game.legal(state, player)
        active = [a for a in legal if a.get("type") not in passive]
        action = rng.choice(active or legal)
        state, events = game.play(state, player, action)
        steps.append((player, events))
        history.append((state, _steps_of_last_turn(steps)))
    picks = {"early": min(len(history) - 1, 6), "mid": len(history) // 2, "final": -1}
    out: list[Snapshot] = []
    for stage in STAGES:
        chosen, last_steps = history[picks[stage]]
        last = tell(game_id, list(last_steps), names)
        out.append(Snapshot(game_id, players, stage, game.view(chosen, None), names, last))
    return out


def render(snap: Snapshot) -> bytes:
    return images.render(snap.game, snap.view, names=snap.names, last=snap.last)


def cpu_seconds(work: Any) -> float:
    """The processor time ``work()`` takes: on a shared machine the wall clock also counts the
    time other processes hold the core."""
    start = time.process_time()
    work()
    return time.process_time() - start


def encoder(png: bytes) -> Any:
    """Re-encoding the board's own pixels as PNG at compress level 1: the cheapest way to
    produce these bytes' picture at all (the floor)."""
    pixels = Image.open(io.BytesIO(png))  # as encoded: the board's own palette
    pixels.load()

    def encode() -> None:
        pixels.save(io.BytesIO(), format="PNG", compress_level=1)

    return encode


def measure(snap: Snapshot, repeats: int) -> dict[str, Any]:
    """One row of the table. Renders and floor encodings alternate, so that both medians see
    the same load on the machine."""
    render(snap)  # warm the per-process static layers, as a running bot has them
    png = render(snap)
    size = Image.open(io.BytesIO(png)).size
    encode = encoder(png)
    renders, floors = [], []
    for _ in range(repeats):
        renders.append(cpu_seconds(lambda: render(snap)))
        floors.append(cpu_seconds(encode))
    took, floor = statistics.median(renders), statistics.median(floors)
    return {
        "game": snap.game,
        "players": snap.players,
        "stage": snap.stage,
        "size": f"{size[0]}x{size[1]}",
        "aspect": round(size[0] / size[1], 2),
        "kb": round(len(png) / 1024, 1),
        "render_ms": round(took * 1000, 1),
        "floor_ms": round(floor * 1000, 1),
        "ratio": round(took / floor, 2),
    }


def rows(repeats: int = 15) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for game_id in sorted(GAMES):
        game = GAMES[game_id]
        for players in range(game.min_players, game.max_players + 1):
            out.extend(measure(snap, repeats) for snap in playout(game_id, players))
    return out


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    table = rows(repeats)
    header = f"{'game':18} {'pl':>2} {'stage':6} {'size':>10} {'aspect':>6} {'KB':>6} {'ratio':>5}"
    print(header)
    for r in table:
        print(
            f"{r['game']:18} {r['players']:>2} {r['stage']:6} {r['size']:>10} "
            f"{r['aspect']:>6} {r['kb']:>6} {r['ratio']:>5}"
        )
    for game_id in sorted(GAMES):
        ratios = [r["ratio"] for r in table if r["game"] == game_id]
        by_size: dict[int, list[float]] = {}
        for r in table:
            if r["game"] == game_id:
                by_size.setdefault(r["players"], []).append(r["ratio"])
        sizes = " ".join(f"{n}p {statistics.median(rs):.2f}" for n, rs in by_size.items())
        print(f"{game_id}: median render ratio {statistics.median(ratios):.2f} ({sizes})")
    print(json.dumps(table), file=sys.stderr)


if __name__ == "__main__":
    main()
