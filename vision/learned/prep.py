"""How a rectified crop becomes a network input, shared by training and reading.

WHY one module: a network is only as good as the match between the crops it
was trained on and the crops it reads, so :mod:`vision.training` and
:mod:`vision.learned.recognizer` call the very same :func:`prepare`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Spec:
    """One network's input: the crop's size in millimetres and the net's input pixels."""

    name: str
    #: the crop (w, h) mm the reader cuts and the trainer renders (upright)
    crop_mm: tuple[float, float]
    #: the network's input (w, h) px
    input_px: tuple[int, int]


#: The networks the reader runs, by name.  Input sizes: about 0.9 px/mm, where a
#: 6 mm cost numeral is 5 px tall (the smallest a person reads is 1.3 px/mm).
SPECS = {
    "splendor_cards": Spec("splendor_cards", (63.0, 88.0), (56, 80)),
    "splendor_nobles": Spec("splendor_nobles", (60.0, 60.0), (56, 56)),
    "duel_cards": Spec("duel_cards", (53.5, 84.0), (48, 76)),
    # a 44 mm token slot and 2 mm round it at 1 px/mm: a chip's 2 mm rim is 2 px
    "splendor_chips": Spec("splendor_chips", (48.0, 48.0), (48, 48)),
    # a market card's slot and 4 mm round it (a noble's, 68 x 68 mm, is stretched to it)
    # at 0.7 px/mm: bare paper or print, not which card
    "splendor_slots": Spec("splendor_slots", (71.0, 96.0), (48, 64)),
    # a Duel board cell (23.3 mm, 28.9 mm apart) and its 25 mm chip up to 3 mm off, at
    # 1.5 px/mm: a pearl's pink rim against a white chip's grey is 2-3 px
    "duel_chips": Spec("duel_chips", (32.0, 32.0), (48, 48)),
    # a Duel deck's or reserved card's place and 4 mm round it (a scroll's, 32 x 52 mm,
    # is stretched to it), as splendor_slots: bare mat, a card's back or a scroll
    "duel_slots": Spec("duel_slots", (75.0, 100.0), (48, 64)),
}


def prepare(crop: np.ndarray, spec: Spec) -> np.ndarray:
    """``crop`` (BGR uint8, upright, covering ``spec.crop_mm``) as a float32 (3, h, w)
    input: resized by area, then centred and scaled by its own mean and spread over
    all channels.  WHY over all channels at once: a white card and a blue card differ
    in their mean colour, which a per-channel standardisation would erase; one
    mean and one spread take out only the exposure."""
    small = cv2.resize(crop, spec.input_px, interpolation=cv2.INTER_AREA).astype(np.float32)
    small -= float(small.mean())
    small /= max(float(small.std()), 4.0)
    return np.ascontiguousarray(small.transpose(2, 0, 1))


def batch(crops: list[np.ndarray], spec: Spec) -> np.ndarray:
    """The crops prepared and stacked: (n, 3, h, w) float32."""
    return np.stack([prepare(c, spec) for c in crops]) if crops else np.zeros(
        (0, 3, spec.input_px[1], spec.input_px[0]), np.float32)
