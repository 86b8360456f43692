"""No hidden card in anything a non-player can reach, for every game.

Two checks, as the views' own tests do it (a view is all that viewer may know): every view the
web table asks the engine for while it serves a public page or event stream is the public view
(``view(state, None)``) and a hand page asks for its own player's alone; and no player's hand,
in the words their private panel uses, appears in a page that is not theirs.
"""

from __future__ import annotations

import asyncio
from html import escape
from typing import Any

import pytest

from bot.pictures import draw_board
from bot.replay import open_replay
from bot.store.base import ACTIVE
from bot.words import WORDS
from rules import GAMES
from tests.web.conftest import ANA, BO, Web
from tests.web.test_handlers import next_event, play_one
from web.pages import told


class Spy:
    """Records who each view the engine is asked for is for."""

    def __init__(self, game: Any) -> None:
        self.viewers: list[str | None] = []
        self._view = game.view

    def __call__(self, state: Any, player: str | None) -> dict[str, Any]:
        self.viewers.append(player)
        return self._view(state, player)


async def public_texts(web: Web, base: str) -> list[str]:
    """Every public page, answer and event of a table, as text."""
    texts = []
    for path in ("", "/fragment", "/replay", "/replay.json"):
        response = await web.client.get(base + path)
        assert response.status == 200, path
        texts.append(await response.text())
    turns = len((await (await web.client.get(f"{base}/replay.json")).json())["turns"])
    for turn in range(turns):
        assert (await web.client.get(f"{base}/replay/{turn}.png")).status == 200
    stream = await web.client.get(f"{base}/events")
    texts.append(str(await asyncio.wait_for(next_event(stream.content), 2)))
    stream.close()
    return texts


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_public_pages_and_streams_hold_no_hidden_card(
    web: Web, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = await web.public_game(game)
    for _move in range(6):
        record = await web.service.get(record.id)
        if record.status != ACTIVE or not web.service.read(record).waiting_humans:
            break
        record = await play_one(web.service, record)
    record = await web.service.get(record.id)
    read = web.service.read(record)
    hands = {p: WORDS[game].hand_text(read.view(p)) for p in (ANA, BO)}
    spy = Spy(GAMES[game])
    monkeypatch.setattr(GAMES[game], "view", spy)
    texts = await public_texts(web, web.table(record))
    assert spy.viewers and set(spy.viewers) == {None}
    for hand in hands.values():
        for text in texts:
            assert all(form not in text for form in (hand, escape(hand), told(hand)))
    spy.viewers.clear()
    own = web.links.hand(record.id, ANA, 10**10).removeprefix(web.links.base_url)
    page = await (await web.client.get(own)).text()
    # The turn built a step ahead (its targets and previews) is worked out from Ana's view.
    page += await (await web.client.get(f"{own}/fragment?steps=0")).text()
    assert set(spy.viewers) <= {None, ANA} and ANA in spy.viewers
    if hands[BO] != hands[ANA]:
        assert told(hands[BO]) not in page


async def test_a_turn_in_progress_stays_the_movers_until_its_post(web: Web) -> None:
    """The table shows the board its last post showed while a player is mid-turn (the steps
    so far are in the journal, which only the mover has seen)."""
    for game in ("street-kings", "street-art-mural", "artsee", "street-art"):
        record = await web.public_game(game)
        for _move in range(40):
            record = await web.service.get(record.id)
            if record.journal or record.status != ACTIVE:
                break
            record = await play_one(web.service, record)
        if record.journal:
            break
    assert record.journal, "no game reached the middle of a turn"
    replayed = await open_replay(web.service, record)
    told = draw_board(
        record.game, replayed.view(replayed.last), replayed.names, replayed.lines(replayed.last)
    )
    shown = await web.client.get(f"{web.table(record)}/board/{record.version}.png")
    assert await shown.read() == told
    assert replayed.view(replayed.last) != web.service.read(record).view(None)
