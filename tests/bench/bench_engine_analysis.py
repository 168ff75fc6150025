"""Analysis figures: time to analyse a game, search strength, win-chance calibration.

* **time** — the 72-turn 3-player game (simulator seed 4, greedy players:
  the demo's game) analysed at the default budget with one process per
  core, beside the time of one readable-engine replay of it as baseline,
  and the time estimated for a Raspberry Pi 4 (:mod:`pi4_estimate`).
* **strength** — the analysis search as a player (``companion.analysis.agent``,
  default budget a turn) against ``greedy`` and ``random`` in 2- and
  4-player games (the search alone against the others; its seat rotates
  with the seed), with a 95 % Wilson interval; beside it the baselines:
  chance, and the ``greedy`` policy itself in the same seats of the same
  seeds.  A shared win counts as 1/k of a win.
* **calibration** — one position of each of a run of seeded self-play games
  (2, 3 and 4 players in turn; players: the search at 40 playouts, see
  ``CALIBRATION_PLAY_BUDGET``) is analysed at the default budget; every
  player's predicted win chance is compared with their share of the
  result: Brier score beside the no-skill forecast (everyone 1/n), and the
  reliability table (of the positions given about 70 %, how many were won).

``make bench`` runs small samples so it finishes in minutes.  The issue's
figures: ``--games 200 --calib 500`` (hours on 2 shared cores; run it with
``nice -n 19``).  Every finished game is appended to ``--results``
(build/bench-figures), so a run may be stopped and resumed, or cut into
chunks with ``--chunk N``; ``--report`` only prints what is stored.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from pi4_estimate import children_cpu, pi4_line
from timing import ROOT

from companion.analysis import DEFAULT_BUDGET, analyse_record
from companion.analysis.figures import (
    CALIBRATION_PLAY_BUDGET,
    Pair,
    brier,
    calibration_tasks,
    reliability,
    run,
    strength_tasks,
    wilson,
)
from companion.rules.splendor.simulate import play_game

RESULTS = ROOT / "build" / "bench-figures"


class Progress:
    """One overwritten line on stderr: games done, and the time they took."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        took = time.perf_counter() - self.start
        left = took / done * (total - done)
        print(f"\r  {self.label}: {done}/{total} games, {took:.0f} s, ~{left:.0f} s left ",
              end="" if done < total else "\n", file=sys.stderr, flush=True)


def time_analysis(budget: int, jobs: int) -> None:
    record, _ = play_game(4, 3, "greedy")
    start = time.perf_counter()
    record.states()
    replay = time.perf_counter() - start
    start, cpu = time.perf_counter(), time.process_time() + children_cpu()
    analysis = analyse_record(record, budget, seed=0, jobs=jobs)
    took = time.perf_counter() - start
    cpu = time.process_time() + children_cpu() - cpu
    print(f"analysis of a {len(record.turns)}-turn 3-player game at {budget} playouts per"
          f" position, {jobs} processes: {took:6.1f} s (target <= 120 s; baseline: one replay"
          f" {replay * 1e3:.0f} ms; {len(analysis.flagged())} turns flagged)", flush=True)
    print(pi4_line(cpu), flush=True)


def strength(games: int, budget: int, players: int, jobs: int, chunk: int | None,
             results: Path, report: bool) -> None:
    for opponent in ("greedy", "random"):
        tasks = strength_tasks(games, players, opponent, budget)
        path = results / f"strength-{players}p-{opponent}-{budget}.jsonl"
        label = f"{players}p vs {opponent}"
        found = run(tasks, path, jobs, 0 if report else chunk, Progress(label))
        rows = list(found.values())
        n = len(rows)
        if not n:
            print(f"{players} players, search ({budget} playouts) vs {players - 1} x {opponent}:"
                  " no games stored")
            continue
        wins = sum(r["won"] for r in rows)
        low, high = wilson(wins, n)
        base = sum(r["greedy_won"] for r in rows)
        shared = sum(r["shared"] for r in rows)
        stalled = sum(bool(r.get("stalled")) for r in rows)
        seconds = sum(r["seconds"] for r in rows) / n
        partial = "" if n == games else f" (PARTIAL: {n} of {games} asked)"
        print(f"{players} players, search ({budget} playouts) vs {players - 1} x {opponent}:"
              f" won {wins:g} of {n} = {100 * wins / n:.1f} % (95 % CI {100 * low:.1f}-"
              f"{100 * high:.1f} %){partial} | baseline: greedy in the same seats"
              f" {100 * base / n:.1f} %, chance {100 / players:.0f} %"
              f"  [{shared} shared, {stalled} stalled (lost); {seconds:.1f} s a game and process,"
              " wall clock]", flush=True)


def calibration(games: int, budget: int, jobs: int, chunk: int | None, results: Path,
                report: bool) -> None:
    tasks = calibration_tasks(games, budget)
    path = results / f"calibration-{budget}.jsonl"
    found = run(tasks, path, jobs, 0 if report else chunk, Progress("calibration"))
    rows = [r for r in found.values() if not r.get("stalled")]
    stalled = len(found) - len(rows)
    if not rows:
        print("calibration: no games stored")
        return
    pairs: list[Pair] = [(p, won) for r in rows
                         for p, won in zip(r["predicted"], r["result"], strict=True)]
    uniform: list[Pair] = [(1 / len(r["result"]), won) for r in rows for won in r["result"]]
    partial = "" if len(found) == games else f" (PARTIAL: {len(found)} of {games} asked)"
    print(f"calibration on {len(rows)} self-play games{partial}, {stalled} left out as stalled"
          f" (2-4 players, search at"
          f" {CALIBRATION_PLAY_BUDGET} playouts; one position each judged at {budget}):"
          f" {len(pairs)} predictions, Brier {brier(pairs):.3f} | baseline: everyone 1/n"
          f" {brier(uniform):.3f}", flush=True)
    print("  predicted  predictions   mean given    won")
    for row in reliability(pairs):
        print(row.line())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                        help="playouts a position (default: the analysis default)")
    parser.add_argument("--games", type=int, default=4,
                        help="strength games per opponent and player count (issue: 200)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], choices=(2, 3, 4))
    parser.add_argument("--calib", "--calibration", type=int, default=10,
                        help="self-play games for the calibration (issue: 500)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--chunk", type=int, default=None,
                        help="play at most this many new games per opponent, then report")
    parser.add_argument("--results", type=Path, default=RESULTS,
                        help="where finished games are stored (resume: run again)")
    parser.add_argument("--report", action="store_true",
                        help="play nothing: report the games already stored")
    parser.add_argument("--only", choices=("time", "strength", "calibration"))
    args = parser.parse_args()
    if args.only in (None, "time") and not args.report:
        time_analysis(args.budget, args.jobs)
    if args.only in (None, "strength"):
        for players in args.players:
            strength(args.games, args.budget, players, args.jobs, args.chunk, args.results,
                     args.report)
    if args.only in (None, "calibration"):
        calibration(args.calib, args.budget, args.jobs, args.chunk, args.results, args.report)


if __name__ == "__main__":
    main()
