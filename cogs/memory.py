"""The table's memory in Discord: `/game stats`, the all-time ratings of `/game season` and
the line of rating changes on a game's final posts.

Ratings are shown on a friendly scale (``bot.results.display_rating``): everyone starts at
1,000 and moves in whole points, computed from the ordinal (``mu - 3 sigma``, what the
leaderboard sorts by). The final posts
are built elsewhere (``cogs.messages``, ``cogs.threads``); they take their rating line from
here. Nothing here imports ``cogs.flows``, which imports this module for that line.
"""

from __future__ import annotations

import discord
from babel.numbers import format_decimal

from bot.ai import AI_PREFIX, is_ai_id
from bot.i18n import _, current
from bot.results import Stats, display_rating
from bot.service import GameService
from bot.store.base import Rating, ResultRow
from bot.titles.achievements import named
from cogs import visibility
from cogs.messages import EMBED_DESCRIPTION_LIMIT, Post, clip

#: Players on one page of a leaderboard.
LEADERBOARD_PAGE = 15


def service_of(interaction: discord.Interaction) -> GameService:
    return interaction.client.service  # type: ignore[attr-defined]


def number(n: int) -> str:
    """A whole number grouped as the language writes it ("1,056", "1.056")."""
    return str(format_decimal(n, locale=current()))


def shown(mu: float, sigma: float) -> str:
    """A rating as every post and list shows it: "1,000" for a newcomer."""
    return number(display_rating(mu, sigma))


def change(before: int, after: int) -> str:
    """A signed change in whole points, "+56" or "−12" (no change is "±0")."""
    delta = after - before
    return "±0" if delta == 0 else ("+" if delta > 0 else "−") + number(abs(delta))


def ai_label(level: str) -> str:
    return _("AI ({level})").format(level=level)


def rating_line(rows: list[ResultRow], names: dict[str, str]) -> str:
    """Each seat's rating change on a final post, e.g. "Ana 1,000 → 1,066 (+66)"; an AI seat
    shows the rating of its level, and a player who took a hint says why theirs stayed. Empty
    while the game has no results (not yet recorded), and for an unrated game (a teaching
    table), whose ratings stay as they were."""
    parts = []
    for row in rows:
        unmoved = (row.mu_before, row.sigma_before) == (row.mu_after, row.sigma_after)
        if unmoved and not row.hinted:  # an unrated game: nobody's rating moved
            continue
        name = names.get(row.player, row.name or row.player)
        if row.ai:
            name = _("{name} ({level})").format(
                name=name, level=row.rated_as.removeprefix(AI_PREFIX)
            )
        before = display_rating(row.mu_before, row.sigma_before)
        after = display_rating(row.mu_after, row.sigma_after)
        if row.hinted:  # bot.hints: a hint taken keeps the rating out of the game
            parts.append(
                _("{name} {rating} (took a hint: no rating change)").format(
                    name=name, rating=number(before)
                )
            )
            continue
        parts.append(
            _("{name} {before} → {after} ({change})").format(
                name=name, before=number(before), after=number(after), change=change(before, after)
            )
        )
    if not parts:
        return ""
    return _("**Ratings:** {changes}").format(changes=" · ".join(parts))


def who(rating: Rating) -> str:
    """A leaderboard entry's player: a mention (it shows their name, and pings nobody in an
    embed), or the AI's level, marked as AI."""
    if rating.ai or is_ai_id(rating.player):
        return f"🤖 {ai_label(rating.name or rating.player.removeprefix(AI_PREFIX))}"
    return f"<@{rating.player}>"


