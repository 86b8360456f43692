"""Seasons through discord.py's real dispatch: `/game season` shows the current season's table
(nobody ranked before the server's minimum of games), the seasons to choose and all time by
autocomplete; the scheduler's tick at the season's end posts its results in the server's
chosen channel, says why no role was given when the bot lacks Manage Roles, and the past
season stays readable. With Manage Roles the top places get their roles at the cut, and lose
them at the next one to the new top places (the requests as Discord's API receives them); a
role above the bot's own, or Discord's refusal, is said in the post and the cut goes on. The
results post ranks from the games everyone on the server may see:
a game in a private channel names nobody there."""

from __future__ import annotations

import time
from pathlib import Path

import discord

from bot.seasons.service import WEEK
from bot.store.base import FINISHED, Seat
from tests.discord_layer import test_privacy as privacy
from tests.discord_layer.test_memory import finished_game
from tests.discord_layer.test_threads import (
    ANA,
    BO,
    CY,
    EVERYONE,
    GUILD,
    MOD,
    TABLE,
    WATCHER,
    new_bot,
)
from tests.harness import Channel, FakeDiscord, Harness, User
from tests.harness.fake_discord import RecordedRequest

pytest_plugins = ["tests.harness.fixtures"]

RESULTS = Channel(id=3301, name="results")


async def server(harness_factory, tmp_path: Path, **options: object) -> Harness:
    """The server of these tests: a table, a results channel, players and a moderator."""
    return await harness_factory(
        new_bot(tmp_path),
        FakeDiscord(),
        guild_id=GUILD,
        channels=[TABLE, RESULTS],
        members=[*EVERYONE, MOD],
        **options,
    )


async def test_a_season_from_its_table_to_its_results_post_with_no_admin_work(
    harness_factory, tmp_path: Path
):
    h = await server(harness_factory, tmp_path)
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
    assert "the bot lacks the Manage Roles permission" in config.ephemeral_text(), "said now"
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
    assert role_requests(h) == [], "not one request Discord would refuse"
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
    assert f"<@{bo.id}>" in inside.ephemeral_text(), "Bo, who sees #secret, sees his game there"
    assert "Only you see this: it counts games not everyone" in inside.ephemeral_text()
    assert inside.public_messages == [], "but #lobby does not"
    for season in ("all", None):  # all time too; Out's table tells of no private game
        options = {"season": season} if season else {}
        board = await h.slash(bo, "game season", channel=privacy.PUBLIC, game="artsee", **options)
        assert board.public_messages == [] and str(ana.id) in board.ephemeral_text()
        told = await h.slash(out, "game season", channel=privacy.PUBLIC, game="artsee", **options)
        assert told.public_messages and str(bo.id) not in told.public_text()

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


MANAGE_ROLES = discord.Permissions(manage_roles=True)
#: The game of the role tests: two players, decided on the clock in one call.
KINGS = "street-kings"


def role_requests(h: Harness) -> list[RecordedRequest]:
    """What the bot asked of Discord's role routes (made, given, taken)."""
    return [
        r for r in h.fake.requests if r.method in ("POST", "PUT", "DELETE") and "/roles" in r.path
    ]


async def roles_world(harness_factory, tmp_path: Path) -> Harness:
    """A server that gave the bot Manage Roles and turned season roles on (one game ranks),
    whose first season, begun eight weeks ago, ends as its first game is over."""
    h = await server(harness_factory, tmp_path, bot_granted=MANAGE_ROLES)
    options = {"season_games": 1, "season_channel": RESULTS, "season_roles": True}
    config = await h.slash(MOD, "game config", options=options)
    assert "Manage Roles" not in config.ephemeral_text(), "no warning: the bot has it"
    h.bot.get_cog("Scheduler").every_minute.cancel()  # the cuts are the test's own ticks
    h.bot.seasons._clock = lambda: time.time() - 8 * WEEK
    return h


