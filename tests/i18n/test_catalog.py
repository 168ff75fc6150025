"""The catalogs: read straight from .po, complete for French, placeholders intact."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from companion.i18n import (
    LanguageError,
    _,
    catalog_path,
    choose_language,
    ngettext,
    npgettext,
    set_language,
    system_language,
)
from companion.i18n.catalog import CatalogError, POTranslations, parse_po
from companion.i18n.extract import all_messages, missing

PO = r'''
msgid ""
msgstr "Language: fr\nPlural-Forms: nplurals=2; plural=(n > 1);\n"

#: a.py:1
msgid "Hello"
msgstr "Bonjour"

msgid "multi"
"line"
msgstr "sur "
"deux \"lignes\""

#, fuzzy
msgid "Unsure"
msgstr "Pas sûr"

msgid "Empty"
msgstr ""

msgid "{n} apple"
msgid_plural "{n} apples"
msgstr[0] "{n} pomme"
msgstr[1] "{n} pommes"

msgctxt "short"
msgid "{n} point"
msgid_plural "{n} points"
msgstr[0] "{n} pt"
msgstr[1] "{n} pts"
'''


def test_po_files_are_read_as_gettext_would_read_the_compiled_catalog(tmp_path: Path) -> None:
    path = tmp_path / "x.po"
    path.write_text(PO, encoding="utf-8")
    tr = POTranslations(path)
    assert tr.gettext("Hello") == "Bonjour"
    assert tr.gettext("multiline") == 'sur deux "lignes"'
    assert tr.gettext("Unsure") == "Unsure"  # fuzzy entries are skipped, as msgfmt does
    assert tr.gettext("Empty") == "Empty" and tr.gettext("Unknown") == "Unknown"
    # French counts 0 and 1 as singular
    assert [tr.ngettext("{n} apple", "{n} apples", n) for n in (0, 1, 2)] == [
        "{n} pomme", "{n} pomme", "{n} pommes"]
    assert tr.npgettext("short", "{n} point", "{n} points", 5) == "{n} pts"
    assert tr.ngettext("{n} point", "{n} points", 5) == "{n} points"  # other context


def test_a_broken_po_file_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.po"
    path.write_text('msgid "a"\nmsgstr "b"\nwhat is this\n', encoding="utf-8")
    with pytest.raises(CatalogError, match=r"bad.po:3"):
        POTranslations(path)


def test_french_translates_every_text_of_the_sources() -> None:
    lacking = missing("fr")
    assert lacking == [], [f"{m.where}: {m.msgid}" for m in lacking]


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}


def test_translations_keep_the_placeholders_of_their_msgid() -> None:
    entries = parse_po(catalog_path("fr").read_text(encoding="utf-8"))
    for message in all_messages():
        found = entries[message.key]
        forms = found if isinstance(found, list) else [found]
        wanted = _fields(message.msgid) | _fields(message.plural or "")
        for form in forms:
            assert _fields(form) <= wanted, (message.msgid, form)
            if "{n}" not in message.msgid:  # French may drop the count in a singular
                assert _fields(form) == _fields(message.msgid), (message.msgid, form)


def test_the_catalog_uses_the_french_rules_own_words() -> None:
    text = catalog_path("fr").read_text(encoding="utf-8")
    for word in ("jeton", "cartes Développement", "Noble", "points de Prestige", "réserve",
                 "diamant", "saphir", "émeraude", "rubis", "onyx"):
        assert word in text, word


def test_the_language_comes_from_the_option_the_config_then_the_locale() -> None:
    assert system_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert system_language({"LANG": "de_DE.UTF-8"}) == "en"
    assert system_language({"LANGUAGE": "fr:en", "LANG": "en_GB.UTF-8"}) == "fr"
    assert system_language({"LC_ALL": "C", "LANG": "fr_CA.UTF-8"}) == "fr"  # C says nothing
    assert system_language({}) == "en"
    assert choose_language("fr", "en", {}) == "fr"
    assert choose_language(None, "fr", {"LANG": "en_US"}) == "fr"
    assert choose_language(None, "", {"LANG": "fr_BE.UTF-8"}) == "fr"
    assert choose_language("FR-fr", "", {}) == "fr"
    with pytest.raises(LanguageError, match="en, fr"):
        choose_language("tlh", "", {})


def test_switching_language_changes_later_texts() -> None:
    try:
        set_language("fr")
        assert _("Game over") == "Partie finie"
        assert ngettext("{n} turn left", "{n} turns left", 0).format(n=0) == "0 tour restant"
        assert npgettext("short", "{n} point", "{n} points", 2).format(n=2) == "2 points"
    finally:
        set_language("en")
    assert _("Game over") == "Game over"


def test_turn_notation_is_never_translated() -> None:
    entries = parse_po(catalog_path("fr").read_text(encoding="utf-8"))
    notation = re.compile(r"^(take|buy|reserve|pass)\b")
    assert not [k for k in entries if notation.match(k)]
