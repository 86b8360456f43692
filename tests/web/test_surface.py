"""The hand page's surface without a browser: every target a button with a name, a turn built
in the address and sent with one Confirm, and an old or forged turn refused with the game as
it is now (nothing applied), just like a stale Discord panel."""

from __future__ import annotations

import json
import re
import time
from urllib.parse import parse_qs, urlsplit

from bot.presentation import build
from bot.store.base import GameRecord
from tests.web.conftest import ANA, CHANNEL, GUILD, Web


async def artsee(web: Web) -> tuple[GameRecord, str]:
    """A two-seat ArtSee table, Ana first to move, and the path of her hand page."""
    service = web.service
    record = await service.new_game("artsee", GUILD, CHANNEL, ANA, "Ana")
    await service.add_ai(GUILD, CHANNEL, ANA, record.id, level="easy")
    record = (await service.start(GUILD, CHANNEL, ANA, record.id)).record
    path = web.links.hand(record.id, ANA, time.time()).removeprefix(web.links.base_url)
    return await service.get(record.id), path


def buttons(page: str) -> list[str]:
    return re.findall(r"<button\b[^>]*>", page)


async def tap(web: Web, path: str, page: str, **choice: str) -> str:
    """What the form sends for a tap without a script; the page it leads to."""
    steps = re.search(r'name="steps" value="([^"]*)"', page)
    version = re.search(r'name="version" value="(\d+)"', page)
    assert steps is not None and version is not None
    form = {"steps": steps.group(1), "version": version.group(1), "pick": "", **choice}
    answer = await web.client.post(f"{path}/turn", data=form, allow_redirects=False)
    assert answer.status == 303
    return str(answer.headers["Location"])


async def test_a_turn_is_built_by_taps_and_sent_with_one_confirm(web: Web) -> None:
    record, path = await artsee(web)
    page = await (await web.client.get(path)).text()
    named = buttons(page)
    assert named and all('aria-label="' in b or "confirm" in b for b in named)
    assert re.search(r'aria-label="Play [^"]+" data-|aria-label="Play [^"]+">', page)
    after_card = await tap(web, path, page, add="0")
    assert parse_qs(urlsplit(after_card).query)["steps"] == ["0"]
    page = await (await web.client.get(after_card)).text()
    assert "Your turn so far" in page and 'aria-label="Onto column 1 · +' in page
    after_column = await tap(web, path, page, add="0")
    page = await (await web.client.get(after_column)).text()
    # The preview of the column: what placing there does, as the turn post will tell it (a
    # score only where there is one: a +0 arrow is not told).
    assert re.search(r'<ul class="preview"><li>Ana played [^<]+ onto column 1\b', page)
    logged = len(await web.service.store.actions(record.id))
    sent = await tap(web, path, page, confirm="1")
    assert sent.endswith("?note=moved")
    actions = await web.service.store.actions(record.id)
    assert [a.action["type"] for a in actions[logged : logged + 2]] == ["card", "place"]


async def test_an_old_or_forged_turn_is_refused_with_the_current_board(web: Web) -> None:
    record, path = await artsee(web)
    page = await (await web.client.get(path)).text()
    old = page.replace(f'name="version" value="{record.version}"', 'name="version" value="1"')
    assert (
        await tap(
            web, path, old.replace('name="steps" value=""', 'name="steps" value="0"'), confirm="1"
        )
    ).endswith("?note=stale")
    forged = page.replace('name="steps" value=""', 'name="steps" value="0.99"')
    assert (await tap(web, path, forged, confirm="1")).endswith("?note=refused")
    assert (await web.service.get(record.id)).version == record.version
    shown = await (await web.client.get(f"{path}?note=stale")).text()
    assert "The game moved on before your move arrived" in shown
    assert f'data-version="{record.version}"' in shown  # the board as it is now
    lost = await (await web.client.get(f"{path}?steps=0.99")).text()
    assert "your turn so far was not sent" in lost


async def test_a_piece_is_picked_up_then_placed(web: Web) -> None:
    """Street Kings' two-part moves (a location card onto a spot, an upgrade onto a car): the
    piece is picked up first, and only then do its places light, each named for it."""
    service = web.service
    record = await service.new_game("street-kings", GUILD, CHANNEL, ANA, "Ana")
    await service.add_ai(GUILD, CHANNEL, ANA, record.id, level="easy")
    record = (await service.start(GUILD, CHANNEL, ANA, record.id)).record
    for _move in range(60):
        record = await service.get(record.id)
        read = service.read(record)
        if ANA in read.to_move:
            turn = build(read.engine, read.state, ANA, read.names, [])
            if any(t.picks for t in turn.targets):
                break
            lit = next(t for t in turn.targets if t.index is not None)
            await service.move(GUILD, CHANNEL, ANA, read.legal(ANA)[lit.index], record.id)
    else:
        raise AssertionError("nothing to pick up in sixty moves")
    path = web.links.hand(record.id, ANA, time.time()).removeprefix(web.links.base_url)
    page = await (await web.client.get(path)).text()
    source = next(t for t in turn.targets if t.picks)
    assert "Pick up a card first" in page and f'value="{source.key}"' in page
    picked = await (await web.client.get(f"{path}?pick={source.key}")).text()
    assert 'aria-pressed="true"' in picked and f'data-source="{source.key}"' in picked


async def test_a_card_is_drawn_on_its_button_and_only_a_card_the_seat_may_see(web: Web) -> None:
    record, path = await artsee(web)
    read = web.service.read(record)
    mine = read.view(ANA)["hand_cards"]
    page = await (await web.client.get(path)).text()
    assert all(f'src="{path}/face/{card}.png"' in page for card in mine)
    face = await web.client.get(f"{path}/face/{mine[0]}.png")
    assert face.status == 200 and (await face.read()).startswith(b"\x89PNG")
    seen = json.dumps(read.view(ANA))
    other = next(s.user for s in record.seats if s.user != ANA)
    hidden = [c for c in read.view(other)["hand_cards"] if c not in seen]
    assert hidden, "the other seat holds a card Ana cannot see"
    assert (await web.client.get(f"{path}/face/{hidden[0]}.png")).status == 404
    assert (await web.client.get(f"{path}/face/players.png")).status == 404  # a key, no card
