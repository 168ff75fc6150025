"""The rendered Duel frames the Duel bench scripts measure on, calibrated.

One loop for every script that sweeps lenses, difficulties and seeds of the
central-mat framing (``vision.synth.duel.duel_frame``), printing where it is.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

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
