"""Every picture the bot posts, drawn once per game, version and viewer, in the worker pool.

The turn post, a Board click, `/game board` and the post that replaces an expired
interaction all show the same board of the same version: ``Pictures`` draws it once (in a
worker process, see ``bot.pool``) and serves the bytes from a byte-bounded LRU afterwards.
Requests for a picture that is being drawn wait for that drawing instead of starting another.

A key always names the viewer (``None`` for the public board), so one player's hand is never
served to another, and the language of the words drawn (``lang``, a parameter all the way to
the worker: a contextvar does not cross into another process).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import images
from bot.pool import WorkerPool

BOARD, SECOND, HAND, EXTRAS, FACE, GIF = "board", "second", "hand", "extras", "face", "gif"
#: About a thousand boards: every game of a busy server, at its last few versions.
DEFAULT_CACHE_MB = 64
#: Finished games' GIFs (up to 8 MB each), kept apart so they never push the live boards out.
GIF_CACHE_MB = 32


@dataclass(frozen=True)
class PictureKey:
    """What a picture depends on: the game record, its version, who looks, which picture, and
    the language of its words."""

    record_id: str
    version: int
    viewer: str | None
    kind: str
    lang: str = "en"


def size_of(picture: Any) -> int:
    """Bytes a cached picture holds: a PNG, ``None`` (no hand to draw), or [(name, PNG)]."""
    if picture is None:
        return 0
    if isinstance(picture, bytes):
        return len(picture)
    return sum(len(name) + len(data) for name, data in picture)


class RenderCache:
    """An LRU of pictures bounded by the bytes it holds, with one drawing in flight per key.

    A picture larger than the whole budget is handed out but not kept.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        #: Pictures drawn (misses that ran the drawing function).
        self.renders = 0
        self._entries: OrderedDict[PictureKey, Any] = OrderedDict()
        self._pending: dict[PictureKey, asyncio.Task[Any]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: PictureKey) -> bool:
        return key in self._entries

    def at_hand(self, key: PictureKey) -> bool:
        """Whether ``key`` costs no new drawing: kept, or being drawn for another request."""
        return key in self._entries or key in self._pending

    @property
    def drawing(self) -> int:
        """Drawings in flight now."""
        return len(self._pending)

    async def get(self, key: PictureKey, draw: Callable[[], Awaitable[Any]]) -> Any:
        """The picture for ``key``: cached, being drawn for another request, or drawn now.

        The drawing runs in a task of its own, so a request that gives up (its interaction
        cancelled) does not cancel the drawing that other requests wait for.
        """
        if key in self._entries:
            self._entries.move_to_end(key)
            return self._entries[key]
        task = self._pending.get(key)
        if task is None:
            task = asyncio.ensure_future(draw())
            self._pending[key] = task
            self.renders += 1
            task.add_done_callback(lambda done: self._settle(key, done))
        return await asyncio.shield(task)

    def _settle(self, key: PictureKey, task: asyncio.Task[Any]) -> None:
        """Keep a finished drawing (not a failed one: the next request tries again)."""
        self._pending.pop(key, None)
        if not task.cancelled() and task.exception() is None:
            self.put(key, task.result())

    def put(self, key: PictureKey, picture: Any) -> None:
        size = size_of(picture)
        if key in self._entries:
            self.bytes -= size_of(self._entries.pop(key))
        if size > self.max_bytes:
            return
        self._entries[key] = picture
        self.bytes += size
        while self.bytes > self.max_bytes:
            _, evicted = self._entries.popitem(last=False)
            self.bytes -= size_of(evicted)


# -- the jobs a worker runs (top level, so they pickle by name) ------------------------------


def draw_board(
    game_id: str,
    view: dict[str, Any],
    names: dict[str, str],
    last: list[str],
    lang: str = "en",
) -> bytes:
    """The board PNG of ``view``, with the last turn told in ``last``."""
    return images.render(game_id, view, names=names, last=last, lang=lang)


def draw_second_pictures(
    game_id: str, view: dict[str, Any], names: dict[str, str], lang: str = "en"
) -> list[tuple[str, bytes]]:
    """What does not fit the landscape board (a market, more galleries): [(filename, PNG)]."""
    return images.extra_pictures(game_id, view, names=names, lang=lang)


