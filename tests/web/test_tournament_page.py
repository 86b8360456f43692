"""The web table's page per tournament (issue 38), on both backends: standings and rounds with
every name escaped, shown only once every game of it has a public table."""

from __future__ import annotations

from bot.ai import EASY, decide_in_thread
from bot.store.web_tables import WebTable
from bot.tournaments.service import Tournaments
from tests.web.conftest import ANA, BO, CHANNEL, EVIL, GUILD, SECRET, Web
from web.links import public_id


async def easy(game_id, level, view, legal, *rest):
    return await decide_in_thread(game_id, EASY, view, legal, *rest)


async def a_round_played(web: Web, *, public: bool):
    """A Swiss of four (Ana's name a script) whose first round the clock decided."""
    web.service.decide = easy
    tournaments = Tournaments(web.service)
    t = await tournaments.create(
        GUILD,
        CHANNEL,
        ANA,
        EVIL,
        game="street-kings",
        format="swiss",
        rounds=2,
        clock="24h",
        cap=4,
        start_hours=1,
        round_hours=24,
        withdraw_after=2,
    )
    for user, name in ((BO, "Bo"), ("103", "Cy"), ("104", "Di")):
        await tournaments.join(t.id, GUILD, user, name)
    t = (await tournaments.advance(t.id, t.starts_at)).tournament
    for table in t.current.tables:
        await web.service.decide_on_time(table.game_id)
    t = (await tournaments.advance(t.id, t.current.deadline)).tournament
    for table in [tb for rnd in t.played for tb in rnd.tables]:  # as the Discord layer does
        row = WebTable(table.game_id, public_id(SECRET, table.game_id), public)
        await web.service.store.save_web_table(row)
    return t


async def test_a_tournament_page_shows_standings_and_rounds_escaped(web: Web) -> None:
    t = await a_round_played(web, public=True)
    response = await web.client.get(f"/s/{GUILD}/t/{t.id}")
    assert response.status == 200
    page = await response.text()
    assert EVIL not in page and "&lt;script&gt;" in page
    assert "Buchholz (Buch)" in page and "Sonneborn–Berger (SB)" in page
    assert "Round 1" in page and "Round 2" in page
    first = t.played[0].tables[0].game_id
    assert f'href="/g/{public_id(SECRET, first)}"' in page


async def test_a_tournament_of_a_private_channel_or_another_server_is_not_shown(
    web: Web,
) -> None:
    t = await a_round_played(web, public=False)
    assert (await web.client.get(f"/s/{GUILD}/t/{t.id}")).status == 404
    assert (await web.client.get(f"/s/999/t/{t.id}")).status == 404
    assert (await web.client.get(f"/s/{GUILD}/t/nosuch")).status == 404
