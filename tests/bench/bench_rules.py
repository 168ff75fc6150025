"""Splendor rules speed: complete random games per second (2 and 4 players)
and microseconds to list the legal actions of a mid-game state.

Baseline, measured in the same run: the time to copy the state's fields with
``dataclasses.replace`` (the cheapest step every turn does), so figures can be
compared across machines as ratios.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.rules.simulate import play_game


def per_second(fn, seconds: float = 2.0) -> float:  # type: ignore[no-untyped-def]
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn(n)
        n += 1
    return n / (time.perf_counter() - start)


def micro(fn, repeat: int = 200) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1e6


def main() -> None:
    _, states = play_game(11, 4, "random")
    mid = states[len(states) // 2]
    base = micro(lambda: replace(mid, turn=mid.turn))
    legal = micro(mid.legal_actions)
    print(f"baseline: dataclasses.replace of a state        {base:8.1f} us")
    print(f"legal actions of a mid-game 4-player state      {legal:8.1f} us"
          f"  ({legal / base:.0f}x baseline, {len(mid.legal_actions())} actions)")
    for players in (2, 4):
        rate = per_second(lambda i, p=players: play_game(1000 + i, p, "random"))
        print(f"complete random {players}-player games per second    {rate:8.1f}")


if __name__ == "__main__":
    main()
