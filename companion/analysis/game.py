"""A whole game reviewed turn by turn: win chances, best turns, mistakes.

For every position of a game the search (:mod:`.search`) gives each
player's chance to win and the mover's best turn; the turn played is
compared with it.  Lichess's scale is used for the verdicts: a loss of 10,
20 or 30 percentage points of winning chance is an inaccuracy, a mistake or
a blunder, and a player's accuracy averages lichess's per-move accuracy
``103.1668 * exp(-0.04354 * loss) - 3.1669`` over their turns.

Splendor Duel games are analysed the same way, by :mod:`.duel_search` on
the fast Duel engine; the verdicts, accuracy and turning points are shared.

Positions are independent, so they are searched in parallel (one process
per core) and each is seeded from the game seed and its turn number: the
result does not depend on the number of processes.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from concurrent.futures import as_completed
from dataclasses import asdict, dataclass, field
from typing import Any

from companion import processes
from companion.analysis.duel import search as duel_search
from companion.analysis.splendor.search import PositionReview, review_turn
from companion.rules import duel
from companion.rules.splendor.actions import Turn
from companion.rules.splendor.describe import describe_action
from companion.rules.splendor.record import Record, read_record
from companion.rules.splendor.state import GameState

#: Playouts per position when none is asked for: a 72-turn 3-player game
#: then takes 40 s on 2 busy x86 cores (bench_engine_analysis.py --only time).
DEFAULT_BUDGET = 600
#: Loss of win chance (percentage points) from which a turn is flagged.
THRESHOLDS = ((30.0, "blunder"), (20.0, "mistake"), (10.0, "inaccuracy"))
#: A change of favourite is a turning point when the swing is at least this.
TURNING_SWING = 10.0
VERSION = 1


def label(loss_points: float) -> str | None:
    """``blunder`` / ``mistake`` / ``inaccuracy`` for a loss in points, else None."""
    for limit, name in THRESHOLDS:
        if loss_points >= limit:
            return name
    return None


def move_accuracy(loss_points: float) -> float:
    """Lichess's accuracy of one move from its loss of winning chance (0..100)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * loss_points) - 3.1669))


@dataclass(frozen=True)
class TurnVerdict:
    """One analysed turn: ``chances`` are every seat's win chance (%) before it."""

    number: int
    mover: int
    played: str
    played_words: str
    best: str
    best_words: str
    chances: tuple[float, ...]
    played_chance: float
    best_chance: float
    loss: float
    label: str | None


@dataclass(frozen=True)
class PlayerSummary:
    name: str
    accuracy: float
    inaccuracies: int
    mistakes: int
    blunders: int
    worst_turn: int | None
    """The number of the player's turn that lost most, if any lost 10 points or more."""


@dataclass(frozen=True)
class GameAnalysis:
    """The review of one game; :meth:`to_json` is what the game log stores."""

    players: tuple[str, ...]
    budget: int
    seed: int
    turns: tuple[TurnVerdict, ...]
    final: tuple[float, ...]
    """Every seat's share of the result (%) once the game is over."""
    version: int = VERSION
    extra: dict[str, Any] = field(default_factory=dict)

    def series(self) -> list[tuple[float, ...]]:
        """Win chances before each turn, then the result: the chart's points."""
        return [t.chances for t in self.turns] + [self.final]

    def flagged(self) -> list[TurnVerdict]:
        return [t for t in self.turns if t.label is not None]

    def turning_points(self) -> list[int]:
        """Numbers of the turns after which another player became the favourite."""
        points = []
        series = self.series()
        for i, turn in enumerate(self.turns):
            before, after = series[i], series[i + 1]
            lead_before = max(range(len(before)), key=lambda p: before[p])
            lead_after = max(range(len(after)), key=lambda p: after[p])
            swing = max(abs(a - b) for a, b in zip(after, before, strict=True))
            if lead_after != lead_before and swing >= TURNING_SWING:
                points.append(turn.number)
        return points

    def summaries(self) -> list[PlayerSummary]:
        result = []
        for seat, name in enumerate(self.players):
            mine = [t for t in self.turns if t.mover == seat]
            accuracy = sum(move_accuracy(t.loss) for t in mine) / len(mine) if mine else 100.0
            worst = max(mine, key=lambda t: t.loss, default=None)
            result.append(PlayerSummary(
                name,
                round(accuracy, 1),
                sum(t.label == "inaccuracy" for t in mine),
                sum(t.label == "mistake" for t in mine),
                sum(t.label == "blunder" for t in mine),
                worst.number if worst is not None and worst.loss >= 10.0 else None,
            ))
        return result

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameAnalysis:
        data = json.loads(text)
        turns = tuple(TurnVerdict(**{**t, "chances": tuple(t["chances"])}) for t in data["turns"])
        return cls(tuple(data["players"]), data["budget"], data["seed"], turns,
                   tuple(data["final"]), data.get("version", VERSION), data.get("extra", {}))


