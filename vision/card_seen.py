"""Stage 3 of reading a card: is the face seen where it is read?

A face is named only where its reading regions are seen: the bonus corner, the
points corner and the cost column.  Glare that clips a region to white, a hand
or any flat thing over it, or a shadow too deep to show colour there, make the
reader abstain ("unknown"), whatever the decode would say.  WHY: under glare
or a hand the publisher's faces were answered wrongly 34-53 % of the time
(issue 12), at confidences the referee took for sure; a region that is not
seen cannot be read, so the right answer is "unsure".

Works on the rectified face before anything is lifted off it, and knows only
where things are printed (:mod:`vision.cardface`), not what.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np

from vision.locate import FACE_PX_PER_MM
from vision.pixels import histogram_percentile

#: A face more than MAX_HIDDEN flat and not light (see ``hidden_share``) is not
#: named.  WHY: a frame showed 30 % of a card below a flat brown area (the view's
#: edge) and the reader named a card from that strip.  Measured over 2737 faces of
#: the official and our hold-out and recorded scenes: every whole face 0.27 or less,
#: every face mostly hidden 0.63 or more.
MAX_HIDDEN = 0.45
FLAT_WINDOW_MM = 5.0
FLAT_STD = 4.0
FLAT_LIGHT = 190.0
#: A face with more than GLARE_FRACTION of its pixels saturated (>= SATURATED in
#: every channel) is glaring: the decode then asks a closer fit (MAX_GLARE_DISTANCE).
GLARE_FRACTION = 0.03
SATURATED = 250
#: Beyond this distance (1 - colour fit) a glaring face is not named.
MAX_GLARE_DISTANCE = 0.3
#: A face whose grey levels span less than this (2nd to 98th percentile) is washed
#: out (haze, heavy glare, a face seen through a sleeve) and is not named.  WHY:
#: washed-out colours drift to white and faded circles read as absent, which fits
#: white cards with few circles closely (harsh test: 3 of 20 named were wrong).
#: Measured: our faces in the recorded scenes span 117-200 levels, the publisher's
#: 110-230; the harsh test's washed-out faces 64-98.
MIN_CONTRAST = 100.0
#: The reading regions, (x0, y0, x1, y1) mm on the upright face: the points
#: numeral's corner, the bonus gem's corner, the cost circles' column.
REGIONS = {"points": (1.0, 1.0, 17.0, 18.0), "bonus": (43.0, 2.0, 60.0, 17.0),
           "costs": (1.0, 40.0, 14.0, 86.0)}
#: Blind share (see ``region_stats``) of a region at which it is not seen.
#: Measured on half the design faces (``tests/bench/bench_cards.py`` faces, clean
#: and degraded without glare): bonus and costs at most 0.29 and 0.37.
MAX_CLIPPED = 0.4
#: An edge (Sobel |gx| + |gy| of the grey face), and how far from one a clipped
#: pixel is "blind" (shows nothing of what is printed there).
BLIND_EDGE = 60.0
BLIND_REACH_MM = 1.5
#: The regions whose blindness stops the read.  WHY not the points corner: a blank
#: points box (level 1, no points) is edge-free white on the publisher's print,
#: so blind there says nothing; glare over it is met by MAX_GLARE_DISTANCE.
GLARE_REGIONS = ("bonus", "costs")
#: Share of a region flat and not light (see ``hidden_share``) at which
#: it is not seen (a hand, a sleeve's flat fold, any occluder).  Measured as above:
#: unoccluded bonus and costs regions at most 0.2, the points corner (a blank band,
#: dimly lit) up to 0.6; a flat occluder over them 0.8-1.
MAX_FLAT = {"points": 0.7, "bonus": 0.5, "costs": 0.5}
#: Median grey of a region below which it is in a shadow too deep to read.
MIN_REGION_GREY = 35.0


def hidden_share(grey: np.ndarray) -> float:
    """Share of a face that is flat (grey-level spread under ``FLAT_STD`` over
    ``FLAT_WINDOW_MM``) and not light: something lying on the card, or a part of
    the view where no table was drawn.  A card's face has detail everywhere but in
    its light band and pale skies."""
    return float(_flat(grey).mean())


def _flat(grey: np.ndarray) -> np.ndarray:
    """Where the face is flat and not light (``hidden_share``'s map; ``judge`` computes
    it once for the whole face and its regions)."""
    k = round(FLAT_WINDOW_MM * FACE_PX_PER_MM) | 1
    mean = cv2.blur(grey, (k, k))
    var = cv2.blur(grey * grey, (k, k)) - mean * mean
    flat: np.ndarray = (var < FLAT_STD ** 2) & (mean < FLAT_LIGHT)
    return flat


@dataclass(frozen=True)
class Seen:
    """Whether the face is seen where it is read, and how it is lit."""

    #: "" when every reading region is seen, else which region and why
    unseen: str
    #: share of the face clipped to white
    glare: float

    @property
    def ok(self) -> bool:
        return not self.unseen


def region_stats(face: np.ndarray, grey: np.ndarray | None = None,
                 flat: np.ndarray | None = None) -> dict[str, tuple[float, float, float]]:
    """Per reading region: (blind share, flat-and-not-light share, median grey).

    *Blind*: clipped to white and farther than ``BLIND_REACH_MM`` from any edge.
    WHY not the clipped share alone: the publisher's white circles and bands are
    printed white and scan (or expose) as 255 beside their outlines; glare clips
    whole areas, outlines and all.

    WHY region by region: the edges and their reach are found only in each region
    and the reach plus one pixel round it (a Sobel needs one pixel, the reach
    ``k // 2``), so every value inside the region is the whole face's, on a fifth
    of its pixels; the median grey is read off the region's histogram (the grey is
    whole numbers: the same value as ``np.median``)."""
    s = FACE_PX_PER_MM
    if grey is None:
        grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
    k = round(2 * BLIND_REACH_MM * s) | 1
    reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    pad = k // 2 + 1
    hgt, wid = grey.shape
    if flat is None:
        flat = _flat(grey)
    out = {}
    for name, (x0, y0, x1, y1) in REGIONS.items():
        r = (slice(round(y0 * s), round(y1 * s)), slice(round(x0 * s), round(x1 * s)))
        ys, xs = r[0].indices(hgt), r[1].indices(wid)
        if ys[1] <= ys[0] or xs[1] <= xs[0]:  # a face too small to hold it: numpy's NaNs
            out[name] = (math.nan, math.nan, math.nan)
            continue
        top, left = max(ys[0] - pad, 0), max(xs[0] - pad, 0)
        around = (slice(top, min(ys[1] + pad, hgt)), slice(left, min(xs[1] + pad, wid)))
        g = grey[around]
        edges = (np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1))
                 > BLIND_EDGE).astype(np.uint8)
        near_edge = cv2.dilate(edges, reach)
        inner = (slice(ys[0] - top, ys[1] - top), slice(xs[0] - left, xs[1] - left))
        clipped = cast(np.ndarray, cv2.inRange(face[r], (SATURATED,) * 3, (255, 255, 255))) & (
            1 - near_edge[inner]) * 255
        out[name] = (float((clipped > 0).mean()), float(flat[r].mean()), _median(grey[r]))
    return out


def _median(grey: np.ndarray) -> float:
    """``float(np.median(grey))`` of whole-number grey levels 0-255, from their histogram."""
    n = grey.size
    if n == 0 or grey.dtype != np.float32:
        return float(np.median(grey))
    hist = cv2.calcHist([np.ascontiguousarray(grey)], [0], None, [256], [0, 256]).ravel()
    if float(hist.sum()) != n:  # not whole levels 0-255 (never from cvtColor)
        return float(np.median(grey))
    cum = np.cumsum(hist)
    lo = float(np.argmax(cum > (n - 1) // 2))
    hi = float(np.argmax(cum > n // 2))
    # numpy: the middle value, or the mean of the two middle ones (exact here)
    return lo if n % 2 else float(np.float32((np.float32(lo) + np.float32(hi)) / np.float32(2)))


def judge_all(faces: Sequence[np.ndarray]) -> list[Seen]:
    """``judge`` of every face of a pass, in order."""
    return [judge(face) for face in faces]


def judge(face: np.ndarray) -> Seen:
    """Whether ``face`` (BGR at ``FACE_PX_PER_MM``, as cut out) is seen where it is read."""
    grey8 = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    grey = grey8.astype(np.float32)
    saturated = cv2.inRange(face, (SATURATED,) * 3, (255, 255, 255))
    glare = cv2.countNonZero(saturated) / saturated.size
    # np.percentile(grey[::2, ::2], (2, 98)), read off the sample's histogram (the
    # same values: ``pixels.histogram_percentile``)
    hist = cv2.calcHist([np.ascontiguousarray(grey8[::2, ::2])], [0], None, [256],
                        [0, 256]).reshape(1, 256)
    lo, hi = (float(histogram_percentile(hist, q)[0]) for q in (2.0, 98.0))
    if hi - lo < MIN_CONTRAST:
        return Seen("washed out", glare)
    flat_map = _flat(grey)  # hidden_share's map, reused for the regions
    if float(flat_map.mean()) > MAX_HIDDEN:
        return Seen("mostly hidden", glare)
    for name, (clip, flat, med) in region_stats(face, grey, flat_map).items():
        if clip > MAX_CLIPPED and name in GLARE_REGIONS:
            return Seen(f"{name}: glare", glare)
        if flat > MAX_FLAT[name]:
            return Seen(f"{name}: covered", glare)
        if med < MIN_REGION_GREY:
            return Seen(f"{name}: in shadow", glare)
    return Seen("", glare)
