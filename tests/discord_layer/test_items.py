"""The custom-id codec in cogs/items.py: what it builds it parses back, within 100 characters,
and an id it did not build (crafted, or of another bot) is none of ours."""

from __future__ import annotations

import pytest

from cogs import items
from cogs.items import Click


@pytest.mark.parametrize(
    ("verb", "arg"), [("join", None), ("act", 3), ("hand", 1), ("pick", None), ("pick", 4)]
)
def test_an_id_parses_back_to_the_click_it_was_built_from(verb: str, arg: int | None) -> None:
    text = items.custom_id("abc234", verb, 41, arg)
    assert len(text) <= items.CUSTOM_ID_LIMIT
    assert items.parse(text) == Click("abc234", verb, 41, arg)


@pytest.mark.parametrize(
    "text",
    ["g:abc234:join", "g:abc234:fly:3", "g:ABC234:join:3", "x:abc234:join:3", "g:abc234:act:x:3"],
)
def test_ids_we_did_not_build_are_not_ours(text: str) -> None:
    assert items.parse(text) is None


def test_an_id_that_would_not_parse_or_fit_is_never_built() -> None:
    with pytest.raises(ValueError):
        items.custom_id("abc234", "fly", 1)
    with pytest.raises(ValueError):
        items.custom_id("abc234", "act", 10**30, 1)
