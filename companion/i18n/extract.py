"""Find every translatable text in the sources and keep the catalogs in step.

``python -m companion.i18n.extract`` lists the msgids that a catalog lacks
or leaves untranslated; ``--update`` rewrites each ``.po`` with every msgid
of the sources, in source order, keeping the translations it has (new ones
empty, for a translator to fill).  A pure-Python stand-in for
``xgettext`` + ``msgmerge``: the project's own test uses the same
extraction to check that French has every text.

A text is translatable when it is the literal first argument of ``_``,
``N_`` or ``ngettext`` (singular and plural), or the second of
``pgettext`` / ``npgettext`` (after the context).
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import SUPPORTED, catalog_path
from companion.i18n.catalog import CONTEXT_SEPARATOR, parse_po

ROOT = Path(__file__).resolve().parents[2]
#: Where player-facing texts are made.
SOURCES = ("companion",)


@dataclass(frozen=True)
class Message:
    msgid: str
    plural: str | None = None
    context: str | None = None
    where: str = ""

    @property
    def key(self) -> str:
        return self.msgid if self.context is None else self.context + CONTEXT_SEPARATOR + self.msgid


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def messages_in(path: Path) -> list[Message]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        name, args = node.func.id, node.args
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        texts = [_literal(a) for a in args]
        if name in ("_", "N_") and texts and texts[0]:
            found.append(Message(texts[0], where=where))
        elif name == "ngettext" and len(texts) >= 2 and texts[0] and texts[1]:
            found.append(Message(texts[0], texts[1], where=where))
        elif name == "pgettext" and len(texts) >= 2 and texts[0] and texts[1]:
            found.append(Message(texts[1], context=texts[0], where=where))
        elif name == "npgettext" and len(texts) >= 3:
            context, singular, plural = texts[:3]
            if context and singular and plural:
                found.append(Message(singular, plural, context, where))
    return sorted(found, key=lambda m: int(m.where.rsplit(":", 1)[1]))


def all_messages() -> list[Message]:
    """Every translatable text of the sources, first occurrence kept, in file order."""
    seen: dict[str, Message] = {}
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            for message in messages_in(path):
                seen.setdefault(message.key, message)
    return list(seen.values())


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def render_po(messages: list[Message], old: dict[str, str | list[str]], lang: str) -> str:
    header = old.get("", "")
    if not isinstance(header, str) or not header:
        header = (
            f"Project-Id-Version: splendor-companion\\nLanguage: {lang}\\n"
            "MIME-Version: 1.0\\nContent-Type: text/plain; charset=UTF-8\\n"
            "Content-Transfer-Encoding: 8bit\\nPlural-Forms: nplurals=2; plural=(n > 1);\\n"
        )
    else:
        header = header.replace("\n", "\\n")
    lines = [f"# {lang} catalog of splendor-companion: python -m companion.i18n.extract"
             " --update", 'msgid ""', f'msgstr "{header}"', ""]
    for m in messages:
        lines.append(f"#: {m.where}")
        if m.context is not None:
            lines.append(f"msgctxt {_quote(m.context)}")
        lines.append(f"msgid {_quote(m.msgid)}")
        have = old.get(m.key)
        if m.plural is not None:
            lines.append(f"msgid_plural {_quote(m.plural)}")
            forms = have if isinstance(have, list) else ["", ""]
            for i, form in enumerate(forms):
                lines.append(f"msgstr[{i}] {_quote(form)}")
        else:
            lines.append(f"msgstr {_quote(have if isinstance(have, str) else '')}")
        lines.append("")
    return "\n".join(lines)


def missing(lang: str, messages: list[Message] | None = None) -> list[Message]:
    """The texts ``lang``'s catalog does not translate."""
    entries = parse_po(catalog_path(lang).read_text(encoding="utf-8"))
    return [m for m in (messages or all_messages()) if not entries.get(m.key)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.i18n.extract",
        description="List (or merge into the .po files) the texts the catalogs lack.",
    )
    parser.add_argument("--update", action="store_true", help="rewrite the .po files")
    args = parser.parse_args(argv)
    messages = all_messages()
    status = 0
    for lang in SUPPORTED[1:]:
        path = catalog_path(lang)
        old = parse_po(path.read_text(encoding="utf-8")) if path.exists() else {}
        if args.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render_po(messages, old, lang), encoding="utf-8")
        lacking = missing(lang, messages)
        print(f"{lang}: {len(messages)} texts, {len(lacking)} untranslated")
        for m in lacking:
            print(f"  {m.where}: {m.msgid!r}")
        status |= bool(lacking)
    return status


if __name__ == "__main__":
    sys.exit(main())
