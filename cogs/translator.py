"""Slash commands in the player's language: names, descriptions, options and choices.

discord.py hands every string of a command (``auto_locale_strings``: each is a ``locale_str``)
to the tree's ``Translator`` when it syncs, once per Discord locale; what ``translate`` answers
becomes the payload's ``name_localizations`` and ``description_localizations``, so a pt-BR
client shows ``/jogo novo`` while the bot still receives ``/game new``.

The strings are taken into the message catalog by ``extract_commands`` (a Babel extractor
``make messages`` runs, see babel.cfg), which walks the command tree itself: no string of a
decorator, docstring or choice can be left out of the catalog by forgetting to mark it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import language_of
from cogs import EXTENSIONS
from locales import SOURCE, translate

#: Where in a command a string sits, as the catalog's translators are told (the comment above
#: each message id): a name has Discord's rules, a description a length.
NAME_RULE = "A command or option name: lowercase letters, digits, - or _, at most 32."
DESCRIPTION_RULE = "A command or option description: at most 100 characters."
CHOICE_RULE = "A choice shown in a command's list: at most 100 characters."


class CatalogTranslator(app_commands.Translator):
    """Each command string translated by the catalog of the locale's language; ``None`` (keep
    the English) for a locale we do not speak or a string not translated yet."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = language_of(locale)
        if lang == SOURCE:
            return None
        text = translate(lang, string.message)
        return text if text != string.message else None


# -- the catalog -------------------------------------------------------------------------------


def cogs_of_extensions() -> Iterator[type[commands.Cog]]:
    """Every cog class the bot's extensions define."""
    for name in EXTENSIONS:
        module = importlib.import_module(name)
        for value in vars(module).values():
            is_cog = isinstance(value, type) and issubclass(value, commands.Cog)
            if is_cog and value.__module__ == module.__name__:
                yield value


def command_strings(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group,
) -> Iterator[tuple[str, str]]:
    """(string, rule) for a command or group, its options and their choices, and its
    subcommands."""
    yield command.name, NAME_RULE
    yield command.description, DESCRIPTION_RULE
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from command_strings(child)
        return
    for parameter in command.parameters:
        yield parameter.display_name, NAME_RULE
        yield parameter.description, DESCRIPTION_RULE
        for choice in parameter.choices:
            yield choice.name, CHOICE_RULE


def all_command_strings() -> dict[str, str]:
    """Every string of every slash command the bot syncs, with the rule it must keep."""
    found: dict[str, str] = {}
    for cog in cogs_of_extensions():
        for command in cog.__cog_app_commands__:
            for text, rule in command_strings(command):
                found.setdefault(text, rule)
    for group in subgroups_of_extensions():
        for text, rule in command_strings(group()):
            found.setdefault(text, rule)
    return found


def subgroups_of_extensions() -> Iterator[type[app_commands.Group]]:
    """The groups an extension adds under another cog's group (its ``SUBGROUPS``, added by
    its ``setup``: `/game tournament`), which no cog class holds."""
    for name in EXTENSIONS:
        yield from getattr(importlib.import_module(name), "SUBGROUPS", ())


def extract_commands(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """A Babel extractor (babel.cfg's ``[commands: ...]``): the file it is given only anchors
    it; the messages are the command tree's strings, each with its rule as a comment."""
    for text, rule in all_command_strings().items():
        yield 1, None, text, [rule]
