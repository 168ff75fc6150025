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

# pygame greets on import; a table companion's terminal is for its own messages.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import companion
from companion import commands
from companion.commands import CommandError

PROG = "splendor-companion"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
