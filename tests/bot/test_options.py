"""What players type as numbers and options: every bad input is a short sentence, never an
exception, and nothing is stored."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import ServiceError
from bot.options import (
    ECHO_LIMIT,
    OPTION_INT_MAX,
    check_options,
    echo,
    parse_int,
    parse_options,
)
from bot.service import GameService
from cogs.mural import parse_cell, parse_discs, parse_steps
from cogs.street_kings import class_action
from rules import GAMES
from tests.backends import Backend

DISCORD_LIMIT = 2000
HUGE = "9" * 4400
#: Inputs a hostile or unlucky player types where a number belongs.
BAD_NUMBERS = ["²", "--3", HUGE, "٣", "1_000", "0x10", "1e3", "", " ", "+", "3.0", "½", "🔟"]


def refusal(call, *args: object) -> str:
    with pytest.raises(ServiceError) as info:
        call(*args)
    assert len(info.value.message) < 300
    return info.value.message


@pytest.mark.parametrize("text", BAD_NUMBERS)
def test_a_bad_number_is_a_sentence_naming_the_range(text: str) -> None:
    message = refusal(parse_int, text, 1, 24, "A space")
    assert "A space must be a whole number from 1 to 24" in message


@pytest.mark.parametrize(("text", "value"), [("7", 7), (" 24 ", 24), ("+3", 3), ("-2", -2)])
def test_a_good_number_is_read(text: str, value: int) -> None:
    assert parse_int(text, -5, 24, "A space") == value


def test_the_range_is_enforced_at_both_ends() -> None:
    for text in ("0", "25", "-1", "0000000025"):
        refusal(parse_int, text, 1, 24, "A space")


def test_an_echo_is_one_short_line_that_cannot_close_a_code_span() -> None:
    echoed = echo("a`b\n" + "x" * 5000)
    assert len(echoed) == ECHO_LIMIT and "`" not in echoed and "\n" not in echoed
    assert echoed.endswith("…")
    assert echo("short") == "short"


def test_options_text_is_split_into_raw_values() -> None:
    assert parse_options(" two_players = true ; turn_cap=40,") == {
        "two_players": "true",
        "turn_cap": "40",
    }
    assert parse_options(None) == {}
    assert "name=value" in refusal(parse_options, "two_players")
    assert "name=value" in refusal(parse_options, "=true")
    assert "at most" in refusal(parse_options, "a=" + "b" * 5000)


def test_options_are_typed_by_their_defaults() -> None:
    game = GAMES["street-art"]
    checked = check_options(game, parse_options("two_players=YES, turn_cap=40"))
    assert checked["two_players"] is True and checked["turn_cap"] == 40
    assert check_options(game, {"turn_cap": 12})["turn_cap"] == 12


@pytest.mark.parametrize(
    ("game", "text", "fragment"),
    [
        ("street-art", "turn_cap=abc", "turn_cap"),
        ("street-art", "turn_cap=0", "turn_cap"),
        ("street-art", f"turn_cap={OPTION_INT_MAX + 1}", "turn_cap"),
        ("street-art", "turn_cap=²", "turn_cap"),
        ("street-art", f"turn_cap={HUGE[:400]}", "turn_cap"),
        ("street-art", "two_players=<@123456789>", "two_players"),
        ("street-art-mural", "disc_sides=C", "disc_sides"),
        ("street-kings", "round_cap=--3", "round_cap"),
        ("street-kings", "shorter_game=true, elite_class=true", "choose one"),
        ("artsee", "anything=1", "no option"),
    ],
)
def test_a_bad_option_is_refused_with_a_sentence_about_it(
    game: str, text: str, fragment: str
) -> None:
    message = refusal(check_options, GAMES[game], parse_options(text))
    assert fragment in message


def test_an_unknown_option_name_is_clipped_in_the_refusal() -> None:
    message = refusal(check_options, GAMES["street-art"], {"x" * 3000: "1"})
    assert "no option" in message and "x" * (ECHO_LIMIT + 1) not in message


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=600), st.sampled_from(sorted(GAMES)))
def test_any_options_text_is_accepted_or_refused_in_a_short_sentence(text: str, game: str) -> None:
    try:
        check_options(GAMES[game], parse_options(text))
    except ServiceError as error:
        assert len(error.message) < DISCORD_LIMIT // 4


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=60))
def test_typed_cells_discs_turns_and_race_choices_never_raise_anything_else(text: str) -> None:
    for parse in (parse_cell, parse_discs, parse_steps, class_action):
        try:
            parse(text)
        except ServiceError as error:
            assert len(error.message) < 300


@pytest.mark.parametrize("text", ["B²", "B--3", "B" + HUGE, "B٣", "F1", "B9"])
def test_a_bad_mural_cell_is_a_sentence(text: str) -> None:
    assert "is not a mural cell" in refusal(parse_cell, text)


def test_mural_cells_discs_and_turns_read_as_the_board_labels_them() -> None:
    assert parse_cell(" b2 ") == (1, 1)
    assert parse_discs("2+3") == [1, 2]
    assert parse_steps("+1, -2") == [1, -2]
    for text in ("²", "--3", HUGE, "5", "0"):
        assert "Name a disc" in refusal(parse_discs, text)
    for text in ("²", "--3", HUGE):
        assert "how far to turn" in refusal(parse_steps, text)


def test_a_race_class_or_a_finish_space_is_read_strictly() -> None:
    assert class_action(" c ") == {"type": "class", "class": "C"}
    assert class_action("17") == {"type": "finish_line", "space": 17}
    for text in ("²", "--3", HUGE, "0", "25"):
        assert "finish line space" in refusal(class_action, text)


# -- through the service: refused at once, nothing stored ------------------------------------


@pytest.fixture
async def service(backend: Backend):
    store = await backend.opened()
    yield GameService(store, seed_factory=lambda: "fixed-seed")
    await store.close()


async def test_new_game_refuses_a_bad_option_at_once_and_stores_nothing(
    service: GameService,
) -> None:
    with pytest.raises(ServiceError) as info:
        await service.new_game("street-art", "g", "c", "101", "Ana", parse_options("turn_cap=abc"))
    assert "turn_cap" in info.value.message and "Invite" not in info.value.message
    assert await service.store.games_in_channel("g", "c") == []


async def test_settings_refuse_a_bad_option_and_keep_the_old_ones(service: GameService) -> None:
    record = await service.new_game("street-art", "g", "c", "101", "Ana")
    with pytest.raises(ServiceError) as info:
        await service.set_options("g", "c", "101", parse_options("turn_cap=abc"))
    assert "turn_cap" in info.value.message
    stored = await service.get(record.id)
    assert stored.version == record.version and stored.options == record.options
    changed = await service.set_options("g", "c", "101", parse_options("turn_cap=30"))
    assert changed.options["turn_cap"] == 30
