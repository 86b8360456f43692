"""What players type as numbers and game options, read strictly: every bad input is a sentence.

``int()`` accepts far more than a player means (``²`` passes ``isdigit`` and then fails,
``1_000`` and ``٣`` parse, a 4,400-digit string raises), so numbers go through ``parse_int``:
ASCII digits only, bounded length, an explicit range. Options written as ``key=value`` text
(``/game new``, ``/game rules options:``, the demo) are checked against the game's defaults, whose
types say what each option holds, before anything is stored.
"""

from __future__ import annotations

import re
from typing import Any

from bot.errors import ServiceError
from bot.i18n import _, say
from rules import Game, IllegalAction, merge_options

#: The most characters of a player's text repeated in a refusal: an echo must never push a
#: reply past Discord's 2,000-character limit, which would turn the refusal into an error.
ECHO_LIMIT = 40
#: The longest options text read at all (a dozen options fit many times over).
OPTIONS_TEXT_LIMIT = 500
#: Whole-number options (turn and round caps) are safety nets: at least 1, at most this.
OPTION_INT_MAX = 10_000
#: Seats for the dry-run start that checks the values only the engine understands.
_PROBE_SEAT = "options-check-{}"

_INTEGER = re.compile(r"[+-]?[0-9]+")
_TRUE, _FALSE = ("true", "yes", "on"), ("false", "no", "off")


def echo(text: object, limit: int = ECHO_LIMIT) -> str:
    """A player's text as a refusal may repeat it: one line, at most ``limit`` characters,
    with backticks removed so it cannot break out of the code span it is shown in."""
    flat = " ".join(str(text).split()).replace("`", "'")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def parse_int(text: object, low: int, high: int, what: str, refusal: str | None = None) -> int:
    """``text`` as a whole number from ``low`` to ``high``, or a ServiceError saying so (in
    the caller's own ``refusal`` sentence when it has one).

    The length is bounded by the range before any conversion, so no input can make the
    conversion itself slow or raise."""
    raw = str(text).strip()
    longest = max(len(str(low)), len(str(high))) + 1  # a sign and leading zeros within reason
    if len(raw) <= longest and _INTEGER.fullmatch(raw):
        value = int(raw)
        if low <= value <= high:
            return value
    raise ServiceError(
        refusal
        or _("{what} must be a whole number from {low} to {high} (got `{raw}`).").format(
            what=what, low=low, high=high, raw=echo(raw)
        )
    )


def parse_options(text: str | None) -> dict[str, str]:
    """``key=value, key=value`` (``;`` works too) into the text of each value; what each
    value means is the game's to say (``check_options``)."""
    written = (text or "").strip()
    if len(written) > OPTIONS_TEXT_LIMIT:
        raise ServiceError(
            _("That is {n} characters of options; write at most {most}.").format(
                n=len(written), most=OPTIONS_TEXT_LIMIT
            )
        )
    options: dict[str, str] = {}
    for part in written.replace(";", ",").split(","):
        if not part.strip():
            continue
        key, sep, raw = part.partition("=")
        if not sep or not key.strip():
            raise ServiceError(
                _("Write options as `name=value`, e.g. `two_players=true` (got `{raw}`).").format(
                    raw=echo(part)
                )
            )
        options[key.strip()] = raw.strip()
    return options


def _option_value(key: str, default: Any, value: Any) -> Any:
    """``value`` (typed, or text as written) as the type of the option's ``default``."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise ServiceError(
            _("The option {key} is true or false (got `{raw}`).").format(key=key, raw=echo(value))
        )
    if isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, str):
            return parse_int(value, 1, OPTION_INT_MAX, _("The option {key}").format(key=key))
        raise ServiceError(
            _("The option {key} is a whole number (got `{raw}`).").format(key=key, raw=echo(value))
        )
    if isinstance(default, str) and isinstance(value, str):
        return value.strip()
    raise ServiceError(
        _("The option {key} cannot be set to `{raw}`.").format(key=key, raw=echo(value))
    )


def check_options(game: Game, options: dict[str, Any] | None) -> dict[str, Any]:
    """The game's defaults overlaid with ``options``, each checked by the type of its default
    (integers within 1..``OPTION_INT_MAX``), then by the engine itself in a dry-run start with
    a full table, so a value only it can judge (``disc_sides=C``, two options that exclude each
    other) is refused now, in its words, rather than at ``/game start``."""
    defaults = game.default_options
    unknown = sorted(key for key in options or {} if key not in defaults)
    if unknown:
        known = ", ".join(sorted(defaults)) or _("none")
        names = ", ".join(echo(key) for key in unknown[:3])
        raise ServiceError(
            _("{title} has no option {names} (options: {known}).").format(
                title=game.title, names=names, known=known
            )
        )
    typed = {key: _option_value(key, defaults[key], v) for key, v in (options or {}).items()}
    try:
        merged = merge_options(game, typed)
        seats = [_PROBE_SEAT.format(i) for i in range(game.max_players)]
        game.start(seats, "options-check", merged)
    except IllegalAction as error:
        raise ServiceError(say(error.reason)) from error
    return merged
