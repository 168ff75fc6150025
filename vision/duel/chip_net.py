"""Duel chips: what the Duel chips network (``duel_chips``) says a token place holds.

A board cell or a player's token place is cut square round its centre
(:func:`crop`) and named by the network: ``empty``, one of the seven kinds
(the five gems, pearl ``p``, gold ``y``), or ``hidden`` (glare, a hand, a
shadow: nothing a person could read).  It was trained on places cut by
:func:`crop` from rendered Duel design tables (``vision/training/duel_crops.py``:
the digital sprites' chips and board, a quarter drawn with our own chips, both
lenses, hands, glare, both framings) and its temperature was fitted on design
calibration tables (``vision/learned/params.toml``), so its probability is the
answer's confidence.  A place's reading (:func:`reading`):

* ``hidden``: unsure, at the chance it is not hidden (``1 - p``);
* a best class below :data:`NAMED_MIN`: unsure, at that probability;
* otherwise the kind's letter, or ``""`` (empty), at the probability.

WHY a network (issue 38): the hand-written reader it replaces measured three
colours in rings round a found edge and settled ties by some forty rules
("a veiled green chip whose gem fades to -13 is still green"), 1 450 lines and
79 tuned constants; the network reads the same crops from data.

Which answer is sure is the board cells' thresholds of :mod:`vision.duel.confidence`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.calibrate import rectify
from vision.face_cut import face_gain
from vision.layout import Slot
from vision.learned.prep import SPECS
from vision.learned.recognizer import Guess, recognizer
from vision.pixels import normalise

NAME = "duel_chips"
#: The network's answers, in output order: an empty place, a kind's letter, or a place
#: it cannot see.
EMPTY, HIDDEN = "empty", "hidden"
CLASSES = (EMPTY, "w", "u", "g", "r", "k", "p", "y", HIDDEN)
#: The crop is cut at this resolution (px/mm) and reduced by area to the network's input.
CUT_PX_PER_MM = 2.0
#: Below this the network's best answer is given as unsure (the reading's own floor,
#: as the Splendor chips' :data:`vision.chip_net.NAMED_MIN`).
NAMED_MIN = 0.5


def crop(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> np.ndarray:
    """The place and the margin of :data:`SPECS`'s crop round it, upright and
    white-balanced by ``gain``, lowered where the crop's own whites would clip
    (:func:`vision.face_cut.face_gain`, as the Splendor chips' crop)."""
    w_mm = SPECS[NAME].crop_mm[0]
    raw = rectify(image, h, slot, CUT_PX_PER_MM, (w_mm - slot.size[0]) / 2)
    return normalise(raw, face_gain(raw, gain))


def reading(net: Guess) -> tuple[str | None, float, str]:
    """(value, confidence, why) of a place from the network's guess ``net``: value a
    kind's letter, ``""`` for empty, None when unsure (see the module doc)."""
    if net.best == HIDDEN:
        return None, 1 - net.p, "hidden (glare, a hand, a shadow)"
    if net.p < NAMED_MIN:
        return None, net.p, f"unsure ({net.best} {net.p:.2f}, {net.second} {net.p_second:.2f})"
    return ("" if net.best == EMPTY else net.best), net.p, ""


def read_places(crops: Sequence[np.ndarray], name: str = NAME
                ) -> list[tuple[str | None, float, str]]:
    """The readings of token places' crops (:func:`crop`), all in one batch; or of
    the crops of network ``name`` whose classes share this one's ``empty`` and
    ``hidden`` (:mod:`vision.duel.slot_net`: ``present`` for a kind's letter)."""
    if not crops:
        return []
    rec = recognizer(name)
    logits = rec.logits(list(crops))
    return [reading(rec.guess_from(logits[k:k + 1])) for k in range(len(crops))]
