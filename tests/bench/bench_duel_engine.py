"""Splendor Duel engine speed: random-play turns per second, fast engine beside the readable one.

Both engines play the same kind of random game in the same run, so the
ratio holds on any machine:

* **readable** (the fixed baseline) — :func:`companion.rules.duel.simulate.play_game`
  with the ``random`` policy: every turn built step by step by the
  :class:`~companion.rules.duel.TurnPlanner` on immutable states, the rules
  checked as they go.  What the referee uses.
* **fast** — :func:`companion.rules.fast.duel.state.random_turn` on a
  :class:`~companion.rules.fast.duel.state.DuelState`: the same policy (privileges
  30 %, voluntary replenish 15 %, a purchase half the time, random choices),
  integer lists, no checks.  What the analysis searches with.

Target of issue 15: fast >= 25k turns/s on a 2-core x86 machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from timing import ROOT  # noqa: F401  (puts the repository on sys.path)

from companion.rules.duel.simulate import play_game
from companion.rules.fast.duel.state import DuelState, random_turn

TARGET = 25000


def readable_game(seed: int) -> int:
    _, states = play_game(seed, ("A", "B"), "random")
    return len(states) - 1


def fast_game(seed: int) -> int:
    s, rng = DuelState.seeded(seed), random.Random(seed)
    while not s.is_over():
        random_turn(s, rng)
    return s.turn


def turns_per_second(game: Callable[[int], int], seconds: float) -> float:
    turns, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        turns += game(seed)
        seed += 1
    return turns / (time.perf_counter() - start)


def main() -> None:
    print("random Duel play, turns per second (2 s each; higher is better)")
    readable = turns_per_second(readable_game, 2.0)
    fast = turns_per_second(fast_game, 2.0)
    print(f"Duel: readable (baseline) {readable:9.0f}   fast {fast:9.0f}"
          f"  = {fast / readable:4.1f}x readable  (target {TARGET})")


if __name__ == "__main__":
    main()
