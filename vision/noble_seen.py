"""Whether a noble slot is seen where the markers put it, under hard light.

The noble reader names a tile only where mat surrounds its slot and the slot's
printed outline lies where the markers put it (see ``noble_reader``): both
guard against a misplaced slot, whose tile would be read with its squares in
the wrong places.  Under hard light both failed on slots a person reads at a
glance (design world frames, hard): sensor noise pushed single pixels of the
mat beyond ``EVIDENCE_TAU`` of paper (a border of 0.40-0.54 round tiles with
their outline whole), and a hand or a sleeve resting over one side of the
outline hid that side, while the tile's squares were in plain view.

So here the border is judged on the view with the noise taken out (a median,
which keeps the wood or a neighbour's edge it must see), and the outline by
its three clearest sides: one side may be hidden, but the slot is still
placed both across and along (a slot a few mm off, or scaled, misses both
sides of one axis, as a missing outline misses all four).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.layout import Slot
from vision.locate import EVIDENCE_TAU, LOCATE_MARGIN_MM, LOCATE_PX_PER_MM
from vision.outline import CHECK_SCALES, CHECK_SHIFT_MM, OUTLINE_PX_PER_MM, ink
from vision.pixels import INK_LAB, PAPER_LAB, SHADE, forgiving_distance, lab_distance

#: Side (px at ``LOCATE_PX_PER_MM``, 2.5 mm) of the median the border is judged after.
#: WHY: the band is 5 mm wide and wood or a neighbouring tile covers it in patches
#: of centimetres, which a 2.5 mm median keeps; single noisy pixels it removes.
#: Design world frames, hard, seeds 1000-1005, both lenses (/tmp/nobles/gates.py):
#: the borders of held slots with a whole outline rose 0.54 -> 0.68, 0.71 -> 0.86;
#: those of slots under a hand or half off the mat did not move (0.00-0.64).
BORDER_MEDIAN_PX = 5


def mat_distance(lab: np.ndarray) -> np.ndarray:
    """Lab distance to the mat (paper or ink) that forgives paper for being in shade
    *or* brighter than nominal (light on a white sheet often clips)."""
    paper = forgiving_distance(lab, PAPER_LAB, lambda dl: dl > -SHADE * PAPER_LAB[0])
    out: np.ndarray = np.minimum(paper, lab_distance(lab, INK_LAB))
    return out


def border_fraction(lab: np.ndarray, smooth: bool = False) -> float:
    """The share of the band 1-6 mm outside a slot that looks like the mat, in
    ``locate.slot_view``'s Lab view of the slot (see ``noble_reader.border_mat_fraction``);
    with ``smooth``, after a ``BORDER_MEDIAN_PX`` median (the noble reader's gate)."""
    if smooth:
        lab = cv2.medianBlur(np.ascontiguousarray(lab, np.float32), BORDER_MEDIAN_PX)
    mat = mat_distance(lab)
    b = round((LOCATE_MARGIN_MM - 1) * LOCATE_PX_PER_MM)
    band = np.ones(mat.shape, bool)
    band[b:-b, b:-b] = False
    return float((mat[band] < EVIDENCE_TAU).mean())


def outline_three_sides(lab: np.ndarray, slot: Slot) -> float:
    """How clearly three sides of the slot's outline are where the homography puts it:
    over the rectangles within ``outline.CHECK_SHIFT_MM`` at ``outline.CHECK_SCALES``
    of the slot's size, the best share of ink on the third clearest side, in
    ``locate.slot_view``'s Lab view (``outline.outline_ink`` takes the least side)."""
    s = OUTLINE_PX_PER_MM
    inked = ink(lab)
    ph, pw = inked.shape
    row_cs = np.zeros((ph, pw + 1), inked.dtype)
    np.cumsum(inked, axis=1, out=row_cs[:, 1:])
    col_cs = np.zeros((ph + 1, pw), inked.dtype)
    np.cumsum(inked, axis=0, out=col_cs[1:])
    best = 0.0
    for sx in CHECK_SCALES:
        for sy in CHECK_SCALES:
            bw, bh = round(slot.size[0] * sx * s), round(slot.size[1] * sy * s)
            x0 = max(0, math.floor((pw - bw) / 2 - CHECK_SHIFT_MM * s))
            x1 = min(pw - bw, math.ceil((pw - bw) / 2 + CHECK_SHIFT_MM * s))
            y0 = max(0, math.floor((ph - bh) / 2 - CHECK_SHIFT_MM * s))
            y1 = min(ph - bh, math.ceil((ph - bh) / 2 + CHECK_SHIFT_MM * s))
            if x1 < x0 or y1 < y0:
                continue
            xs, ys = slice(x0, x1 + 1), slice(y0, y1 + 1)
            xe, ye = slice(x0 + bw, x1 + bw + 1), slice(y0 + bh, y1 + bh + 1)
            sides = np.stack([
                (row_cs[ys, xe] - row_cs[ys, xs]) / bw,
                (row_cs[y0 + bh - 1:y1 + bh, xe] - row_cs[y0 + bh - 1:y1 + bh, xs]) / bw,
                (col_cs[ye, xs] - col_cs[ys, xs]) / bh,
                (col_cs[ye, x0 + bw - 1:x1 + bw] - col_cs[ys, x0 + bw - 1:x1 + bw]) / bh,
            ])
            third = np.sort(sides, axis=0)[1]  # the least of the three clearest
            best = max(best, float(third.max()))
    return best
