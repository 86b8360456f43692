"""Settings that cannot surprise: .env read as the shell reads it, and every value checked at
start-up, refused in one sentence naming the setting and what it allows."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.config import Settings, read_env_file
from bot.version import __version__
from tests.bot.test_cli import one_line, run_cli


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting from the test process's own environment."""
    for name in os.environ:
        if name.lower() in Settings.__dataclass_fields__:
            monkeypatch.delenv(name)


def test_an_inline_comment_is_not_part_of_the_value(tmp_path: Path, clean_env: None) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "DATABASE_URL=sqlite:///data/games.db  # main\n"
        "LOG_LEVEL=debug # loud\n"
        'DEMO_DIR="out/with # hash"\n'
        "export SHARD_COUNT=0\n",
        encoding="utf-8",
    )
    assert read_env_file(env)["DATABASE_URL"] == "sqlite:///data/games.db"
    settings = Settings.load(env)
    assert settings.database_url == "sqlite:///data/games.db"
    assert settings.log_level == "DEBUG"
    assert settings.demo_dir == "out/with # hash"


def test_an_unreadable_env_file_is_one_sentence_naming_it(tmp_path: Path) -> None:
    (tmp_path / ".env").mkdir()  # exists, cannot be read as a file (even by root)
    line = one_line(run_cli("demo", cwd=tmp_path))
    assert ".env" in line and "cannot be read" in line


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_env_file_without_read_permission_is_one_sentence(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("LOG_LEVEL=INFO\n", encoding="utf-8")
    env.chmod(0)
    assert "cannot be read" in one_line(run_cli("demo", cwd=tmp_path))


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("RENDER_CACHE_MB", "inf", "RENDER_CACHE_MB must be a number of MiB from 0"),
        ("RENDER_CACHE_MB", "nan", "RENDER_CACHE_MB must be"),
        ("RENDER_CACHE_MB", "-1", "RENDER_CACHE_MB must be"),
        ("AI_BUDGET_SECONDS", "-5", "AI_BUDGET_SECONDS must be a number of seconds above 0"),
        ("AI_BUDGET_SECONDS", "0", "AI_BUDGET_SECONDS must be"),
        ("AI_BUDGET_SECONDS", "inf", "AI_BUDGET_SECONDS must be"),
        ("RENDER_WORKERS", "-7", "RENDER_WORKERS must be -1"),
        ("RENDER_WORKERS", "two", "RENDER_WORKERS='two' is not a whole number"),
        ("REMIND_HOURS", "inf", "REMIND_HOURS must be 0 (off)"),
        ("TURN_TIMEOUT_HOURS", "-1", "TURN_TIMEOUT_HOURS must be 0 (off)"),
        ("DATABASE_POOL_SIZE", "0", "DATABASE_POOL_SIZE must be"),
        ("DATABASE_URL", "mysql://x/y", "DATABASE_URL must start with sqlite:///"),
        ("DEMO_DATABASE_URL", "games.db", "DEMO_DATABASE_URL must start with sqlite:///"),
        ("DEV_GUILD_ID", "abc", "DEV_GUILD_ID must be a server id"),
        ("LOG_LEVEL", "verbose", "LOG_LEVEL='VERBOSE' is not one of DEBUG"),
        ("LOG_FORMAT", "xml", "LOG_FORMAT='xml' is not one of text, json"),
        ("METRICS_PORT", "70000", "METRICS_PORT must be 0 (off) or a port number"),
        ("METRICS_PORT", "-1", "METRICS_PORT must be"),
        ("LOGIN_RETRY_SECONDS", "0", "LOGIN_RETRY_SECONDS must be a number of seconds above 0"),
        ("LOGIN_RETRY_SECONDS", "nan", "LOGIN_RETRY_SECONDS must be"),
        ("SHARD_COUNT", "-2", "SHARD_COUNT must be"),
        (
            "DISCORD_CLIENT_ID",
            "555000111222333444",
            "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go",
        ),
        ("DISCORD_CLIENT_SECRET", "s3cret", "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go"),
        ("DISCORD_API_BASE", "discord.com/api", "DISCORD_API_BASE must start with https://"),
    ],
)
def test_every_bad_setting_is_refused_naming_it_and_what_is_allowed(
    clean_env: None, tmp_path: Path, name: str, value: str, allowed: str
) -> None:
    with pytest.raises(ValueError) as refused:
        Settings.load(tmp_path / "none.env", **{name.lower(): value})
    sentence = str(refused.value)
    assert allowed in sentence and "\n" not in sentence


def test_the_activity_needs_an_application_id_and_its_secret(
    clean_env: None, tmp_path: Path
) -> None:
    with pytest.raises(ValueError, match="DISCORD_CLIENT_ID must be the application's id"):
        Settings.load(tmp_path / "none.env", discord_client_id="app", discord_client_secret="s")
    settings = Settings.load(
        tmp_path / "none.env", discord_client_id="555000111222333444", discord_client_secret="s"
    )
    assert settings.activity and not Settings.load(tmp_path / "none.env").activity


def test_the_command_line_says_it_in_one_line(tmp_path: Path) -> None:
    line = one_line(run_cli("demo", cwd=tmp_path, RENDER_CACHE_MB="inf"))
    assert line.startswith("Cannot start: RENDER_CACHE_MB must be")


def test_sync_refuses_a_bad_guild_id_in_one_sentence(tmp_path: Path) -> None:
    line = one_line(run_cli("sync", "--guild", "abc", cwd=tmp_path, DISCORD_TOKEN="x"))
    assert "--guild must be a server id" in line


def test_sync_opens_no_store(tmp_path: Path) -> None:
    """A database that cannot be opened does not stop `sync`: it gets as far as Discord (here,
    no network: the fake token is refused or unreachable), never naming the database."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where a folder should be")
    done = run_cli(
        "sync",
        "--guild",
        "123",
        cwd=tmp_path,
        DISCORD_TOKEN="x",
        DATABASE_URL=f"sqlite:///{blocker / 'games.db'}",
        RENDER_WORKERS="0",
    )
    assert str(blocker) not in done.stderr
    assert not (tmp_path / "data").exists()


def test_version_is_printed(tmp_path: Path) -> None:
    done = run_cli("--version", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == f"tabletop-bot {__version__}"
