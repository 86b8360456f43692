"""The web table's addresses: a game's public id, and the signed links to a player's hand.

A public id is an HMAC of the game's id under the web secret: unguessable without the secret
(the six-letter game id is not enough), stable, and computable by the Discord layer the moment
it posts a board, with no store round trip. It is stored too (``web_tables``), so the web
server finds the game from the address.

A hand link names one game and one player and when it lapses, signed with HMAC-SHA256: altering
any part of it, or opening it late, is refused.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass

from bot.i18n import N_

#: How long a hand link stays good: long enough for a turn, short enough that a forwarded
#: link soon stops working.
HAND_LINK_SECONDS = 6 * 3600
PUBLIC_ID_LENGTH = 22


class LinkRefused(Exception):
    """A hand link that was altered, is damaged or has lapsed; the message (a marked
    sentence, translated where it is shown) says which."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_id(secret: bytes, game_id: str) -> str:
    """The id a game's public page is named by (lowercase letters and digits)."""
    digest = hmac.new(secret, f"table:{game_id}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode().lower().rstrip("=")[:PUBLIC_ID_LENGTH]


@dataclass(frozen=True)
class Hand:
    """What a hand link grants: ``player``'s seat in ``game_id`` until ``expires``."""

    game_id: str
    player: str
    expires: int


def sign(secret: bytes, kind: str, fields: list[str | int]) -> str:
    """``fields`` signed for one use (``kind``: a token of one kind never passes for another)."""
    body = _b64(json.dumps(fields).encode())
    mac = hmac.new(secret, f"{kind}:{body}".encode(), hashlib.sha256).digest()
    return f"{body}.{_b64(mac)}"


def unsign(secret: bytes, kind: str, token: str, size: int) -> list[object]:
    """The ``size`` fields a token of ``kind`` carries, if its signature holds."""
    body, _dot, mac = token.partition(".")
    expected = hmac.new(secret, f"{kind}:{body}".encode(), hashlib.sha256).digest()
    try:
        given = _unb64(mac)
        fields = json.loads(_unb64(body))
    except (ValueError, TypeError):
        raise LinkRefused(N_("This link is damaged.")) from None
    if not hmac.compare_digest(given, expected):
        raise LinkRefused(N_("This link is not valid."))
    if not isinstance(fields, list) or len(fields) != size:
        raise LinkRefused(N_("This link is damaged."))
    return fields


def sign_hand(secret: bytes, hand: Hand) -> str:
    return sign(secret, "hand", [hand.game_id, hand.player, hand.expires])


def read_hand(secret: bytes, token: str, now: float) -> Hand:
    """The grant a token carries, if its signature holds and it has not lapsed."""
    game_id, player, expires = unsign(secret, "hand", token, 3)
    if not isinstance(expires, int) or expires < now:
        raise LinkRefused(N_("This link has lapsed: open a new one from your hand in Discord."))
    return Hand(str(game_id), str(player), expires)


@dataclass(frozen=True)
class Links:
    """The addresses the Discord layer hands out (``base_url``: WEB_BASE_URL)."""

    base_url: str
    secret: bytes

    def table(self, game_id: str) -> str:
        return f"{self.base_url}/g/{public_id(self.secret, game_id)}"

    def hand(self, game_id: str, player: str, now: float) -> str:
        token = sign_hand(self.secret, Hand(game_id, player, int(now) + HAND_LINK_SECONDS))
        return f"{self.base_url}/h/{token}"
