"""The Splendor Duel side of ``replay``.

Kept apart so the Splendor commands read simply; both games share the record
shape, the error type (``RecordError`` with its line) and the exit codes.
"""

from __future__ import annotations

import argparse

from companion.commands import CommandError
from companion.record.seats import hints_from_headers, labels
from companion.rules import duel
from companion.rules.errors import RulesError


def replay_duel(args: argparse.Namespace, text: str) -> int:
    """Replay a Duel record turn by turn; exit 1 at the first bad line."""
    try:
        record = duel.read_record(text)
        states = record.states()[:1]
        hinted = hints_from_headers(record.headers)
        if not args.quiet:
            names = labels([p.name for p in states[0].players], record.headers)
            print(f"Splendor Duel, 2 players: {names}")
        for _line, turn, before, after in record.replay():
            if not args.quiet:
                asked = "    (a hint was asked)" if after.turn in hinted else ""
                print(f"{after.turn:3}. {duel.format_turn(turn)}{asked}")
                print(f"     {duel.describe_turn(before, turn)}")
            states.append(after)
    except RulesError as exc:
        raise CommandError(f"{args.file}: {exc}") from None
    final = states[-1]
    print(duel.standings(final))
    outcome = final.outcome()
    if outcome is not None:
        claimed = record.headers.get("Result", "*")
        if claimed not in ("*", outcome.summary()):
            raise CommandError(
                f"{args.file}: the Result header says '{claimed}' but the turns give"
                f" '{outcome.summary()}'"
            )
    return 0
