"""Game options written as text (``key=value, key=value``), shared by `/game new` and the demo."""

from __future__ import annotations

from bot.errors import ServiceError


def parse_options(text: str | None) -> dict[str, object]:
    """``key=value, key=value`` into a dict; values true/false/numbers/text. Whether each key
    exists is the game's to say (``rules.merge_options``)."""
    options: dict[str, object] = {}
    for part in (text or "").replace(";", ",").split(","):
        if not part.strip():
            continue
        key, sep, raw = part.partition("=")
        if not sep:
            raise ServiceError(
                f"Write options as `name=value`, e.g. `two_players=true` (got `{part.strip()}`)."
            )
        value = raw.strip()
        lowered = value.lower()
        options[key.strip()] = (
            True
            if lowered in ("true", "yes", "on")
            else False
            if lowered in ("false", "no", "off")
            else int(value)
            if value.lstrip("-").isdigit()
            else value
        )
    return options
