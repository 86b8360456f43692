"""Replays (bot/replay.py) for every game: the states of the told turns are the states the
live game showed, a finished game's export replays onto its stored snapshot, a running game's
export and replay hold nothing the public posts did not tell (no seed, no turn in progress),
and the GIF of a long game fits in 8 MB."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import replay
from bot.ai import RandomAgent
from bot.errors import ServiceError
from bot.service import GameService, Step
from bot.store import SqliteStore
from bot.store.base import ACTIVE, FINISHED, GameRecord
from rules import GAMES
from tests.bot.test_cli import run_cli

G, C = "guild", "chan"
HUMANS = ("101", "102")
#: A shorter Street Kings keeps its whole game quick; the others play their default length.
OPTIONS: dict[str, dict[str, Any]] = {"street-kings": {"shorter_game": True}}


@pytest.fixture
async def service(tmp_path: Path):
    store = SqliteStore(str(tmp_path / "games.db"))
    await store.open()
    yield GameService(store, seed_factory=lambda: "replay-seed")
    await store.close()


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test rebuilds its replays: a cached one from another test's store never answers."""
    monkeypatch.setattr(replay, "CACHE", replay.ReplayCache())


async def started(service: GameService, game: str) -> GameRecord:
    """Two human seats (the service lets the humans' moves through, so every told turn is seen
    from outside) and an AI, of ``game``."""
    record = await service.new_game(game, G, C, HUMANS[0], "Ana", OPTIONS.get(game))
    record = await service.join(G, C, HUMANS[1], "Bo", record.id)
    low = GAMES[game].min_players
    for _ in range(max(0, low - 2)):
        record = await service.add_ai(G, C, HUMANS[0], record.id)
    return (await service.start(G, C, HUMANS[0], record.id)).record


Seen = list[tuple[int, dict[str, Any], list[list[dict[str, Any]]]]]


async def play(
    service: GameService,
    record: GameRecord,
    decisions: int | None = None,
    players: tuple[str, ...] = HUMANS,
):
    """Random human moves until the end (or ``decisions`` of them). Returns the record and
    what the live game showed at each public post that closed a turn: (turns ended so far,
    the snapshot, the events the post told)."""
    agent = RandomAgent("replay-test")
    engine = service.engine(record)
    ended, seen = 0, []
    for _ in range(decisions if decisions is not None else 20_000):
        waiting = [p for p in service.to_move(record) if p in players]
        if not waiting:
            break
        action = agent.choose(engine, service.state(record), waiting[0])
        result = await service.move(G, C, waiting[0], action, ref=record.id)
        record = result.record
        ended += sum(step.ends_turn for step in result.steps)
        if result.turn_over and result.steps[-1].ends_turn:
            seen.append((ended, record.state, [step.events for step in result.told]))
    return record, seen


def told_events(replayed: replay.Replay, first: int, last: int) -> list[list[dict[str, Any]]]:
    return [step.events for t in replayed.turns[first : last + 1] for step in t.steps]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_told_turn_is_the_state_and_the_post_the_live_game_showed(
    game: str, service: GameService
) -> None:
    record, seen = await play(service, await started(service, game))
    assert record.status == FINISHED and seen
    replayed = await replay.open_replay(service, record)
    engine = service.engine(record)
    assert engine.dump(replayed.turns[0].state) == engine.dump(
        engine.start([s.user for s in record.seats], record.seed, record.options)
    )
    previous = 0
    for ended, snapshot, told in seen:
        assert engine.dump(replayed.turns[ended].state) == snapshot
        # The turns since the last post tell exactly what that post told, standing orders aside.
        assert told_events(replayed, previous + 1, ended) == told
        previous = ended
    assert replayed.last == previous, "the final post closes the last turn"
    assert engine.dump(replayed.turns[-1].state) == record.state
    assert replayed.all_lines(), "a whole game is told"


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_finished_games_export_replays_onto_its_stored_snapshot(
    game: str, service: GameService, tmp_path: Path
) -> None:
    record, _ = await play(service, await started(service, game))
    replayed, data = await replay.export_game(service, record)
    exported = json.loads(data)
    rows = await service.store.actions(record.id)
    assert exported["seed"] == record.seed and exported["game"] == game
    assert [p["name"] for p in exported["players"]] == [s.name for s in record.seats]
    assert [a["seq"] for a in exported["actions"]] == [row.seq for row in rows]
    assert set(exported["actions"][0]) == {"seq", "player", "action", "at"}

    again = replay.rebuild_file(exported)
    engine = service.engine(record)
    assert engine.dump(again.turns[-1].state) == record.state
    assert len(again.turns) == len(replayed.turns)

    paths = await replay.render_folder(exported, tmp_path / "boards", service.pictures)
    assert [p.name for p in paths][:2] == ["turn-000.png", "turn-001.png"]
    assert len(paths) == len(replayed.turns)
    assert paths[-1].read_bytes() == await replay.board(service.pictures, replayed, replayed.last)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_running_games_export_and_replay_stop_at_its_last_public_post(
    game: str, service: GameService
) -> None:
    record = await started(service, game)
    record, seen = await play(service, record, decisions=12)
    assert record.status == ACTIVE
    replayed, data = await replay.export_game(service, record)
    exported = json.loads(data)
    assert "seed" not in exported and record.seed not in data.decode()
    rows = await service.store.actions(record.id)
    steps = await service.history(record)
    standing = [row.seq for row, step in zip(rows, steps, strict=True) if step.standing]
    # Only the actions the posts told: the turn in progress (the journal) and the standing
    # orders given out of turn (never told) are not exported.
    in_progress = len(record.journal) - sum(bool(e.get("standing")) for e in record.journal)
    assert len(exported["actions"]) == len(rows) - in_progress - len(standing)
    assert not {a["seq"] for a in exported["actions"]} & set(standing)
    assert replayed.last >= (seen[-1][0] if seen else 0)
    with pytest.raises(replay.ReplayFileError, match="no seed"):
        replay.rebuild_file(exported)


