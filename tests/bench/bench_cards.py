"""The card reader on the publisher's faces, clean and degraded, per face set and level.

    .venv/bin/python -m tests.bench.bench_cards [--split design|check|both]
        [--variants N] [--seed S] [--fit] [--scenes N]

For every card face of the split (``vision.synth.facesets.face_sets``): read
it clean (the face resampled to the reader's ``FACE_PX_PER_MM``), then
``--variants`` degraded copies, each as a camera would deliver it to the
reader: resampled to 3-6 px/mm and back, blurred, a white-balance cast and an
exposure change, noise, JPEG, cut out up to 1.5 mm and 1.5° off; a share of
them under a glare hot spot or with a flat occluder (a hand's skin colour or
any flat colour) over a reading region (bonus corner, points corner, cost
column), where the right answer is to abstain.

Prints right / wrong / abstained per set and level for clean and degraded
faces, the occluded ones apart (abstaining there is right), and the
reliability table (confidence bins vs accuracy of the named answers) with
the expected calibration error.  ``--fit`` fits the confidence model
(:mod:`vision.card_confidence`) on the split's named answers and prints the
parameters to paste there (fit on ``design`` only).

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
from dataclasses import dataclass

import cv2
import numpy as np

from companion.rules.splendor import catalogue
from vision import card_confidence, card_reader
from vision import cardface as cf
from vision.colours import ColourModel
from vision.confidence import SURE
from vision.locate import FACE_PX_PER_MM
from vision.synth.facesets import face_sets

FACE_SIZE = (round(cf.CARD_W * FACE_PX_PER_MM), round(cf.CARD_H * FACE_PX_PER_MM))
#: (x0, y0, x1, y1) mm of the reading regions an occluder is laid over.
REGIONS = {"bonus": (40.0, 0.0, 63.0, 20.0), "points": (0.0, 0.0, 18.0, 19.0),
           "costs": (0.0, 38.0, 16.0, 88.0)}
SKIN = (150, 175, 215)


@dataclass
class Outcome:
    set_name: str
    level: int
    kind: str  # clean, degraded, occluded, glare
    truth: str
    got: str | None
    confidence: float
    evidence: tuple[float, ...]


def to_face(img: np.ndarray) -> np.ndarray:
    """A scan brought to the reader's face size."""
    interp = cv2.INTER_AREA if img.shape[1] > FACE_SIZE[0] else cv2.INTER_LINEAR
    return cv2.resize(img, FACE_SIZE, interpolation=interp)


def degrade(img: np.ndarray, rng: np.random.Generator, kind: str) -> np.ndarray:
    """``img`` (a scan) as the reader would get it from a middling camera."""
    h, w = img.shape[:2]
    px = float(rng.uniform(3.0, 6.0))
    # misplacement: the cut-out is off by a shift and a turn
    dx, dy = rng.uniform(-1.5, 1.5, 2) * w / cf.CARD_W
    ang = float(rng.uniform(-1.5, 1.5))
    m = cv2.getRotationMatrix2D((w / 2, h / 2), ang, 1.0)
    m[:, 2] += (dx, dy)
    img = cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    size = (round(cf.CARD_W * px), round(cf.CARD_H * px))
    out = cv2.resize(img, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.1)))
    cast = 1 + rng.uniform(-0.12, 0.12, 3)
    out = out * cast * float(rng.uniform(0.75, 1.15))
    s = px  # px per mm of ``out``
    if kind == "glare":
        gx, gy = rng.uniform(0.1, 0.9) * size[0], rng.uniform(0.1, 0.9) * size[1]
        yy, xx = np.mgrid[0:size[1], 0:size[0]].astype(np.float32)
        sig = float(rng.uniform(8, 20)) * s
        out += (float(rng.uniform(150, 260)) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2)
                                                       / (2 * sig * sig)))[:, :, None]
    elif kind == "occluded":
        x0, y0, x1, y1 = REGIONS[str(rng.choice(list(REGIONS)))]
        colour = SKIN if rng.random() < 0.5 else tuple(int(v) for v in rng.integers(20, 230, 3))
        shade = np.asarray(colour, np.float32) * float(rng.uniform(0.7, 1.1))
        px0, py0 = round(x0 * s), round(y0 * s)
        px1, py1 = round(x1 * s), round(y1 * s)
        out[py0:py1, px0:px1] = shade + rng.normal(0, 3, (py1 - py0, px1 - px0, 3))
    out += rng.normal(0, float(rng.uniform(1, 4)), out.shape)
    out8 = np.clip(out, 0, 255).astype(np.uint8)
    _ok, buf = cv2.imencode(".jpg", out8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 92))])
    return to_face(cv2.imdecode(buf, cv2.IMREAD_COLOR))


def run(split: str, variants: int, seed: int) -> list[Outcome]:
    rng = np.random.default_rng(seed)
    colours = ColourModel()
    levels = {c.id: c.level for c in catalogue.cards()}
    out: list[Outcome] = []
    kinds = ["degraded"] * 6 + ["glare"] * 2 + ["occluded"] * 2
    for set_name, faces in face_sets(split):
        for cid, img in sorted(faces.items()):
            if cid.startswith("n"):
                continue
            img = img[:, :, :3]
            tasks = [("clean", to_face(img))]
            for i in range(variants):
                kind = kinds[i % len(kinds)]
                tasks.append((kind, degrade(img, rng, kind)))
            for kind, face in tasks:
                r = card_reader.read_face(face, levels[cid], colours)
                out.append(Outcome(set_name, levels[cid], kind, cid,
                                   r.card.id if r.card else None, r.confidence, r.evidence))
    return out


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


#: Ridge (L2) weight of the confidence fit.  WHY not a token 1e-2: with ~40 wrong
#: answers among ~1900 the fit nearly separates them and drives most answers to
#: 0.999, wrong ones included.  Chosen as the ridge of least log loss on other
#: design faces (fit on ``--split design --variants 20 --seed 1``, scored on
#: ``--variants 10 --seed 2``; ridges 0.01-30 tried): 0.3.
RIDGE = 0.3


def fit(outcomes: list[Outcome], ridge: float = RIDGE) -> None:
    """Logistic regression of "named right" on the evidence of named answers."""
    named = [o for o in outcomes if o.got is not None]
    x = np.array([card_confidence.features(*o.evidence) for o in named])
    y = np.array([o.got == o.truth for o in named], np.float64)
    w = np.zeros(x.shape[1])
    for _ in range(200):  # Newton's method with a ridge
        p = 1 / (1 + np.exp(-(x @ w)))
        g = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        w -= np.linalg.solve(hess, g)
    print(f"fitted on {len(named)} named answers ({int(len(y) - y.sum())} wrong):")
    print("CONFIDENCE_WEIGHTS = (" + ", ".join(f"{v:.4f}" for v in w) + ")")


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
    ap.add_argument("--fit", action="store_true")
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
        if args.fit:
            fit(outcomes)
        if args.scenes:
            scenes(split, args.scenes, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))



