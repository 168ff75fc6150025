"""Strength and calibration of the analysis, measured in seeded games.

Why a module and not only a benchmark script: the figures take hours at the
issue's counts, so the runs are cut into chunks that can stop and resume
(every finished game is appended to a results file at once), and the
arithmetic behind the figures (confidence interval, Brier score,
reliability table) is tested on hand-made examples like any other code.

* **strength** — the search player (:mod:`.agent`, ``budget`` playouts a
  turn) against ``players - 1`` copies of a readable policy; the search
  sits in seat ``seed % players``, so the seats rotate over the games.
* **calibration** — one position of a seeded self-play game, its every
  player's win chance as the review gives it (:func:`.game.verdict` at the
  analysis budget), beside each player's actual share of the result.

A result is stored under a key naming everything it depends on, and with a
fingerprint of the rules' and the analysis's source: a changed engine or
search starts the figures afresh instead of mixing old games with new.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import processes
from companion.analysis.agent import AGENT, agent_turn, play_match
from companion.analysis.game import verdict
from companion.rules.splendor.actions import Turn
from companion.rules.splendor.catalogue import Card
from companion.rules.splendor.players import POLICIES, choose_turn
from companion.rules.splendor.simulate import deal_and_play
from companion.rules.splendor.state import GameState, player_names

#: Two-sided 95 % normal quantile, for the Wilson interval.
Z95 = 1.959963984540054
#: Playouts a turn of the players of the calibration games: 1-3 s a game
#: with its judged position on one x86 core (bench_engine_analysis.py --only
#: calibration).  A search player rather than ``greedy`` on purpose: the
#: search's playouts are greedy, so greedy games would go on exactly as the
#: search imagines them and flatter its calibration.
CALIBRATION_PLAY_BUDGET = 40
#: Seeds of the calibration games start here, away from the strength seeds.
CALIBRATION_SEED = 50_000
#: Bumped when the meaning of a stored result changes.
FORMAT = 1

Pair = tuple[float, float]
"""A prediction (0..1) and what it came to (1 won, 0 lost, 1/k a k-way shared win)."""


# ------------------------------------------------------------------ arithmetic
def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (0..1); ``(0, 1)`` for no games.

    Wilson rather than ``p ± z·sqrt(p(1-p)/n)``: that one collapses to a
    single point at 0 % or 100 %, exactly where a strong player's figure is.
    """
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def brier(pairs: Sequence[Pair]) -> float:
    """Mean squared difference between prediction and result (0 is perfect)."""
    if not pairs:
        raise ValueError("no predictions")
    return sum((p - won) ** 2 for p, won in pairs) / len(pairs)


@dataclass(frozen=True)
class Bin:
    """Predictions from ``low`` to ``high`` (%): how many, their mean and how many came true."""

    low: int
    high: int
    count: int
    predicted: float
    won: float

    def line(self) -> str:
        return (f"  {self.low:3d}-{self.high:3d} %   {self.count:9d}"
                f"   {100 * self.predicted:8.1f} %   {100 * self.won:5.1f} %")


