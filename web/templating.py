"""The web table's Jinja2 environment: the templates of web/templates, autoescaped, with the
reader's language (``_``) and the filters the pages share.

Markup lives in the templates and nothing else writes HTML: every value a template prints is
escaped unless a filter here made it markup from escaped text (``told``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from bot.i18n import _

TEMPLATES = Path(__file__).resolve().parent / "templates"

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def told(line: str) -> Markup:
    """A sentence written for Discord (``**bold**``, ```code```) as HTML: escaped first, so
    the markup can only ever wrap escaped text."""
    text = _BOLD.sub(r"<strong><bdi>\1</bdi></strong>", str(escape(line)))  # names are bold
    return Markup(_CODE.sub(r"<code>\1</code>", text))


def decimal(number: float, lang: str) -> str:
    """A number as the reader's language writes it ("1,056"; "1.056" in Portuguese)."""
    return format_decimal(number, locale=lang)


def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"], default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["_"] = _
    env.filters["told"] = told
    env.filters["decimal"] = decimal
    return env


ENV = environment()


def render(template: str, **values: Any) -> str:
    """``template`` filled with ``values``, in the language set for this request."""
    return ENV.get_template(template).render(**values)
