"""The web table's handlers, through aiohttp's test client, on both store backends."""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from aiohttp.test_utils import TestClient, TestServer
from markupsafe import escape

from bot.changes import Change
from bot.replay import open_replay
from bot.service import GameService
from bot.store.base import ACTIVE, FINISHED, GameRecord, LoggedAction
from bot.words import WORDS
from tests.web.conftest import ANA, BO, CHANNEL, EVIL, GUILD, SECRET, Web
from web.app import CSP, create_app
from web.links import Hand, Links, sign_hand
from web.pages import rating_chart, told
from web.ratelimit import RateLimit
from web.scores import score_text


async def play_one(service: GameService, record: GameRecord) -> GameRecord:
    """The first human who owes a decision makes their first legal move."""
    record = await service.get(record.id)
    human = service.read(record).waiting_humans[0]
    action = service.legal(record, human)[0]
    return (await service.move(GUILD, CHANNEL, human, action, record.id)).record


async def test_the_table_page_shows_the_game_escaped_under_a_strict_policy(web: Web) -> None:
    record = await web.public_game()
    response = await web.client.get(web.table(record))
    assert response.status == 200
    page = await response.text()
    assert response.headers["Content-Security-Policy"] == CSP
    assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
    assert EVIL not in page and f"<bdi>{escape(EVIL)}</bdi>" in page  # escaped, isolated
    assert re.findall(r"<script(?![^>]*\bsrc=)", page) == []  # no inline script at all
    assert "Bo" in page and "AI 1" in page
    assert f'data-version="{record.version}"' in page
    board = re.search(r'src="(/g/[^"]+/board/\d+\.png)"', page)
    assert board is not None
    picture = await web.client.get(board.group(1))
    assert picture.status == 200 and picture.content_type == "image/png"
    assert (await picture.read()).startswith(b"\x89PNG")


async def test_a_game_that_is_not_public_has_no_page(web: Web) -> None:
    hidden = await web.public_game(public=False)
    assert (await web.client.get(web.table(hidden))).status == 404
    assert (await web.client.get("/g/notarealidatall")).status == 404
    assert (await web.client.get(f"/g/{hidden.id}")).status == 404  # the short id names nothing


async def test_a_server_can_turn_its_web_table_off_and_on(web: Web) -> None:
    record = await web.public_game()
    await web.service.configure(GUILD, web=False)
    assert (await web.client.get(web.table(record))).status == 404
    assert (await web.client.get(f"{web.table(record)}/events")).status == 404
    await web.service.configure(GUILD, web=True)
    assert (await web.client.get(web.table(record))).status == 200


async def next_event(lines: asyncio.StreamReader) -> dict[str, str]:
    """The next server-sent event's fields (comments skipped)."""
    fields: dict[str, str] = {}
    while True:
        line = (await lines.readline()).decode().rstrip("\n")
        if not line:
            if fields:
                return fields
            continue
        if line.startswith(":"):
            continue
        key, _sep, value = line.partition(": ")
        fields[key] = value


async def test_the_event_stream_tells_each_change_and_only_its_version(web: Web) -> None:
    record = await web.public_game()
    response = await web.client.get(f"{web.table(record)}/events")
    assert response.headers["Content-Type"] == "text/event-stream"
    first = await asyncio.wait_for(next_event(response.content), 2)
    assert first == {"id": str(record.version), "data": str(record.version)}
    started = time.perf_counter()
    after = await play_one(web.service, record)
    event = await asyncio.wait_for(next_event(response.content), 2)
    assert time.perf_counter() - started < 1.0
    assert event["data"] == str(after.version)
    response.close()


async def test_a_reconnect_hears_a_change_it_missed_at_once(web: Web) -> None:
    record = await web.public_game()
    seen = str(record.version)
    after = await play_one(web.service, record)  # while the page was away
    response = await web.client.get(f"{web.table(record)}/events", headers={"Last-Event-ID": seen})
    event = await asyncio.wait_for(next_event(response.content), 2)
    assert event["id"] == str(after.version)
    response.close()


async def test_the_fragment_follows_the_game(web: Web) -> None:
    record = await web.public_game()
    after = await play_one(web.service, record)
    fragment = await (await web.client.get(f"{web.table(record)}/fragment")).text()
    assert f'data-version="{after.version}"' in fragment
    assert "<html" not in fragment


async def test_the_replay_steps_through_told_turns_only(web: Web) -> None:
    record = await web.public_game()
    for _n in range(3):
        record = await play_one(web.service, record)
    page = await web.client.get(f"{web.table(record)}/replay")
    assert page.status == 200 and "replay.js" in await page.text()
    data = await (await web.client.get(f"{web.table(record)}/replay.json")).json()
    turns = data["turns"]
    assert turns[0]["lines"] == [] and len(turns) >= 2
    picture = await web.client.get(f"{web.table(record)}/replay/1.png")
    assert (await picture.read()).startswith(b"\x89PNG")
    beyond = await web.client.get(f"{web.table(record)}/replay/{len(turns)}.png")
    assert beyond.status == 404
    # A running game has no GIF yet: it would show the turns to come.
    assert (await web.client.get(f"{web.table(record)}/replay.gif")).status == 409


