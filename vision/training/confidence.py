"""``python -m vision.training.confidence``: fit the card decode's confidence model.

The decode's evidence on a face (:func:`vision.card_confidence.features`) becomes
"the named card is right" through a logistic model.  It is fitted here on the
DESIGN faces only (the older printing and the newer printing's even-numbered
faces), clean and spoiled (:mod:`vision.training.face_spoils`), scored on the
CHECK faces (which never move it), and written with its reliability tables into
``vision/card_confidence.toml``, which the reader loads (package data: a Pi has it).
The fitted joins take the decode's probability as an input, so ``make train``
runs this before :mod:`vision.training.join`.

Offline only: it reads the art of ../shared.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision import card_confidence
from vision.calibration_report import expected_calibration_error, reliability
from vision.confidence import SURE_WRONG_GOAL
from vision.training.face_spoils import Outcome, run

PATH = Path(card_confidence.__file__).with_name(card_confidence.CONFIDENCE_FILE)
#: Seeds of the spoils: design (fitted on) and check (scored on).
DESIGN_SEED = 1
CHECK_SEED = 2
#: Ridge (L2) weight of the fit.  WHY not a token 1e-2: with ~40 wrong answers among
#: ~1900 the fit nearly separates them and drives most answers to 0.999, wrong ones
#: included.  The ridge of least log loss on other design faces (fitted on design
#: spoils of seed 1, scored on seed 2, ridges 0.01-30 tried).
RIDGE = 0.3


def fit(outcomes: Sequence[Outcome], ridge: float = RIDGE) -> tuple[float, ...]:
    """Logistic regression of "named right" on the evidence of named answers
    (Newton's method with a ridge)."""
    named = [o for o in outcomes if o.got is not None]
    x = np.array([card_confidence.features(*o.evidence) for o in named])
    y = np.array([o.got == o.truth for o in named], np.float64)
    w = np.zeros(x.shape[1])
    for _ in range(200):
        p = 1 / (1 + np.exp(-(x @ w)))
        g = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, g)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return tuple(float(v) for v in w)


def score(weights: Sequence[float], outcomes: Sequence[Outcome], what: str) -> list[str]:
    """Comment lines: answers, wrong ones, the sure-at-0.999 count, ECE and the
    reliability table of the named answers under ``weights``."""
    pairs = [(card_confidence.probability_of(weights, o.evidence), o.got == o.truth)
             for o in outcomes if o.got is not None]
    wrong = sum(not ok for _, ok in pairs)
    high = [ok for p, ok in pairs if p >= 1 - SURE_WRONG_GOAL]
    return [f"{what}: {len(outcomes)} faces, {len(pairs)} named, {wrong} of them wrong; "
            f"{len(high)} at p >= {1 - SURE_WRONG_GOAL}, {len(high) - sum(high)} of them wrong",
            f"ECE {expected_calibration_error(pairs):.4f}; | p | cards | right % | mean p |",
            *(f"| {b.low:.2f}-{b.high:.2f} | {b.count} | {100 * b.accuracy:.2f} | "
              f"{b.mean_confidence:.4f} |" for b in reliability(pairs))]


def write(weights: Sequence[float], lines: Sequence[str], path: Path = PATH) -> None:
    """``card_confidence.toml``: the weights, after the scores as comments."""
    text = ["# The card decode's confidence: logistic weights on the evidence of",
            "# vision/card_confidence.py's features() (bias first).",
            "# Written by `python -m vision.training.confidence`: fitted on design faces,",
            "# scored on check faces; do not edit by hand.",
            *(f"# {line}" for line in lines),
            "weights = [" + ", ".join(f"{v:.6f}" for v in weights) + "]"]
    path.write_text("\n".join(text) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.training.confidence",
                                 description="Fit the card decode's confidence model on "
                                 "spoiled design faces, score it on check faces, write "
                                 "vision/card_confidence.toml.")
    ap.add_argument("--variants", type=int, default=20,
                    help="spoiled copies of each design face (check: half as many)")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    t0 = time.monotonic()
    print(f"reading design faces, {a.variants} spoils each", file=sys.stderr, flush=True)
    design = run("design", a.variants, DESIGN_SEED)
    if not design:
        print("error: no design faces: ../shared/card-faces is needed", file=sys.stderr)
        return 1
    weights = fit(design)
    spoils = max(1, a.variants // 2)
    print(f"reading check faces, {spoils} spoils each ({time.monotonic() - t0:.0f} s)",
          file=sys.stderr, flush=True)
    check = run("check", spoils, CHECK_SEED)
    lines = [f"design faces: {a.variants} spoils each (seed {DESIGN_SEED}), ridge {RIDGE}",
             *score(weights, design, "design"),
             f"check faces: {spoils} spoils each (seed {CHECK_SEED})",
             *score(weights, check, "check")]
    write(weights, lines)
    print("\n".join(lines))
    print(f"wrote {PATH} ({time.monotonic() - t0:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