def leaderboard_post(title: str, ratings: list[Rating], page: int, private: bool = False) -> Post:
    """One page of a server's leaderboard in one game, or what to do when it is empty
    (``private``: it tells of games not everyone may see, and says so)."""
    if not ratings:
        if page > 1:
            text = _("There is no page {page} of the {title} leaderboard yet; try page 1.")
        else:
            text = _(
                "Nobody is rated at {title} on this server yet: finish a game with "
                "`/game new game:{title}` and its players appear here."
            )
        return Post(content=text.format(page=page, title=title))
    first = (page - 1) * LEADERBOARD_PAGE + 1
    lines = [
        _("**{place}.** {who} · **{rating}** · played {games}").format(
            place=place, who=who(rating), rating=shown(rating.mu, rating.sigma), games=rating.games
        )
        for place, rating in enumerate(ratings, first)
    ]
    if private:
        lines += ["", only_you()]
    embed = discord.Embed(
        title=clip(_("{title}: leaderboard").format(title=title), 256),
        description=clip("\n".join(lines), EMBED_DESCRIPTION_LIMIT),
    )
    footer = _(
        "Page {page} · everyone starts at 1,000; a rating grows as the bot grows sure of a player"
    )
    embed.set_footer(text=footer.format(page=page))
    return Post(embed=embed)


def stats_post(
    name: str,
    standing: list[tuple[str, Stats, Rating | None]],
    titles: dict[str, str],
    game: str | None = None,
    held: list[tuple[str, int]] | None = None,
) -> Post:
    """A player's record on this server, one field per game they finished (``game``: the
    one game asked about, named when there is nothing to show)."""
    if not standing and game is not None:
        text = _(
            "{name} has not finished a game of {title} on this server yet: `/game new` starts one."
        )
        return Post(content=text.format(name=name, title=titles.get(game, game)))
    if not standing:
        text = _("{name} has not finished a game on this server yet: `/game new` starts one.")
        return Post(content=text.format(name=name))
    embed = discord.Embed(title=clip(_("{name} on this server").format(name=name), 256))
    for game_id, summary, rating in standing[:25]:  # an embed holds 25 fields
        line = _(
            "Played **{played}** · won **{wins}** ({rate:.0%}) · average place **{rank:.1f}** "
            "· best score **{best}**"
        ).format(
            played=summary.played,
            wins=summary.wins,
            rate=summary.win_rate,
            rank=summary.average_rank,
            best=summary.best_score,
        )
        if rating is not None:
            line += "\n" + _("Rating **{rating}**").format(rating=shown(rating.mu, rating.sigma))
        embed.add_field(name=titles.get(game_id, game_id), value=line, inline=False)
    if held:
        embed.description = "🏅 " + clip(" · ".join(named(held)), EMBED_DESCRIPTION_LIMIT - 10)
    return Post(embed=embed)


async def show_stats(
    interaction: discord.Interaction, user: discord.abc.User | None, game: str | None
) -> None:
    """`/game stats`: a player's record (yours by default), only to the one who asked."""
    service = service_of(interaction)
    target = user or interaction.user
    guild = str(interaction.guild_id or "dm")
    standing = await service.results.standing(guild, str(target.id), game)
    titles = {game_id: engine.title for game_id, engine in service.games.items()}
    kept = getattr(interaction.client, "titles", None)  # ``cogs.titles``' (``bot.titles``)
    # Titles tell of the games they came from: a player sees all of theirs (privately), a
    # reader another's only from the games the reader may see.
    hidden = None if target.id == interaction.user.id else service.results.hidden
    held = await kept.held(guild, str(target.id), hidden) if kept is not None and standing else []
    post = stats_post(target.display_name[:64], standing, titles, game, held)
    await interaction.response.send_message(**post.kwargs(), ephemeral=True)


async def show_leaderboard(interaction: discord.Interaction, game: str, page: int) -> None:
    """`/game season season:All time`: the server's ratings in one game, for everyone in the
    channel, unless a rating shown tells of a game not everyone on the server may see (a
    private channel's): then to the asker alone."""
    service = service_of(interaction)
    guild = str(interaction.guild_id or "dm")
    ratings = await service.results.leaderboard(guild, game, page, LEADERBOARD_PAGE)
    everyone = visibility.everyones(interaction.guild)
    private = not all([await service.results.seen(guild, game, r, everyone) for r in ratings])
    post = leaderboard_post(service.games[game].title, ratings, page, private)
    await interaction.response.send_message(**post.kwargs(), ephemeral=not ratings or private)


def only_you() -> str:
    """The note of a table answered to its asker alone."""
    return _("Only you see this: it counts games not everyone here may see.")
