"""Issue 24's bugs a player met on a phone, each held by a test that failed before its fix:
`/game mine` lines cut inside their link, `/game rules` in a thread showing another game's
rules to onlookers, Street Kings' crew said twice (and in English) in Portuguese, and the
words of the table's memory left in English.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

from bot.i18n import use
from bot.store.base import ResultRow
from bot.words import counter, label_for
from bot.words import street_kings as kings_words
from cogs import inbox, memory, messages
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


def test_a_red_stat_is_said_in_portuguese_that_agrees_with_every_stat() -> None:
    # Before: "O Aceleração vermelho custa a Ana …": three of the four stats are feminine.
    lines = []
    with use("pt_BR"):
        for stat in ("TS", "AC", "HA", "BR"):
            for card in (None, "engine1"):
                event = {"type": "penalty", "player": "1", "stat": stat, "card": card}
                lines += kings_words.describe([event], {"1": "Ana"})
    assert lines and not any(re.search(r"\bO (Velocidade|Aceleração|Frenagem)", s) for s in lines)
    assert all("vermelh" in s for s in lines), lines


def test_a_car_sold_with_its_upgrades_counts_them_in_words() -> None:
    # Before: "sold Long-Legs Wagon (D) with 1 upgrade(s) for 2k" (seen on a phone).
    def sold(upgrades: int) -> str:
        events = [
            {"type": "dealer", "player": "1"},
            {"type": "sold_car", "player": "1", "car": "D01", "upgrades": upgrades},
            {"type": "sale", "player": "1", "credits": 2},
        ]
        (line,) = kings_words.describe(events, {"1": "Ana"})
        return line

    assert "with 1 upgrade for" in sold(1) and "with 2 upgrades for" in sold(2)
    with use("pt_BR"):
        assert "com 1 melhoria por" in sold(1) and "com 2 melhorias por" in sold(2), sold(2)
    assert "(s)" not in sold(1) + sold(2)


def test_final_scores_keep_a_name_that_ends_in_a_number_apart_from_its_score() -> None:
    # Before: "**Final scores:** AI 1 5 · Ana 3 · Bo 3" (seen on a phone).
    outcome = SimpleNamespace(scores={"1": 3, "ai-1": 5}, winners=["ai-1"])
    read = SimpleNamespace(outcome=outcome, names={"1": "Ana", "ai-1": "AI 1"})
    assert messages.scores_line(read) == "**Final scores:** AI 1: 5 · Ana: 3"  # type: ignore[arg-type]
    assert "AI 1: 5 · Ana: 3" in messages.outcome_line(read)  # type: ignore[arg-type]
