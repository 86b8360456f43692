"""The message catalogs: every player-facing word of the bot, in each language it speaks.

A leaf package below images/ and bot/ (it imports nothing of ours, only the standard
library), so pictures drawn in a worker process and the bot's own sentences read the same
catalogs: ``bot.i18n`` adds the current language of a message (a contextvar), images pass
their explicit ``lang=`` parameter. The source language is English, written in the code as
each ``_("...")``'s message id; ``messages.pot`` is extracted from the code and each
``<lang>/LC_MESSAGES/messages.po`` translates it (``make messages`` extracts, updates and
compiles to the ``.mo`` files read here).
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path

#: Where the catalogs live: this package's own folder.
DIRECTORY = Path(__file__).resolve().parent
DOMAIN = "messages"
#: The source language: its sentences are the message ids themselves.
SOURCE = "en"
#: Every language the bot speaks, as gettext names them (``pt_BR``, not Discord's ``pt-BR``).
LANGS = (SOURCE, "pt_BR")


def check(lang: str) -> str:
    """``lang`` if it is one the bot speaks (ValueError otherwise: no silent English)."""
    if lang not in LANGS:
        raise ValueError(f"no catalog for language {lang!r}; have {', '.join(LANGS)}")
    return lang


@lru_cache(maxsize=len(LANGS))
def catalog(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang``, read once per process. English needs none: its
    sentences are the message ids. A missing ``.mo`` of another language is an error, not a
    silent fall back to English (``make messages`` compiles it)."""
    if check(lang) == SOURCE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=DIRECTORY, languages=[lang])


def translate(lang: str, message: str) -> str:
    """``message`` (an English message id) in ``lang``."""
    return catalog(lang).gettext(message)


def translate_plural(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in ``lang`` (its own plural rule)."""
    return catalog(lang).ngettext(singular, plural, n)