async def test_the_turn_in_progress_is_never_replayed(service: GameService) -> None:
    """ArtSee's chosen card is hidden until it is placed: a replay made while a player has
    chosen but not placed shows the board before the choice and tells none of it."""
    record = await started(service, "artsee")
    engine = service.engine(record)
    posted = record.state
    for _ in range(200):
        record, seen = await play(service, record, decisions=1)
        if seen:
            posted = seen[-1][1]
        if any(not entry.get("standing") for entry in record.journal):
            break
    assert record.journal, "some turn is in progress"
    replayed = await replay.open_replay(service, record)
    told = [step for turn in replayed.turns for step in turn.steps]
    assert len(told) == len(await service.store.actions(record.id)) - len(record.journal)
    assert engine.dump(replayed.turns[-1].state) == posted
    assert replayed.view(replayed.last) != engine.view(service.state(record), None)


def boards_of(count: int) -> list[bytes]:
    """``count`` boards of a game, different each turn (noise keeps the GIF from compressing
    to nothing, as a real long game's many small changes do)."""
    pngs = []
    for n in range(count):
        picture = Image.effect_noise((800, 450), 40 + n % 50).convert("RGB")
        out = io.BytesIO()
        picture.save(out, format="PNG", compress_level=1)
        pngs.append(out.getvalue())
    return pngs


def test_a_long_games_gif_fits_by_scaling_its_frames_down_and_plays_once() -> None:
    pngs = boards_of(30)
    limit = 3 * 2**20
    gif = replay.encode_gif(pngs, limit)
    assert len(gif) <= limit
    picture = Image.open(io.BytesIO(gif))
    assert picture.format == "GIF" and picture.n_frames == 30  # every turn kept
    assert replay.GIF_MIN_WIDTH <= picture.width < 800 and picture.info.get("loop") is None


def test_a_gif_too_long_for_legible_frames_keeps_fewer_turns_first_and_last_included() -> None:
    pngs = boards_of(30)
    gif = replay.encode_gif(pngs, 600 * 2**10)
    picture = Image.open(io.BytesIO(gif))
    assert len(gif) <= 600 * 2**10
    assert 2 <= picture.n_frames < 30 and picture.width >= replay.GIF_MIN_WIDTH


@pytest.mark.slow
async def test_the_gif_of_a_long_real_game_is_at_most_8_mb(service: GameService) -> None:
    """A whole Street Kings at four seats: nearly two hundred turns (a soak, ``-m slow``; the
    two tests above hold the same limit with drawn frames, in a fraction of the time)."""
    seats = ("101", "102", "103", "104")
    record = await service.new_game("street-kings", G, C, seats[0], "Ana")
    for seat in seats[1:]:
        record = await service.join(G, C, seat, f"P{seat}", record.id)
    record = (await service.start(G, C, seats[0], record.id)).record
    record, _ = await play(service, record, players=seats)
    replayed = await replay.open_replay(service, record)
    assert record.status == FINISHED and len(replayed.turns) > 100, "a long game"
    gif = await replay.gif(service.pictures, replayed)
    assert len(gif) <= replay.GIF_LIMIT
    assert 2 <= Image.open(io.BytesIO(gif)).n_frames <= len(replayed.turns)


