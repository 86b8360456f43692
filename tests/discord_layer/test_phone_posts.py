"""Issue 24's bugs a player met on a phone, each held by a test that failed before its fix:
`/game mine` lines cut inside their link, `/game rules` in a thread showing another game's
rules to onlookers, Street Kings' crew said twice (and in English) in Portuguese, and the
words of the table's memory left in English.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import use
from bot.store.base import ResultRow
from bot.words import counter, label_for
from bot.words import street_kings as kings_words
from cogs import inbox, memory
from tests.discord_layer.test_threads import (
    ANA,
    TABLE,
    WATCHER,
    open_table,
    record_of,
    table,
)
from tests.harness import User

pytest_plugins = ["tests.harness.fixtures"]

#: Discord's longest display names (32 characters).
LONG = User(id=1011, name="long", global_name="Bartholomew Maximilian Fitzgerald"[:32])
LONGER = User(id=1012, name="longer", global_name="Anastasia Konstantinopolous-Vega"[:32])


async def test_every_mine_line_keeps_its_link_whole_with_long_names(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    for user in (LONG, LONGER):
        h.world.members[user.id] = user
    lobby = await open_table(h, "street-art", LONG, LONGER)
    await h.click(LONG, lobby, label="Add AI")
    await h.click(LONG, h.message(lobby), label="Start")
    record = await record_of(h, lobby)
    for viewer in (LONG, LONGER):  # one of them reads "waiting for" the other's long name
        answer = (await h.slash(viewer, "game mine")).message
        (line,) = answer.embeds[0]["description"].splitlines()
        # Before: the line was cut at 160 characters, inside the jump link's URL.
        assert re.search(r"\]\(https://discord\.com/channels/\d+/\d+/\d+\)", line), line
        assert len(line) <= inbox.LINE_LIMIT and record.id in line


async def test_rules_in_a_thread_are_that_games_rules_for_anyone(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    lobby = await open_table(h, "artsee", ANA)
    await h.click(ANA, lobby, label="Start")
    thread = h.thread(TABLE)
    # Before: anyone not seated got Street Art's rules (the first game) in an ArtSee thread.
    answer = await h.slash(WATCHER, "game rules", channel=thread)
    assert answer.message.embeds[0]["title"] == "ArtSee: how to play"


def test_street_kings_crew_is_named_once_in_the_players_language() -> None:
    view = {
        "viewer": "1",
        "hand": [],
        "players": [
            {
                "id": "1",
                "credits": 5,
                "trophies": {},
                "cars": [],
                "crew": ["launch_tech-1"],
                "noz_policy": "ask",
                "lane": None,
            }
        ],
    }
    buy = {"type": "buy", "card": "launch_tech-1", "car": None}
    with use("pt_BR"):
        hand = kings_words.hand_text(view)
        label = label_for("street-kings", buy, {}, view)
    # Before: "**Equipe:** Crew: Launch Tech (+1 Aceleração, 3k)" and "Comprar Crew: …".
    assert "Crew" not in hand and "Launch Tech" in hand, hand
    assert "Crew" not in label and "Launch Tech" in label, label
    with use("pt_BR"):
        cards = kings_words.location_label(next(iter(kings_words.LOCATIONS)))
    assert not re.search(r"\b(TS|HA)\b", cards), "the stat letters are Portuguese too"


def test_the_turn_counter_is_the_boards_own() -> None:
    assert counter("street-art", {"turn": 4}) == "Turn 4"
    assert counter("street-kings", {"round": 2}) == "Round 2"
    assert counter("street-art", {"turn": 0}) == ""


def test_the_rating_line_is_portuguese_and_on_the_friendly_scale() -> None:
    # Before: "**Ratings:** Ana 0.0 → -2.8 (-2.8)" on a Portuguese server.
    row = ResultRow(
        "g1",
        "artsee",
        "s",
        "1",
        "1",
        False,
        "Ana",
        2,
        10,
        False,
        2,
        {},
        0.0,
        25.0,
        25.0 / 3,
        24.0,
        8.0,
    )
    with use("pt_BR"):
        line = memory.rating_line([row], {"1": "Ana"})
    assert "Ratings" not in line and line.startswith("**Pontuações:** Ana 1.000 → "), line
