"""Turns that find their players (issue 27, items 1-3), through discord.py's real dispatch:
one inbox over two servers and in a DM, sorted by what each game asks of the player; each
alert mode (a thread ping, a DM, nothing; per game), a DM Discord refuses (50007); quiet hours
in a time zone under a fake clock, for the board's ping, a held-back alert and a reminder.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.service import GameService
from bot.store.base import ACTIVE
from cogs import delivery
from tests.discord_layer.test_threads import (
    ANA,
    BO,
    CY,
    GUILD,
    TABLE,
    boards,
    game_id,
    open_table,
    table,
)
from tests.harness import Channel, Harness, SeenMessage

pytest_plugins = ["tests.harness.fixtures"]

OTHER_GUILD = 3002
LOUNGE = Channel(id=2101, name="lounge")
#: A channel of the second server Ana may not view (an overwrite denies her View Channel).
VIEW_CHANNEL = 1 << 10
SECRET = Channel(id=2102, name="secret", overwrites=((ANA.id, 1, 0, VIEW_CHANNEL),))
PARLOR = Channel(id=2103, name="parlor")


async def play_until(h: Harness, game: str, user: str, now: float | None = None) -> None:
    """Whole turns (each mover's first legal move, saved by the service as a front door
    would) until ``user`` owes the next decision; then every post and alert they owe is
    delivered by the worker, as it is after a front door's lease (``now``: its clock)."""
    service: GameService = h.bot.service
    for _turn in range(200):
        record = await service.get(game)
        if record.status != ACTIVE or (user in service.to_move(record) and _turn):
            break
        player = service.to_move(record)[0]
        await service.move(record.guild, record.channel, player, service.legal(record, player)[0])
    worker = delivery.worker(h.bot)
    assert worker is not None
    await worker.drain((now or time.time()) + 61)
    await h.settle()


def last_board(h: Harness) -> SeenMessage:
    return boards(h.channel_messages(h.thread(TABLE)))[-1]


async def started(h: Harness, *humans) -> str:
    lobby = await open_table(h, "artsee", *humans)
    await h.click(humans[0], lobby, label="Start")
    return game_id(lobby)


# -- 1. one inbox ---------------------------------------------------------------------------


async def start_elsewhere(h: Harness, channel: Channel, *humans) -> str:
    """A game on the second server, saved by the service (its posts marked sent: the fake
    serves commands on the first server only)."""
    service: GameService = h.bot.service
    host, *others = humans
    where, thread = (str(OTHER_GUILD), str(channel.id)), {"thread": False}
    record = await service.new_game("artsee", *where, str(host.id), host.name, prefs=thread)
    for other in others:
        await service.join(str(OTHER_GUILD), str(channel.id), str(other.id), other.name, record.id)
    await service.start(str(OTHER_GUILD), str(channel.id), str(host.id), record.id)
    unsent = await service.store.unsent(record.id)
    await service.store.outbox_sent_many([(row.key, None, None) for row in unsent])
    return record.id


async def ana_moves(h: Harness, game: str, timeout: float) -> None:
    """Play until Ana owes the decision, her clock armed ``timeout`` seconds ahead."""
    service: GameService = h.bot.service
    service.timeout_after = timeout
    for _turn in range(200):
        record = await service.get(game)
        clock = record.clocks.get(str(ANA.id), [None, None])
        if str(ANA.id) in service.to_move(record) and clock[1] is not None:
            return
        player = service.to_move(record)[0]
        await service.move(record.guild, record.channel, player, service.legal(record, player)[0])
    raise AssertionError("Ana never got the move")


