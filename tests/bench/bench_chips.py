"""Chips: how token slots read, per colour, on real-looking chips under bad light.

Renders the supply (40 token slots, the right half of the centre mat) with
random counts per colour, so each frame holds chips of every colour and empty
slots, for three chip looks: our drawing (``faces.token``), the publisher's
DESIGN chips and its CHECK chips (``vision.synth.facesets.token_faces``; report
only, never tuned on).  Conditions: clean, warm and cool casts, dim, glare, blur,
a hand; scales 3-6 px/mm; read with the built-in colours and after learning them
from a set-up frame of the same table and light (supply full).

Counts right / wrong / abstained per colour and for empty slots; slots under a
hand are counted apart (abstaining is right there).

    .venv/bin/python tests/bench/bench_chips.py            # the table (a few minutes)
    .venv/bin/python tests/bench/bench_chips.py --quick    # fewer frames
    .venv/bin/python tests/bench/bench_chips.py --measure  # the default class centres
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from vision import readers
from vision.calibrate import calibrate
from vision.colours import ColourModel
from vision.errors import VisionError
from vision.layout import Layout, build_layout
from vision.learn import learn_colours
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


def read_supply(image: np.ndarray, layout: Layout, colours: ColourModel
                ) -> dict[str, tuple[str, str | None]]:
    cal = calibrate(image, layout)
    assert cal is not None, "no marker in the bench frame"
    out = {}
    for slot in layout.slots_of("token", "supply"):
        r = readers.read_token(image, cal.h_for(slot.mat), slot, cal.gain_at(slot.center),
                               colours)
        out[slot.id] = (r.state, r.colour)
    return out


def run(quick: bool, facesets: list[str], ours: bool = True) -> None:
    layout = build_layout(4)
    scales = (3.0, 4.5) if quick else (3.0, 4.0, 5.0, 6.0)
    looks: dict[str, Mapping[str, np.ndarray] | None] = {"ours": None} if ours else {}
    for split in facesets:
        faces = token_faces(split)
        if faces:
            looks[split] = faces
    for look, chips in looks.items():
        # (learned?) -> colour -> Counter(right/wrong/abstained); hidden slots apart
        table: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
        notes = Counter[str]()
        for ci, cond in enumerate(CONDITIONS):
            for si, px in enumerate(scales):
                seed = 1000 * ci + 10 * si + 7
                rng = np.random.default_rng(seed)
                cam = _camera(px, cond, rng)
                frame = render(_scene(seed, False), layout, cam, seed=seed, token_images=chips)
                setup_cam = replace(cam, hands=0)
                setup = render(_scene(seed, True), layout, setup_cam, seed=seed + 1,
                               token_images=chips).image
                models = {"built-in": ColourModel()}
                try:
                    models["learned"] = learn_colours(setup, layout)
                except VisionError as exc:
                    notes[f"learning failed: {exc}"] += 1
                for name, model in models.items():
                    got = read_supply(frame.image, layout, model)
                    for sid, (state, colour) in got.items():
                        truth = frame.contents.get(sid, "empty")
                        key = truth if sid not in frame.covered else "hidden"
                        if state == "unknown":
                            verdict = "abstained"
                        elif truth == "empty":
                            verdict = "right" if state == "empty" else "wrong"
                        else:
                            verdict = "right" if colour == truth else "wrong"
                        table[name][key][verdict] += 1
                        if key == "empty":
                            table[name][f"empty {cond} {px:g}"][verdict] += 1
                        if key not in ("hidden", "empty"):
                            table[name]["all chips"][verdict] += 1
                            table[name][f"{cond} {px:g}"][verdict] += 1
                        if verdict == "wrong":
                            notes[f"{name} {cond} {px}: {truth} -> {colour or state}"] += 1
        print(f"\n== chips: {look} ({', '.join(CONDITIONS)}; {scales} px/mm)")
        for name, rows in table.items():
            print(f"  colours {name}:{'right':>14s}   wrong  abstained   n")
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


def measure() -> None:
    """Median rim and gem Lab of clean chips: ours and the DESIGN set (never CHECK)."""
    layout = build_layout(4)
    for look, chips in (("ours", None), ("design", token_faces("design") or None)):
        if look == "design" and chips is None:
            continue
        cam = Camera(px_per_mm=5.0, window=WINDOW, jitter_mm=2.0)
        frame = render(_scene(3, True), layout, cam, seed=3, token_images=chips)
        cal = calibrate(frame.image, layout)
        assert cal is not None
        rims, gems = defaultdict(list), defaultdict(list)
        for slot in layout.slots_of("token", "supply"):
            lk = readers.look_at_chip(frame.image, cal.h_for(slot.mat), slot,
                                      cal.gain_at(slot.center), ColourModel().tokens["empty"])
            if lk.rim is not None:
                rims[slot.colour].append(lk.rim)
            if lk.gem is not None:
                gems[slot.colour].append(lk.gem)
        print(look, "rims", {k: tuple(round(float(x)) for x in np.median(v, 0))
                             for k, v in rims.items()})
        print(look, "gems", {k: tuple(round(float(x)) for x in np.median(v, 0))
                             for k, v in gems.items()})


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--measure", action="store_true")
    p.add_argument("--sets", default="design,check")
    p.add_argument("--ours", action=argparse.BooleanOptionalAction, default=True)
    a = p.parse_args(argv)
    if a.measure:
        measure()
    else:
        run(a.quick, [s for s in a.sets.split(",") if s], a.ours)
    return 0


if __name__ == "__main__":
    sys.exit(main())
