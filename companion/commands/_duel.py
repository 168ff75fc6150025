"""The Splendor Duel side of ``replay`` and ``simulate`` (``--game duel``).

Kept apart so the Splendor commands read simply; both games share the record
shape, the error type (``RecordError`` with its line) and the exit codes.
"""

from __future__ import annotations

import argparse
from collections import Counter

from companion.commands import CommandError
from companion.rules import duel
from companion.rules.errors import RulesError


def replay_duel(args: argparse.Namespace, text: str) -> int:
    """Replay a Duel record turn by turn; exit 1 at the first bad line."""
    try:
        record = duel.read_record(text)
        states = record.states()[:1]
        if not args.quiet:
            names = ", ".join(p.name for p in states[0].players)
            print(f"Splendor Duel, 2 players: {names}")
        for _line, turn, before, after in record.replay():
            if not args.quiet:
                print(f"{after.turn:3}. {duel.format_turn(turn)}")
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


def simulate_duel(args: argparse.Namespace) -> int:
    """Play seeded Duel games and write their records."""
    if args.players != 2:
        raise CommandError(f"Splendor Duel is for 2 players, not {args.players}")
    if args.policy not in duel.POLICIES:
        choices = " or ".join(sorted(duel.POLICIES))
        raise CommandError(f"unknown policy '{args.policy}' ({choices})")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create {args.out}: {exc.strerror}") from None
    wins: Counter[str] = Counter()
    turns = 0
    for i in range(args.games):
        seed = args.seed + i
        record, states = duel.play_game(seed, 2, args.policy)
        path = args.out / f"duel-{seed}.txt"
        path.write_text(record.text(), encoding="utf-8")
        outcome = states[-1].outcome()
        assert outcome is not None
        wins.update(outcome.winners)
        turns += len(record.turns)
        if args.games <= 20 or (i + 1) % 10 == 0 or i + 1 == args.games:
            print(
                f"[{i + 1}/{args.games}] seed {seed}: {len(record.turns)} turns;"
                f" {outcome.reason}"
            )
    print(f"{args.games} games, {turns / args.games:.1f} turns on average; records in {args.out}")
    for name, n in wins.most_common():
        print(f"  {name}: {n} win{'s' if n != 1 else ''}")
    return 0
