"""Fit the noble reader's confidence (a logistic in the margin) on DESIGN faces only.

Every design face (the older printing, the newer printing's even-numbered faces,
our own tiles) is spoiled many ways (blur, noise, light, cut out off and turned,
resampled down to 2-4 px/mm), decoded, and the best noble's margin over the
runner-up is paired with whether that best noble is right, whether or not the
reader then abstains: so wrong bests are seen often enough to fit
P(right | margin) = 1 / (1 + exp(-(a + b * margin))).  Prints a and b, and the
reliability of the answers given with the fitted confidence.  The check faces
are never used here (see tests/bench/bench_nobles_decks.py for them).

    .venv/bin/python tests/bench/fit_noble_confidence.py [spoils per face]
"""

from __future__ import annotations

import sys

import cv2
import numpy as np

from companion.rules.splendor import catalogue
from vision import noble_reader
from vision.colours import ColourModel
from vision.locate import FACE_PX_PER_MM
from vision.synth import faces
from vision.synth.facesets import face_sets


def spoil(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Blurred, resampled to 2-4 px/mm and back, noisy, lit differently, cut out up to
    3 mm off and turned up to 3°."""
    s = FACE_PX_PER_MM
    h, w = img.shape[:2]
    k = rng.uniform(2.0, 4.0) / s
    small = cv2.resize(img, (max(8, round(w * k)), max(8, round(h * k))),
                       interpolation=cv2.INTER_AREA)
    g = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    g = cv2.GaussianBlur(g, (0, 0), rng.uniform(0.3, 1.2)).astype(np.float32)
    g = g * rng.uniform(0.6, 1.2) + rng.normal(0, rng.uniform(2, 8), g.shape)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-3, 3), 1.0)
    m[:, 2] += rng.uniform(-3, 3, 2) * s
    return cv2.warpAffine(np.clip(g, 0, 255).astype(np.uint8), m, (w, h),
                          borderMode=cv2.BORDER_REPLICATE)


def fit_logistic(x: np.ndarray, y: np.ndarray, iters: int = 50) -> tuple[float, float]:
    """Maximum-likelihood (a, b) by Newton's method, with a weak ridge (the classes
    may be nearly separable)."""
    a = b = 0.0
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(a + b * x)))
        g = np.array([np.sum(y - p), np.sum((y - p) * x)]) - 1e-3 * np.array([a, b])
        wgt = p * (1 - p)
        hess = -np.array([[wgt.sum(), (wgt * x).sum()], [(wgt * x).sum(), (wgt * x * x).sum()]])
        hess -= 1e-3 * np.eye(2)
        step = np.linalg.solve(hess, g)
        a, b = a - step[0], b - step[1]
    return float(a), float(b)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    cv2.setNumThreads(1)
    size = round(60 * FACE_PX_PER_MM)
    sets = [(name, {k: cv2.resize(v, (size, size), interpolation=cv2.INTER_AREA)
                    for k, v in fs.items() if k.startswith("n")})
            for name, fs in face_sets("design")]
    sets.append(("ours", {x.id: faces.noble_face(x, FACE_PX_PER_MM)
                          for x in catalogue.nobles()}))
    rng = np.random.default_rng(2024)
    colours = ColourModel()
    margins, right, answered = [], [], []
    for _name, fs in sets:
        for nid, face in sorted(fs.items()):
            for _ in range(n):
                d = noble_reader.decode_noble(spoil(face, rng), colours)
                best = d.noble.id if d.noble else d.runner_up
                margins.append(d.margin)
                right.append(best == nid)
                answered.append(d.noble is not None)
    x, y = np.array(margins), np.array(right, float)
    a, b = fit_logistic(x, y)
    print(f"{len(x)} decodes, best right {y.mean():.3f}; fit a={a:.3f} b={b:.3f}")
    ans = np.array(answered)
    conf = np.array([noble_reader.noble_confidence(m) for m in x])
    print(f"answered {ans.sum()}, wrong {int((ans & (y == 0)).sum())}")
    for lo, hi in ((0, .5), (.5, .7), (.7, .8), (.8, .9), (.9, .95), (.95, .99), (.99, 1.01)):
        m = ans & (conf >= lo) & (conf < hi)
        if m.any():
            print(f"  conf [{lo:.2f},{hi:.2f}) n={m.sum():4d} mean {conf[m].mean():.3f} "
                  f"acc {y[m].mean():.3f}")


if __name__ == "__main__":
    main()
