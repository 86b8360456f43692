"""The words drawn on pictures, in the language each picture is drawn in.

Pictures are drawn in worker processes, so their language comes as a parameter (``lang``),
never from the bot's context: ``tr(lang, "...")`` is the sentence in that language, from the
same catalogs the bot's messages come from (``locales``, below images). A drawing cached across
calls takes ``lang`` among its arguments, so a board in one language never shows another's
words. ``N_`` marks a word kept in a constant, translated where it is drawn.
"""

from __future__ import annotations

from locales import LANGS, translate, translate_plural

__all__ = ["LANGS", "N_", "tr", "tr_n"]


def tr(lang: str, message: str) -> str:
    """``message`` (English, the message id) in ``lang``."""
    return translate(lang, message)


def tr_n(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of a phrase for the count ``n`` in ``lang`` (format ``n`` in yourself)."""
    return translate_plural(lang, singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog; ``tr`` translates it where it is drawn."""
    return message
