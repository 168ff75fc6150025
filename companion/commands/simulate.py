"""``splendor-companion simulate``: seeded games between computer players.

Writes one record per game (checked by ``replay``) and prints a summary.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.commands import CommandError
from companion.games import DUEL_GAME, SPLENDOR_GAME, AnyKind, by_key, keys
from companion.output import write_text
from companion.rules import duel
from companion.rules.splendor.players import POLICIES
from companion.rules.splendor.simulate import play_game


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "simulate",
        help="play seeded games between computer players and write their records",
        description="Play K seeded games between random or greedy computer players and "
        "write each game's record into --out (game-<seed>.txt).",
    )
    p.add_argument("--game", choices=keys(), default=keys()[0])
    p.add_argument("--players", type=int, default=2, help="2 to 4 (Duel: 2)")
    p.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    p.add_argument("--policy", default="random", help="random or greedy (default random)")
    p.add_argument("--out", type=Path, default=Path("out/simulate"), help="folder for records")
    p.set_defaults(func=run, output_folders=("out",))


#: Each game's seeded self-play, its policies and its records' file prefix.
_SIMULATIONS: dict[AnyKind, tuple[Any, Mapping[str, object], str]] = {
    SPLENDOR_GAME: (play_game, POLICIES, "game"),
    DUEL_GAME: (duel.play_game, duel.POLICIES, "duel"),
}

#: The most games one command plays (hours of play, a folder of records).
MAX_GAMES = 100_000


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= MAX_GAMES:  # 2**63 games ran until the disk was full
        raise CommandError(f"--games {args.games}: give 1 to {MAX_GAMES}")
    kind = by_key(args.game)
    game, allowed = kind.name, kind.players
    play, policies, prefix = _SIMULATIONS[kind]
    if args.players not in allowed:
        span = f"{allowed[0]} to {allowed[-1]}" if len(allowed) > 1 else str(allowed[0])
        raise CommandError(f"{game} is for {span} players, not {args.players}")
    if args.policy not in policies:
        choices = " or ".join(sorted(policies))
        raise CommandError(f"unknown policy '{args.policy}' ({choices})")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"cannot create {args.out}: {exc.strerror}") from None
    wins: Counter[str] = Counter()
    turns = 0
    for i in range(args.games):
        seed = args.seed + i
        record, states = play(seed, args.players, args.policy)
        path = args.out / f"{prefix}-{seed}.txt"
        write_text(path, record.text(), named=False)
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
