"""How a player is told that a game waits for them (issue 27): their own choices, over every
server, kept as one JSON object per player (``Store.player_prefs``).

- ``alerts``: how a turn reaches them: a ping in the game's thread (``THREAD``, the default
  and the behaviour before this), a direct message each turn (``DM``), one daily digest by DM
  (``DIGEST``) or nothing (``OFF``); ``games`` holds the same choice for single games.
- ``zone`` and ``quiet``: an IANA time zone and quiet hours ``[start, end)`` in whole local
  hours: a ping, a DM or a reminder due then waits until they end (the clock keeps running).
- ``dm_refused``: Discord refused them a DM (50007), so their alerts are thread pings again
  until they choose anew.

Pure: no Discord, no store; the service reads and writes the object, the Discord layer acts
on what these functions decide.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.i18n import _

THREAD, DM, DIGEST, OFF = "thread", "dm", "digest", "off"
MODES = (THREAD, DM, DIGEST, OFF)
#: The local hour a daily digest is sent at (later if quiet hours cover it).
DIGEST_HOUR = 9
#: Games a player may give a choice of their own (older ones are dropped first).
GAME_CHOICES_KEPT = 50


def mode_of(prefs: dict[str, Any], game_id: str | None = None) -> str:
    """How ``prefs``' player is told of a turn in game ``game_id``: its own choice, else
    theirs, else a thread ping; a DM Discord refused them falls back to the thread ping."""
    chosen = (prefs.get("games") or {}).get(game_id) or prefs.get("alerts") or THREAD
    mode = chosen if chosen in MODES else THREAD
    if mode in (DM, DIGEST) and prefs.get("dm_refused"):
        return THREAD
    return mode


def stale(payload: dict[str, Any], clocks: dict[str, list[float | None]]) -> bool:
    """Whether an alert written for a decision (its seat's deadline then) is out of date:
    the seat's clock has been armed anew since, for a later decision with an alert of its
    own. A table without deadlines cannot tell: its alerts are never stale."""
    then = payload.get("deadline")
    now = clocks.get(payload["user"])
    return then is not None and (now is None or now[1] != then)


def zone(name: str) -> ZoneInfo:
    """The time zone called ``name`` (e.g. ``Europe/Lisbon``); a ValueError saying so if
    there is none."""
    cleaned = name.strip()
    try:
        if cleaned and cleaned in available_timezones():
            return ZoneInfo(cleaned)
    except (ZoneInfoNotFoundError, ValueError):
        pass
    raise ValueError(
        _("There is no time zone `{zone}`: use a name like `Europe/Lisbon`.").format(
            zone=cleaned[:40]
        )
    )


def parse_quiet(text: str) -> list[int] | None:
    """Quiet hours typed as ``22-7`` (from 22:00 to 07:00, local time), or ``off`` (None);
    a ValueError saying how to write them otherwise."""
    cleaned = text.strip().lower()
    if cleaned in ("off", "none", "-"):
        return None
    start, sep, end = cleaned.partition("-")
    try:
        hours = [int(start), int(end)] if sep else []
    except ValueError:
        hours = []
    if len(hours) != 2 or not all(0 <= h <= 23 for h in hours) or hours[0] == hours[1]:
        raise ValueError(_("Quiet hours are two hours from 0 to 23, like `22-7`, or `off`."))
    return hours


def _local(prefs: dict[str, Any], now: float) -> dt.datetime:
    tz = ZoneInfo(prefs["zone"]) if prefs.get("zone") else dt.UTC
    return dt.datetime.fromtimestamp(now, tz)


def quiet_until(prefs: dict[str, Any], now: float) -> float | None:
    """When ``prefs``' player's quiet hours end, if ``now`` is within them (None: it is not,
    or they have none). Local wall-clock hours, so a change to or from summer time moves
    them with the player's day."""
    quiet = prefs.get("quiet")
    if not quiet:
        return None
    start, end = quiet
    local = _local(prefs, now)
    hour = local.hour
    inside = start <= hour < end if start < end else hour >= start or hour < end
    if not inside:
        return None
    ends = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if ends <= local:
        ends += dt.timedelta(days=1)
    # A wall-clock hour skipped by summer time: normalise through UTC.
    return ends.astimezone(dt.UTC).timestamp()


def not_before(prefs: dict[str, Any], now: float) -> float:
    """When an alert due ``now`` may go out: now, or when the quiet hours end."""
    return quiet_until(prefs, now) or now


def next_digest(prefs: dict[str, Any], now: float) -> float:
    """When ``prefs``' player's next daily digest is due: ``DIGEST_HOUR`` local time after
    ``now``, or later if their quiet hours cover it."""
    local = _local(prefs, now)
    at = local.replace(hour=DIGEST_HOUR, minute=0, second=0, microsecond=0)
    if at <= local:
        at += dt.timedelta(days=1)
    when = at.astimezone(dt.UTC).timestamp()
    return not_before(prefs, when)


def describe(prefs: dict[str, Any]) -> str:
    """A player's choices in a few lines, as `/game notify` shows them."""
    words = {
        THREAD: _("a ping in the game's thread"),
        DM: _("a direct message each turn"),
        DIGEST: _("a daily digest by direct message"),
        OFF: _("nothing"),
    }
    lines = [_("Alerts: **{mode}**").format(mode=words[mode_of(prefs)])]
    for game_id, mode in sorted((prefs.get("games") or {}).items()):
        lines.append(_("- game `{id}`: **{mode}**").format(id=game_id, mode=words[mode]))
    if prefs.get("dm_refused"):
        lines.append(_("Discord refused me a direct message: your alerts are thread pings."))
    lines.append(_("Time zone: **{zone}**").format(zone=prefs.get("zone") or "UTC"))
    quiet = prefs.get("quiet")
    lines.append(
        _("Quiet hours: **{start}:00–{end}:00**").format(start=quiet[0], end=quiet[1])
        if quiet
        else _("Quiet hours: **none**")
    )
    return "\n".join(lines)


def changed(
    prefs: dict[str, Any],
    *,
    alerts: str | None = None,
    game_id: str | None = None,
    zone_name: str | None = None,
    quiet: str | None = None,
    now: float,
) -> dict[str, Any]:
    """``prefs`` with a player's new choices (a ValueError saying what is wrong, if any):
    ``alerts`` for every game, or for ``game_id`` alone; a time zone; quiet hours. Choosing
    alerts again clears a refused DM (they may have opened their DMs since)."""
    new = {**prefs, "games": dict(prefs.get("games") or {})}
    if zone_name is not None:
        new["zone"] = zone(zone_name).key
    if quiet is not None:
        new["quiet"] = parse_quiet(quiet)
    if alerts is not None:
        if alerts not in MODES:
            raise ValueError(_("There is no alert mode `{mode}`.").format(mode=alerts[:20]))
        new.pop("dm_refused", None)
        if game_id is not None:
            new["games"].pop(game_id, None)
            new["games"][game_id] = alerts
            while len(new["games"]) > GAME_CHOICES_KEPT:
                new["games"].pop(next(iter(new["games"])))
        else:
            new["alerts"] = alerts
    if mode_of(new) == DIGEST or DIGEST in new["games"].values():
        new["digest_at"] = next_digest(new, now)
    else:
        new.pop("digest_at", None)
    return new
