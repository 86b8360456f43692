"""A server's own settings (issue 13): whether its games get threads, how long a lobby waits,
and the clock its games run on. Server admins set them with `/game config`; they are kept in
the store (``guild_settings``) and a game takes them when its lobby opens, so changing them
never changes a game already running.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from locales import LANGS

HOUR = 3600.0
#: The clocks a server or a host may choose: the time a player has for a decision before
#: their AI decides for them (a reminder comes at half of it). ``off``: no clock at all.
CLOCKS = ("1h", "12h", "24h", "72h", "off")
#: The bounds of ``LOBBY_HOURS``: an hour, and a week.
LOBBY_HOURS_RANGE = (1, 168)
#: The bounds of the caps on running games a server sets (``bot.limits``): per player, and
#: for the whole server.
PLAYER_GAMES_RANGE = (1, 100)
SERVER_GAMES_RANGE = (1, 10_000)
#: The bounds of the vacation days a player has a year on a server (issue 27).
VACATION_DAYS_RANGE = (0, 365)
#: The bounds of a season's length in weeks and of the rated games that rank a player in its
#: table (issue 38).
SEASON_WEEKS_RANGE = (1, 52)
SEASON_GAMES_RANGE = (1, 50)


def clock_seconds(clock: str) -> tuple[float | None, float | None]:
    """(seconds to the reminder, seconds to the timeout) of a clock; (None, None) for off."""
    if clock == "off":
        return None, None
    if clock not in CLOCKS:
        raise ValueError(f"unknown clock {clock!r} (clocks: {', '.join(CLOCKS)})")
    timeout = float(clock.removesuffix("h")) * HOUR
    return timeout / 2, timeout


@dataclass(frozen=True)
class GuildSettings:
    """One server's settings; the defaults are what a server that never chose gets.

    ``clock`` None: the bot's own (REMIND_HOURS and TURN_TIMEOUT_HOURS). ``language``: the
    language of the server's public posts and pictures (``locales.LANGS``); None: the server's
    own preferred locale, as Discord tells it.
    """

    threads: bool = True
    lobby_hours: int = 24
    clock: str | None = None
    language: str | None = None
    #: Running games a player may sit in at once on this server, and running games on it.
    player_games: int = 50
    server_games: int = 500
    #: Whether this server's public games have a page on the web table (issue 26).
    web: bool = True
    #: Vacation days a player has a year here: each spent by itself when their clock runs out.
    vacation_days: int = 14
    #: Whether hints are offered in this server's unrated games among humans (``bot.hints``).
    hints: bool = False
    #: Seasons (issue 38): their length, the games that rank a player, the channel their
    #: results are posted in (None: where the season's last game was played), and whether
    #: the top places get Discord roles (needs the bot's Manage Roles).
    season_weeks: int = 8
    season_games: int = 5
    season_channel: str | None = None
    season_roles: bool = False
    #: Whether this server takes part in tournaments open to other servers (issue 38): it may
    #: open one, and its members may find and join those of other servers that opted in.
    open_tournaments: bool = False
    #: Whether the admins were told the server's game threads neared Discord's cap (told once).
    threads_warned: bool = False

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> GuildSettings:
        """The settings as stored; a key this bot does not know (a newer bot's) is left out,
        and a value that does not check out falls back to its default."""
        known = {f.name for f in fields(cls)}
        settings = cls()
        for key, value in data.items():
            if key in known:
                try:
                    settings = settings.changed(**{key: value})
                except ValueError:
                    continue
        return settings

    def changed(self, **changes: Any) -> GuildSettings:
        """These settings with ``changes``, each checked (ValueError names a bad one)."""
        for flag in (
            "threads",
            "web",
            "hints",
            "threads_warned",
            "season_roles",
            "open_tournaments",
        ):
            if flag in changes and not isinstance(changes[flag], bool):
                raise ValueError(f"{flag} must be true or false")
        if "lobby_hours" in changes:
            hours = changes["lobby_hours"]
            low, high = LOBBY_HOURS_RANGE
            if isinstance(hours, bool) or not isinstance(hours, int) or not low <= hours <= high:
                raise ValueError(f"LOBBY_HOURS must be a whole number from {low} to {high}")
        for key, (low, high) in (
            ("player_games", PLAYER_GAMES_RANGE),
            ("server_games", SERVER_GAMES_RANGE),
            ("vacation_days", VACATION_DAYS_RANGE),
            ("season_weeks", SEASON_WEEKS_RANGE),
            ("season_games", SEASON_GAMES_RANGE),
        ):
            count = changes.get(key, low)
            if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
                raise ValueError(f"{key} must be a whole number from {low} to {high}")
        channel = changes.get("season_channel")
        if channel is not None and not (isinstance(channel, str) and channel.isdigit()):
            raise ValueError("season_channel must be a channel id")
        if changes.get("clock") is not None:
            clock_seconds(changes["clock"])
        if changes.get("language") is not None and changes["language"] not in LANGS:
            raise ValueError(f"language must be one of {', '.join(LANGS)}")
        return replace(self, **changes)

    def stored(self) -> dict[str, Any]:
        return asdict(self)
