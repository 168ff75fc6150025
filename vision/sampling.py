"""Sampling colours on a face image: the median colour of a ring or square frame
around a point, moved a little to the most uniform place, and a colour similarity.

Shared by the card and noble readers (both at ``FACE_PX_PER_MM``).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from vision.locate import FACE_PX_PER_MM

#: Colour similarity width (Lab units).
COLOUR_SIGMA = 28.0


def similarity(dist: float) -> float:
    """1 for the same colour, falling smoothly to 0 a few ``COLOUR_SIGMA`` away."""
    return math.exp(-((dist / COLOUR_SIGMA) ** 2))


@lru_cache(maxsize=64)
def _ring_offsets(r0: float, r1: float, square: bool) -> tuple[np.ndarray, np.ndarray]:
    n = math.ceil(r1) + 1
    yy, xx = np.mgrid[-n:n + 1, -n:n + 1]
    d = np.maximum(abs(xx), abs(yy)) if square else np.hypot(xx, yy)
    sel = (d >= r0) & (d <= r1)
    return yy[sel], xx[sel]


@lru_cache(maxsize=64)
def _searched_offsets(r0: float, r1: float, square: bool, search_mm: float
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                 tuple[int, int, int, int]]:
    """(place dy, place dx, pixel dy, pixel dx, their reach): the ring's pixels at
    every searched place (places × pixels), the places' own offsets, and the
    least and greatest pixel dy and dx."""
    s = FACE_PX_PER_MM
    dy, dx = _ring_offsets(r0, r1, square)
    steps = np.round(np.linspace(-search_mm, search_mm, 5) * s).astype(int) if search_mm \
        else np.zeros(1, int)
    oy, ox = (a.ravel() for a in np.meshgrid(steps, steps, indexing="ij"))
    ry, rx = oy[:, None] + dy[None, :], ox[:, None] + dx[None, :]
    return oy, ox, ry, rx, (int(ry.min()), int(ry.max()), int(rx.min()), int(rx.max()))


def ring_colour(lab: np.ndarray, center_mm: tuple[float, float], r0_mm: float, r1_mm: float,
                square: bool = False, search_mm: float = 0.0
                ) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Median Lab, spread and centre of the ring r0..r1 (mm) around a point of a face image.

    With ``search_mm`` the ring is moved around the point (a 5×5 grid) and the
    most uniform place wins: a card found a little off still shows its circles.
    """
    s = FACE_PX_PER_MM
    oy, ox, ry, rx, (y0, y1, x0, x1) = _searched_offsets(r0_mm * s, r1_mm * s, square,
                                                         search_mm)
    cy, cx = round(center_mm[1] * s), round(center_mm[0] * s)
    hgt, wid = lab.shape[:2]
    y, x = cy + ry, cx + rx
    # WHY ``np.take`` of one flat index, clipped only when the ring leaves the face:
    # the same pixels as ``lab[clip(y), clip(x)]`` in a tenth of the time (the gem
    # is read on every face cut out)
    if cy + y0 < 0 or cx + x0 < 0 or cy + y1 >= hgt or cx + x1 >= wid:
        y, x = np.clip(y, 0, hgt - 1), np.clip(x, 0, wid - 1)
    px = np.take(lab.reshape(-1, lab.shape[2]), y * wid + x, axis=0)  # (offsets, pixels, 3)
    var = 0.25 * px[:, :, 0].var(1) + px[:, :, 1].var(1) + px[:, :, 2].var(1)
    best = int(np.argmin(var))
    ring = px[best]
    med = np.median(ring, axis=0)
    mad = 1.48 * np.median(np.abs(ring - med), axis=0)
    spread = float(np.sqrt(0.25 * mad[0] ** 2 + mad[1] ** 2 + mad[2] ** 2))
    return med, spread, (center_mm[0] + ox[best] / s, center_mm[1] + oy[best] / s)