async def decided(h: Harness, game_id: str, a: User, b: User) -> None:
    """A game of ``a`` and ``b`` played to its end on the clock (an AI moves for whoever
    owes a move, who timed out), with no tick of the scheduler's."""
    seats = [Seat(user=str(u.id), name=u.global_name or u.name) for u in (a, b)]
    await h.bot.service.open_seated(game_id, KINGS, str(GUILD), str(TABLE.id), seats, {})
    assert (await h.bot.service.decide_on_time(game_id)).record.status == FINISHED
    await h.settle()


async def standing(h: Harness) -> list[str]:
    """The players of the current season's table, best first."""
    seasons = h.bot.seasons
    return [line.player for line in await seasons.lines(await seasons.current(str(GUILD), KINGS))]


async def cut(h: Harness) -> str:
    """The scheduler's tick at the current season's end: its results post's text."""
    season = await h.bot.seasons.current(str(GUILD), KINGS)
    await h.bot.get_cog("Scheduler").tick(season.ends_at)
    await h.settle()
    assert (await h.bot.seasons.current(str(GUILD), KINGS)).number == season.number + 1
    return str(h.channel_messages(RESULTS)[-1].embeds[0]["description"])


async def test_the_top_places_get_their_roles_and_lose_them_at_the_next_cut(
    harness_factory, tmp_path: Path
):
    h = await roles_world(harness_factory, tmp_path)
    await decided(h, "roles1", ANA, BO)
    first = await standing(h)
    # Discord refuses the second role given (the podium's): a change on the server meanwhile.
    refused = {"status": 403, "code": 50013, "message": "Missing Permissions"}
    h.fake.fail_next("PUT", f"/guilds/{GUILD}/members/*/roles/*", after=1, **refused)
    text = await cut(h)
    assert text.startswith(f"🏆 <@{first[0]}> wins season 1 of Street Kings!"), "posted anyway"
    assert "Some roles could not be given: the bot needs Manage Roles" in text
    made = role_requests(h)[:2]
    assert [(r.method, r.path, r.json["name"], r.status) for r in made] == [
        ("POST", f"/guilds/{GUILD}/roles", "Street Kings champion", 200),
        ("POST", f"/guilds/{GUILD}/roles", "Street Kings podium", 200),
    ]
    champion, podium = (int(r.response["id"]) for r in made)
    assert [(r.method, r.path, r.status) for r in role_requests(h)[2:]] == [
        ("PUT", f"/guilds/{GUILD}/members/{first[0]}/roles/{champion}", 204),
        ("PUT", f"/guilds/{GUILD}/members/{first[1]}/roles/{podium}", 403),
    ]

    done = len(role_requests(h))
    await decided(h, "roles2", CY, WATCHER)  # season 2: Cy and Watcher only
    second = await standing(h)
    assert set(second) == {str(CY.id), str(WATCHER.id)}
    text = await cut(h)
    assert f"Roles given: <@{second[0]}>, <@{second[1]}>." in text
    assert [(r.method, r.path, r.status) for r in role_requests(h)[done:]] == [
        ("DELETE", f"/guilds/{GUILD}/members/{first[0]}/roles/{champion}", 204),
        ("PUT", f"/guilds/{GUILD}/members/{second[0]}/roles/{champion}", 204),
        ("PUT", f"/guilds/{GUILD}/members/{second[1]}/roles/{podium}", 204),
    ], "the roles made at the first cut are found by name: none is made twice"
    held = {user: roles for user, roles in h.fake.world.held_roles.items() if roles}
    assert held == {int(second[0]): {champion}, int(second[1]): {podium}}


async def test_a_role_above_the_bot_s_own_is_said_in_the_post_and_the_cut_goes_on(
    harness_factory, tmp_path: Path
):
    h = await roles_world(harness_factory, tmp_path)
    h.fake.add_role("Street Kings champion", 5)  # an admin made it, above the bot's role
    await h.settle()
    await decided(h, "roles1", ANA, BO)
    text = await cut(h)
    assert "wins season 1 of Street Kings!" in text
    assert (
        "No roles were given: the role “Street Kings champion” is above the bot's own role. "
        "An admin can drag the bot's role above it (Server Settings → Roles)."
    ) in text
    assert [(r.method, r.json["name"]) for r in role_requests(h)] == [
        ("POST", "Street Kings podium")
    ], "nobody is given a role: none half given"
