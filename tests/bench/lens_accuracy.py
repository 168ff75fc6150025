"""Slot-corner error (table mm) under a Wide-like lens: one homography per mat vs the lens.

``PYTHONPATH=. .venv/bin/python tests/bench/lens_accuracy.py [SCALE] [SEEDS]``
``PYTHONPATH=. .venv/bin/python tests/bench/lens_accuracy.py read`` (market cards and
nobles read through each, full size)
``PYTHONPATH=. .venv/bin/python tests/bench/lens_accuracy.py world [SEEDS] [DIFFICULTY]``
(the same on ``vision.synth.world`` frames: an independent camera, the Camera Module
3's Kannala-Brandt lens, both lenses, both framings, 4608 x 2592)
``PYTHONPATH=. .venv/bin/python tests/bench/lens_accuracy.py tilt`` (no image: the world
camera's exact marker corners plus 0.3 px noise, camera tilted 0-20 deg, the focal
length held at the nominal one or freed)
``PYTHONPATH=. .venv/bin/python tests/bench/lens_accuracy.py gate`` (the lens's RMS over
the markers against the homographies' on undistorted perfect-camera renders:
``vision.calibrate.LENS_MIN_GAIN`` must stay below it)
``PYTHONPATH=. .venv/bin/python tests/bench/lens_accuracy.py world-read [SEEDS]`` (market
cards on the Wide's centre framing read through each)

Renders whole 2- and 4-player tables (and the 4-player table framed on its
central mat, as the reader at full resolution sees it) with the perfect camera, bends them
through the known lens ``tests.vision.test_lens.WIDE`` (f 1964 px, k1 -0.10,
k2 0.012 at 4608 x 2592), mats laid up to 8 mm and 2.5 degrees off, camera
level or tilted 4 degrees; reads them with the layout as printed.  Prints, per
layout, the p50 / p95 / max corner error before (``calibrate(use_lens=False)``,
``h_for(mat)``) and after (``h_for_slot``), and the time of ``calibrate`` with
and without the lens (median of 3, same run).  Not part of ``make bench``: it
measures accuracy; run by hand.

``world``: the truth is the world camera's own projection
(``WorldFrame.camera.unproject`` takes a corner's pixel back to the table), so
the error of a slot corner is in table mm whatever the lens; only slots wholly in
the frame count.  It also prints the radial model each frame chose and the CPU
time of the lens fit alone (``vision.calibrate._lens_fit``, median of 3).
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from tests.vision.test_lens import corner_errors_mm, wide_table
from vision.calibrate import calibrate


def _print_errors(label: str, before: list[np.ndarray], after: list[np.ndarray]) -> None:
    """p50 / p95 / max of the slot-corner errors (mm), one line for each fit."""
    for name, errs in (("before", before), ("after", after)):
        e = np.concatenate(errs)
        print(f"{label} {name:6s}: {len(e)} corners  p50 {np.percentile(e, 50):.2f}"
              f"  p95 {np.percentile(e, 95):.2f}  max {e.max():.2f} mm")


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
        _print_errors(f"{players} players {framing}", before, after)
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


def world_corner_errors_mm(frame, cal, through_lens: bool = True) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Per corner of every slot of a world frame wholly in view: how far (table mm) the
    calibration puts it from where the world's camera sees it."""
    import cv2

    out = []
    for slot in frame.layout.slots:
        if slot.id in frame.unseen:
            continue
        h = cal.h_for_slot(slot) if through_lens else cal.h_for(slot.mat)
        corners = np.array(slot.corners(), np.float64)
        px = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), h).reshape(-1, 2)
        back, _ = frame.camera.unproject(px)
        out.append(np.linalg.norm(back - corners, axis=1))
    return np.concatenate(out)


