"""The ``splendor-companion`` command line: argparse with one sub-command per
module of :mod:`companion.commands` (discovered, so commands stay independent).

Failures the user can act on end with one line on stderr and exit status 1;
Ctrl-C ends with status 130.  Tracebacks are only for genuine bugs.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

# pygame greets on import; a table companion's terminal is for its own messages.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import companion
from companion import commands
from companion.commands import CommandError

PROG = "splendor-companion"


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: the option and what is wrong, then where help is.

    argparse's own error prints the whole usage first (several lines for
    ``run``); a player at the table needs the one line that says what to fix.
    Sub-command parsers inherit this class (``add_subparsers`` uses the
    parent's class).
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="Referee physical games of Splendor and Splendor Duel.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {companion.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


#: Longest error message printed: a message quoting a 60 MB line must not echo it.
MESSAGE_CHARS = 400


def one_line(message: str) -> str:
    """``message`` on one line, at most :data:`MESSAGE_CHARS` long (``...`` marks a cut)."""
    text = " ".join(message.split())
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 3] + "..."


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    from companion.i18n import set_language, system_language

    set_language(system_language())  # `run` and `demo` may choose another (--lang, config)
    try:
        return int(func(args) or 0)
    except CommandError as exc:
        print(f"{PROG}: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
