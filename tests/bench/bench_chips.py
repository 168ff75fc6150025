"""Chips: how token slots read, per colour, on real-looking chips under bad light.

Renders the supply (40 token slots, the right half of the centre mat) with
random counts per colour, so each frame holds chips of every colour and empty
slots, for three chip looks: our drawing (``faces.token``), the publisher's
DESIGN chips and its CHECK chips (``vision.synth.facesets.token_faces``; report
only, never tuned on).  Conditions: clean, warm and cool casts, dim, glare, blur,
a hand; scales 3-6 px/mm.  Read as ``read_frame`` reads them: the chips network,
the 40 slots in one batch (``vision.slot_jobs.read_jobs``).

Counts right / wrong / abstained per colour and for empty slots; slots under a
hand are counted apart (abstaining is right there); and the time of a batch.

    .venv/bin/python tests/bench/bench_chips.py            # the table (a few minutes)
    .venv/bin/python tests/bench/bench_chips.py --quick    # fewer frames
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import replace
from time import perf_counter

import numpy as np

from vision import slot_jobs
from vision.calibrate import calibrate
from vision.colours import ColourModel
from vision.layout import Layout, build_layout
from vision.observation import TokenSlotReading
from vision.synth import Camera, TableScene, random_scene, render
from vision.synth.facesets import token_faces

WINDOW = (0.0, -224.0, 400.0, 224.0)
CONDITIONS: dict[str, dict[str, object]] = {
    "clean": {},
    "warm": {"colour_temperature": 0.7},
    "cool": {"colour_temperature": -0.7},
    "dim": {"exposure": 0.45, "noise": 6.0, "light_gradient": 0.45},
    "glare": {"glare": 0.8, "shadow": 0.5},
    "blur": {"blur": 1.6},
    "hand": {"hands": 1},
}
LETTERS = "wugrky"


def _camera(px: float, cond: str, rng: np.random.Generator) -> Camera:
    base = Camera(px_per_mm=px, window=WINDOW, tilt=float(rng.uniform(0, 6)),
                  tilt_direction=float(rng.uniform(0, 360)), rotation=float(rng.uniform(-4, 4)),
                  light_gradient=float(rng.uniform(0, 0.2)), blur=0.6, noise=2.5,
                  jpeg_quality=85, jitter_mm=2.5)
    return replace(base, **CONDITIONS[cond])  # type: ignore[arg-type]


def _scene(seed: int, full: bool) -> TableScene:
    base = random_scene(4, seed, 0.0)
    rng = np.random.default_rng(seed)
    supply = (7, 7, 7, 7, 7, 5) if full else tuple(int(v) for v in rng.integers(2, 7, 6))
    return TableScene(base.market, base.decks, base.nobles, supply, base.players)  # type: ignore[arg-type]


def read_supply(image: np.ndarray, layout: Layout) -> tuple[dict[str, tuple[str, str | None]],
                                                             float]:
    """(slot id -> (state, colour)) of the supply, and the batch's time (ms)."""
    cal = calibrate(image, layout)
    assert cal is not None, "no marker in the bench frame"
    jobs = slot_jobs.make_jobs(image, cal, list(layout.slots_of("token", "supply")))
    t0 = perf_counter()
    got = slot_jobs.read_jobs(jobs, ColourModel(), workers=1)
    ms = (perf_counter() - t0) * 1000
    out = {}
    for job, r in zip(jobs, got, strict=True):
        assert isinstance(r, TokenSlotReading)
        out[job.slot.id] = (r.state, r.colour)
    return out, ms


def run(quick: bool, facesets: list[str], ours: bool = True) -> None:
    layout = build_layout(4)
    scales = (3.0, 4.5) if quick else (3.0, 4.0, 5.0, 6.0)
    looks: dict[str, Mapping[str, np.ndarray] | None] = {"ours": None} if ours else {}
    for split in facesets:
        faces = token_faces(split)
        if faces:
            looks[split] = faces
    for look, chips in looks.items():
        # colour -> Counter(right/wrong/abstained); hidden slots apart
        rows: dict[str, Counter[str]] = defaultdict(Counter)
        notes = Counter[str]()
        times: list[float] = []
        for ci, cond in enumerate(CONDITIONS):
            for si, px in enumerate(scales):
                seed = 1000 * ci + 10 * si + 7
                rng = np.random.default_rng(seed)
                cam = _camera(px, cond, rng)
                frame = render(_scene(seed, False), layout, cam, seed=seed, token_images=chips)
                got, ms = read_supply(frame.image, layout)
                times.append(ms)
                for sid, (state, colour) in got.items():
                    truth = frame.contents.get(sid, "empty")
                    key = truth if sid not in frame.covered else "hidden"
                    if state == "unknown":
                        verdict = "abstained"
                    elif truth == "empty":
                        verdict = "right" if state == "empty" else "wrong"
                    else:
                        verdict = "right" if colour == truth else "wrong"
                    rows[key][verdict] += 1
                    if key == "empty":
                        rows[f"empty {cond} {px:g}"][verdict] += 1
                    if key not in ("hidden", "empty"):
                        rows["all chips"][verdict] += 1
                        rows[f"{cond} {px:g}"][verdict] += 1
                    if verdict == "wrong":
                        notes[f"{cond} {px}: {truth} -> {colour or state}"] += 1
        print(f"\n== chips: {look} ({', '.join(CONDITIONS)}; {scales} px/mm)")
        print(f"  40 slots in one batch: median {float(np.median(times)):.1f} ms,"
              f" max {max(times):.1f} ms over {len(times)} frames")
        print(f"  {'':16s}{'right':>7s}   wrong  abstained   n")
        for key in [*LETTERS, "all chips", "empty", "hidden",
                    *(f"{c} {p:g}" for c in CONDITIONS for p in scales),
                    *(f"empty {c} {p:g}" for c in CONDITIONS for p in scales)]:
            c = rows.get(key)
            if not c:
                continue
            n = sum(c.values())
            print(f"    {key:16s} {100 * c['right'] / n:6.1f}% {100 * c['wrong'] / n:6.1f}%"
                  f" {100 * c['abstained'] / n:7.1f}%  {n:4d}")
        for k, v in sorted(notes.items()):
            print(f"    {v:3d} x {k}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--sets", default="design,check")
    p.add_argument("--ours", action=argparse.BooleanOptionalAction, default=True)
    a = p.parse_args(argv)
    run(a.quick, [s for s in a.sets.split(",") if s], a.ours)
    return 0


if __name__ == "__main__":
    sys.exit(main())
