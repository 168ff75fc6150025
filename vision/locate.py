"""Stage 1 of reading a card or a noble tile: finding it in its slot.

Only the slot is rectified (at ``LOCATE_PX_PER_MM``) and searched for the
rectangle of the card's size that holds the most "not paper"; the face is then
cut out again at ``FACE_PX_PER_MM`` where the card was found, by
:mod:`vision.face_cut` (stage 2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibrate import rectify
from vision.layout import Slot
from vision.pixels import (
    INK_LAB,
    PAPER_DIST,
    PAPER_LAB,
    lab_distance,
    lab_image,
    normalise,
    paper_distances,
)

#: Resolution at which card and noble faces are read.
FACE_PX_PER_MM = 4.0
#: Resolution for finding a card in its slot, and for tokens, decks, tableau.
LOCATE_PX_PER_MM = 2.0
TOKEN_PX_PER_MM = 1.5
#: Half the Lab distance at which a pixel counts fully as "not paper" when fitting a card.
EVIDENCE_TAU = 12.0
LOCATE_MARGIN_MM = 6.0
#: Weight of the card's four edges against the area evidence when fitting it.
EDGE_WEIGHT = 0.25
#: A clean card edge in the clipped evidence map: a step of 2·tau through a Sobel filter.
EDGE_NORM = 8 * EVIDENCE_TAU
#: A size other than the nominal one must earn its place (light bands look like paper).
SCALE_PENALTY = 3.0
LOCATE_ANGLES = (-3.0, -1.5, 0.0, 1.5, 3.0)
LOCATE_SCALES = (0.95, 1.0, 1.05)
#: Accepted range of a card's measured size over its nominal size.
SCALE_RANGE = (0.88, 1.12)
#: Fraction of a slot's interior that must differ from paper for it to hold something.
OCCUPIED_MIN = 0.45
EMPTY_MAX = 0.12
#: An empty-looking slot whose inside has this much more detail than the paper is not empty.
EMPTY_TEXTURE = 1.5
#: Other fits of a card (angle, scale) tried when the best one reads poorly.
ALTERNATIVE_FITS = 3


# -- locating a card in its slot ---------------------------------------------------
@dataclass(frozen=True)
class Located:
    """Where a card or tile lies: ``scale`` is its measured size over the nominal one
    (≠ 1 when the homography is off there, e.g. far from every visible marker)."""

    coverage: float
    center: tuple[float, float] | None = None
    angle: float = 0.0
    scale: float = 1.0
    #: the next best fits (other angles and scales), best first
    others: tuple[Located, ...] = ()
    #: detail inside the slot over detail of the paper around it (about 1 when empty)
    texture: float = 1.0


def locate(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
           size_mm: tuple[float, float], fit: bool = True,
           seen: tuple[np.ndarray, np.ndarray] | None = None,
           occupied: float = OCCUPIED_MIN) -> Located:
    """How much of the slot is covered, and where the card (of ``size_mm``) lies in it.

    The card is the rectangle of its known size (over a few angles and scales)
    that encloses the most "not paper" evidence, found exhaustively with
    integral images: robust to parts of a card that look like paper (the
    light band, a pale picture), which a threshold-and-contour fit is not.

    ``seen``: the slot's ``slot_view`` when the caller has it already (the noble
    reader looks at it first).  ``occupied``: the share of the slot that must differ
    from paper before a card is fitted (the card reader asks for less).
    """
    s = LOCATE_PX_PER_MM
    margin = LOCATE_MARGIN_MM
    patch, lab = seen if seen is not None else slot_view(image, h, slot, gain)
    dist, shaded = paper_distances(lab, PAPER_LAB)
    inset = round((margin + 5) * s)
    inner = dist[inset:-inset, inset:-inset]
    coverage = float((inner > PAPER_DIST).mean()) if inner.size else 0.0
    if coverage < occupied or not fit:
        return Located(coverage, texture=_texture_ratio(patch, inset, round(margin * s)))
    # shaded paper and the printed outline around the slot are mat, not card
    mat = np.minimum(shaded, lab_distance(lab, INK_LAB))
    evidence = np.clip(mat, 0, 2 * EVIDENCE_TAU) - EVIDENCE_TAU
    ph, pw = evidence.shape
    pc = ((pw - 1) / 2, (ph - 1) / 2)
    boxes = [(k, round(size_mm[0] * k * s), round(size_mm[1] * k * s)) for k in LOCATE_SCALES]
    boxes = [(k, bw, bh) for k, bw, bh in boxes if bw < pw and bh < ph]
    if not boxes:
        return Located(coverage)
    # WHY bands: the edge sums read the running sums only along the boxes' sides,
    # rows [0, ph - bh] and [bh - 1, ph) for the top and bottom, the same columns
    # for the sides; summing only there gives the same values (a running sum of
    # a row or column does not depend on the others) in under half the time
    bw0, bh0 = min(b[1] for b in boxes), min(b[2] for b in boxes)
    rows = _bands(ph, bh0)
    cols = _bands(pw, bw0)
    # WHY all angles at once: the sums below are a few dozen numpy operations on
    # small arrays, so their overhead outweighs the arithmetic; stacked over the
    # angles they run once per scale instead of once per angle and scale (the same
    # values element for element, and argmax takes the first best as before)
    n_a = len(LOCATE_ANGLES)
    rots = [cv2.getRotationMatrix2D(pc, a, 1.0) for a in LOCATE_ANGLES]
    integral = np.empty((n_a, ph + 1, pw + 1), np.float64)
    gy = np.empty((n_a, ph, pw), np.float32)
    gx = np.empty((n_a, ph, pw), np.float32)
    for i, (a, m) in enumerate(zip(LOCATE_ANGLES, rots, strict=True)):
        ev = evidence if a == 0 else cv2.warpAffine(
            evidence, m, (pw, ph), flags=cv2.INTER_LINEAR, borderValue=-EVIDENCE_TAU)
        integral[i] = cv2.integral(ev)
        # edges of the card against the mat (of the evidence, so the printed
        # outline has none): |d/dy| for top and bottom, |d/dx| for the sides,
        # smoothed across the edge so a blurred edge still scores
        gy[i] = cv2.blur(np.abs(cv2.Sobel(ev, cv2.CV_32F, 0, 1)), (1, 3))
        gx[i] = cv2.blur(np.abs(cv2.Sobel(ev, cv2.CV_32F, 1, 0)), (3, 1))
    norm = EDGE_NORM
    # running sums along rows / columns with a leading zero (np.pad is slow here)
    row_cs = np.zeros((n_a, ph, pw + 1), np.float32)
    for r in rows:
        np.cumsum(gy[:, r] / norm, axis=2, out=row_cs[:, r, 1:])
    col_cs = np.zeros((n_a, ph + 1, pw), np.float32)
    for c in cols:
        np.cumsum(gx[:, :, c] / norm, axis=1, out=col_cs[:, 1:, c])
    fits: list[tuple[float, float, float, float, float]] = []  # score, x, y, angle, scale
    for k, bw, bh in boxes:
        sums = (integral[:, bh:, bw:] - integral[:, :-bh, bw:] - integral[:, bh:, :-bw]
                + integral[:, :-bh, :-bw])
        ny, nx = sums.shape[1:]
        area = sums / (EVIDENCE_TAU * bw * bh)
        top = row_cs[:, :ny, bw:bw + nx] - row_cs[:, :ny, :nx]
        bottom = (row_cs[:, bh - 1:bh - 1 + ny, bw:bw + nx]
                  - row_cs[:, bh - 1:bh - 1 + ny, :nx])
        left = col_cs[:, bh:bh + ny, :nx] - col_cs[:, :ny, :nx]
        right = (col_cs[:, bh:bh + ny, bw - 1:bw - 1 + nx]
                 - col_cs[:, :ny, bw - 1:bw - 1 + nx])
        edges = (top + bottom) / bw + (left + right) / bh
        total = (area + EDGE_WEIGHT * edges - SCALE_PENALTY * abs(k - 1)).reshape(n_a, -1)
        for i, best in enumerate(total.argmax(axis=1).tolist()):
            y, x = divmod(best, nx)
            # centre in the rotated patch, mapped back to the patch
            cx, cy = x + bw / 2 - 0.5, y + bh / 2 - 0.5
            ox, oy = cv2.invertAffineTransform(rots[i]) @ np.array([cx, cy, 1.0])
            fits.append((float(total[i, best]), float(ox), float(oy),
                         float(LOCATE_ANGLES[i]), float(k)))
    fits.sort(reverse=True)
    found = [_to_table(slot, margin, s, coverage, f) for f in fits[:ALTERNATIVE_FITS + 1]]
    return Located(found[0].coverage, found[0].center, found[0].angle, found[0].scale,
                   tuple(found[1:]))


def slot_view(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """The slot and ``LOCATE_MARGIN_MM`` round it at ``LOCATE_PX_PER_MM``, white-balanced
    (BGR), and the same in Lab: what ``locate`` looks at."""
    patch = normalise(rectify(image, h, slot, LOCATE_PX_PER_MM, LOCATE_MARGIN_MM), gain)
    return patch, lab_image(patch)


def _bands(n: int, box: int) -> list[slice]:
    """The rows (or columns) of ``n`` where a box at least ``box`` long has its first or
    last: ``[0, n - box]`` and ``[box - 1, n)``, one slice when they meet."""
    first, last = n - box + 1, box - 1
    return [slice(0, n)] if last <= first else [slice(0, first), slice(last, n)]


def _to_table(slot: Slot, margin: float, s: float, coverage: float,
              fit: tuple[float, float, float, float, float]) -> Located:
    _, cx, cy, ang, scale = fit
    u = -(slot.size[0] / 2 + margin) + (cx + 0.5) / s
    v = -(slot.size[1] / 2 + margin) + (cy + 0.5) / s
    t = math.radians(slot.angle)
    centre = (slot.center[0] + u * math.cos(t) - v * math.sin(t),
              slot.center[1] + u * math.sin(t) + v * math.cos(t))
    return Located(coverage, centre, -ang, scale)


def _texture_ratio(patch: np.ndarray, inset: int, band: int) -> float:
    """Mean gradient inside the slot over that of the paper band around it: a pale
    card that passes for paper by its colour still shows its picture's detail."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    grad = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    inner = grad[inset:-inset, inset:-inset]
    ring = np.concatenate([grad[:band].ravel(), grad[-band:].ravel()])
    if not inner.size or not ring.size:
        return 1.0
    return float(inner.mean() / (np.median(ring) + 2.0))
