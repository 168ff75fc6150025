"""The card reader on the publisher's faces, clean and degraded, per face set and level.

    .venv/bin/python -m tests.bench.bench_cards [--split design|check|both]
        [--variants N] [--seed S] [--scenes N]

For every card face of the split: read it clean, then in ``--variants``
degraded copies, each as a camera would deliver it to the reader
(:mod:`vision.training.face_spoils`, the reads the confidence model is fitted
on); a share of them under a glare hot spot or with a flat occluder over a
reading region, where the right answer is to abstain.

Prints right / wrong / abstained per set and level for clean and degraded
faces, the occluded ones apart (abstaining there is right), and the
reliability table (confidence bins vs accuracy of the named answers) with
the expected calibration error.  The confidence model itself is fitted by
``python -m vision.training.confidence``.

``--scenes N``: also N rendered views of the centre mat per face set (the
market holding that set's faces; ``vision.synth.render`` with
``Camera.random``, every third hard: tilt, dim, glare or a hand, at 2-6 px/mm),
read by ``read_frame``: market cards right / wrong / abstained, and those under
a hand apart (abstaining is right there).

Needs ``../shared/card-faces`` (exits when absent).  Nothing is written.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import defaultdict

import numpy as np

from companion.rules.splendor import catalogue
from vision.confidence import SURE
from vision.synth.facesets import face_sets
from vision.training.face_spoils import Outcome, run


def tally(outcomes: list[Outcome]) -> None:
    table: dict[tuple[str, str, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for o in outcomes:
        kind = "degraded" if o.kind in ("degraded", "glare") else o.kind
        t = table[(o.set_name, kind, o.level)]
        t[0 if o.got == o.truth else 1 if o.got else 2] += 1
    print(f"{'set':<13}{'faces':<10}{'level':>5}  right / wrong / abstained")
    for (name, kind, level), (r, w, a) in sorted(table.items()):
        n = r + w + a
        print(f"{name:<13}{kind:<10}{level:>5}  {r:4d} {100 * r / n:5.1f}% / {w:3d} "
              f"{100 * w / n:4.1f}% / {a:3d} {100 * a / n:4.1f}%")


def reliability(outcomes: list[Outcome], title: str) -> None:
    named = [o for o in outcomes if o.got is not None]
    if not named:
        return
    edges = [0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99, 1.0001]
    ece = 0.0
    print(f"reliability ({title}): {len(named)} named answers")
    for lo, hi in itertools.pairwise(edges):
        b = [o for o in named if lo <= o.confidence < hi]
        if not b:
            continue
        acc = sum(o.got == o.truth for o in b) / len(b)
        conf = sum(o.confidence for o in b) / len(b)
        ece += len(b) / len(named) * abs(acc - conf)
        print(f"  [{lo:.2f}, {min(hi, 1):.2f}): n={len(b):5d}  mean conf {conf:.3f}  "
              f"accuracy {acc:.4f}  wrong {sum(o.got != o.truth for o in b)}")
    parts = []
    for t in (0.9, SURE["market cards"]):
        sure = [o for o in named if o.confidence >= t]
        wrong = sum(o.got != o.truth for o in sure)
        parts.append(f"conf >= {t}: {len(sure)} answers, {wrong} wrong "
                     f"({100 * wrong / max(1, len(sure)):.2f} %)")
    print(f"  ECE {ece:.4f}; " + "; ".join(parts))


def scenes(split: str, n: int, seed: int) -> None:
    """Market cards of rendered centre-mat views, per face set."""
    from vision.layout import build_layout
    from vision.read import read_frame
    from vision.synth import Camera, TableScene, random_scene, render

    layout = build_layout(2)
    mat = layout.mat("centre")
    xs = [x for x, _ in mat.corners()]
    ys = [y for _, y in mat.corners()]
    window = (min(xs) - 10, min(ys) - 10, max(xs) + 10, max(ys) + 10)
    levels = {c.id: c.level for c in catalogue.cards()}
    print(f"{'set':<13}{'scenes':>7}  market cards right / wrong / abstained; under a hand")
    for set_name, faces in face_sets(split):
        rng = np.random.default_rng(seed)
        imgs = {k: v[:, :, :3].copy() for k, v in faces.items()}
        by_level = {lv: sorted(k for k in imgs if levels.get(k) == lv) for lv in (1, 2, 3)}
        t = [0, 0, 0]
        hand = [0, 0, 0]
        for i in range(n):
            base = random_scene(2, int(rng.integers(1 << 30)), 0.5)
            market = tuple(tuple(str(c) for c in rng.choice(by_level[lv], min(4, len(
                by_level[lv])), replace=False)) for lv in (1, 2, 3))
            scene = TableScene(market, base.decks, base.nobles, base.supply, base.players)
            cam = Camera.random(rng, hard=i % 3 == 0, window=window,
                                px_per_mm=float(rng.uniform(2.0, 6.0)))
            r = render(scene, layout, cam, seed=i, face_images=imgs)
            obs = read_frame(r.image, layout)
            for c in obs.cards:
                truth = r.contents.get(c.slot)
                if not truth or not c.slot.startswith("market"):
                    continue
                k = 0 if c.card is not None and c.card.id == truth else 1 if c.card else 2
                (hand if c.slot in r.covered else t)[k] += 1
                if k == 1 and c.card is not None:
                    print(f"  wrong: scene {i} {cam.tags} {c.slot} {truth} read "
                          f"{c.card.id} at {c.confidence:.3f}")
        total = max(1, sum(t))
        print(f"{set_name:<13}{n:>7}  {t[0]} {100 * t[0] / total:.1f}% / {t[1]} "
              f"{100 * t[1] / total:.1f}% / {t[2]} {100 * t[2] / total:.1f}%; "
              f"hand {hand[0]}/{hand[1]}/{hand[2]}")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="both", choices=("design", "check", "both"))
    ap.add_argument("--variants", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scenes", type=int, default=0)
    args = ap.parse_args(argv)
    splits = ("design", "check") if args.split == "both" else (args.split,)
    for split in splits:
        outcomes = run(split, args.variants, args.seed)
        if not outcomes:
            print("../shared/card-faces not available")
            return 1
        print(f"== {split} ==")
        tally(outcomes)
        reliability([o for o in outcomes if o.kind == "clean"], f"{split}, clean")
        reliability([o for o in outcomes if o.kind != "clean"], f"{split}, degraded")
        reliability(outcomes, f"{split}, all")
        if args.scenes:
            scenes(split, args.scenes, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))



