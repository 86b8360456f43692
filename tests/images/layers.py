"""Clearing the renderers' cached layers, so a test that records what a board draws sees every
text again (a chip, a pawn or a card face is drawn, and recorded, only when its layer is
built)."""

from __future__ import annotations

from images import artsee, kit, mural, street_art, street_kings

MODULES = (kit, artsee, mural, street_art, street_kings)
#: The kit's caches that hold no drawn text: fonts, measures, glyph masks (a text's mask is
#: drawn after ``kit.note_text`` records it) and palettes. Kept: clearing them recorded
#: nothing more and only cost their rebuilding on every board (a palette is ~0.1 s).
TEXTLESS = frozenset(
    id(cached)
    for cached in (
        kit.font,
        kit.text_width,
        kit._notdef_mask,
        kit.has_glyph,
        kit.text_mask,
        kit.fixed_palette,
        kit.module_palette,
    )
)


def forget_cached_layers() -> None:
    """Empty every cache of the renderers that may hold a drawn text."""
    for module in MODULES:
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and id(value) not in TEXTLESS:
                clear()