async def test_a_running_game_has_no_gif(service: GameService) -> None:
    record = await started(service, "street-art")
    replayed = await replay.open_replay(service, record)
    with pytest.raises(ServiceError, match="still running"):
        await replay.gif(service.pictures, replayed)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"format": "something"}, "not a game log"),
        ({"format": replay.FORMAT, "game": "chess"}, "does not know the game"),
        ({"format": replay.FORMAT, "game": "street-art"}, "no seed"),
        (
            {"format": replay.FORMAT, "game": "street-art", "seed": "s", "players": [{}]},
            "damaged",
        ),
        (
            {
                "format": replay.FORMAT,
                "game": "street-art",
                "seed": "s",
                "players": [{"id": "1"}],
                "actions": [],
                "options": {},
            },
            "cannot be dealt",
        ),
    ],
)
def test_a_file_that_cannot_be_replayed_is_refused_with_a_sentence(data: Any, why: str) -> None:
    with pytest.raises(replay.ReplayFileError, match=why):
        replay.rebuild_file(data)


def test_a_log_the_engine_refuses_names_the_action() -> None:
    data = {
        "format": replay.FORMAT,
        "game": "street-art",
        "seed": "s",
        "players": [{"id": "1"}, {"id": "2"}, {"id": "3"}],
        "options": {},
        "actions": [{"seq": 1, "player": "9", "action": {"type": "fly"}, "at": 0}],
    }
    with pytest.raises(replay.ReplayFileError, match="action 1 is refused"):
        replay.rebuild_file(data)


def test_told_turns_leave_out_standing_orders_and_the_turn_in_progress() -> None:
    def step(ends: bool, standing: bool = False) -> Step:
        return Step("p", {"type": "x"}, [{"type": "e"}], standing, ends)

    steps = [step(False), step(True), step(False, True), step(True), step(False)]
    turns, told = replay.told_turns(steps, list(range(6)))
    assert [t.state for t in turns] == [0, 2, 4]
    assert [len(t.steps) for t in turns] == [0, 2, 1]
    assert told == (0, 1, 3)


async def test_the_command_line_draws_a_finished_games_export_into_a_folder(
    service: GameService, tmp_path: Path
) -> None:
    record, _ = await play(service, await started(service, "street-art"))
    replayed, data = await replay.export_game(service, record)
    log = tmp_path / f"game-{record.id}.json"
    log.write_bytes(data)
    done = run_cli("replay", str(log), cwd=tmp_path, RENDER_WORKERS="-1")
    assert done.returncode == 0, done.stderr
    folder = tmp_path / f"game-{record.id}"
    pngs = sorted(folder.glob("turn-*.png"))
    assert len(pngs) == len(replayed.turns) and f"{len(pngs)} boards" in done.stdout
    assert Image.open(pngs[-1]).format == "PNG"
    assert replayed.lines(1)[0] in (folder / "turns.txt").read_text(encoding="utf-8")


async def test_the_command_line_refuses_a_running_games_export_in_a_sentence(
    service: GameService, tmp_path: Path
) -> None:
    record = await started(service, "street-art")
    _, data = await replay.export_game(service, record)
    log = tmp_path / "running.json"
    log.write_bytes(data)
    done = run_cli("replay", str(log), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "no seed" in done.stderr and "once the game is over" in done.stderr
    assert not (tmp_path / "out").exists()
    missing = run_cli("replay", str(tmp_path / "nothing.json"), cwd=tmp_path)
    assert missing.returncode == 1 and "Cannot read" in missing.stderr


async def test_the_command_line_names_a_folder_it_cannot_write(
    service: GameService, tmp_path: Path
) -> None:
    record, _ = await play(service, await started(service, "street-art"))
    log = tmp_path / "log"  # no .json: the boards would go to log-boards/
    log.write_bytes((await replay.export_game(service, record))[1])
    (tmp_path / "log-boards").write_text("a file where the folder should be")
    done = run_cli("replay", str(log), cwd=tmp_path, RENDER_WORKERS="-1")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "Cannot write the boards to" in done.stderr and "log-boards" in done.stderr