def _lens_fit_cpu_ms(frame) -> float:  # type: ignore[no-untyped-def]
    import cv2

    from vision.calibrate import _lens_fit, detect_markers

    found = detect_markers(cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY), frame.layout)
    size = (frame.image.shape[1], frame.image.shape[0])
    times = []
    for _ in range(3):
        t = time.process_time()
        _lens_fit(dict(found), frame.layout, size, None)
        times.append((time.process_time() - t) * 1000)
    return statistics.median(times)


def world(seeds: int = 3, difficulty: str = "easy") -> None:
    """Slot-corner error on world frames, before (homographies) and after (the lens)."""
    from vision.synth.world import world_frame

    print(f"world frames, {difficulty}, {seeds} seeds (500...), design faces, 4608x2592")
    for lens in ("wide", "standard"):
        for framing, players in (("centre", 4), ("table", 2), ("table", 4)):
            before, after, models, fit_ms = [], [], [], []
            for seed in range(seeds):
                f = world_frame(players, difficulty, 500 + seed, split="design",
                                framing=framing, lens=lens)
                cal = calibrate(f.image, f.layout)
                plain = calibrate(f.image, f.layout, use_lens=False)
                assert cal is not None and plain is not None
                models.append("-" if cal.lens is None else
                              "rational" if len(cal.lens.distortion) > 5 else "brown")
                after.append(world_corner_errors_mm(f, cal))
                before.append(world_corner_errors_mm(f, plain, through_lens=False))
                fit_ms.append(_lens_fit_cpu_ms(f))
            _print_errors(f"{lens:8s} {framing:6s} {players}p", before, after)
            print(f"{lens:8s} {framing:6s} {players}p: models {' '.join(models)}; lens fit "
                  f"{statistics.median(fit_ms):.1f} ms CPU (max {max(fit_ms):.1f})")


def tilt() -> None:
    """The lens fitted to exact marker corners (+0.3 px noise) of a tilted world camera."""
    from vision.calibrate import MIN_OWN_MARKERS, _views
    from vision.layout import build_layout
    from vision.lens import fit_lens
    from vision.synth.world import LENSES, SENSOR_PX, PiCamera, _fit_height, _rotation

    layout = build_layout(4)
    rng = np.random.default_rng(0)
    for lens in ("wide", "standard"):
        for framing in ("centre", "table"):
            for deg in (0, 5, 12, 20):
                rot = _rotation(deg, 40.0, 1.0)
                x0, y0, x1, y1 = (layout.mat("centre").corners()[0]
                                  + layout.mat("centre").corners()[2]
                                  if framing == "centre" else layout.bounds())
                target = ((x0 + x1) / 2, (y0 + y1) / 2)
                hgt = _fit_height(LENSES[lens], SENSOR_PX, rot, target,
                                  (x0 - 20, y0 - 20, x1 + 20, y1 + 20))
                view = rot.T @ np.array([0.0, 0.0, 1.0])
                c = np.array([*target, 0.0]) - hgt / view[2] * view
                cam = PiCamera(LENSES[lens], SENSOR_PX, (float(c[0]), float(c[1]), float(c[2])),
                               rot)
                found = {}
                for m in layout.markers:
                    px = cam.project(np.array(m.corners, np.float64))
                    if ((px > 2) & (px < np.array(SENSOR_PX) - 2)).all():
                        found[m.id] = px + rng.normal(0, 0.3, px.shape)
                names, _, views = _views(found, layout, MIN_OWN_MARKERS)
                line = f"{lens:8s} {framing:6s} tilt {deg:2d}:"
                for free in (False, True):
                    fit = fit_lens(views, SENSOR_PX, free_focal=free)
                    if fit is None:
                        line += f"  {'free' if free else 'held'}: no lens"
                        continue
                    poses = dict(zip(names, fit.poses, strict=True))
                    errs = []
                    for slot in layout.slots:
                        corners = np.array(slot.corners(), np.float64)
                        seen = cam.project(corners)
                        if slot.mat not in poses or not ((seen > 0) & (seen < SENSOR_PX)).all():
                            continue
                        back, _ = cam.unproject(fit.lens.project(corners, *poses[slot.mat]))
                        errs.append(np.linalg.norm(back - corners, axis=1))
                    e = np.concatenate(errs)
                    line += (f"  {'free' if free else 'held'}: f {fit.lens.focal:.0f} "
                             f"rms {fit.rms_px:.2f} px p95 {np.percentile(e, 95):.2f} mm")
                print(line)