async def test_a_hand_link_shows_that_player_their_own_hand_only(web: Web) -> None:
    record = await web.public_game()
    read = web.service.read(record)
    mine = WORDS[record.game].hand_text(read.view(ANA))
    theirs = WORDS[record.game].hand_text(read.view(BO))
    assert mine != theirs
    url = web.links.hand(record.id, ANA, time.time())
    page = await (await web.client.get(url.removeprefix(web.links.base_url))).text()
    assert told(mine) in page
    assert told(theirs) not in page


async def test_a_move_from_the_hand_page_goes_through_the_service(web: Web) -> None:
    record = await web.public_game()
    record = await web.service.get(record.id)
    human = web.service.read(record).waiting_humans[0]
    path = web.links.hand(record.id, human, time.time()).removeprefix(web.links.base_url)
    page = await (await web.client.get(path)).text()
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version is not None
    logged = len(await web.service.store.actions(record.id))
    events = await web.client.get(f"{path}/events")
    await asyncio.wait_for(next_event(events.content), 2)
    answer = await web.client.post(
        f"{path}/move",
        data={"index": "0", "version": version.group(1)},
        headers={"Accept": "application/json"},
    )
    assert answer.status == 200 and (await answer.json())["note"] == "Done."
    after = await web.service.get(record.id)
    assert after.version > record.version
    assert (await web.service.store.actions(record.id))[logged].player == human
    heard = await asyncio.wait_for(next_event(events.content), 2)
    assert int(heard["data"]) >= after.version - 10
    events.close()
    # The same form again is out of date: refused, nothing applied.
    again = await web.client.post(
        f"{path}/move", data={"index": "0", "version": version.group(1)}, allow_redirects=False
    )
    assert again.status == 303 and again.headers["Location"].endswith("?note=stale")
    told = await (await web.client.get(again.headers["Location"])).text()
    assert "The game moved on before your move arrived" in told  # the page works without JS
    assert (await web.service.get(record.id)).version == after.version


async def test_a_move_from_the_hand_page_hands_its_posts_to_a_delivery_worker_at_once(
    web: Web,
) -> None:
    """The web table posts nothing itself: what the move owes the Discord table is free for a
    worker to claim at once (no front door's first go to wait out), and the change that says
    so wakes the worker (``cogs.delivery`` listens for ``owed``)."""
    record = await web.public_game()
    started = await web.service.store.unsent(record.id)  # the Discord layer posted the start
    await web.service.store.outbox_sent_many([(row.key, None, None) for row in started])
    heard: list[Change] = []
    web.service.changes.subscribe(heard.append)
    for _move in range(20):  # the human's moves until one finishes a turn
        record = await web.service.get(record.id)
        human = web.service.read(record).waiting_humans[0]
        path = web.links.hand(record.id, human, time.time()).removeprefix(web.links.base_url)
        page = await (await web.client.get(path)).text()
        version = re.search(r'name="version" value="(\d+)"', page)
        assert version is not None
        await web.client.post(
            f"{path}/move",
            data={"index": "0", "version": version.group(1)},
            headers={"Accept": "application/json"},
        )
        if await web.service.store.unsent(record.id):
            break
    else:
        pytest.fail("twenty moves from the hand page and no turn was told")
    claimed = await web.service.store.claim_outbox("a worker", time.time(), 60.0, 10)
    assert [row.game_id for row in claimed] == [record.id]
    assert heard[-1].owed and heard[-1].game_id == record.id


async def test_an_altered_or_lapsed_hand_link_is_refused(web: Web) -> None:
    record = await web.public_game()
    good = sign_hand(SECRET, Hand(record.id, ANA, int(time.time()) + 60))
    body, mac = good.split(".")
    other = sign_hand(SECRET, Hand(record.id, BO, int(time.time()) + 60)).split(".")[0]
    lapsed = sign_hand(SECRET, Hand(record.id, ANA, int(time.time()) - 1))
    forged = sign_hand(b"another key", Hand(record.id, ANA, int(time.time()) + 60))
    assert (await web.client.get(f"/h/{good}")).status == 200
    for token in (f"{other}.{mac}", lapsed, forged, f"{body}.", "nonsense"):
        response = await web.client.get(f"/h/{token}")
        assert response.status == 403, token
        move = await web.client.post(f"/h/{token}/move", data={"index": "0", "version": "1"})
        assert move.status == 403
    assert (await web.service.get(record.id)).version == record.version


async def finish(service: GameService, record: GameRecord) -> GameRecord:
    for _n in range(2000):
        record = await service.get(record.id)
        if record.status != ACTIVE:
            return record
        await play_one(service, record)
    raise AssertionError("the game did not end")


