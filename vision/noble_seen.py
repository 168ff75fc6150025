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

import cv2
import numpy as np

from vision.layout import Slot
from vision.locate import EVIDENCE_TAU, LOCATE_MARGIN_MM, LOCATE_PX_PER_MM
from vision.outline import outline_ink
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
    return outline_ink(lab, slot, "three")
