"""How bright a card face's own whites come out under the markers' gain.

Measures what ``vision.face_cut.FACE_GAIN_FLOOR`` rests on: on design world
frames (never the check-only faces), the 99th-percentile white of every
readable market card face times the markers' gain there, for faces with no
clipped pixel ("clean") and faces with some glare ("glary").  A clean face's
peak is light the gain legitimately over-corrects; a glary face's extreme
peaks are a glare halo passing for the face's white.

    .venv/bin/python tests/bench/face_whites.py --seeds 3000 3003
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.calibrate import calibrate, rectify
from vision.card_reader import CARD_MM
from vision.face_cut import CAPTURE_CLIPPED, FACE_WHITE_PERCENTILE
from vision.locate import FACE_PX_PER_MM
from vision.synth.world import world_frame

#: A face counts as glary when more than this share of its pixels is clipped in a channel.
GLARY_SHARE = 0.005


def peaks(seeds: range) -> tuple[list[float], list[float]]:
    """(clean, glary) face white peaks over the design frames of ``seeds``."""
    clean: list[float] = []
    glary: list[float] = []
    cells = [(d, s, lens, p) for d in ("easy", "medium", "hard") for s in seeds
             for lens in ("wide", "standard") for p in (2, 4)]
    for n, (diff, seed, lens, players) in enumerate(cells, 1):
        print(f"[{n}/{len(cells)}] {players}p {diff} {lens} seed {seed}", file=sys.stderr)
        f = world_frame(players, diff, seed, split="design", framing="centre", lens=lens)
        cal = calibrate(f.image, f.layout)
        if cal is None:
            continue
        for s in f.layout.slots:
            if s.kind != "card" or s.id not in f.contents or s.id in f.hidden:
                continue
            raw = rectify(f.image, cal.h_for_slot(s), s, FACE_PX_PER_MM, size_mm=CARD_MM)
            px = raw.reshape(-1, 3)[::3]
            unclipped = px[px.min(1) < CAPTURE_CLIPPED]
            if len(unclipped) < 100:
                continue
            gain = cal.gains_at([s.center])[0]
            peak = float(np.max(np.percentile(unclipped, FACE_WHITE_PERCENTILE, axis=0) * gain))
            glare = (raw.max(axis=2) >= CAPTURE_CLIPPED).mean() > GLARY_SHARE
            (glary if glare else clean).append(peak)
    return clean, glary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=(3000, 3003),
                        metavar=("FIRST", "END"), help="design seeds FIRST..END-1")
    args = parser.parse_args()
    clean, glary = peaks(range(*args.seeds))
    for name, values in (("clean", clean), ("glary", glary)):
        if not values:
            print(f"{name}: no faces")
            continue
        q = np.percentile(values, [50, 90, 95, 99, 100])
        print(f"{name:6} {len(values):4} faces: p50 {q[0]:.0f}  p90 {q[1]:.0f}  p95 {q[2]:.0f}"
              f"  p99 {q[3]:.0f}  max {q[4]:.0f}  (floor they support: {250 / q[4]:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
