"""The message catalogs: complete, current, compiled, and read the way the bot reads them."""

from __future__ import annotations

import io
import re
import string

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.i18n import _, _n, current, language_of, use
from cogs.translator import NAME_RULE, all_command_strings
from locales import DIRECTORY, LANGS, SOURCE, catalog, check
from locales.extract import POT, extract

TRANSLATED = [lang for lang in LANGS if lang != SOURCE]


def po_path(lang: str):
    return DIRECTORY / lang / "LC_MESSAGES" / "messages.po"


def fields(text: str) -> set[str]:
    """The named ``.format`` fields of a sentence: a translation keeps every one of them."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def template_ids() -> set[object]:
    with POT.open("rb") as f:
        return {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(f) if m.id}


def test_the_template_holds_exactly_the_sentences_of_the_code() -> None:
    """A sentence added in a ``_()`` (or a command, or a card in rules data) and not yet in
    messages.pot fails here: run ``make messages``, translate, commit."""
    code = {m.id if isinstance(m.id, str) else tuple(m.id) for m in extract() if m.id}
    missing, stale = code - template_ids(), template_ids() - code
    assert not missing, f"not in messages.pot (run make messages): {sorted(map(str, missing))}"
    assert not stale, f"in messages.pot but no longer in the code: {sorted(map(str, stale))}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_message_id_is_missing_or_fuzzy_and_every_field_is_kept(lang: str) -> None:
    with po_path(lang).open("rb") as f:
        po = read_po(f, locale=lang)
    by_id = {m.id if isinstance(m.id, str) else tuple(m.id): m for m in po if m.id}
    problems = []
    for msgid in sorted(template_ids(), key=str):
        message = by_id.get(msgid)
        if message is None:
            problems.append(f"missing: {msgid!r}")
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        plural_forms = po.num_plurals if isinstance(msgid, tuple) else 1
        if len(forms) != plural_forms or not all(forms):
            problems.append(f"untranslated: {msgid!r}")
        wanted = set().union(*(fields(i) for i in ids))
        for form in forms:
            if form and fields(form) != wanted:
                problems.append(f"fields {sorted(fields(form))} != {sorted(wanted)}: {msgid!r}")
    assert problems == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_is_the_translations_compiled(lang: str) -> None:
    """The committed .mo is what the bot reads: it must be the .po as it is (make messages)."""
    with po_path(lang).open("rb") as f:
        po = read_po(f, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, po)
    assert (po_path(lang).with_suffix(".mo")).read_bytes() == compiled.getvalue()


def test_a_sentence_is_written_in_the_language_of_its_block() -> None:
    assert current() == "en" and _("Join") == "Join"
    with use("pt_BR"):
        assert _("Join") == "Entrar"
        assert _("{name} joined.").format(name="Bo") == "Bo entrou."
        with use("en"):
            assert _("Join") == "Join"
        assert _n("{n} step", "{n} steps", 1).format(n=1) == "1 passo"
        assert _n("{n} step", "{n} steps", 3).format(n=3) == "3 passos"
    assert current() == "en"


def test_discord_locales_map_to_the_languages_the_bot_speaks() -> None:
    assert language_of("pt-BR") == "pt_BR" and language_of("pt_BR") == "pt_BR"
    assert language_of("en-US") == language_of("en-GB") == language_of("fr") == "en"
    assert language_of(None) == "en"
    with pytest.raises(ValueError):
        check("xx")
    with pytest.raises(ValueError), use("fr"):
        pass


def test_slash_command_names_in_the_catalog_keep_discords_rules() -> None:
    """Names: lowercase letters, digits, - or _, 1 to 32; descriptions and choices: 1 to 100."""
    name = re.compile(r"^[-_\w]{1,32}$")
    for lang in TRANSLATED:
        translations = catalog(lang)
        for text, rule in all_command_strings().items():
            local = translations.gettext(text)
            if rule == NAME_RULE:
                assert name.match(local) and local == local.lower(), (lang, text, local)
            else:
                assert 1 <= len(local) <= 100, (lang, text, local)
