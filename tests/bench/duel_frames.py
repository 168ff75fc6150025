"""The rendered Duel frames the Duel bench scripts measure on, calibrated.

One loop for every script that sweeps lenses, difficulties and seeds of the
central-mat framing (``vision.synth.duel.duel_frame``), printing where it is.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence

import numpy as np

from vision.calibrate import Calibration, calibrate
from vision.synth.duel import DuelFrame, duel_frame


def calibrated_frames(seeds: str, count: int, difficulties: tuple[str, ...],
                      lenses: tuple[str, ...] = ("standard", "wide"), split: str = "design"
                      ) -> Iterator[tuple[str, str, int, DuelFrame, Calibration]]:
    """(lens, difficulty, seed, frame, calibration) for ``count`` seeds from each of the
    comma-separated first ``seeds``; frames whose markers do not calibrate are skipped."""
    for lens in lenses:
        for difficulty in difficulties:
            for base in (int(s) for s in seeds.split(",")):
                for seed in range(base, base + count):
                    print(f"{lens} {difficulty} {seed}", file=sys.stderr, flush=True)
                    f = duel_frame(difficulty, seed, split, "centre", lens)
                    cal = calibrate(f.image, f.layout)
                    if cal is not None:
                        yield lens, difficulty, seed, f, cal


def print_spread(groups: dict[str, list[Sequence[float]]], names: tuple[str, ...]) -> None:
    """Per group and measure: n, then min, p1, p5, median, p95, p99 and max."""
    for key, values in sorted(groups.items()):
        arr = np.asarray(values)
        for i, name in enumerate(names):
            q = np.percentile(arr[:, i], (0, 1, 5, 50, 95, 99, 100))
            print(f"{key:<16} {len(arr):>4} {name:<6} " + " ".join(f"{x:7.1f}" for x in q))
