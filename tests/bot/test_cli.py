"""The command line: what a newcomer sees without a token, with a bad path, and from the demo."""

from __future__ import annotations

import os
import pwd
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from PIL import Image

import images
from bot.config import Settings, read_env_file
from bot.demo import run_demo
from bot.pool import WorkerPool

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def played_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database of one demo played by the command line (a whole game, the slow part of
    these tests), played once for the tests that only need a database holding a game.
    Told nothing of its database, the demo plays into one of its own in DEMO_DIR, never into
    DATABASE_URL's (``test_backup_copies_the_database_and_refuses_to_overwrite`` holds it)."""
    folder = tmp_path_factory.mktemp("demo")
    env = {"DATABASE_URL": f"sqlite:///{folder / 'real.db'}", "DEMO_DIR": str(folder / "o")}
    done = run_cli("demo", "--players", "3", cwd=folder, **env)
    assert done.returncode == 0, done.stderr
    return folder / "o" / "demo.db"


def demo_copy(played_demo: Path, to: Path) -> dict[str, str]:
    """A copy of the played demo's database at ``to`` (SQLite's own backup, so a write-ahead
    log left beside it is included), and the environment that points the bot at it."""
    with closing(sqlite3.connect(played_demo)) as source, closing(sqlite3.connect(to)) as copy:
        source.backup(copy)
    url = f"sqlite:///{to}"
    return {"DATABASE_URL": url, "DEMO_DATABASE_URL": url, "DEMO_DIR": str(to.parent / "o")}


def test_run_without_a_token_says_what_to_put_in_env(tmp_path: Path) -> None:
    done = run_cli("run", cwd=tmp_path)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and ".env" in done.stderr and "make demo" in done.stderr


def test_an_unwritable_database_path_fails_at_start_naming_the_path(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where a folder should be")
    bad = blocker / "games.db"
    done = run_cli("run", cwd=tmp_path, DISCORD_TOKEN="x", DATABASE_URL=f"sqlite:///{bad}")
    assert done.returncode == 1
    assert str(bad) in done.stderr


def test_an_unreachable_postgres_server_fails_at_start_naming_the_host_and_the_setting(
    tmp_path: Path,
) -> None:
    url = "postgresql://bot:s3cret@127.0.0.1:1/games"
    line = one_line(run_cli("run", cwd=tmp_path, DISCORD_TOKEN="x", DATABASE_URL=url))
    assert "127.0.0.1:1" in line and "DATABASE_URL" in line
    assert "s3cret" not in line and "writable" not in line


def test_env_file_is_read_and_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = tmp_path / ".env"
    env.write_text('# comment\nDISCORD_TOKEN="abc"\nexport LOG_LEVEL=DEBUG\nDATABASE_URL=\n')
    assert read_env_file(env) == {"DISCORD_TOKEN": "abc", "LOG_LEVEL": "DEBUG", "DATABASE_URL": ""}
    monkeypatch.setenv("LOG_LEVEL", "WARNING")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    settings = Settings.load(env)
    assert settings.discord_token == "abc"
    assert settings.log_level == "WARNING"
    assert settings.database_url == "sqlite:///data/games.db"  # empty value: the default
    assert Settings.load(env, database_url="sqlite:///x.db").database_url == "sqlite:///x.db"


async def test_demo_plays_a_whole_game_and_writes_a_board_per_turn(tmp_path: Path) -> None:
    result = await run_demo("street-art", f"sqlite:///{tmp_path / 'demo.db'}", tmp_path / "out")
    assert len(result.boards) > 5 and result.winners
    assert sum(result.scores.values()) <= 60
    with Image.open(result.boards[-1]) as board:
        assert board.format == "PNG" and board.width >= 800
    log = result.log_path.read_text(encoding="utf-8")
    assert "Game over" in log and "Final scores" in log and "**" not in log


def test_demo_passes_options_to_the_game_and_names_an_unknown_one(tmp_path: Path) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'demo.db'}", "DEMO_DIR": str(tmp_path / "o")}
    done = run_cli("demo", "--players", "2", "--options", "two_players=true", cwd=tmp_path, **env)
    assert done.returncode == 0, done.stderr
    assert "Winner(s)" in done.stdout
    refused = run_cli("demo", "--options", "no_such_rule=true", cwd=tmp_path, **env)
    assert refused.returncode != 0
    assert "no option no_such_rule" in refused.stderr