def reliability(pairs: Sequence[Pair], bins: int = 10) -> list[Bin]:
    """The reliability table: predictions binned by tenths, each bin's result rate.

    A bin holds predictions ``low <= 100 p < high``; the last also holds 100 %.
    Empty bins are left out.
    """
    width = 100 // bins
    table = []
    for k in range(bins):
        inside = [(p, won) for p, won in pairs if min(bins - 1, int(100 * p) // width) == k]
        if inside:
            table.append(Bin(k * width, (k + 1) * width, len(inside),
                             sum(p for p, _ in inside) / len(inside),
                             sum(won for _, won in inside) / len(inside)))
    return table


def shares(state: GameState) -> list[float]:
    """Every seat's share of the finished game: 1 won, 0 lost, 1/k a k-way shared win."""
    outcome = state.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    names = [p.name for p in state.players]
    return [1.0 / len(outcome.winners) if n in outcome.winners else 0.0 for n in names]


# ------------------------------------------------------------------ games
@dataclass(frozen=True)
class Task:
    """One seeded game to play: ``kind`` is ``strength`` or ``calibration``."""

    kind: str
    seed: int
    players: int
    budget: int
    opponent: str = ""

    @property
    def key(self) -> str:
        return f"{self.kind}/{self.players}p/{self.opponent or 'self'}/{self.budget}/{self.seed}"


def strength_tasks(games: int, players: int, opponent: str, budget: int) -> list[Task]:
    return [Task("strength", seed, players, budget, opponent) for seed in range(games)]


def calibration_tasks(games: int, budget: int) -> list[Task]:
    """Games of 2, 3 and 4 players in turn, as the analysed games come."""
    return [Task("calibration", CALIBRATION_SEED + g, 2 + g % 3, budget) for g in range(games)]


def play_strength(task: Task) -> dict[str, Any]:
    """The search against ``task.opponent``; the search's seat rotates with the seed."""
    seats = [task.opponent] * task.players
    seat = task.seed % task.players
    seats[seat] = AGENT
    try:
        winners, state = play_match(task.seed, seats, task.budget)
    except RuntimeError:  # unfinished after simulate.MAX_TURNS: not a win
        return {"won": 0.0, "shared": False, "turns": None, "greedy_won": 0.0, "stalled": True}
    won = 1.0 / len(winners) if AGENT in winners else 0.0
    # The same seed with the policy itself in the search's seat: the baseline.
    base_seats = [task.opponent] * task.players
    base_seats[seat] = "greedy"
    base = shares(_policy_game(task.seed, base_seats))[seat]
    return {"won": won, "shared": len(winners) > 1 and AGENT in winners, "turns": state.turn,
            "greedy_won": base}


def _policy_game(seed: int, seats: Sequence[str]) -> GameState:
    rng = random.Random(f"players-{seed}")

    def choose(state: GameState, hidden: list[Card], reveal: Callable[[int], str | None]
               ) -> Turn:
        return choose_turn(state, POLICIES[seats[state.current]], rng, reveal, hidden)

    return deal_and_play(seed, player_names(len(seats)), choose)[1][-1]


def self_play(seed: int, players: int, budget: int) -> tuple[list[Turn], list[GameState]]:
    """A seeded game of ``players`` search players at ``budget`` playouts a turn."""

    def choose(state: GameState, hidden: list[Card], reveal: Callable[[int], str | None]
               ) -> Turn:
        return agent_turn(state, hidden, budget, seed * 7919 + state.turn, reveal)

    return deal_and_play(seed, player_names(players), choose)


def play_calibration(task: Task) -> dict[str, Any]:
    """One position of a cheap self-play game, judged at ``task.budget``.

    A game the cheap players never finish (they can stall, every player
    holding gems for cards nobody can pay) has no result to compare with:
    it is stored as ``stalled`` and left out of the figures, and counted.
    """
    try:
        turns, states = self_play(task.seed, task.players, CALIBRATION_PLAY_BUDGET)
    except RuntimeError:  # the simulator's limit of turns (simulate.MAX_TURNS)
        return {"stalled": True}
    index = random.Random(f"calibration-{task.seed}").randrange(len(turns))
    v = verdict(states[index], turns[index], index, task.budget, task.seed)
    return {"turn": index, "predicted": [c / 100.0 for c in v.chances],
            "result": shares(states[-1])}


def _play(task: Task) -> dict[str, Any]:
    start = time.perf_counter()
    result = play_strength(task) if task.kind == "strength" else play_calibration(task)
    result["seconds"] = round(time.perf_counter() - start, 2)
    return result


# ------------------------------------------------------------------ resumable runs
def fingerprint() -> str:
    """A hash of the source the figures depend on: the rules and the analysis."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(str(FORMAT).encode())
    files = sorted([*package.glob("rules/**/*.py"), *package.glob("analysis/*.py")])
    for path in files:
        if path.name != "figures.py":  # the runner, not what is measured
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def load_results(path: Path, mark: str) -> dict[str, dict[str, Any]]:
    """Stored results of the current source (``mark``), by task key."""
    found: dict[str, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                if row.get("fingerprint") == mark:
                    found[row["key"]] = row["result"]
    return found


def run(tasks: Iterable[Task], path: Path, jobs: int, limit: int | None = None,
        progress: Callable[[int, int], None] | None = None) -> dict[str, dict[str, Any]]:
    """Play the ``tasks`` not yet in ``path`` (at most ``limit`` of them this time).

    Each finished game is appended to ``path`` at once, so an interrupted run
    loses only the games in flight.  Returns the results of all ``tasks``
    that are stored, old and new, by key.
    """
    tasks = list(tasks)
    mark = fingerprint()
    done = load_results(path, mark)
    todo = [t for t in tasks if t.key not in done]
    if limit is not None:
        todo = todo[:limit]
    path.parent.mkdir(parents=True, exist_ok=True)
    finished = 0

    def store(task: Task, result: dict[str, Any]) -> None:
        nonlocal finished
        done[task.key] = result
        with path.open("a") as out:
            out.write(json.dumps({"key": task.key, "fingerprint": mark, "result": result}) + "\n")
        finished += 1
        if progress:
            progress(finished, len(todo))

    if jobs <= 1:
        for task in todo:
            store(task, _play(task))
    else:
        with processes.pool(jobs) as pool:
            running: dict[Future[dict[str, Any]], Task] = {}
            queue = list(reversed(todo))
            while queue or running:
                while queue and len(running) < 2 * jobs:
                    task = queue.pop()
                    running[pool.submit(_play, task)] = task
                ready, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in ready:
                    store(running.pop(future), future.result())
    return {t.key: done[t.key] for t in tasks if t.key in done}


__all__ = ["CALIBRATION_PLAY_BUDGET", "Bin", "Pair", "Task", "brier", "calibration_tasks",
           "fingerprint", "load_results", "play_calibration", "play_strength", "reliability",
           "run", "self_play", "shares", "strength_tasks", "wilson"]
