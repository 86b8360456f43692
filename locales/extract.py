"""``python -m locales.extract``: every player-facing sentence of the code into messages.pot.

The first step of ``make messages`` (then ``pybabel update`` and ``pybabel compile``). It is
Babel's own extraction, with the mapping of babel.cfg (the sources, and the extractors that
read the slash commands and the component names from the code itself) and the keywords below,
kept here so the catalog test extracts exactly as ``make messages`` does. A development tool:
Babel is a dev dependency, and nothing the bot runs imports this module.
"""

from __future__ import annotations

import sys

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import write_po

from locales import DIRECTORY

ROOT = DIRECTORY.parent
POT = DIRECTORY / "messages.pot"
#: The functions whose string arguments are message ids: ``_``, ``_n`` (singular, plural),
#: ``N_`` (a marker) from bot.i18n, the images' ``tr(lang, ...)`` / ``tr_n(lang, ...)``, and the
#: rules' ``Refusal(template, ...)`` and constant ``IllegalAction("...")`` sentences (said in the
#: player's language by ``bot.i18n.say``).
KEYWORDS = {
    "_": None,
    "_n": (1, 2),
    "N_": None,
    "tr": (2,),
    "tr_n": (2, 3),
    "Refusal": None,
    "IllegalAction": None,
}


def extract() -> Catalog:
    """The catalog template of the code as it is now."""
    with (ROOT / "babel.cfg").open() as mapping:
        method_map, options_map = parse_mapping_cfg(mapping)
    catalog = Catalog(project="tabletop-bot")
    if str(ROOT) not in sys.path:  # the extractors import cogs and bot from this checkout
        sys.path.insert(0, str(ROOT))
    found = extract_from_dir(ROOT, method_map, options_map, keywords=KEYWORDS)
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def main() -> None:
    with POT.open("wb") as out:
        write_po(out, extract(), width=0, no_location=True, omit_header=True)
    print(f"wrote {POT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
