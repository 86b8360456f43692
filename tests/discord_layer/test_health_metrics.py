"""Health, readiness and metrics on the private port, and the log's two forms, under a
running bot in the harness."""

from __future__ import annotations

import io
import json
import logging
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from bot.logs import configure_logging
from bot.version import __version__
from cogs.app import create_bot
from cogs.observe import route_of, shard_of
from tests.discord_layer.test_street_art_discord import ANA, EVERYONE, GUILD, TABLE
from tests.harness import FakeDiscord

pytest_plugins = ["tests.harness.fixtures"]

TOKEN = "MTIzNDU2Nzg5.secret-token-never-logged"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def sample(text: str, name: str, **labels: str) -> float:
    """One sample's value from Prometheus' text format (0 if absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        metric, _, value = line.rpartition(" ")
        base, _, given = metric.partition("{")
        pairs = ",".join(sorted(given.rstrip("}").split(","))) if given else ""
        if base == name and pairs == wanted:
            return float(value)
    return 0.0


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def test_health_readiness_and_metrics_of_a_running_bot(harness_factory, tmp_path) -> None:
    port = free_port()
    bot = create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", metrics_port=port)
    h = await harness_factory(
        bot, FakeDiscord(), guild_id=GUILD, channels=[TABLE], members=EVERYONE
    )
    assert await get(port, "/healthz") == (200, "ok\n")
    assert (await get(port, "/readyz"))[0] == 200

    _, before = await get(port, "/metrics")
    await h.slash(ANA, "game new", game="street-art")
    status, after = await get(port, "/metrics")
    assert status == 200
    answered = {"kind": "command", "outcome": "answered"}
    assert sample(after, "tabletop_interactions_total", **answered) == (
        sample(before, "tabletop_interactions_total", **answered) + 1
    )
    first = "tabletop_interaction_first_response_seconds_count"
    assert sample(after, first) == sample(before, first) + 1
    assert sample(after, "tabletop_store_write_seconds_count") > sample(
        before, "tabletop_store_write_seconds_count"
    )
    assert sample(after, "tabletop_build_info", version=__version__) == 1
    assert "tabletop_event_loop_lag_seconds" in after and "tabletop_pool_queue" in after
    assert sample(after, "tabletop_games", status="lobby") == 1  # read from the store

    # Discord's 429 and 5xx, by route (discord.py tries again: the retry's answer counts).
    route = {"route": "/channels/{id}/messages", "status": "429"}
    h.bot.observer.responded("https://discord.com/api/v10/channels/123456789012/messages", 429)
    _, fed = await get(port, "/metrics")
    assert sample(fed, "tabletop_outbox_pending") == 0  # the front door posted the lobby
    assert sample(fed, "tabletop_discord_errors_total", **route) == (
        sample(after, "tabletop_discord_errors_total", **route) + 1
    )

    await bot.close()  # the gateway is gone: not ready (the private server closed with it)
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(port, "/readyz")


def test_routes_name_no_id_or_token() -> None:
    url = "https://discord.com/api/v10/webhooks/123456789012/aW50ZXJhY3Rpb24/messages/@original"
    assert route_of(url) == "/webhooks/{id}/{token}/messages/@original"
    assert route_of("/api/v10/channels/123456789012/messages?x=1") == "/channels/{id}/messages"
    assert shard_of("81384788765712384", 4) == (81384788765712384 >> 22) % 4
    assert shard_of(None, 4) is None and shard_of("1", None) is None


@pytest.fixture
def root_logging() -> Iterator[None]:
    """The root logger's handlers and level back as they were after the test."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.parametrize("form", ["text", "json"])
async def test_one_line_per_event_with_ids_and_no_secret(
    harness_factory, tmp_path: Path, root_logging: None, form: str
) -> None:
    out = io.StringIO()
    configure_logging("DEBUG", form, out)
    configure_logging("DEBUG", form, out)  # twice: still one handler
    bot = create_bot(database_url=f"sqlite:///{tmp_path / 'games.db'}", discord_token=TOKEN)
    h = await harness_factory(
        bot, FakeDiscord(), guild_id=GUILD, channels=[TABLE], members=EVERYONE
    )
    done = await h.slash(ANA, "game new", game="street-art")
    game = re.search(r"`([A-Za-z0-9]+)`", done.message.text() or "")
    lines = out.getvalue().splitlines()
    new = [line for line in lines if ": new street-art" in line]
    assert len(new) == 1, lines  # written once
    assert TOKEN not in out.getvalue() and "secret-token" not in out.getvalue()
    if form == "json":
        records = [json.loads(line) for line in lines]  # every line is one JSON object
        (event,) = [r for r in records if ": new street-art" in r["message"]]
        assert event["interaction"].isdigit() and event["version"] == __version__
        assert event["game"] and (game is None or event["game"] == game.group(1))
        assert "shard" not in event  # an unsharded bot
