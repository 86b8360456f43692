"""Issue 24's bugs a player met on a phone, each held by a test that failed before its fix:
`/game mine` lines cut inside their link, `/game rules` in a thread showing another game's
rules to onlookers, Street Kings' crew said twice (and in English) in Portuguese, and the
words of the table's memory left in English.
"""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import use
from bot.words import counter, label_for
from bot.words import street_kings as kings_words
from cogs import inbox
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

#: Discord's longest display name (32 characters).
LONG = User(id=1011, name="long", global_name="Bartholomew Maximilian Fitzgerald"[:32])


async def test_every_mine_line_keeps_its_link_whole_with_long_names(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    h.world.members[LONG.id] = LONG
    lobby = await open_table(h, "street-art", ANA, LONG)
    await h.click(ANA, lobby, label="Add AI")
    await h.click(ANA, h.message(lobby), label="Start")
    record = await record_of(h, lobby)
    waiting_for_long = record.seat_of(str(LONG.id)) is not None
    for viewer in (ANA, LONG):
        answer = (await h.slash(viewer, "game mine")).message
        (line,) = answer.embeds[0]["description"].splitlines()
        # Before: the line was cut at 160 characters, inside the jump link's URL.
        assert re.search(r"\]\(https://discord\.com/channels/\d+/\d+/\d+\)", line), line
        assert len(line) <= inbox.LINE_LIMIT and record.id in line
    assert waiting_for_long


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
