"""The ``splendor-companion`` command line: argparse with one sub-command per
module of :mod:`companion.commands` (discovered, so commands stay independent).

Failures the user can act on end with one line on stderr and exit status 1;
Ctrl-C ends with status 130.  Tracebacks are only for genuine bugs.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import pkgutil
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from companion import output
from companion.i18n import set_language, system_language
from companion.record import default_db_path

# pygame greets on import; a table companion's terminal is for its own messages.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import companion
from companion import commands, processes
from companion.commands import CommandError
from companion.output import OutputError

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


#: How a camera or button spec names a file or folder it reads (``recorded:DIR``...).
SPEC_PREFIXES = ("recorded:", "video:", "script:", "game:")


def _check_outputs(args: argparse.Namespace) -> None:
    """Note the command's inputs for :mod:`companion.output` and check its outputs now.

    Every path argument is an input except the ones the command lists in
    ``outputs`` (``set_defaults(outputs=("out",))``); the file or folder a
    ``recorded:``/``video:``/``script:``/``game:`` spec names is one too.  An
    output onto an input, or two outputs onto one file, is refused here, before
    any work: ``analyse --json`` onto the log is not found after the analysis.
    """
    names: tuple[str, ...] = getattr(args, "outputs", ())
    folders: tuple[str, ...] = getattr(args, "output_folders", ())
    inputs: list[Path] = []
    outs: list[tuple[str, Path]] = []
    for key, value in vars(args).items():
        if isinstance(value, Path) and key in names:
            outs.append((key, value))
        elif isinstance(value, Path) and key not in folders:
            inputs.append(value)
        elif isinstance(value, str) and value.startswith(SPEC_PREFIXES):
            inputs.append(Path(value.split(":", 1)[1]))
    output.begin(inputs)
    if "db" in vars(args) and "db" not in names:  # the log, its -wal, -shm and lock
        db = args.db
        if db is None:
            with contextlib.suppress(Exception):  # no HOME: the command itself says so
                db = default_db_path()
        if db is not None:
            output.note_input(db, output.LOG_COMPANIONS)
    seen: dict[str, str] = {}
    for key, path in outs:
        option = "--" + key.replace("_", "-")
        try:
            real = os.path.realpath(path)
            output.target(path)
        except OutputError as exc:
            raise OutputError(f"{option}: {exc}") from None
        if real in seen:
            raise OutputError(f"{option} and {seen[real]} name the same file {path}")
        seen[real] = option


def main(argv: Sequence[str] | None = None) -> int:
    # matplotlib warns on stderr when it has no home for its cache (HOME unset): a second
    # line after the command's own; it then uses a temporary folder, which is fine
    logging.getLogger("matplotlib").setLevel(logging.ERROR)
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2

    set_language(system_language())  # `run` and `demo` may choose another (--lang, config)
    try:
        with processes.owner():  # every worker reaped, however the command ends
            _check_outputs(args)
            return int(func(args) or 0)
    except (CommandError, OutputError) as exc:
        print(f"{PROG}: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except processes.Terminated:
        print(f"{PROG}: stopped (SIGTERM)", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
