"""Offline Discord for tests: a fake REST API and gateway driving discord.py's real dispatch.

Typical use::

    fake = FakeDiscord()
    alice = User(id=1001, name="alice", global_name="Alice")
    async with make_harness(bot, fake, members=[alice]) as harness:
        resp = await harness.slash(alice, "game new", game="street-art")
        assert "lobby" in resp.public_text()
"""

from .fake_discord import FakeDiscord, RecordedRequest, StoredMessage
from .harness import BotError, Harness, HarnessFactory, PayloadError, Response, make_harness
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    Attachment,
    Channel,
    ComponentInfo,
    SeenMessage,
    User,
    find_button,
    find_select,
)
from .settle import SettleTimeout

__all__ = [
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_MEMBER_PERMISSIONS",
    "Attachment",
    "BotError",
    "Channel",
    "ComponentInfo",
    "FakeDiscord",
    "Harness",
    "HarnessFactory",
    "PayloadError",
    "RecordedRequest",
    "Response",
    "SeenMessage",
    "SettleTimeout",
    "StoredMessage",
    "User",
    "find_button",
    "find_select",
    "make_harness",
]