async def test_the_demo_writes_a_turns_extra_pictures_beside_its_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def rain_marker(view: dict, events: list[dict], **_: object) -> list[tuple[str, bytes]]:
        rained = any(e["type"] == "played" and e["card"] == "rain" for e in events)
        return [("rain.txt", b"it rained")] if rained else []

    monkeypatch.setitem(images.TURN_EXTRAS, "street-art", rain_marker)
    out = tmp_path / "out"
    pool = WorkerPool(inline=True)  # the patched renderer lives in this process only
    result = await run_demo("street-art", f"sqlite:///{tmp_path / 'demo.db'}", out, pool=pool)
    extras = sorted(out.glob("board-*-rain.txt"))
    assert extras and all(p.read_bytes() == b"it rained" for p in extras)
    assert all(p.with_name(p.name.replace("-rain.txt", ".png")) in result.boards for p in extras)
    assert f"-- {extras[0].name}" in result.log_path.read_text(encoding="utf-8")


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """A newcomer's mistake ends in one line on stderr, not a traceback."""
    assert done.returncode != 0 and "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "env", "allowed"),
    [
        (("demo", "--players", "6"), {}, "from 3 to 5"),
        (("demo", "--players", "0"), {}, "from 3 to 5"),
        (("demo", "--game", "street-kings", "--players", "5"), {}, "from 2 to 4"),
        (("demo",), {"LOG_LEVEL": "verbose"}, "DEBUG, INFO, WARNING, ERROR"),
        (("demo",), {"REMIND_HOURS": "soon"}, "number"),
        (("demo",), {"TURN_TIMEOUT_HOURS": "-1"}, "0 (off)"),
    ],
)
def test_a_newcomers_mistake_is_one_line_saying_what_is_allowed(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str], allowed: str
) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'demo.db'}", "DEMO_DIR": str(tmp_path), **env}
    assert allowed in one_line(run_cli(*args, cwd=tmp_path, **env))


def test_help_describes_every_command_and_flag(tmp_path: Path) -> None:
    top = run_cli("--help", cwd=tmp_path).stdout
    for command in ("run", "sync", "upgrade", "demo", "backup"):
        assert f"    {command} " in top
    for command, flags in (
        ("demo", ("--game", "--players", "--seed", "--options")),
        ("sync", ("--guild",)),
        ("backup", ("PATH", "--keep")),
    ):
        text = run_cli(command, "--help", cwd=tmp_path).stdout
        for flag in flags:
            (line,) = [line for line in text.splitlines() if line.strip().startswith(flag)]
            described = line.strip().removeprefix(flag).strip(" {}")
            assert described, f"{command} {flag} has no description"


