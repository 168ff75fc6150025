"""``splendor-companion replay FILE``: check a game record turn by turn.

Prints the game turn by turn and the final standings, or the first illegal
(or unreadable) turn with its reason and line number, exiting 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from companion.commands import CommandError
from companion.commands._duel import replay_duel
from companion.games import DUEL_GAME, SPLENDOR_GAME, AnyKind, kind_of_record
from companion.record.seats import hints_from_headers, labels
from companion.rules.errors import RulesError
from companion.rules.splendor.describe import describe_turn
from companion.rules.splendor.record import RecordError, read_record


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "replay",
        help="check a game record and print it turn by turn",
        description="Replay a game record (see the README's notation), checking every turn "
        "against the rules. Exits 1 at the first unreadable or illegal turn, naming its line.",
    )
    p.add_argument("file", type=Path, help="the record file ('-' for standard input)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    p.set_defaults(func=run)


def read_text(path: Path) -> str:
    """The record's text: UTF-8 with or without a byte-order mark; anything else
    (Latin-1, UTF-16, a picture) is refused naming the file, line and byte."""
    if str(path) == "-" and not hasattr(sys.stdin, "buffer"):  # a text stream (tests)
        return sys.stdin.read()
    try:
        raw = sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CommandError(f"{path}: a folder, not a record file") from None
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CommandError(f"{path}: UTF-16 text; save the record as UTF-8")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        what = "binary data, not text" if b"\0" in raw[:4096] else "not UTF-8 text"
        raise CommandError(
            f"{path}: line {line} is {what} (byte 0x{raw[exc.start]:02x});"
            " records are UTF-8 (Latin-1 and other encodings are not read)"
        ) from None


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    return _REPLAYS[kind_of_record(text)](args, text)


def _replay_splendor(args: argparse.Namespace, text: str) -> int:
    try:
        record = read_record(text)
        state = record.initial_state()
        hinted = hints_from_headers(record.headers)
        if not args.quiet:
            names = labels([p.name for p in state.players], record.headers)
            print(f"Splendor, {len(state.players)} players: {names}")
        for _line, turn, before, after in record.replay():
            if not args.quiet:
                asked = "    (a hint was asked)" if after.turn in hinted else ""
                print(f"{after.turn:3}. {turn}{asked}")
                print(f"     {describe_turn(before, turn)}")
            state = after
    except RecordError as exc:
        raise CommandError(f"{args.file}: {exc}") from None
    except RulesError as exc:
        raise CommandError(f"{args.file}: {exc}") from None
    outcome = state.outcome()
    if outcome is None:
        p = state.player
        print(f"Game not finished after {state.turn} turns; {p.name} to move.")
        print_scores(state)
        return 0
    print_standings(outcome)
    claimed = record.headers.get("Result", "*")
    if claimed not in ("*", outcome.summary()):
        raise CommandError(
            f"{args.file}: the Result header says '{claimed}' but the turns give"
            f" '{outcome.summary()}'"
        )
    return 0


def print_scores(state) -> None:  # type: ignore[no-untyped-def]
    for p in state.players:
        print(f"  {p.name}: {p.points} points, {len(p.cards)} cards")


def print_standings(outcome) -> None:  # type: ignore[no-untyped-def]
    print("Final standings:")
    for s in outcome.standings:
        print(f"  {s.rank}. {s.name}: {s.points} points, {s.cards} development cards")
    print(outcome.reason)


#: Each game's replay of a record's text, by its registry entry.
_REPLAYS: dict[AnyKind, Callable[[argparse.Namespace, str], int]] = {
    SPLENDOR_GAME: _replay_splendor,
    DUEL_GAME: replay_duel,
}
