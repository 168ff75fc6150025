"""Pixel helpers shared by the slot readers: white balance, Lab colour distances,
and the mat's own colours (paper and printed ink) in Lab.

Distances weigh lightness half as much as colour, because light on a table
varies far more in brightness than in hue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import cv2
import numpy as np

from vision.colours import to_lab
from vision.mats import INK, PAPER

#: Lab distance beyond which a pixel is "not paper".
PAPER_DIST = 22.0
#: How much darker than paper a place may be and still count as paper in shade.
SHADE = 0.35


_LEVELS = np.arange(256, dtype=np.float32)[:, None]


def normalise(patch: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """The patch white-balanced by a per-channel (B, G, R) gain, saturating at 255.

    Through a lookup table (one row per grey level, the same arithmetic as
    multiplying every pixel): several times faster on a card face."""
    lut = np.clip(_LEVELS * gain, 0, 255).astype(np.uint8).reshape(256, 1, 3)
    return cv2.LUT(patch, lut)


def all_at_least(bgr: np.ndarray, level: float) -> np.ndarray:
    """Where every channel of ``bgr`` (H × W × 3 uint8) is at least ``level``: the
    same boolean mask as ``np.all(bgr >= level, axis=2)``.

    WHY ``cv2.inRange``: numpy's reduction along a 3-wide last axis walks the
    pixels one by one (about 2 ms on a card face, a tenth of its whole read);
    inRange does the same comparison in one vectorised pass (tested equal)."""
    if (bgr.dtype != np.uint8 or bgr.ndim != 3 or bgr.shape[2] != 3
            or not 0 <= level <= 255 or level != int(level)):  # inRange rounds a fraction
        out: np.ndarray = np.all(bgr >= level, axis=2)
        return out
    lo = int(level)
    mask: np.ndarray = cv2.inRange(bgr, (lo, lo, lo), (255, 255, 255)) > 0
    return mask


def lab_image(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


# WHY the distances go through OpenCV's per-element arithmetic: numpy spends
# most of the time on strided channel views and temporaries; cv2.subtract,
# split, multiply and sqrt do the same float32 operations in the same order
# (``(0.5 dL)^2`` as ``0.25 dL^2``: scaling by a power of two is exact), so the
# result is bit for bit numpy's formula (tested), in about 45% of the time.  A
# card's locate, a tableau column and a deck compute several per slot.
def _squares(lab: np.ndarray, ref: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """(dL, dL^2, da^2, db^2) of ``lab`` (H × W × 3 float32) from ``ref``; None for
    other shapes (the numpy formula then serves)."""
    if lab.ndim != 3 or lab.shape[2] != 3 or lab.dtype != np.float32 or ref.size != 3:
        return None
    # a 4-tuple is OpenCV's scalar, which its stubs do not admit
    d = cv2.subtract(lab, (float(ref[0]), float(ref[1]), float(ref[2]), 0.0))  # type: ignore[call-overload]
    dl, da, db = cv2.split(d)
    return dl, cv2.multiply(dl, dl), cv2.multiply(da, da), cv2.multiply(db, db)


def _combine(l2: np.ndarray, a2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    return cv2.sqrt(cv2.add(cv2.add(cv2.multiply(l2, 0.25), a2), b2))


def lab_distance(lab: np.ndarray, ref: np.ndarray | tuple[float, float, float]) -> np.ndarray:
    r = np.asarray(ref, np.float32)
    sq = _squares(lab, r)
    if sq is not None:
        return _combine(*sq[1:])
    d = lab - r
    return cast(np.ndarray, np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2))


def _shade_forgiven(dl: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Where a lightness difference ``dl`` is forgiven as shade."""
    out: np.ndarray = (dl < 0) & (dl > -SHADE * ref[0])
    return out


