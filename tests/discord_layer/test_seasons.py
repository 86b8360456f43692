"""Seasons through discord.py's real dispatch: `/game season` shows the current season's table
(nobody ranked before the server's minimum of games), the seasons to choose and all time by
autocomplete; the scheduler's tick at the season's end posts its results in the server's
chosen channel, says why no role was given when the bot lacks Manage Roles, and the past
season stays readable. The results post ranks from the games everyone on the server may see:
a game in a private channel names nobody there."""

from __future__ import annotations

from pathlib import Path

from tests.discord_layer import test_privacy as privacy
from tests.discord_layer.test_memory import finished_game
from tests.discord_layer.test_threads import ANA, BO, EVERYONE, GUILD, MOD, TABLE, WATCHER, new_bot
from tests.harness import Channel, FakeDiscord

pytest_plugins = ["tests.harness.fixtures"]

RESULTS = Channel(id=3301, name="results")


async def test_a_season_from_its_table_to_its_results_post_with_no_admin_work(
    harness_factory, tmp_path: Path
):
    h = await harness_factory(
        new_bot(tmp_path),
        FakeDiscord(),
        guild_id=GUILD,
        channels=[TABLE, RESULTS],
        members=[*EVERYONE, MOD],
    )
    await finished_game(h, thread=True)
    shown = await h.slash(WATCHER, "game season", game="artsee")
    (embed,) = shown.public_messages[0].embeds
    assert embed["title"] == "ArtSee: season 1"
    assert "Nobody is ranked yet." in embed["description"]
    assert "Ranked with 5 games or more. · Not ranked yet: 2." in embed["description"]

    config = await h.slash(
        MOD,
        "game config",
        options={"season_games": 1, "season_channel": RESULTS, "season_roles": True},
    )
    assert f"- season_channel: <#{RESULTS.id}>" in config.ephemeral_text()
    lines = (await h.slash(WATCHER, "game season", game="artsee")).public_messages[0].embeds[0]
    ranked = [x for x in lines["description"].splitlines() if x.startswith("**")]
    assert len(ranked) == 2 and "AI" not in lines["description"], "people only; AI levels rate"
    assert {f"<@{ANA.id}>", f"<@{BO.id}>"} == {x.split(" ")[1] for x in ranked}
    offered = await h.autocomplete(WATCHER, "game season", focused="season", game="artsee")
    assert [c["name"] for c in offered] == ["Season 1 (now)", "All time"]

    season = await h.bot.seasons.current(str(GUILD), "artsee")
    await h.bot.get_cog("Scheduler").tick(season.ends_at)
    await h.settle()
    (post,) = h.channel_messages(RESULTS)
    text = post.embeds[0]["description"]
    winner = ranked[0].split(" ")[1]
    assert text.startswith(f"🏆 {winner} wins season 1 of ArtSee!")
    assert "No roles were given: the bot needs the Manage Roles permission." in text
    assert "Season 2 has begun" in text
    await h.bot.get_cog("Scheduler").tick(season.ends_at + 60)
    await h.settle()
    assert len(h.channel_messages(RESULTS)) == 1, "posted once"

    past = await h.slash(WATCHER, "game season", game="artsee", season="1")
    assert past.public_messages[0].embeds[0]["description"].count("**") >= 4
    now = await h.slash(WATCHER, "game season", game="artsee")
    assert now.public_messages[0].embeds[0]["title"] == "ArtSee: season 2"
    missing = await h.slash(WATCHER, "game season", game="artsee", season="9")
    assert "There is no season `9` of ArtSee here" in missing.ephemeral_text()
    all_time = await h.slash(WATCHER, "game season", game="artsee", season="all")
    assert all_time.public_messages[0].embeds[0]["title"] == "ArtSee: leaderboard"


async def test_the_results_post_tells_nothing_of_a_game_in_a_private_channel(
    harness_factory, tmp_path: Path
):
    h = await privacy.world(harness_factory, tmp_path)
    ana, bo, out = privacy.ANA, privacy.BO, privacy.OUT
    for hidden in (privacy.SECRET, privacy.PRIVATE_THREAD):  # Ana and Bo, where only they see
        await privacy.played_game(h, hidden, finish=True)
    await privacy.played_game(h, privacy.PUBLIC, finish=True, players=(ana, out))
    channel = str(privacy.PUBLIC.id)
    await h.bot.service.configure(str(privacy.GUILD), season_games=1, season_channel=channel)
    inside = await h.slash(bo, "game season", channel=privacy.PUBLIC, game="artsee")
    assert f"<@{bo.id}>" in inside.text(), "Bo, who sees #secret, sees his own game there"

    season = await h.bot.seasons.current(str(privacy.GUILD), "artsee")
    await h.bot.get_cog("Scheduler").tick(season.ends_at)
    await h.settle()
    post = h.channel_messages(privacy.PUBLIC.id)[-1]
    text = post.embeds[0]["description"]
    assert "season 1 of ArtSee" in text
    assert str(bo.id) not in text and bo.global_name not in text, "Bo played in private only"
    lines = [x for x in text.splitlines() if x.startswith("**")]
    assert {x.split(" ")[1] for x in lines} == {f"<@{ana.id}>", f"<@{out.id}>"}
    assert all("1 game, " in x for x in lines), "Ana's private games count for nothing here"
    closed = await h.bot.seasons.get(str(privacy.GUILD), "artsee", 1)
    assert closed.games == 3, "counted, not told"