def draw_hand(
    game_id: str, view: dict[str, Any], names: dict[str, str], lang: str = "en"
) -> bytes | None:
    """The viewer's hand PNG, or None where the game draws no hand or it is empty."""
    return images.render_hand(game_id, view, names=names, lang=lang)


def draw_face(game_id: str, card: str, lang: str = "en") -> bytes | None:
    """One card's face PNG, or None where the game draws none."""
    return images.render_face(game_id, card, lang=lang)


def draw_turn_extras(
    game_id: str,
    view: dict[str, Any],
    names: dict[str, str],
    events: list[dict[str, Any]],
    lang: str = "en",
) -> list[tuple[str, bytes]]:
    """The pictures a turn adds to its post (a race replayed): [(filename, PNG)]."""
    return images.turn_extras(game_id, view, events, names=names, lang=lang)


# -- the facade -------------------------------------------------------------------------------


class Pictures:
    """The bot's one way to get a picture: cached per (record, version, viewer, kind), drawn in
    the pool on a miss."""

    def __init__(self, pool: WorkerPool, cache: RenderCache | None = None) -> None:
        self.pool = pool
        self.cache = cache or RenderCache(DEFAULT_CACHE_MB * 2**20)
        #: Replay GIFs (``bot.replay.gif``): each drawn once per game version and language.
        self.gifs = RenderCache(GIF_CACHE_MB * 2**20)

    @classmethod
    def from_settings(cls, settings: Any, pool: WorkerPool) -> Pictures:
        """A cache of ``RENDER_CACHE_MB`` (``bot.config.Settings.render_cache_mb``)."""
        return cls(pool, RenderCache(int(settings.render_cache_mb * 2**20)))

    async def board(
        self,
        record_id: str,
        version: int,
        game_id: str,
        view: dict[str, Any],
        names: dict[str, str],
        last: list[str] | None = None,
        *,
        lang: str = "en",
    ) -> bytes:
        """The public board of ``record_id`` at ``version`` (``view`` is the public view).

        ``last`` tells the turn that led to this version; the turn post draws the board first,
        so a later Board click at the same version shows the same picture. (After a restart a
        Board click may be the first to draw it, and then it has no last turn to tell.)
        """
        key = PictureKey(record_id, version, None, BOARD, lang)
        return await self.cache.get(
            key, lambda: self.pool.run(draw_board, game_id, view, names, last or [], lang)
        )

    async def second_pictures(
        self,
        record_id: str,
        version: int,
        game_id: str,
        view: dict[str, Any],
        names: dict[str, str],
        *,
        lang: str = "en",
    ) -> list[tuple[str, bytes]]:
        """The public pictures beside the board at ``version``: what does not fit on it."""
        key = PictureKey(record_id, version, None, SECOND, lang)
        return await self.cache.get(
            key, lambda: self.pool.run(draw_second_pictures, game_id, view, names, lang)
        )

    async def hand(
        self,
        record_id: str,
        version: int,
        game_id: str,
        viewer: str,
        view: dict[str, Any],
        names: dict[str, str],
        *,
        lang: str = "en",
    ) -> bytes | None:
        """``viewer``'s own hand (``view`` is their view), None if the game draws none."""
        key = PictureKey(record_id, version, viewer, HAND, lang)
        return await self.cache.get(
            key, lambda: self.pool.run(draw_hand, game_id, view, names, lang)
        )

    async def face(self, game_id: str, card: str, *, lang: str = "en") -> bytes | None:
        """One card's face, the same in every game of ``game_id`` (cached once for all)."""
        key = PictureKey(game_id, 0, card, FACE, lang)
        return await self.cache.get(key, lambda: self.pool.run(draw_face, game_id, card, lang))

    async def turn_extras(
        self,
        record_id: str,
        version: int,
        game_id: str,
        view: dict[str, Any],
        names: dict[str, str],
        events: list[dict[str, Any]],
        *,
        lang: str = "en",
    ) -> list[tuple[str, bytes]]:
        """The extra pictures of the turn that led to ``version`` (public; most turns: none).

        Without events there is no turn to tell (a Board click): nothing is drawn, and the
        cached extras of the turn post are not handed to it.
        """
        if not events:
            return []
        key = PictureKey(record_id, version, None, EXTRAS, lang)
        return await self.cache.get(
            key, lambda: self.pool.run(draw_turn_extras, game_id, view, names, events, lang)
        )
