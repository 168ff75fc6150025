"""The computer seat's strength per level and its think time, with a Pi 4 estimate.

Strength: each level 1-5 plays seeded 2-player games (Splendor and Splendor
Duel) against ``random``, ``greedy`` and the level above, seats alternating
who starts; the table gives the row level's win rate with a 95 % Wilson
interval (a shared win counts half; a Duel game has one winner).  The seat
decides as at the table (:mod:`companion.analysis.seat`: never a blind
reserve, in Duel no replenish by choice and privileges spent at level 5 only; when a Duel seat
can do nothing without a replenish, ``greedy`` plays that turn for it, as
the players would enter it by hand).

Think time: the CPU seconds of every decision each level made in those
games (one core: a seat's search runs on one), the median and the longest,
and the Pi 4 estimate of the longest by ``tests/bench/pi4_estimate.py``
(this machine's CPU seconds times the ratio of a Pi 4 core's time to a core's
here on CPython's n-body program, published for the Pi, measured here in the
same run; a range down to a third of it for CPython 3.11 on the Pi).

The default sample is small so that ``make bench`` stays within a few
minutes: it shows the table's shape, not a calibration.  ``--games 200``
gives the issue's count (hours: ``make bench ARGS="--seat-games 200"``).
``--results FILE`` keeps every finished game as a JSON line and reuses it,
so a long run can be stopped and resumed or grown.  The long sample played so
far is kept in the repository (:data:`STORED`, times rounded to 0.1 ms by
``--store``) and its tables are printed after the run's: the calibration,
measured once and grown by later runs, not replayed by every ``make bench``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.analysis.seat import (
    DEFAULT_LEVEL,
    LEVELS,
    duel_choice,
    splendor_choice,
)
from tests.bench.pi4_estimate import CPYTHON_311_GAIN, pi4_ratio

#: The issue's ceilings on the Pi 4 estimate (its slow end): the default level, any level.
DEFAULT_LEVEL_SECONDS = 2.0
ANY_LEVEL_SECONDS = 10.0
#: Seeds of the strength games start here (the analysis bench uses others).
FIRST_SEED = 1000
GAMES = ("splendor", "duel")
#: The long sample: every game played by ``--results`` runs, kept with the code (a
#: changed level is a new key, so its old games no longer count).
STORED = Path(__file__).with_name("seat-games.jsonl")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Game:
    """One seeded game of a pairing: ``seats`` in playing order, each a policy or ``L1``-``L5``."""

    game: str
    seats: tuple[str, str]
    seed: int

    @property
    def key(self) -> str:
        """The game and its seats, a level with its definition (a changed level is a new game)."""
        return (f"{self.game}/{seat_name(self.seats[0], self.game)}"
                f"/{seat_name(self.seats[1], self.game)}/{self.seed}")


def seat_name(name: str, game: str) -> str:
    """A seat as keys name it: a level with its definition in ``game``, else the
    policy's name (spending privileges is a Duel level's only)."""
    if not name.startswith("L"):
        return name
    lv = LEVELS[int(name[1:])]
    spends = ",privileges" if game == "duel" and lv.privileges else ""
    return f"{name}({lv.budget},{lv.duel_budget},{lv.noise},{lv.shortlist}{spends})"


def current(key: str) -> bool:
    """Whether the game ``key`` was played by the levels as defined now."""
    game = key.split("/")[0]
    names = {seat_name(f"L{n}", game) for n in LEVELS}
    return all(s in names or not s.startswith("L") for s in key.split("/")[1:3])


@dataclass(frozen=True)
class Result:
    """Seat 0's score (1 win, 0.5 shared, 0 loss) and each level seat's decision times."""

    score: float
    times: dict[str, list[float]]


def splendor_match(seed: int, seats: tuple[str, str]) -> Result:
    """One Splendor game between ``seats``."""
    from companion.rules.splendor.players import POLICIES, choose_turn
    from companion.rules.splendor.simulate import deal_and_play
    from companion.rules.splendor.state import needs_reveal, player_names

    names = player_names(2)
    rng = random.Random(f"seat-bench-{seed}")
    times: dict[str, list[float]] = {}

    def choose(state, hidden, reveal):  # type: ignore[no-untyped-def]
        seat = seats[state.current]
        if seat.startswith("L"):
            start = time.process_time()
            choice = splendor_choice(state, LEVELS[int(seat[1:])], seed * 7919 + state.turn)
            times.setdefault(seat, []).append(time.process_time() - start)
            level = needs_reveal(state, choice.turn.action)
            return replace(choice.turn, reveal=reveal(level) if level else None)
        return choose_turn(state, POLICIES[seat], rng, reveal, hidden)

    _, states = deal_and_play(seed, names, choose)
    outcome = states[-1].outcome()
    assert outcome is not None
    score = 1.0 / len(outcome.winners) if names[0] in outcome.winners else 0.0
    return Result(score, times)


def duel_match(seed: int, seats: tuple[str, str]) -> Result:
    """One Duel game between ``seats``."""
    from companion.rules.duel.simulate import POLICIES, DuelDeck, choose_turn

    deck = DuelDeck(seed)
    state = deck.deal(("A", "B"))
    rng = random.Random(f"duel-seat-bench-{seed}")
    hidden: list[list[object]] = [[], []]
    times: dict[str, list[float]] = {}
    while not state.is_over() and state.turn < 400:
        seat = seats[state.current]
        choice = None
        if seat.startswith("L"):
            start = time.process_time()
            choice = duel_choice(state, LEVELS[int(seat[1:])], seed * 7919 + state.turn)
            times.setdefault(seat, []).append(time.process_time() - start)
        if choice is not None:
            turn = choice.turn
            if choice.example.reveal is not None:
                card = deck.draw(int(choice.example.reveal[0]))
                turn = replace(turn, reveal=card.id if card else None)
            state = state.apply(turn)
        else:  # a replenish is needed (the players would enter it): greedy plays it
            policy = POLICIES["greedy" if seat.startswith("L") else seat]
            _, state = choose_turn(state, policy, rng, deck,
                                   hidden[state.current])  # type: ignore[arg-type]
    outcome = state.outcome()
    return Result(1.0 if outcome is not None and outcome.winner == "A" else 0.0, times)


def play(game: Game) -> tuple[str, Result]:
    """Play ``game`` (in a worker process); its key and result."""
    match = splendor_match if game.game == "splendor" else duel_match
    return game.key, match(game.seed, game.seats)


def opponents(level: int, top: int) -> list[str]:
    """What a level is measured against: the two policies and the level above."""
    return ["random", "greedy"] + ([f"L{level + 1}"] if level < top else [])


def schedule(games: Iterable[str], counts: dict[int, int]) -> list[Game]:
    """Every game of every pairing (``counts``: games per pairing of each row level),
    the row level starting in even games."""
    top = max(LEVELS)
    out = []
    for game in games:
        for level, count in counts.items():
            for opponent in opponents(level, top):
                for g in range(count):
                    me = f"L{level}"
                    seats = (me, opponent) if g % 2 == 0 else (opponent, me)
                    out.append(Game(game, seats, FIRST_SEED + g))
    # every pairing's first games first, so a run stopped early (--report) still
    # has whole samples of the same share of each pairing
    seeds = {t.key: (t.seed - FIRST_SEED) / counts[_row_level(t)] for t in out}
    out.sort(key=lambda t: seeds[t.key])
    return out


def _row_level(game: Game) -> int:
    """The level of the row a game belongs to (the lower level of the two seats)."""
    return min(int(s[1:]) for s in game.seats if s.startswith("L"))


def complete(games: Iterable[str], counts: dict[int, int], done: dict[str, Result]
             ) -> dict[int, int]:
    """Of each row level, the most games per pairing played for every pairing (--report)."""
    have = {}
    for level, count in counts.items():
        n = 0
        while n < count and all(
            g.key in done for g in schedule(games, {level: n + 1}) if g.seed == FIRST_SEED + n
        ):
            n += 1
        have[level] = n
    return have


def load(path: Path | None) -> dict[str, Result]:
    """The games already played (``--results``), by key."""
    found: dict[str, Result] = {}
    if path is None or not path.exists():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            found[row["key"]] = Result(row["score"], row["times"])
    return found


def run(tasks: list[Game], path: Path | None, jobs: int) -> dict[str, Result]:
    """Play every task not yet in ``path``, ``jobs`` at a time; every result by key."""
    done = load(path)
    todo = [t for t in tasks if t.key not in done]
    print(f"{len(tasks)} games, {len(tasks) - len(todo)} already played, {jobs} processes",
          flush=True)
    out = path.open("a", encoding="utf-8") if path is not None else None
    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for future in as_completed([pool.submit(play, t) for t in todo]):
                key, result = future.result()
                done[key] = result
                if out is not None:
                    out.write(json.dumps({"key": key, "score": result.score,
                                          "times": result.times}) + "\n")
                    out.flush()
    finally:
        if out is not None:
            out.close()
    return done


def strength_table(game: str, counts: dict[int, int], done: dict[str, Result]) -> None:
    top = max(LEVELS)
    print(f"\n{game}: win rate of the row's level, 95 % Wilson interval, n games per"
          " pairing (seats alternate who starts; a shared win counts half)")
    print(f"  {'level':<7}{'n':<6}{'vs random':<21}{'vs greedy':<21}{'vs the level above'}")
    for level, count in counts.items():
        cells = []
        for opponent in ["random", "greedy", f"L{level + 1}"]:
            if opponent == f"L{top + 1}":
                cells.append("-")
                continue
            me = f"L{level}"
            score = 0.0
            for g in range(count):
                seats = (me, opponent) if g % 2 == 0 else (opponent, me)
                result = done[Game(game, seats, FIRST_SEED + g).key]
                score += result.score if g % 2 == 0 else 1.0 - result.score
            lo, hi = wilson(score, count)
            cells.append(f"{score / count:4.0%} [{lo:3.0%}, {hi:4.0%}]")
        print(f"  {level:<7}{count:<6}" + "".join(f"{c:<21}" for c in cells), flush=True)


def time_table(game: str, levels: list[int], done: dict[str, Result], ratio: float,
               keys: set[str]) -> None:
    print(f"\n{game}: think time per turn, CPU s on one core here, every turn of the games"
          " above; Pi 4 estimate of the longest (method below)")
    print(f"  {'level':<7}{'playouts':<10}{'turns':<7}{'median':<8}{'longest':<9}"
          f"{'Pi 4 (longest)':<16}{'ceiling'}")
    for level in levels:
        me = f"L{level}"
        times = [t for key, r in done.items() if key in keys and key.startswith(game + "/")
                 for t in r.times.get(me, [])]
        if not times:
            continue
        lv = LEVELS[level]
        budget = lv.budget if game == "splendor" else lv.duel_budget
        high = max(times) * ratio
        ceiling = DEFAULT_LEVEL_SECONDS if level == DEFAULT_LEVEL else ANY_LEVEL_SECONDS
        # a longer search stops at the level's seconds on the box (halving's deadline)
        verdict = "within" if high <= ceiling else (
            f"cut at {lv.seconds:g} s:" if ceiling >= lv.seconds else "OVER")
        print(f"  {level:<7}{budget or 'none':<10}{len(times):<7}{statistics.median(times):<8.3f}"
              f"{max(times):<9.3f}{f'{high / CPYTHON_311_GAIN:.2f}-{high:.2f} s':<16}"
              f"{verdict} {ceiling:g} s", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2,
                        help="games per pairing (default 2, a smoke run; the issue's: 200)")
    parser.add_argument("--levels", default="1,2,3,4,5", help="levels to measure")
    parser.add_argument("--per-level", help="games per pairing of each level of --levels"
                        " (e.g. 100,100,60,30,30: the cheap levels get more); else --games")
    parser.add_argument("--game", choices=("splendor", "duel", "both"), default="both")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="games played at once (default 2)")
    parser.add_argument("--results", type=Path,
                        help="JSON-lines file of finished games, reused and extended")
    parser.add_argument("--store", action="store_true",
                        help="play nothing: add the games of --results to the stored sample"
                             f" ({STORED.name}) and print its tables")
    parser.add_argument("--report", action="store_true",
                        help="play nothing: print the tables of --results, each level with"
                             " the games every pairing has (a run stopped early)")
    args = parser.parse_args()
    levels = [int(v) for v in args.levels.split(",")]
    sizes = [int(v) for v in args.per_level.split(",")] if args.per_level else []
    if sizes and len(sizes) != len(levels):
        parser.error("--per-level needs one count for each of --levels")
    counts = dict(zip(levels, sizes or [args.games] * len(levels), strict=True))
    games = list(GAMES) if args.game == "both" else [args.game]
    if args.store:
        store(args.results)
    else:
        done = this_run(games, counts, args)
        if args.report:
            counts = {lv: n for lv, n in complete(games, counts, done).items() if n}
        tables(games, levels, counts, done, "this run")
    stored = load(STORED)
    if stored:
        most = complete(games, {lv: 10 ** 6 for lv in levels}, stored)
        counts = {lv: n for lv, n in most.items() if n}
        if counts:
            tables(games, levels, counts, stored, f"the stored sample ({STORED.name})")
    return 0


def store(path: Path | None) -> None:
    """Add the games of ``path`` to :data:`STORED` (times rounded to 0.1 ms)."""
    if path is None:
        raise SystemExit("--store needs --results FILE")
    have = load(STORED)
    have.update(load(path))
    stale = [key for key in have if not current(key)]
    for key in stale:  # a level since redefined: its games no longer measure it
        del have[key]
    with STORED.open("w", encoding="utf-8") as out:
        for key in sorted(have):
            r = have[key]
            times = {k: [round(t, 4) for t in v] for k, v in r.times.items()}
            out.write(json.dumps({"key": key, "score": r.score, "times": times}) + "\n")
    print(f"{len(have)} games stored in {STORED} ({len(stale)} of redefined levels dropped)")


def this_run(games: list[str], counts: dict[int, int], args: argparse.Namespace
             ) -> dict[str, Result]:
    """The games of this run: played (or with ``--report``, read from ``--results``)."""
    if args.report:
        return load(args.results)
    started = time.perf_counter()
    done = run(schedule(games, counts), args.results, args.jobs)
    print(f"played in {time.perf_counter() - started:.0f} s", flush=True)
    return done


def tables(games: list[str], levels: list[int], counts: dict[int, int],
           done: dict[str, Result], what: str) -> None:
    """The strength and think-time tables of ``done`` for ``counts`` games a pairing."""
    print(f"\n== {what}: " + ", ".join(f"level {lv} {n} games a pairing"
                                       for lv, n in counts.items()), flush=True)
    ratio = pi4_ratio()
    keys = {t.key for t in schedule(games, counts)}
    for game in games:
        strength_table(game, counts, done)
        time_table(game, levels, done, ratio, keys)
    print(f"\nPi 4 estimate: CPU s here x {ratio:.1f} = a Pi 4 core's time / a core's here,"
          " from CPython's n-body program (published: 158.26 s for 5M steps on a Pi 4 at"
          " 1.5 GHz; measured here in this run); shown as a range down to / "
          f"{CPYTHON_311_GAIN:g} for CPython 3.11 on the Pi; a seat's search uses one core."
          " Method: tests/bench/pi4_estimate.py.  Ceilings (slow end): level"
          f" {DEFAULT_LEVEL} {DEFAULT_LEVEL_SECONDS:g} s, any level {ANY_LEVEL_SECONDS:g} s.")


if __name__ == "__main__":
    raise SystemExit(main())
