"""Player-facing words pass through here, so one place decides their language.

Every sentence a player reads is written as ``_("...")`` with named ``.format()`` fields, so
a message catalog can translate it whole (word order differs between languages).
"""

from __future__ import annotations


def _(message: str) -> str:
    """The sentence in the current language: English, the source language, until catalogs load."""
    return message
