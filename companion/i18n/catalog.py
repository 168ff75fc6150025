"""Reading gettext ``.po`` catalogs directly, with no compile step.

Why not ``gettext.translation`` and ``.mo`` files: a ``.mo`` is a build
product, and a clean clone (``make test``, ``pip install -e .``) has no step
that would run ``msgfmt``; GNU gettext's ``msgfmt`` is not on every machine
and Babel would be a dependency for ten lines of parsing.  The ``.po`` file
is what translators edit and what is committed, so it is read as it is:
this module parses it once (a few hundred entries, well under a
millisecond each) into the same lookup tables ``gettext.GNUTranslations``
builds from a ``.mo``, and answers through the standard
``gettext.NullTranslations`` interface.

Supported: ``msgctxt`` (kept apart with the EOT separator as ``.mo`` does),
``msgid_plural`` / ``msgstr[n]``, multi-line strings, the C escapes
gettext writes, ``#, fuzzy`` entries (skipped, as ``msgfmt`` skips them)
and the ``Plural-Forms`` header for the languages we ship.
"""

from __future__ import annotations

import ast
import gettext
import re
from collections.abc import Callable
from pathlib import Path

#: Separator between a context and its msgid in the tables (as in a .mo file).
CONTEXT_SEPARATOR = "\x04"


class CatalogError(ValueError):
    """A .po file that cannot be read; the message names the file and the line."""


def _unquote(text: str, where: str) -> str:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise CatalogError(f"{where}: not a quoted string: {text}") from None
    if not isinstance(value, str):
        raise CatalogError(f"{where}: not a quoted string: {text}")
    return value


def parse_po(text: str, source: str = "<po>") -> dict[str, str | list[str]]:
    """Entries of a .po file: msgid (with context) -> msgstr, or a list of plural forms.

    Untranslated (empty) and fuzzy entries are left out, so their English
    msgid shows, as with a compiled catalog.
    """
    entries: dict[str, str | list[str]] = {}
    fields: dict[str, str] = {}
    current: str | None = None
    fuzzy = False

    def flush() -> None:
        nonlocal fuzzy
        if "msgid" in fields and not fuzzy:
            key = fields["msgid"]
            if "msgctxt" in fields:
                key = fields["msgctxt"] + CONTEXT_SEPARATOR + key
            if "msgid_plural" in fields:
                forms = [fields[k] for k in sorted(f for f in fields if f.startswith("msgstr["))]
                if any(forms):
                    entries[key] = forms
            elif fields.get("msgstr"):
                entries[key] = fields["msgstr"]
        fields.clear()
        fuzzy = False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"{source}:{number}"
        if not line:
            continue
        if line.startswith("#"):
            if any(k.startswith("msgstr") for k in fields):
                flush()  # a comment starts the next entry
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith('"'):
            if current is None:
                raise CatalogError(f"{where}: a string continues nothing")
            fields[current] += _unquote(line, where)
            continue
        match = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
        if match is None:
            raise CatalogError(f"{where}: cannot read {line[:40]!r}")
        keyword, value = match.groups()
        if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
            flush()
        current = keyword
        fields[keyword] = _unquote(value, where)
    flush()
    return entries


def _plural_rule(header: str) -> Callable[[int], int]:
    """The plural formula of the header, for the forms we ship; English's by default."""
    match = re.search(r"plural\s*=\s*([^;]+)", header)
    formula = match.group(1).strip() if match else "n != 1"
    simple: dict[str, Callable[[int], int]] = {
        "n != 1": lambda n: int(n != 1),
        "(n != 1)": lambda n: int(n != 1),
        "n > 1": lambda n: int(n > 1),
        "(n > 1)": lambda n: int(n > 1),
        "0": lambda n: 0,
    }
    if formula in simple:
        return simple[formula]
    rule: Callable[[int], int] = gettext.c2py(formula)
    return rule


class POTranslations(gettext.NullTranslations):
    """A catalog read from a .po file; the standard gettext interface."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise CatalogError(f"cannot read {path}: {exc.strerror}") from None
        self.entries = parse_po(text, str(path))
        header = self.entries.get("", "")
        self.plural = _plural_rule(header if isinstance(header, str) else "")

    def gettext(self, message: str) -> str:
        found = self.entries.get(message)
        return found if isinstance(found, str) else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        found = self.entries.get(msgid1)
        if isinstance(found, list):
            index = self.plural(n)
            if 0 <= index < len(found) and found[index]:
                return found[index]
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        found = self.entries.get(context + CONTEXT_SEPARATOR + message)
        return found if isinstance(found, str) else message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        found = self.entries.get(context + CONTEXT_SEPARATOR + msgid1)
        if isinstance(found, list):
            index = self.plural(n)
            if 0 <= index < len(found) and found[index]:
                return found[index]
        return msgid1 if n == 1 else msgid2
