"""Measure what tells a privilege scroll from the grey fill of its place on rendered
design frames of the central mat (vision/duel/read.py ``_presence``): per place
read, whether a scroll is there, whether a person could read it, and the numbers
the reader weighs (lightness below the paper round it, yellowness above it, the
scroll's printed bars: ``scroll_bars``; its rolled ends and their lift over its
middle: ``scroll_ends``); then their spreads and every readable
place not read right.  Never run it on the check split.

    .venv/bin/python tests/bench/duel_scrolls.py --seeds 9200,9600 --count 12
"""

from __future__ import annotations

import argparse

import numpy as np
from duel_frames import calibrated_frames, print_spread  # a sibling bench module

from vision.calibrate import rectify
from vision.duel import read as R
from vision.pixels import lab_image, normalise


def _numbers(image: np.ndarray, h: np.ndarray, slot: object, gain: np.ndarray
             ) -> tuple[float, float, float, float, float]:
    """(below, yellow, bars, ends, lift) of one privilege place, as ``_presence`` measures them."""
    s = R.PRESENCE_PX_PER_MM
    ring = round(R.RING_MM * s)
    raw = rectify(image, h, slot, s, R.RING_MM)  # type: ignore[arg-type]
    band = np.concatenate([raw[:ring].reshape(-1, 3), raw[-ring:].reshape(-1, 3),
                           raw[:, :ring].reshape(-1, 3), raw[:, -ring:].reshape(-1, 3)])
    paper = np.median(band, axis=0).astype(np.float32)
    local = np.asarray(R._PAPER_BGR, np.float32) / np.maximum(paper, 1.0)
    if float(np.abs(local / local.mean() - 1).max()) < 0.25 and 0.5 < local.mean() < 4.0:
        gain = local
    band_lab = lab_image(normalise(band.reshape(-1, 1, 3), gain))
    inset = round((R.RING_MM + R.PRESENCE_INSET_MM) * s)
    inner = raw[inset: raw.shape[0] - inset, inset: raw.shape[1] - inset]
    import cv2

    lab = cv2.GaussianBlur(lab_image(normalise(inner, gain)), (0, 0), 0.7)
    below = float(np.median(band_lab[..., 0])) - float(np.median(lab[..., 0]))
    yellow = float(np.median(lab[..., 2])) - float(np.median(band_lab[..., 2]))
    ends, lift = R.scroll_ends(raw[ring: raw.shape[0] - ring, ring: raw.shape[1] - ring], gain,
                               float(np.median(band_lab[..., 2])))
    return below, yellow, R.scroll_bars(lab[..., 0]), ends, lift


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=12, help="frames per seed, difficulty, lens")
    ap.add_argument("--seeds", default="9200,9600", help="first seeds, comma-separated")
    args = ap.parse_args()
    groups: dict[str, list[tuple[float, float, float, float, float]]] = {}
    wrong = []
    for lens, difficulty, seed, f, cal in calibrated_frames(args.seeds, args.count,
                                                              ("easy", "medium", "hard")):
        for sl in f.layout.slots_of("privilege", "privileges"):
            if sl.id in f.unseen:
                continue
            h, gain = cal.h_for_slot(sl), cal.gain_at(sl.center)
            nums = _numbers(f.image, h, sl, gain)
            scroll = bool(f.contents.get(sl.id))
            hidden = f.hidden.get(sl.id)
            key = f"{'scroll' if scroll else 'empty'} {'readable' if hidden is None else hidden}"
            groups.setdefault(key, []).append(nums)
            got = R._presence(f.image, h, sl, gain, "fill").value
            if hidden is None and got != ("present" if scroll else ""):
                wrong.append(f"{lens} {difficulty} {seed} {sl.id}: {key} read {got!r}; "
                             "below {:.1f} yellow {:.1f} bars {:.1f} ends {:.1f} lift {:.1f}"
                             .format(*nums))
    print_spread(groups, ("below", "yellow", "bars", "ends", "lift"))
    print("\n".join(wrong))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