async def test_the_inbox_spans_both_servers_and_a_dm_her_moves_first_least_time_left_first(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    await h.add_guild(OTHER_GUILD, [LOUNGE, SECRET, PARLOR], [ANA, BO])
    h.bot.service.remind_after = None
    here = await started(h, ANA, BO)
    await ana_moves(h, here, 7200.0)
    there = await start_elsewhere(h, LOUNGE, ANA, BO)
    await ana_moves(h, there, 3600.0)
    hidden = await start_elsewhere(h, SECRET, BO, ANA)
    waiting = await bo_moves_elsewhere(h)
    await h.settle()

    answer = await h.slash(ANA, "game mine")
    lines = answer.message.embeds[0]["description"].splitlines()
    ids = [re.search(r"`(\w+)`", line)[1] for line in lines]  # type: ignore[index]
    # Her moves first, the least time left first; then the game waiting for Bo.
    assert ids == [there, here, waiting], lines
    assert hidden not in answer.message.text(), "a channel she cannot see is not listed"
    assert all("**" in line and "lapses <t:" in line for line in lines[:2])
    assert "waiting for bo" in lines[2]
    assert f"<#{LOUNGE.id}>" in lines[0]  # no post of it to link: its channel
    assert re.search(rf"\(https://discord\.com/channels/{GUILD}/\d+/\d+\)", lines[1])

    offered = await h.autocomplete(ANA, "game notify", focused="game")
    assert sorted(c["value"] for c in offered) == sorted([here, there, waiting])

    dm = await h.dm_slash(ANA, "game mine")
    assert dm.message.embeds[0]["description"].splitlines() == lines
    refused = await h.dm_slash(ANA, "game status", allow_errors=True)
    assert "server channels" in refused.text()


async def bo_moves_elsewhere(h: Harness) -> str:
    """A game of the second server where Bo owes the move."""
    service: GameService = h.bot.service
    game = await start_elsewhere(h, PARLOR, BO, ANA)
    for _turn in range(200):
        record = await service.get(game)
        if str(BO.id) in service.to_move(record):
            break
        player = service.to_move(record)[0]
        await service.move(record.guild, record.channel, player, service.legal(record, player)[0])
    unsent = await service.store.unsent(game)
    await service.store.outbox_sent_many([(row.key, None, None) for row in unsent])
    return game


# -- 2. alerts ----------------------------------------------------------------------------------


async def test_each_alert_mode_and_a_refused_dm_falls_back_to_the_thread_once(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    h.bot.service.remind_after = h.bot.service.timeout_after = None
    game = await started(h, ANA, BO)
    thread = h.thread(TABLE)
    await play_until(h, game, str(ANA.id))
    shown = await h.slash(BO, "game notify", alerts="dm")
    assert "direct message each turn" in shown.ephemeral_text()

    # Bo chose a DM: the board names him without a ping, and the DM says it all.
    await play_until(h, game, str(BO.id))
    board = last_board(h)
    assert f"<@{BO.id}>" in board.text() and BO.id not in board.mentions
    (note,) = h.dm_messages(BO)
    assert game in note.text() and "Harness Guild" in note.text()
    assert "lapses" not in note.text()  # no clock at this table
    assert f"/{GUILD}/{thread.id}/{board.id}" in note.text(), "it links the post"

    # Ana kept the default: a ping in the thread.
    await play_until(h, game, str(ANA.id))
    assert ANA.id in last_board(h).mentions and h.dm_messages(ANA) == []

    # Nothing at all, then a DM for this game alone.
    await h.slash(BO, "game notify", alerts="off")
    await play_until(h, game, str(BO.id))
    assert BO.id not in last_board(h).mentions and len(h.dm_messages(BO)) == 1
    await play_until(h, game, str(ANA.id))
    await h.slash(BO, "game notify", alerts="dm", game=game)
    await play_until(h, game, str(BO.id))
    assert len(h.dm_messages(BO)) == 2

    # Discord refuses the DM (50007): the thread pings him and says so, once.
    await play_until(h, game, str(ANA.id))
    dm_channel = h.fake.dm_channel(BO)
    h.fake.fail_next(
        "POST",
        f"/channels/{dm_channel}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
    )
    await play_until(h, game, str(BO.id))
    said = [m for m in h.channel_messages(thread) if "cannot send you direct" in m.text()]
    assert len(said) == 1 and said[0].mentions == [BO.id]
    await play_until(h, game, str(ANA.id))
    await play_until(h, game, str(BO.id))
    assert BO.id in last_board(h).mentions, "his alerts are thread pings again"
    assert len([m for m in h.channel_messages(thread) if "cannot send" in m.text()]) == 1
    assert len(h.dm_messages(BO)) == 2
    assert "refused" in (await h.slash(BO, "game notify")).ephemeral_text()


# -- 3. quiet hours -----------------------------------------------------------------------------


async def test_quiet_hours_hold_pings_and_reminders_until_they_end_in_the_players_zone(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    service: GameService = h.bot.service
    clock = {"now": time.time()}
    service._clock = lambda: clock["now"]
    service.remind_after, service.timeout_after = 600.0, None
    zone = "Asia/Kolkata"  # UTC+5:30: its hours fall on half hours of UTC
    local = dt.datetime.fromtimestamp(clock["now"], ZoneInfo(zone))
    start, end = local.hour, (local.hour + 2) % 24
    ends = local.replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=2)
    quiet_end = ends.timestamp()

    game = await started(h, ANA, BO)
    await play_until(h, game, str(ANA.id))
    await h.slash(BO, "game notify", zone=zone, quiet=f"{start}-{end}")
    await play_until(h, game, str(BO.id))
    board = last_board(h)
    assert BO.id not in board.mentions, "no ping in his quiet hours"
    status = (await h.slash(BO, "game status", game=game)).ephemeral_text()
    assert "Bo" in status and f"<t:{int(quiet_end)}:t>" in status

    # His reminder comes due within the quiet hours: it waits.
    scheduler = h.bot.get_cog("Scheduler")
    await scheduler.tick(clock["now"] + 700)
    await h.settle()
    before = len(h.channel_messages(h.thread(TABLE)))
    record = await service.get(game)
    assert record.clocks[str(BO.id)][0] == quiet_end

    # The hours end: the ping held back goes out, then the reminder.
    clock["now"] = quiet_end + 1
    await delivery.worker(h.bot).drain(clock["now"])  # type: ignore[union-attr]
    await h.settle()
    after = h.channel_messages(h.thread(TABLE))[before:]
    assert len(after) == 1 and after[0].mentions == [BO.id] and game in after[0].text()
    await scheduler.tick(clock["now"] + 1)
    await h.settle()
    reminder = h.channel_messages(h.thread(TABLE))[-1]
    assert "waiting for you" in reminder.text() and reminder.mentions == [BO.id]
    assert CY.id not in reminder.mentions


async def test_a_daily_digest_comes_once_a_day_at_nine_in_the_players_zone(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    service: GameService = h.bot.service
    service.remind_after = service.timeout_after = None
    game = await started(h, ANA, BO)
    await play_until(h, game, str(ANA.id))
    shown = await h.slash(BO, "game notify", alerts="digest", zone="Europe/Lisbon")
    assert "daily digest" in shown.ephemeral_text() and "Europe/Lisbon" in shown.ephemeral_text()
    await play_until(h, game, str(BO.id))
    assert BO.id not in last_board(h).mentions and h.dm_messages(BO) == []

    due = (await service.alert_prefs(str(BO.id)))["digest_at"]
    assert dt.datetime.fromtimestamp(due, ZoneInfo("Europe/Lisbon")).hour == 9
    scheduler = h.bot.get_cog("Scheduler")
    await scheduler.tick(due - 60)
    await h.settle()
    assert h.dm_messages(BO) == []
    for later in (1, 2):  # two ticks (or two schedulers) past the hour: one digest
        await scheduler.tick(due + later)
        await h.settle()
    (digest,) = h.dm_messages(BO)
    assert "daily digest: 1 game" in digest.text() and game in digest.text()
    assert f"/{GUILD}/{h.thread(TABLE).id}/" in digest.text()
    following = (await service.alert_prefs(str(BO.id)))["digest_at"]
    assert 23 * 3600 <= following - due <= 25 * 3600


async def test_a_player_on_dms_is_reminded_by_dm_not_in_the_thread(
    harness_factory, tmp_path: Path
) -> None:
    h = await table(harness_factory, tmp_path)
    service: GameService = h.bot.service
    service.remind_after, service.timeout_after = 600.0, 3600.0
    game = await started(h, ANA, BO)
    await play_until(h, game, str(ANA.id))
    await h.slash(BO, "game notify", alerts="dm", game=game)
    await play_until(h, game, str(BO.id))
    (turn,) = h.dm_messages(BO)
    assert "lapses <t:" in turn.text()
    posts = len(h.channel_messages(h.thread(TABLE)))

    scheduler = h.bot.get_cog("Scheduler")
    await scheduler.tick(time.time() + 700)
    await h.settle()
    turn, reminder = h.dm_messages(BO)
    assert "Reminder" in reminder.text() and game in reminder.text()
    assert all(BO.id not in m.mentions for m in h.channel_messages(h.thread(TABLE))[posts:])
