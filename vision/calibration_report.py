"""Does a confidence mean what it says?  Reliability tables, ECE and sure thresholds.

Every function takes ``pairs``: (confidence, right) for the answers the reader
gave (abstentions are not answers and have no place here).  A reader is
calibrated when, among answers given at confidence ~0.9, about 90 % are right;
the expected calibration error (ECE) is the count-weighted mean gap between
accuracy and mean confidence over the bins of :data:`EDGES`.

The bins are finer near 1 than the textbook's ten equal ones because nearly
every answer of this reader is above 0.9 and that is where the referee's
threshold lives; the ECE uses the same bins as the table it summarises.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.confidence import NEVER

#: Upper edges of the reliability bins (the first bin starts at 0, the last ends at 1).
EDGES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0)


@dataclass(frozen=True)
class Bin:
    """Answers with ``low < confidence <= high`` (the first bin includes 0)."""

    low: float
    high: float
    count: int
    accuracy: float
    mean_confidence: float


def _bin_index(confidence: float) -> int:
    for i, edge in enumerate(EDGES):
        if confidence <= edge:
            return i
    return len(EDGES) - 1  # a confidence above 1 belongs to the top bin


def reliability(pairs: Sequence[tuple[float, bool]]) -> list[Bin]:
    """The non-empty bins of :data:`EDGES`, lowest first."""
    groups: list[list[tuple[float, bool]]] = [[] for _ in EDGES]
    for conf, right in pairs:
        groups[_bin_index(conf)].append((conf, right))
    bins = []
    for i, group in enumerate(groups):
        if group:
            low = 0.0 if i == 0 else EDGES[i - 1]
            bins.append(Bin(low, EDGES[i], len(group),
                            sum(r for _, r in group) / len(group),
                            sum(c for c, _ in group) / len(group)))
    return bins


def expected_calibration_error(pairs: Sequence[tuple[float, bool]]) -> float:
    """Sum over bins of count/N * |accuracy - mean confidence|; NaN with no answer."""
    if not pairs:
        return float("nan")
    n = len(pairs)
    return sum(b.count / n * abs(b.accuracy - b.mean_confidence) for b in reliability(pairs))


@dataclass(frozen=True)
class SureStats:
    """Answers at or above a threshold: how many, how many wrong, what share of all."""

    threshold: float
    sure: int
    wrong: int
    readable: int

    @property
    def wrong_rate(self) -> float:
        return self.wrong / self.sure if self.sure else float("nan")

    @property
    def coverage(self) -> float:
        """Share of all readable objects (answered or not) answered sure."""
        return self.sure / self.readable if self.readable else float("nan")


def sure_stats(pairs: Sequence[tuple[float, bool]], threshold: float,
               readable: int) -> SureStats:
    sure = [right for conf, right in pairs if conf >= threshold]
    return SureStats(threshold, len(sure), sum(not r for r in sure), readable)


def choose_threshold(pairs: Sequence[tuple[float, bool]], goal: float) -> float:
    """The lowest answered confidence ``t`` such that, among answers at ``t`` or above,
    wrong ones are at most ``floor(goal * count)``; :data:`NEVER` when none is.

    The floor makes small samples strict: below ``1 / goal`` sure answers not one
    of them may be wrong, so the threshold lands above the most confident mistake.
    """
    ranked = sorted(pairs, key=lambda p: -p[0])
    best = NEVER
    n = wrong = 0
    i = 0
    while i < len(ranked):
        conf = ranked[i][0]
        while i < len(ranked) and ranked[i][0] == conf:  # answers tied at this confidence
            n += 1
            wrong += not ranked[i][1]
            i += 1
        if wrong <= int(goal * n):
            best = conf
    return best

