"""Player-facing words pass through here, so one place decides their language.

Every sentence a player reads is written as ``_("...")`` with named ``.format()`` fields, so
a message catalog can translate it whole (word order differs between languages); ``_n`` picks
a plural form by a count, and ``N_`` marks a sentence kept in a constant, translated where it
is shown (``_(RULES)``).

The language of the sentences being written is a contextvar: each Discord interaction runs in
its own task, so the language its handler sets (``use`` for a block, ``set_language`` for the
rest of the task) is that interaction's alone. A cog writes an ephemeral answer in the
player's ``interaction.locale`` and a public post in the server's language by wrapping each in
``use(...)``. Pictures never read it: they are drawn in worker processes, so the language
travels to them as their ``lang=`` parameter (``current()`` read where the picture is asked
for). The catalogs themselves are ``locales`` (below images/, which translate through it too).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from locales import LANGS, SOURCE, check, translate, translate_plural
from rules.protocol import Refusal

#: The language of the sentences being written now.
_language: ContextVar[str] = ContextVar("language", default=SOURCE)

#: The languages a server may choose, with their names in their own language (for choices).
LANGUAGE_NAMES = {"en": "English", "pt_BR": "Português do Brasil"}


def language_of(locale: object) -> str:
    """The language the bot speaks for a Discord locale (``pt-BR``, ``en-US``, a
    ``discord.Locale``) or one of our own codes (``pt_BR``); English for any other locale, so
    a player whose client speaks a language we do not still reads whole sentences."""
    code = str(getattr(locale, "value", locale) or "").replace("-", "_")
    if code in LANGS:
        return code
    return "pt_BR" if code.lower() in ("pt_br", "pt") else SOURCE


def current() -> str:
    """The language of the sentences being written now (for a picture's ``lang=``)."""
    return _language.get()


def set_language(lang: str) -> None:
    """Write the rest of this task's sentences in ``lang``: an interaction's handler sets its
    player's language once, at its start (``use`` changes it for one message)."""
    _language.set(check(lang))


@contextmanager
def use(lang: str) -> Iterator[str]:
    """Write the sentences of this block in ``lang`` (a public post in the server's language
    inside a player's private answer, say); the language before comes back after it."""
    token = _language.set(check(lang))
    try:
        yield lang
    finally:
        _language.reset(token)


def _(message: str) -> str:
    """``message`` (English, the message id) in the current language."""
    return translate(_language.get(), message)


def _n(singular: str, plural: str, n: int) -> str:
    """The form of a sentence for the count ``n``, in the current language (format ``n`` into
    it yourself: ``_n("{n} card", "{n} cards", n).format(n=n)``)."""
    return translate_plural(_language.get(), singular, plural, n)


def say(sentence: str) -> str:
    """A sentence the rules wrote (a refusal), in the current language: a ``Refusal`` from its
    template, its text fields said too (a technique's name, a hint); any other sentence as
    the catalog has it, else as written."""
    if isinstance(sentence, Refusal):
        fields = {
            key: say(value) if isinstance(value, str) else value
            for key, value in sentence.fields.items()
        }
        return _(sentence.template).format(**fields)
    return _(sentence)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog where it is kept in a constant; ``_`` translates it
    where it is shown, in the language of that message."""
    return message
