"""``splendor-companion replay FILE``: check a game record turn by turn.

Prints the game turn by turn and the final standings, or the first illegal
(or unreadable) turn with its reason and line number, exiting 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.commands import CommandError
from companion.rules.describe import describe_turn
from companion.rules.errors import RulesError
from companion.rules.record import RecordError, read_record


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
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path}: not a text file") from None
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from None


def game_of(text: str) -> str:
    """The ``Game`` header of a record, defaulting to Splendor."""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[Game "):
            return line[len("[Game ") :].strip('"] ')
    return "Splendor"


def run(args: argparse.Namespace) -> int:
    text = read_text(args.file)
    if game_of(text) == "Splendor Duel":
        from companion.commands._duel import replay_duel

        return replay_duel(args, text)
    try:
        record = read_record(text)
        state = record.initial_state()
        if not args.quiet:
            names = ", ".join(p.name for p in state.players)
            print(f"Splendor, {len(state.players)} players: {names}")
        for _line, turn, before, after in record.replay():
            if not args.quiet:
                print(f"{after.turn:3}. {turn}")
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