def shaded_distance(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Lab distance that forgives a surface for being in shade (up to ``SHADE`` darker)."""
    r = np.asarray(ref, np.float32)
    return forgiving_distance(lab, r, lambda dl: _shade_forgiven(dl, r))


def forgiving_distance(lab: np.ndarray, ref: np.ndarray,
                       forgiven: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``lab_distance`` with the lightness difference taken as 0 where ``forgiven(dL)``."""
    r = np.asarray(ref, np.float32)
    sq = _squares(lab, r)
    if sq is None:
        d = lab - r
        dl = np.where(forgiven(d[..., 0]), 0.0, d[..., 0])
        return np.sqrt((0.5 * dl) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    l2 = sq[1].copy()
    l2[forgiven(sq[0])] = 0.0
    return _combine(l2, sq[2], sq[3])


def paper_distances(lab: np.ndarray, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``lab_distance`` and ``shaded_distance`` to ``ref`` together (sharing the work)."""
    r = np.asarray(ref, np.float32)
    sq = _squares(lab, r)
    if sq is None:
        return lab_distance(lab, r), shaded_distance(lab, r)
    dl, l2, a2, b2 = sq
    plain = _combine(l2, a2, b2)
    l2 = l2.copy()
    l2[_shade_forgiven(dl, r)] = 0.0
    return plain, _combine(l2, a2, b2)


PAPER_LAB = to_lab(PAPER)[0]
INK_LAB = to_lab(INK)[0]


# -- percentiles of 8-bit values from their histograms -------------------------------
# WHY: a face's white reference is a percentile of ~30 000 pixels per channel;
# ``np.percentile`` selects it by partitioning a copy of the unclipped pixels (picked
# out by a boolean index of a strided view), half a millisecond a face.  An 8-bit
# channel has 256 levels, so its order statistics are read off a histogram
# (``cv2.calcHist``, one pass) and interpolated with numpy's own arithmetic
# ("linear" method): the same float64 values bit for bit (tested against
# ``np.percentile`` on random data).
def histogram_percentile(hist: np.ndarray, q: float) -> np.ndarray:
    """``np.percentile(values, q)`` (q in (0, 100), the "linear" method) of the values a
    256-bin histogram per channel counts (``hist``: channels × 256, equal totals), as
    float64 per channel.  Any count of values works; no value at all is an error."""
    counts = np.asarray(hist, np.float64).reshape(-1, 256)
    n = round(float(counts[0].sum()))
    if n < 1 or not 0.0 < q < 100.0:
        raise ValueError("histogram_percentile needs values and 0 < q < 100")
    # numpy: quantile = q / 100, virtual index = (n - 1) * quantile, its floor and the
    # next index (both the last when it reaches the end), gamma = the fraction
    virtual = (n - 1) * np.true_divide(q, 100)
    below = int(np.floor(virtual))
    if virtual >= n - 1:
        below, above, gamma = n - 1, n - 1, float(virtual - (-1))
    else:
        above, gamma = below + 1, float(virtual - below)
    cum = np.cumsum(counts, axis=1)
    # the value at sorted index i: the first level whose cumulative count exceeds i
    a = np.argmax(cum > below, axis=1).astype(np.uint8)
    b = np.argmax(cum > above, axis=1).astype(np.uint8)
    # numpy's _lerp, step for step (b >= a: no unsigned wrap-around)
    diff = b - a
    out = np.add(a, diff * gamma)
    np.subtract(b, diff * (1 - gamma), out=out, where=gamma >= 0.5, casting="unsafe",
                dtype=float)
    return cast(np.ndarray, out)


def channel_percentile(samples: np.ndarray, keep: np.ndarray, q: float
                       ) -> tuple[np.ndarray | None, int]:
    """(``np.percentile(samples[keep], q, axis=0)`` for ``samples`` N × 3 uint8 and
    ``keep`` an N uint8 mask (non-zero: kept), or None when nothing is kept; the
    number kept)."""
    img = np.ascontiguousarray(samples).reshape(-1, 1, 3)
    mask = np.ascontiguousarray(keep).reshape(-1, 1)
    n = cv2.countNonZero(mask)
    if n == 0:
        return None, 0
    hist = np.stack([cv2.calcHist([img], [c], mask, [256], [0, 256]).ravel()
                     for c in range(3)])
    return histogram_percentile(hist, q), n
