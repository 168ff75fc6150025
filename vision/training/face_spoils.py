"""Card faces spoiled as a middling camera would deliver them, read by the decode.

The card decode's confidence model (:mod:`vision.training.confidence`) is fitted
on these reads and ``tests/bench/bench_cards.py`` tallies them: every card face of
a split (:func:`vision.synth.facesets.face_sets`) read clean (resampled to the
reader's ``FACE_PX_PER_MM``), then in degraded copies: resampled to 3-6 px/mm and
back, blurred, a white-balance cast and an exposure change, noise, JPEG, cut out
up to 1.5 mm and 1.5 degrees off; a share of them under a glare hot spot or with a
flat occluder (a hand's skin colour or any flat colour) over a reading region
(bonus corner, points corner, cost column), where the right answer is to abstain.

Offline only: it reads the art of ../shared.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.rules.splendor import catalogue
from vision import card_reader
from vision import cardface as cf
from vision.colours import ColourModel
from vision.locate import FACE_PX_PER_MM
from vision.synth.facesets import face_sets

FACE_SIZE = (round(cf.CARD_W * FACE_PX_PER_MM), round(cf.CARD_H * FACE_PX_PER_MM))
#: (x0, y0, x1, y1) mm of the reading regions an occluder is laid over.
REGIONS = {"bonus": (40.0, 0.0, 63.0, 20.0), "points": (0.0, 0.0, 18.0, 19.0),
           "costs": (0.0, 38.0, 16.0, 88.0)}
#: A hand's colour (BGR) for an occluder.
SKIN = (150, 175, 215)
#: The kinds of spoil, in turn: six plain, two under glare, two occluded.
KINDS = ("degraded",) * 6 + ("glare",) * 2 + ("occluded",) * 2


@dataclass
class Outcome:
    """One face read: what it was, what the decode named, and its evidence."""

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
    out: np.ndarray = cv2.resize(img, size, interpolation=cv2.INTER_AREA).astype(np.float32)
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
    back = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert back is not None  # OpenCV decodes what it just encoded
    return to_face(back)


def run(split: str, variants: int, seed: int) -> list[Outcome]:
    """Every card face of ``split`` read clean and in ``variants`` spoiled copies
    ([] without the art)."""
    rng = np.random.default_rng(seed)
    colours = ColourModel()
    levels = {c.id: c.level for c in catalogue.cards()}
    out: list[Outcome] = []
    for set_name, faces in face_sets(split):
        for cid, img in sorted(faces.items()):
            if cid.startswith("n"):
                continue
            img = img[:, :, :3]
            tasks = [("clean", to_face(img))]
            for i in range(variants):
                kind = KINDS[i % len(KINDS)]
                tasks.append((kind, degrade(img, rng, kind)))
            for kind, face in tasks:
                r = card_reader.read_face(face, levels[cid], colours)
                out.append(Outcome(set_name, levels[cid], kind, cid,
                                   r.card.id if r.card else None, r.confidence, r.evidence))
    return out
