"""The Play button (issue 40) through discord.py's real dispatch and the fake Discord: with the
Activity configured, a press where the game is played answers with interaction callback type
12 (launch the Activity); without it, when Discord refuses the launch, or from elsewhere, the
answer is private and carries the player's own signed web link. Every payload is checked
against Discord's spec and limits at teardown (``harness_factory``)."""

from __future__ import annotations

from pathlib import Path

from bot import metrics
from bot.launches import LAUNCHES
from cogs import alerts, delivery
from tests.discord_layer.test_web_links import ANA, BO, GUILD, TABLE, web_bot
from tests.harness import Channel, FakeDiscord, Harness, SeenMessage

pytest_plugins = ["tests.harness.fixtures"]

CLIENT_ID = "555000111222333444"
ELSEWHERE = Channel(id=2027, name="elsewhere")


async def started(
    harness_factory, tmp_path: Path, *, configured: bool
) -> tuple[Harness, SeenMessage, str]:
    """A started game of Ana, Bo and an AI, in a bot whose web table listens on a free port;
    the Activity configured or not."""
    activity = {"discord_client_id": CLIENT_ID, "discord_client_secret": "s3cret"}
    bot, base = web_bot(tmp_path, **(activity if configured else {}))
    h = await harness_factory(
        bot, FakeDiscord(), guild_id=GUILD, channels=[TABLE, ELSEWHERE], members=[ANA, BO]
    )
    lobby = (await h.slash(ANA, "game new", game="artsee")).message
    await h.click(BO, h.message(lobby), label="Join")
    board = (await h.click(ANA, h.message(lobby), label="Start")).public_messages[-1]
    return h, board, base


def launches(outcome: str) -> float:
    return (
        metrics.REGISTRY.get_sample_value("tabletop_activity_launches_total", {"outcome": outcome})
        or 0.0
    )


async def test_play_launches_the_activity_where_the_game_is_played(
    harness_factory, tmp_path: Path
) -> None:
    h, board, _base = await started(harness_factory, tmp_path, configured=True)
    assert [b.label for b in board.buttons if b.custom_id and b.custom_id.startswith("play:")] == [
        "Play"
    ]
    before = launches("launched")
    pressed = await h.click(BO, board, label="Play")
    assert pressed.callback_type == 12 and not pressed.messages
    callback = [r for r in pressed.requests if r.path.endswith("/callback")]
    assert [r.json for r in callback] == [{"type": 12}]
    assert launches("launched") == before + 1
    game = board.buttons[0].custom_id.split(":")[1] if board.buttons[0].custom_id else ""
    where = str(pressed.interaction.channel_id)  # the game's thread, where its board is
    assert LAUNCHES.clicked(str(BO.id), where) == game
    panel = (await h.click(ANA, board, label="My hand")).message
    assert "Play" in [b.label for b in panel.buttons]
    assert (await h.click(ANA, panel, label="Play")).callback_type == 12


async def test_play_gives_the_web_link_when_the_activity_is_not_configured(
    harness_factory, tmp_path: Path
) -> None:
    h, board, base = await started(harness_factory, tmp_path, configured=False)
    before = launches("unconfigured")
    pressed = await h.click(ANA, board, label="Play")
    assert pressed.callback_type == 4
    answer = pressed.message
    assert answer.ephemeral and f"{base}/h/" in answer.text()
    assert launches("unconfigured") == before + 1


async def test_a_refused_launch_falls_back_to_the_web_link_in_time(
    harness_factory, tmp_path: Path
) -> None:
    """Discord refuses a launch where Activities are not enabled (or the user may not send
    messages, or the client is old): the same interaction is answered with the link."""
    h, board, base = await started(harness_factory, tmp_path, configured=True)
    h.fake.fail_next(
        "POST",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        status=400,
        code=50035,
        message="Invalid Form Body: activity launch not allowed",
    )
    before = launches("failed")
    pressed = await h.click(BO, board, label="Play")
    assert pressed.callback_type == 4
    assert pressed.message.ephemeral and f"{base}/h/" in pressed.message.text()
    assert launches("failed") == before + 1
    # The refused callback, on purpose; a late answer would be a problem of its own.
    assert all("acknowledged" not in problem for problem in h.take_problems())


async def test_a_press_away_from_the_game_gives_the_link(harness_factory, tmp_path: Path) -> None:
    """`/game mine` run in another channel carries Play for the game waiting for you; pressed
    there, it cannot open the game's Activity, so it gives the link."""
    h, _board, base = await started(harness_factory, tmp_path, configured=True)
    service = h.bot.service
    record = (await service.store.games_in_channel(str(GUILD), str(TABLE.id)))[0]
    mover = next(u for u in (ANA, BO) if str(u.id) in service.read(record).to_move)
    mine = (await h.slash(mover, "game mine", channel=ELSEWHERE)).message
    play = [b for b in mine.buttons if b.label == f"Play {record.id}"]
    assert len(play) == 1
    pressed = await h.click(mover, mine, label=f"Play {record.id}")
    assert pressed.callback_type == 4 and f"{base}/h/" in pressed.message.text()


async def test_the_your_turn_notices_carry_play(harness_factory, tmp_path: Path) -> None:
    """The reminder pinged in the game's thread launches the Activity there; the DM alert
    carries Play too, and pressed in the DM it gives the player's link."""
    h, _board, base = await started(harness_factory, tmp_path, configured=True)
    service = h.bot.service
    record = (await service.store.games_in_channel(str(GUILD), str(TABLE.id)))[0]
    read = service.read(record)
    mover = next(u for u in (ANA, BO) if str(u.id) in read.to_move)
    ping = await delivery.remind(h.bot, record, read.title, [str(mover.id)])
    assert ping is not None
    reminder = h.message(ping.id)
    assert "Play" in [b.label for b in reminder.buttons]
    assert (await h.click(mover, reminder, label="Play")).callback_type == 12
    await h.slash(mover, "game notify", alerts="dm")
    await alerts.send(h.bot, read, str(mover.id))
    (note,) = h.dm_messages(mover)
    pressed = await h.click(mover, note, label="Play")
    assert pressed.callback_type == 4 and f"{base}/h/" in pressed.message.text()
