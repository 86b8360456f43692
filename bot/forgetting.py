"""`python -m bot forget USER_ID`: an admin forgets a player on their behalf (a request by
mail, say), exactly as `/game forget-me` does (``GameService.forget``; docs/privacy.md).

It runs beside a running bot: every change is a compare-and-swap, so a move the bot makes at
the same moment on the old snapshot is refused and retried on the renamed one. The tables of
running games are not told from here (no Discord): their next board shows the AI in the seat.
"""

from __future__ import annotations

from bot.config import Settings
from bot.service import GameService
from bot.store import open_store


async def forget_user(settings: Settings, user: str) -> str:
    """Forget ``user`` (a Discord user id) in the bot's store; one line saying what was done."""
    if not (user.isascii() and user.isdigit() and len(user) <= 20):
        raise ValueError(f"{user!r} is not a Discord user id (a number, e.g. 80351110224678912)")
    store = open_store(settings.database_url)
    await store.open()
    try:
        service = GameService(
            store,
            remind_after=Settings.hours(settings.remind_hours),
            timeout_after=Settings.hours(settings.turn_timeout_hours),
        )
        forgotten, moved = await service.forget(user)
    finally:
        await store.close()
    return (
        f"Forgotten: {len(forgotten.seats)} games now show a former player in their place "
        f"({len(moved)} running or waiting games let them go), {forgotten.results} results "
        f"and {forgotten.ratings} ratings deleted."
    )