# ------------------------------------------------------------------ running
_WORKER: dict[str, Any] = {}


AnyRecord = Record | duel.DuelRecord


def read_any_record(text: str) -> AnyRecord:
    """A Splendor or a Splendor Duel record, as its ``Game`` header says."""
    return duel.read_record(text) if duel.is_duel_record(text) else read_record(text)


def _load(record_text: str) -> None:
    record = read_any_record(record_text)
    _WORKER["states"] = record.states()
    _WORKER["turns"] = record.turns


def _verdict(index: int, budget: int, seed: int) -> TurnVerdict:
    states: list[Any] = _WORKER["states"]
    turns: list[Any] = _WORKER["turns"]
    return verdict(states[index], turns[index], index, budget, seed)


def verdict(state: GameState | duel.GameState, played: Turn | duel.Turn, index: int,
            budget: int, seed: int) -> TurnVerdict:
    """Analyse the turn ``played`` in ``state`` (turn ``index`` of the game, from 0)."""
    if isinstance(state, duel.GameState):
        assert isinstance(played, duel.Turn)
        return duel_verdict(state, played, index, budget, seed)
    assert isinstance(played, Turn)
    review = review_turn(state, played, budget, seed * 1_000_003 + index)
    return _told(index, state.current, review, str(played),
                 describe_action(state, played.action), str(review.best),
                 describe_action(state, review.best))


def duel_verdict(state: duel.GameState, played: duel.Turn, index: int, budget: int,
                 seed: int) -> TurnVerdict:
    """:func:`verdict` for a Duel turn: the best turn is a whole turn, told in words."""
    review = duel_search.review_turn(state, played, budget, seed * 1_000_003 + index)
    return _told(index, state.current, review, str(played),
                 duel.describe_turn(state, played), str(review.best),
                 duel.describe_turn(state, review.best))


def _told(index: int, mover: int, review: PositionReview | duel_search.DuelReview,
          played: str, played_words: str, best: str, best_words: str) -> TurnVerdict:
    """A search's review of turn ``index`` as the verdict shown, percentages rounded."""
    loss = round(100.0 * review.loss, 1)
    return TurnVerdict(
        number=index + 1,
        mover=mover,
        played=played,
        played_words=played_words,
        best=best,
        best_words=best_words,
        chances=tuple(round(100.0 * c, 1) for c in review.best_estimate.chances),
        played_chance=round(100.0 * review.played_estimate.chances[mover], 1),
        best_chance=round(100.0 * review.best_estimate.chances[mover], 1),
        loss=loss,
        label=label(loss),
    )


def _final_shares(state: GameState | duel.GameState) -> tuple[float, ...]:
    outcome = state.outcome()
    if outcome is None:  # an unfinished game: the last search's view stands
        return ()
    names = [p.name for p in state.players]
    share = 100.0 / len(outcome.winners)
    return tuple(share if n in outcome.winners else 0.0 for n in names)


def analyse_record(
    record: AnyRecord,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Analyse every turn of ``record`` (Splendor or Duel) with ``budget`` playouts
    per position.

    ``jobs`` processes share the positions (default: one per core);
    ``progress(done, total)`` is called as positions finish.
    """
    states = record.states()
    turns = list(record.turns)
    total = len(turns)
    jobs = max(1, min(jobs or os.cpu_count() or 1, total or 1))
    results: dict[int, TurnVerdict] = {}
    if progress:
        progress(0, total)
    if jobs == 1 or total < 2:
        _load(record.text())
        for i in range(total):
            results[i] = _verdict(i, budget, seed)
            if progress:
                progress(len(results), total)
    else:
        with processes.pool(jobs, initializer=_load, initargs=(record.text(),)) as workers:
            futures = {workers.submit(_verdict, i, budget, seed): i for i in range(total)}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                if progress:
                    progress(len(results), total)
    verdicts = tuple(results[i] for i in range(total))
    final = _final_shares(states[-1]) or (verdicts[-1].chances if verdicts else ())
    extra: dict[str, Any] = {}
    if isinstance(record, duel.DuelRecord):  # Splendor's stored analyses stay as they were
        extra["game"] = duel.GAME_NAME
    return GameAnalysis(tuple(record.players), budget, seed, verdicts, final, extra=extra)

