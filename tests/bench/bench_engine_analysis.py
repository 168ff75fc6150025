"""Analysis figures: time to analyse a game, search strength, win-chance calibration.

* **time** — the 72-turn 3-player game (simulator seed 4, greedy players:
  the demo's game) analysed at the default budget with one process per
  core, beside the time of one readable-engine replay of it as baseline.
* **strength** — the analysis search as a player (``companion.analysis.agent``,
  default budget per turn) against the ``greedy`` and ``random`` policies,
  seats alternating with the seed; wins count shared wins as won.
* **calibration** — in self-play games of the ``greedy`` policy, one
  position per game is analysed; every player's predicted win chance is
  compared with whether they won: Brier score (0 is perfect, 2 players
  guessing 50 % score 0.25) and a reliability table (of the positions given
  about 70 %, how many were won).

``make bench`` runs small samples so it finishes in minutes; the issue's
figures use ``--games 200 --calibration 500`` (about an hour on 2 cores):
run it with ``nice -n 19``.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from timing import ROOT  # noqa: F401  (puts the repository on sys.path)

from companion.analysis import DEFAULT_BUDGET, analyse_record
from companion.analysis.agent import AGENT, play_match
from companion.analysis.game import verdict
from companion.rules.simulate import play_game


def time_analysis(budget: int) -> None:
    record, _ = play_game(4, 3, "greedy")
    start = time.perf_counter()
    record.states()
    replay = time.perf_counter() - start
    start = time.perf_counter()
    analysis = analyse_record(record, budget, seed=0)
    took = time.perf_counter() - start
    print(f"analysis of a {len(record.turns)}-turn 3-player game at {budget} playouts per"
          f" position: {took:6.1f} s (target <= 120 s; baseline: one replay {replay * 1e3:.0f} ms;"
          f" {len(analysis.flagged())} turns flagged)")


def _match(args: tuple[int, str, int, int]) -> float:
    seed, opponent, players, budget = args
    seats = [opponent] * players
    seats[seed % players] = AGENT
    winners, _ = play_match(seed, seats, budget)
    return 1.0 if AGENT in winners else 0.0


def strength(games: int, budget: int, players: int, jobs: int) -> None:
    for opponent in ("greedy", "random"):
        start = time.perf_counter()
        jobs_args = [(seed, opponent, players, budget) for seed in range(games)]
        with ProcessPoolExecutor(jobs) as pool:
            wins = sum(pool.map(_match, jobs_args))
        print(f"search ({budget} playouts) vs {players - 1} x {opponent}: won {wins:.0f} of"
              f" {games} ({100 * wins / games:.0f} %; by chance {100 / players:.0f} %)"
              f"  [{time.perf_counter() - start:.0f} s]", flush=True)


def _calibration_point(args: tuple[int, int, int]) -> list[tuple[float, float]]:
    seed, players, budget = args
    record, states = play_game(50_000 + seed, players, "greedy")
    index = random.Random(seed).randrange(len(record.turns))
    v = verdict(states[index], record.turns[index], index, budget, seed)
    outcome = states[-1].outcome()
    assert outcome is not None
    names = [p.name for p in states[0].players]
    return [(v.chances[p] / 100.0, 1.0 / len(outcome.winners) if n in outcome.winners else 0.0)
            for p, n in enumerate(names)]


def calibration(games: int, budget: int, jobs: int) -> None:
    start = time.perf_counter()
    tasks = [(seed, 2 + seed % 3, budget) for seed in range(games)]
    with ProcessPoolExecutor(jobs) as pool:
        pairs = [pair for chunk in pool.map(_calibration_point, tasks) for pair in chunk]
    brier = sum((p - won) ** 2 for p, won in pairs) / len(pairs)
    base = sum((won - sum(w for _, w in pairs) / len(pairs)) ** 2 for _, won in pairs) / len(pairs)
    print(f"calibration on {games} greedy self-play games (2-4 players, one position each,"
          f" {len(pairs)} predictions): Brier {brier:.3f} (base rate alone"
          f" {base:.3f})  [{time.perf_counter() - start:.0f} s]")
    print("  predicted   positions   won")
    for low in range(0, 100, 10):
        inside = [won for p, won in pairs if low <= 100 * p < low + 10 or (low == 90 and p == 1)]
        if inside:
            rate = 100 * sum(inside) / len(inside)
            print(f"  {low:3d}-{low + 10:3d} %   {len(inside):9d}   {rate:4.0f} %")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--games", type=int, default=6, help="games per opponent")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--calibration", type=int, default=20, help="self-play games")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=("time", "strength", "calibration"))
    args = parser.parse_args()
    if args.only in (None, "time"):
        time_analysis(args.budget)
    if args.only in (None, "strength"):
        strength(args.games, args.budget, args.players, args.jobs)
    if args.only in (None, "calibration"):
        calibration(args.calibration, args.budget, args.jobs)


if __name__ == "__main__":
    main()
