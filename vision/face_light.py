"""The light on a card face: glare to take off before reading it, and how much of
it is hidden under something flat.

Both work on the face image cut out at ``FACE_PX_PER_MM`` and know nothing of
what is printed where; the card reader uses them before and while it measures
the face (:mod:`vision.card_reader`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.locate import FACE_PX_PER_MM

#: A face more than MAX_HIDDEN flat and not light (see ``hidden_share``) is not
#: named.  WHY: a frame showed 30 % of a card below a flat brown area (the view's
#: edge) and the reader named a card from that strip.  Measured over 2737 faces of
#: the official and our hold-out and recorded scenes: every whole face 0.27 or less,
#: every face mostly hidden 0.63 or more.
MAX_HIDDEN = 0.45
FLAT_WINDOW_MM = 5.0
FLAT_STD = 4.0
FLAT_LIGHT = 190.0
#: Glare lifting: window (mm) in which something dark is expected, share of the
#: measured added light taken off, the least transmission kept, and the darkest
#: level taken for the print itself (a pale picture, JPEG) rather than for glare.
#: Measured (official scenes / official hold-out frames seed 7 / recorded / our
#: hold-out): none 340/0/7, 582/2/15, 346/0/1, 590/0/9; window 10, omega 0.8,
#: base 70: 340/0/7, 584/0/15, 347/0/0, 589/0/10; 10, 0.9, 50: 341/0/6, 586/0/13,
#: 346/0/1, 590/0/9; 6, 0.9, 50 (taken): 341/0/6, 587/0/12, 346/0/1, 590/0/9;
#: 10, 1.0, 35: 342/0/5 but 2 wrong in the hold-out.
GLARE_WINDOW_MM = 6.0
GLARE_OMEGA = 0.9
GLARE_T_FLOOR = 0.4
GLARE_DARK_BASE = 50.0


def lift_glare(face: np.ndarray) -> np.ndarray:
    """The face with additive glare taken off (the dark channel prior of He et al.).

    WHY: a hot spot adds white light, which lifts every pixel under it - the gem and
    the circles wash towards white and a thin points numeral's outline fades.  Any
    ``GLARE_WINDOW_MM`` of a card holds something dark (a rim, a numeral's outline,
    the picture), so the darkest channel there measures the added light; outside
    glare it is near 0 and the face is left as it was."""
    k = round(GLARE_WINDOW_MM * FACE_PX_PER_MM) | 1
    b, g, r = cv2.split(face)  # the darkest channel: cv2.min is ~40x numpy's min(axis=2)
    dark = cv2.erode(cv2.min(cv2.min(b, g), r),
                     cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    dark = np.maximum(cv2.blur(dark.astype(np.float32), (k, k)) - GLARE_DARK_BASE, 0.0)
    t = np.maximum(1.0 - GLARE_OMEGA * dark / (255.0 - GLARE_DARK_BASE), GLARE_T_FLOOR)[:, :, None]
    out = (face.astype(np.float32) - 255.0) / t + 255.0
    return np.clip(out, 0, 255).astype(np.uint8)


def hidden_share(grey: np.ndarray) -> float:
    """Share of a face that is flat (grey-level spread under ``FLAT_STD`` over
    ``FLAT_WINDOW_MM``) and not light: something lying on the card, or a part of
    the view where no table was drawn.  A card's face has detail everywhere but in
    its light band and pale skies."""
    k = round(FLAT_WINDOW_MM * FACE_PX_PER_MM) | 1
    mean = cv2.blur(grey, (k, k))
    var = cv2.blur(grey * grey, (k, k)) - mean * mean
    return float(((var < FLAT_STD ** 2) & (mean < FLAT_LIGHT)).mean())