def gate() -> None:
    """Lens RMS / homographies' RMS on frames without distortion (the perfect camera)."""
    import cv2

    from vision.calibrate import MIN_OWN_MARKERS, _homography_rms, _views, detect_markers
    from vision.layout import build_layout
    from vision.lens import fit_lens
    from vision.synth import Camera, random_scene, render

    ratios = []
    for players in (2, 4):
        layout = build_layout(players)
        for k, (tilt, ppmm) in enumerate([(0, 1.2), (6, 1.2), (12, 1.2), (0, 1.75),
                                          (12, 1.75), (3, 0.9)]):
            cam = Camera(px_per_mm=ppmm, tilt=tilt, tilt_direction=30 * k, rotation=5 - 3 * k,
                         noise=2)
            image = render(random_scene(players, 3 + k), layout, cam, seed=5 + k).image
            found = detect_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), layout)
            _, _, views = _views(found, layout, MIN_OWN_MARKERS)
            size = (image.shape[1], image.shape[0])
            fit = fit_lens(views, size)
            h_rms = _homography_rms(views)
            ratio = fit.rms_px / h_rms if fit else float("inf")
            ratios.append(ratio)
            print(f"{players} players tilt {tilt:2d} deg {ppmm} px/mm: homographies "
                  f"{h_rms:.3f} px, lens {fit.rms_px if fit else float('nan'):.3f} px, "
                  f"ratio {ratio:.3f}")
    print(f"lowest ratio {min(ratios):.3f}")


def world_reads(seeds: int = 3) -> None:
    """Market cards of the Wide's centre framing read through the homographies and the lens."""
    import vision.read as read_module
    from vision.synth.world import world_frame

    real = read_module.calibrate
    counts = {False: np.zeros(3, int), True: np.zeros(3, int)}
    try:
        for seed in range(seeds):
            f = world_frame(4, "easy", seed, split="design", framing="centre", lens="wide")
            for use in (False, True):
                read_module.calibrate = (  # type: ignore[assignment]
                    lambda im, lay, lens=None, use=use: real(im, lay, lens=lens, use_lens=use))
                obs = read_module.read_frame(f.image, f.layout, workers=1)
                for c in obs.cards:
                    if not c.slot.startswith("market.") or c.slot in f.hidden:
                        continue
                    truth = f.contents.get(c.slot)
                    said = None if c.state == "empty" else c.card.id if c.card else None
                    counts[use] += (c.state != "unknown" and said == truth,
                                    c.state != "unknown" and said != truth,
                                    c.state == "unknown")
    finally:
        read_module.calibrate = real
    for use, name in ((False, "before"), (True, "after")):
        r, w, a = counts[use]
        print(f"wide centre 4p easy, {seeds} seeds, {name:6s}: market cards right {r} "
              f"wrong {w} abstained {a}")


if __name__ == "__main__":
    if sys.argv[1:] == ["read"]:
        reads()
        sys.exit()
    if sys.argv[1:2] == ["world"]:
        world(*(int(a) if i == 0 else a for i, a in enumerate(sys.argv[2:])))  # type: ignore[arg-type]
        sys.exit()
    if sys.argv[1:] == ["tilt"]:
        tilt()
        sys.exit()
    if sys.argv[1:] == ["gate"]:
        gate()
        sys.exit()
    if sys.argv[1:2] == ["world-read"]:
        world_reads(*(int(a) for a in sys.argv[2:]))
        sys.exit()
    main(*(float(a) if i == 0 else int(a) for i, a in enumerate(sys.argv[1:])))  # type: ignore[arg-type]
