"""The player's language: gettext catalogs for everything a player sees or hears.

One process-wide language, set once at start (``--lang``, the config's
``[screen] language``, else the system locale) by :func:`set_language`, then
read through :func:`_`, :func:`ngettext` and :func:`pgettext` at the moment
a text is made -- never at import, so changing the language changes every
later text.  English is the source language: its texts are the msgids, so an
untranslated string shows in English, never as a key.

Catalogs are the committed ``.po`` files under ``locale/<lang>/LC_MESSAGES``,
read as they are (see :mod:`companion.i18n.catalog` for why no ``.mo``).
The turn notation (``take wug``) is never translated: it is the records'
language, the same at every table.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from companion.i18n.catalog import CatalogError, POTranslations

DOMAIN = "splendor-companion"
LOCALE_DIR = Path(__file__).with_name("locale")
#: Languages with a catalog, English (the source) first.
SUPPORTED: tuple[str, ...] = ("en", "fr")

_active: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


class LanguageError(ValueError):
    """An unknown language asked for; one line naming the ones there are."""


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def _load(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    return POTranslations(catalog_path(lang))


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The supported language of the system locale (POSIX variables' order), else English."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for value in env.get(var, "").split(":"):
            code = value.split(".")[0].split("_")[0].split("@")[0].lower()
            if code in ("c", "posix", ""):
                continue
            return code if code in SUPPORTED else "en"
    return "en"


def choose_language(option: str | None, configured: str = "",
                    environ: Mapping[str, str] | None = None) -> str:
    """``--lang`` first, then the config key, then the system locale; checked."""
    wanted = (option or configured or "").strip().lower()
    if not wanted or wanted == "auto":
        return system_language(environ)
    code = wanted.replace("-", "_").split("_")[0]
    if code not in SUPPORTED:
        raise LanguageError(
            f"language {wanted!r} has no catalog (choose among: {', '.join(SUPPORTED)})"
        )
    return code


def set_language(lang: str) -> None:
    """Make ``lang`` the language of every text made from now on."""
    global _active, _language
    if lang not in SUPPORTED:
        raise LanguageError(f"language {lang!r} has no catalog ({', '.join(SUPPORTED)})")
    try:
        _active = _load(lang)
    except CatalogError as exc:
        raise LanguageError(str(exc)) from None
    _language = lang


def language() -> str:
    """The language texts are made in now ("en", "fr")."""
    return _language


def _(message: str) -> str:
    """``message`` in the current language (the English msgid when untranslated)."""
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` in the current language (French counts 0 and 1 as singular)."""
    return _active.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English by ``context``."""
    return _active.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` told apart by ``context`` (a short form where space is tight)."""
    return _active.npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark a constant for the catalog without translating it yet (translate where shown)."""
    return message


__all__ = [
    "DOMAIN",
    "N_",
    "SUPPORTED",
    "LanguageError",
    "_",
    "choose_language",
    "language",
    "ngettext",
    "npgettext",
    "pgettext",
    "set_language",
    "system_language",
]