def test_a_log_level_is_read_in_any_case(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LOG_LEVEL", "debug")
    assert Settings.load(tmp_path / ".env").log_level == "DEBUG"


def test_backup_copies_the_database_and_refuses_to_overwrite(
    tmp_path: Path, played_demo: Path
) -> None:
    env = demo_copy(played_demo, tmp_path / "demo.db")
    copy = tmp_path / "backup.db"
    done = run_cli("backup", str(copy), cwd=tmp_path, **env)
    assert done.returncode == 0, done.stderr
    assert "Backed up 1 games" in done.stdout and copy.stat().st_size > 0
    assert "exists already" in one_line(run_cli("backup", str(copy), cwd=tmp_path, **env))
    missing = {**env, "DATABASE_URL": f"sqlite:///{tmp_path / 'none.db'}"}
    assert "no database" in one_line(
        run_cli("backup", str(tmp_path / "b2.db"), cwd=tmp_path, **missing)
    )
    # Told nothing, the demo played into a database of its own, never DATABASE_URL's.
    assert played_demo.is_file() and not (played_demo.parent.parent / "real.db").exists()
    assert not (tmp_path / "none.db").exists()


def test_upgrade_makes_the_schema_and_backups_into_a_folder_keep_the_newest(
    tmp_path: Path,
) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'games.db'}"}
    done = run_cli("upgrade", cwd=tmp_path, **env)
    assert done.returncode == 0, done.stderr
    assert "schema of tabletop-bot" in done.stdout and (tmp_path / "games.db").is_file()
    folder = tmp_path / "backups"
    folder.mkdir()
    old = [folder / f"games-2026010{day}T000000Z.db" for day in (1, 2, 3)]
    for path in old:
        path.write_bytes(b"an older backup")
    (folder / "notes.txt").write_text("not a backup: never removed")
    done = run_cli("backup", "--keep", "2", str(folder), cwd=tmp_path, **env)
    assert done.returncode == 0, done.stderr
    kept = sorted(path.name for path in folder.iterdir())
    assert len(kept) == 3 and kept[0] == old[2].name and kept[2] == "notes.txt", kept
    assert f"Backed up 0 games to {folder / kept[1]}" in done.stdout
    assert done.stdout.count("Removed the older backup") == 2
    file = str(tmp_path / "one.db")
    assert "--keep needs PATH to be a folder" in one_line(
        run_cli("backup", "--keep", "2", file, cwd=tmp_path, **env)
    )
    refused = run_cli("backup", "--keep", "0", str(folder), cwd=tmp_path)
    assert refused.returncode == 2 and "--keep: at least 1 is needed" in refused.stderr


def test_a_damaged_database_stops_the_bot_naming_it_and_saying_to_restore(tmp_path: Path) -> None:
    bad = tmp_path / "games.db"
    bad.write_bytes(b"not a database at all " * 300)
    done = run_cli("run", cwd=tmp_path, DISCORD_TOKEN="x", DATABASE_URL=f"sqlite:///{bad}")
    line = one_line(done)
    assert str(bad) in line and "restore a backup" in line and "writable" not in line


def test_check_reads_every_page_and_names_a_damaged_file(tmp_path: Path, played_demo: Path) -> None:
    env = demo_copy(played_demo, tmp_path / "demo.db")
    done = run_cli("check", cwd=tmp_path, **env)
    assert done.returncode == 0, done.stderr
    assert "checks out" in done.stdout
    db = tmp_path / "demo.db"
    size = db.stat().st_size
    with db.open("r+b") as raw:  # past the header and the schema: only a full read finds it
        raw.seek(size // 2)
        raw.write(b"\xff" * 8192)
    line = one_line(run_cli("check", cwd=tmp_path, **env))
    assert str(db) in line and "restore a backup" in line
    missing = {**env, "DATABASE_URL": f"sqlite:///{tmp_path / 'none.db'}"}
    assert "no database" in one_line(run_cli("check", cwd=tmp_path, **missing))


def test_a_read_only_database_is_refused_at_start_in_one_sentence_naming_file_and_owner(
    tmp_path: Path, played_demo: Path
) -> None:
    """A database restored as another user is read-only to the bot, which must say so at start
    rather than apologise at every move. Root may write any file unless it is immutable, so as
    root the file is made immutable (``chattr +i``); otherwise read-only (``chmod 444``)."""
    db = tmp_path / "games.db"
    env = demo_copy(played_demo, db)
    root = os.geteuid() == 0
    if root and subprocess.run(["chattr", "+i", str(db)], check=False).returncode != 0:
        pytest.skip("running as root on a file system without chattr +i")
    if not root:
        db.chmod(0o444)
    try:
        done = run_cli("run", cwd=tmp_path, DISCORD_TOKEN="x", **env)
    finally:
        if root:
            subprocess.run(["chattr", "-i", str(db)], check=True)
    line = one_line(done)
    me = pwd.getpwuid(os.geteuid()).pw_name
    assert done.returncode == 1
    assert str(db) in line and "read-only" in line and f"belongs to {me}" in line
    assert line.count(". ") == 0, line  # one sentence