async def test_leaderboard_and_player_page_with_a_rating_chart(web: Web) -> None:
    record = await finish(web.service, await web.public_game(ai=2))
    assert record.status == FINISHED
    board = await web.client.get(f"/s/{GUILD}/street-art")
    page = await board.text()
    assert board.status == 200 and "Bo" in page and EVIL not in page
    # Issue 24: the rating reads as it does in Discord (1,000 to start, whole points), not
    # the raw ordinal ("0.0", "-2.8"), on the leaderboard and on the player's chart.
    shown = re.findall(r"<td>([^<]*)</td><td>\d+</td></tr>", page)
    assert shown and all(900 <= int(r.replace(",", "")) <= 1100 for r in shown), shown
    player = await web.client.get(f"/s/{GUILD}/p/{BO}")
    text = await player.text()
    assert player.status == 200 and "<svg" in text and "<polyline" in text
    sides = [int(y) for y in re.findall(r'text-anchor="end">(-?\d+)</text>', text)]
    assert sides and all(900 <= y <= 1100 for y in sides), sides
    assert web.table(record) in text  # the finished game links its table
    assert (await web.client.get(f"/s/{GUILD}/p/999")).status == 404
    server = await (await web.client.get(f"/s/{GUILD}")).text()
    assert f'href="/s/{GUILD}/street-art"' in server and f'href="/s/{GUILD}"' in page
    assert (await web.client.get("/s/not-a-server")).status == 404
    gif = await web.client.get(f"{web.table(record)}/replay.gif")
    assert gif.status == 200 and (await gif.read()).startswith(b"GIF8")


async def test_people_pages_show_only_what_was_played_in_public(web: Web) -> None:
    """A game in a private channel stays private on the people pages too: Bo's result there
    is not listed, his page shows only his public game, and a rating earned partly in
    private is not on the public leaderboard; AI levels (they play everywhere) are not."""
    hidden = await finish(web.service, await web.public_game(ai=1, public=False))
    assert hidden.status == FINISHED
    assert (await web.client.get(f"/s/{GUILD}/p/{BO}")).status == 404  # nothing public yet
    board = await (await web.client.get(f"/s/{GUILD}/street-art")).text()
    assert "Bo" not in board and "AI (" not in board
    shown = await finish(web.service, await web.public_game(ai=1))
    text = await (await web.client.get(f"/s/{GUILD}/p/{BO}")).text()
    assert web.table(shown) in text and web.table(hidden) not in text
    assert text.count("<tbody><tr>") == 1 and text.count("</td></tr>") == 1  # one game listed
    board = await (await web.client.get(f"/s/{GUILD}/street-art")).text()
    assert "Bo" not in board  # his rating moved in the private game too


async def test_too_many_requests_from_one_address_are_refused(web: Web) -> None:
    app = create_app(web.service, SECRET, limit=RateLimit(burst=3, per_second=0.001))
    async with TestClient(TestServer(app)) as client:
        codes = [(await client.get("/g/nothing")).status for _n in range(5)]
    assert codes == [404, 404, 404, 429, 429]


def test_links_point_at_the_configured_address() -> None:
    links = Links("https://games.example", SECRET)
    assert links.table("abcdef").startswith("https://games.example/g/")
    assert "abcdef" not in links.table("abcdef")
    assert links.hand("abcdef", ANA, 0).startswith("https://games.example/h/")


def test_discord_markup_becomes_html_only_around_escaped_text() -> None:
    assert told("**<img src=x onerror=alert(1)>** played `x<y`") == (
        "<strong><bdi>&lt;img src=x onerror=alert(1)&gt;</bdi></strong> played <code>x&lt;y</code>"
    )


async def test_a_replay_read_while_a_move_lands_replays_the_newer_game(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = await play_one(web.service, await web.public_game())
    store = web.service.store
    read_log = store.actions
    moved: list[GameRecord] = []

    async def log_then_a_move(game_id: str) -> list[LoggedAction]:
        rows = await read_log(game_id)
        if not moved:  # the table plays on between the page's two reads
            moved.append(await play_one(web.service, record))
        return rows

    monkeypatch.setattr(store, "actions", log_then_a_move)
    replayed = await open_replay(web.service, record)
    assert replayed.record.version == moved[0].version


def test_each_games_score_is_read_from_its_public_view() -> None:
    for game, seat, shown in (
        ("street-art", {"hearts": 7}, "7 hearts"),
        ("artsee", {"prestige": 4}, "4 prestige"),
        ("street-art-mural", {"score": {"cards": 2, "paints": 3, "total": 5}}, "5 points"),
        ("street-kings", {"trophies": {"gold": 2, "silver": 1}}, "2 gold trophies"),
    ):
        view = {"players": [{"id": ANA, **seat}]}
        assert score_text(game, view, ANA, None) == shown


def test_the_rating_chart_spans_its_points_with_their_dates() -> None:
    day = 86_400.0
    chart = rating_chart([(20_000 * day, 1.0), (20_001 * day, 3.5), (20_003 * day, 2.0)], "r")
    assert chart.count("<circle") == 3 and "<polyline" in chart
    assert "2024-10-04" in chart and "2024-10-07" in chart  # the first and the last game
    assert ">0</text>" in chart and ">5</text>" in chart  # the ratings' range, rounded out
    assert "style=" not in chart  # the page's policy allows no inline style
    assert "<svg" not in rating_chart([], "r")
