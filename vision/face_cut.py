"""Stage 2 of reading a card: its face cut out of the frame, upright.

One warp of the frame (``vision.calibrate.rectify``) per place the card is read
at, to the face at ``FACE_PX_PER_MM``, white-balanced by the markers' gain but
no brighter than the face's own whites allow (:func:`cut`, all of a pass's
places at once).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.calibrate import rectify
from vision.layout import Slot
from vision.locate import FACE_PX_PER_MM, Located
from vision.pixels import channel_percentile, normalise

#: The brightest the face's own whites may be brought by the markers' gain: a face
#: whose 99th-percentile unclipped pixel (``FACE_WHITE_PERCENTILE``, its white band
#: and white circles) would exceed this is brought down to it.  WHY: the gain
#: makes the markers' white squares white, but a card's white is brighter than
#: theirs under some lamps (a glossy card, a lamp nearer the market than the
#: markers): on the design world frames (``vision world --split design --seed
#: 1000``, centre, wide) the gain put the faces' whites at a median 372, p95 499,
#: so half a face clipped to 255 and a red or green gem read as white (3r1 read
#: 3w3 at 0.98).  The committed scenes' faces peak at median 245, p75 249.
FACE_WHITE_PEAK = 250.0
FACE_WHITE_PERCENTILE = 99.0
#: The most the face's whites may lower the markers' gain (a factor): no unclipped
#: design face needed more (233 faces of design world frames, seeds 3000-3002, all
#: difficulties and both lenses: whites peaked at most 528 under the gain, 250 / 528;
#: ``tests/bench/face_whites.py``).  WHY a floor: the halo round a glare spot is
#: bright but not clipped, passed for the face's white and darkened the whole face
#: to a third (a white circle then read black: 2w6 read 2k6 at 0.987).
FACE_GAIN_FLOOR = 0.47
#: A pixel at least this in every channel as captured is clipped by the camera
#: (glare) and stays clipped whatever the gain (the card reader judges glare by it).
CAPTURE_CLIPPED = 250
#: The most the face's whites may raise the markers' gain (a factor).  WHY: a lamp's
#: fall-off or a shadow dims a card below the markers' light; its white read grey and
#: a white gem black (3w2 read 3k3).  Clean design faces' whites under the gain
#: reached as low as 191 on hard frames (250 / 191 = 1.31), at least 248 on easy and
#: medium ones (design world frames, seeds 3000-3001, both lenses).
FACE_GAIN_CEIL = 1.3


def face_gain(face: np.ndarray, gain: np.ndarray,
              percentile: float = FACE_WHITE_PERCENTILE) -> np.ndarray:
    """The markers' ``gain`` (B, G, R), lowered as a whole so that the face's own
    whites (``percentile`` of its pixels the camera did not clip) stay at or below
    ``FACE_WHITE_PEAK``: the card's white is a local white reference."""
    # every third pixel, as a contiguous sample; the percentile from its histograms
    # (``channel_percentile``: the same values as ``np.percentile`` of the unclipped
    # pixels, in a fifth of the time)
    px = np.ascontiguousarray(face.reshape(-1, 3)[::3]).reshape(-1, 1, 3)
    keep = cv2.bitwise_not(cv2.inRange(px, (CAPTURE_CLIPPED,) * 3, (255, 255, 255)))
    white, n = channel_percentile(px, keep, percentile)
    if white is None or n < 100:
        return gain
    peak = float(np.max(white * gain))
    return gain * min(FACE_GAIN_CEIL, max(FACE_GAIN_FLOOR, FACE_WHITE_PEAK / max(peak, 1.0)))


def face_image(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
               size_mm: tuple[float, float], where: Located) -> np.ndarray:
    """The face at ``where``, upright at ``FACE_PX_PER_MM``, white-balanced by the
    markers' gain but no brighter than its own whites allow (``face_gain``)."""
    k = where.scale
    raw = rectify(image, h, slot, FACE_PX_PER_MM / k, size_mm=(size_mm[0] * k, size_mm[1] * k),
                  center=where.center, angle=slot.angle + where.angle)
    out = normalise(raw, face_gain(raw, gain))
    # clipped as captured stays white: ``out[all_at_least(raw, CAPTURE_CLIPPED)] = 255``
    # as one masked OR (the same pixels, half the time)
    clipped = cv2.inRange(raw, (CAPTURE_CLIPPED,) * 3, (255, 255, 255))
    cv2.bitwise_or(out, (255, 255, 255, 0), dst=out, mask=clipped)  # type: ignore[call-overload]
    return out


def cut(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
        size_mm: tuple[float, float], places: Sequence[Located]) -> list[np.ndarray]:
    """``face_image`` at every place of ``places``, in order."""
    return [face_image(image, h, slot, gain, size_mm, where) for where in places]
