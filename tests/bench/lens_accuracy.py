"""Slot-corner error (table mm) under a Wide-like lens: one homography per mat vs the lens.

``PYTHONPATH=. .venv/bin/python tests/bench/lens_accuracy.py [SCALE] [SEEDS]``
``PYTHONPATH=. .venv/bin/python tests/bench/lens_accuracy.py read`` (market cards and
nobles read through each, full size)

Renders whole 2- and 4-player tables (and the 4-player table framed on its
central mat, as the reader at full resolution sees it) with the perfect camera, bends them
through the known lens ``tests.vision.test_lens.WIDE`` (f 1964 px, k1 -0.10,
k2 0.012 at 4608 x 2592), mats laid up to 8 mm and 2.5 degrees off, camera
level or tilted 4 degrees; reads them with the layout as printed.  Prints, per
layout, the p50 / p95 / max corner error before (``calibrate(use_lens=False)``,
``h_for(mat)``) and after (``h_for_slot``), and the time of ``calibrate`` with
and without the lens (median of 3, same run).  Not part of ``make bench``: it
measures accuracy; run by hand.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from tests.vision.test_lens import corner_errors_mm, wide_table
from vision.calibrate import calibrate


def _ms(fn) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(3):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main(scale: float = 0.5, seeds: int = 3) -> None:
    print(f"scale {scale} of 4608x2592; {seeds} seeds x tilt (0, 4 deg) per layout")
    for players, framing in ((2, "table"), (4, "table"), (4, "centre")):
        before, after, t_lens, t_plain, used = [], [], [], [], 0
        for seed in range(seeds):
            for tilt in (0.0, 4.0):
                f = wide_table(players, 100 + seed, scale=scale, tilt=tilt, framing=framing)
                cal = calibrate(f.image, f.layout)
                plain = calibrate(f.image, f.layout, use_lens=False)
                assert cal is not None and plain is not None
                used += cal.lens is not None
                after.append(corner_errors_mm(f, cal))
                before.append(corner_errors_mm(f, plain, through_lens=False))
                t_lens.append(_ms(lambda f=f: calibrate(f.image, f.layout)))
                t_plain.append(_ms(lambda f=f: calibrate(f.image, f.layout, use_lens=False)))
        for name, errs in (("before", before), ("after", after)):
            e = np.concatenate(errs)
            print(f"{players} players {framing} {name:6s}: {len(e)} corners"
                  f"  p50 {np.percentile(e, 50):.2f}  p95 {np.percentile(e, 95):.2f}"
                  f"  max {e.max():.2f} mm")
        print(f"{players} players {framing}: lens used on {used}/{len(after)} frames; calibrate "
              f"{statistics.median(t_lens):.0f} ms with the lens, "
              f"{statistics.median(t_plain):.0f} ms without")


def reads(seeds: int = 2) -> None:
    """Market cards and nobles read through the homographies and through the lens."""
    import vision.read as read_module

    real = read_module.calibrate
    for framing, players in (("centre", 4), ("table", 2)):
        counts = {False: np.zeros(4, int), True: np.zeros(4, int)}
        for seed in range(seeds):
            f = wide_table(players, 11 + seed, scale=1.0, framing=framing, tilt=2.0)
            for use in (False, True):
                read_module.calibrate = (  # type: ignore[assignment]
                    lambda im, lay, lens=None, use=use: real(im, lay, lens=lens, use_lens=use))
                obs = read_module.read_frame(f.image, f.layout, workers=1)
                for c in obs.cards:
                    truth = f.contents.get(c.slot)
                    said = None if c.state == "empty" else c.card.id if c.card else None
                    counts[use] += (c.state != "unknown" and said == truth,
                                    c.state != "unknown" and said != truth,
                                    c.state == "unknown", 0)
                counts[use][3] += sum(n.noble is not None and n.noble.id == f.contents.get(n.slot)
                                      for n in obs.nobles)
        read_module.calibrate = real
        for use, name in ((False, "before"), (True, "after")):
            r, w, a, nob = counts[use]
            print(f"{players} players {framing} {name:6s}: market cards right {r} wrong {w} "
                  f"abstained {a}; nobles right {nob}")


if __name__ == "__main__":
    if sys.argv[1:] == ["read"]:
        reads()
        sys.exit()
    main(*(float(a) if i == 0 else int(a) for i, a in enumerate(sys.argv[1:])))  # type: ignore[arg-type]
