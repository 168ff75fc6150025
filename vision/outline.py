"""A slot's printed outline on the mat: where it is seen, and how clearly.

The mats print a thin grey outline round every slot (``vision.mats``).  It
says two things no colour test can: where the slot really is (the noble
reader reads a tile only where its outline shows the markers put its slot right:
``noble_reader.outline_seen``), and that the slot is *seen*: an empty slot
shows its outline whole, while a hand, a sleeve or a deep shadow lying over
the slot hides it, however much the covered slot looks like paper in shade.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.layout import Slot
from vision.locate import LOCATE_PX_PER_MM

#: Resolution (px/mm) of the views the outline is looked for in: ``locate.slot_view``'s.
OUTLINE_PX_PER_MM = LOCATE_PX_PER_MM
#: The outline is first looked for where the markers put it, this close.
CHECK_SCALES = (0.95, 1.0, 1.05)
CHECK_SHIFT_MM = 3.0
#: What counts as printed ink: grey, and this much darker than the lightest place
#: within INK_CONTEXT_MM.
INK_DARKER = 30.0
INK_CHROMA = 18.0
INK_CONTEXT_MM = 4.0


def ink(lab: np.ndarray) -> np.ndarray:
    """Printed lines: grey, and darker than the paper around them by ``INK_DARKER``
    (relative, so a line washed out by glare still counts)."""
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    k = round(INK_CONTEXT_MM * OUTLINE_PX_PER_MM) | 1
    around = cv2.dilate(lab[..., 0], np.ones((k, k), np.uint8))  # the lightest nearby
    dark = (lab[..., 0] < around - INK_DARKER) & (chroma < INK_CHROMA)
    return cv2.dilate(dark.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(np.float32)


def outlines(lab: np.ndarray, slot: Slot, scales_x: tuple[float, ...],
             scales_y: tuple[float, ...], shift_mm: tuple[float, float],
             measure: str = "least") -> list[tuple[float, float, float, float, float]]:
    """For each size (``scales_x`` × ``scales_y`` of the slot's), the rectangle within
    ``shift_mm`` of the centre of ``lab`` (the slot rectified with a margin, at
    ``OUTLINE_PX_PER_MM``) whose sides are most ink: (its ``measure`` of the sides'
    shares of ink, scale x, scale y, shift x, shift y in mm).  ``measure``: "least"
    (the least inked side), "mean" (the four sides' mean) or "three" (the least of
    the three clearest sides)."""
    s = OUTLINE_PX_PER_MM
    inked = ink(lab)
    ph, pw = inked.shape
    # running sums with a leading zero (np.pad is slow here)
    row_cs = np.zeros((ph, pw + 1), inked.dtype)
    np.cumsum(inked, axis=1, out=row_cs[:, 1:])
    col_cs = np.zeros((ph + 1, pw), inked.dtype)
    np.cumsum(inked, axis=0, out=col_cs[1:])
    found: list[tuple[float, float, float, float, float]] = []
    for sx in scales_x:
        for sy in scales_y:
            bw, bh = round(slot.size[0] * sx * s), round(slot.size[1] * sy * s)
            # top-left corners whose rectangle lies within the shifts and the view
            x0 = max(0, math.floor((pw - bw) / 2 - shift_mm[0] * s))
            x1 = min(pw - bw, math.ceil((pw - bw) / 2 + shift_mm[0] * s))
            y0 = max(0, math.floor((ph - bh) / 2 - shift_mm[1] * s))
            y1 = min(ph - bh, math.ceil((ph - bh) / 2 + shift_mm[1] * s))
            if x1 < x0 or y1 < y0:
                continue
            xs, ys = slice(x0, x1 + 1), slice(y0, y1 + 1)
            xe, ye = slice(x0 + bw, x1 + bw + 1), slice(y0 + bh, y1 + bh + 1)
            top = (row_cs[ys, xe] - row_cs[ys, xs]) / bw
            bottom = (row_cs[y0 + bh - 1:y1 + bh, xe] - row_cs[y0 + bh - 1:y1 + bh, xs]) / bw
            left = (col_cs[ye, xs] - col_cs[ys, xs]) / bh
            right = (col_cs[ye, x0 + bw - 1:x1 + bw] - col_cs[ys, x0 + bw - 1:x1 + bw]) / bh
            if measure == "least":
                side = np.minimum(np.minimum(top, bottom), np.minimum(left, right))
            elif measure == "mean":
                side = (top + bottom + left + right) / 4
            else:
                side = np.sort(np.stack([top, bottom, left, right]), axis=0)[1]
            y, x = np.unravel_index(int(np.argmax(side)), side.shape)
            found.append((float(side[y, x]), sx, sy, (x0 + x + bw / 2 - pw / 2) / s,
                          (y0 + y + bh / 2 - ph / 2) / s))
    return found


def outline_ink(lab: np.ndarray, slot: Slot, measure: str = "least") -> float:
    """How clearly the slot's outline is where the homography puts it (within
    ``CHECK_SHIFT_MM``, at ``CHECK_SCALES`` of its size): the ``measure`` of the best
    such rectangle's sides' shares of ink (see :func:`outlines`), in
    ``locate.slot_view``'s Lab view."""
    found = outlines(lab, slot, CHECK_SCALES, CHECK_SCALES, (CHECK_SHIFT_MM, CHECK_SHIFT_MM),
                     measure)
    return max(f[0] for f in found)
