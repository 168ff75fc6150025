"""Token slots: what the chips network (``splendor_chips``) says each one holds.

The network names a slot's crop ``empty``, one of the six chip colours, or
``hidden`` (glare, a hand, as a person would judge it); it was trained on
token slots cut by :func:`crop` from rendered design tables, hands and glare
included, and its temperature was fitted on design calibration frames
(``vision/learned/params.toml``), so its probability is the answer's
confidence.  A slot's reading (:func:`reading`):

* ``hidden``: unknown, at the chance it is not hidden (``1 - p``);
* a best class below :data:`NAMED_MIN`: unknown, at that probability;
* otherwise ``empty``, or ``token`` with the colour, at the probability.

WHY the network alone (issue 38): on the design frames 1000-1002 (36 frames) the
hand-written chip reader it used to be joined with read 98.07 % of the chips,
the network 99.11 % and the two joined 99.11 %, none wrong in any; the
reader added nothing but 600 lines and 80 tuned constants.

Which answer is sure is the token thresholds of :mod:`vision.confidence`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from vision.calibrate import rectify
from vision.face_cut import face_gain
from vision.layout import Slot
from vision.learned.prep import SPECS
from vision.learned.recognizer import Guess, recognizer
from vision.observation import TokenSlotReading
from vision.pixels import normalise

NAME = "splendor_chips"
#: The network's answers: an empty slot, a chip's colour letter, or a slot it cannot see.
EMPTY, HIDDEN = "empty", "hidden"
#: The crop is cut at this resolution (px/mm) and reduced by area to the network's
#: input: an area average, not a point sample, of a frame seen at ~1 px/mm.
CUT_PX_PER_MM = 2.0
#: Below this the network's best answer is given as unknown (the reading's own floor).
NAMED_MIN = 0.5


def crop(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> np.ndarray:
    """The token slot and the margin of :data:`SPECS`'s crop round it, upright and
    white-balanced by the frame's ``gain``, lowered where the crop's own whites would
    clip (:func:`vision.face_cut.face_gain`, as a card's face).  WHY: under a lamp
    brighter there than at the markers, the markers' gain alone washed a chip the
    camera saw plainly to white, and the network called it hidden (design frames
    24000-24007, 4 players: 5 of 5 readable chips it missed)."""
    w_mm = SPECS[NAME].crop_mm[0]
    raw = rectify(image, h, slot, CUT_PX_PER_MM, (w_mm - slot.size[0]) / 2)
    return normalise(raw, face_gain(raw, gain))


def guess(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> Guess:
    """The network's answer for one token slot."""
    return recognizer(NAME).guess([crop(image, h, slot, gain)])


def reading(slot: Slot, net: Guess) -> TokenSlotReading:
    """The token slot's reading from the network's guess ``net`` (see the module doc)."""
    if net.best == HIDDEN:
        return TokenSlotReading(slot.id, slot.zone, "unknown", None, 1 - net.p)
    if net.p < NAMED_MIN:
        return TokenSlotReading(slot.id, slot.zone, "unknown", None, net.p)
    if net.best == EMPTY:
        return TokenSlotReading(slot.id, slot.zone, "empty", None, net.p)
    return TokenSlotReading(slot.id, slot.zone, "token", net.best, net.p)


class Job(Protocol):
    """A slot's job (:class:`vision.slot_jobs.SlotJob`: slot_jobs calls this module, so
    it is named by its shape, not imported)."""

    @property
    def slot(self) -> Slot: ...
    @property
    def crop(self) -> np.ndarray: ...
    @property
    def homography(self) -> np.ndarray: ...
    @property
    def gain(self) -> np.ndarray: ...


def read_tokens(jobs: Sequence[Job]) -> list[TokenSlotReading]:
    """The readings of token slots' ``jobs``, all in one batch of the network."""
    if not jobs:
        return []
    rec = recognizer(NAME)
    logits = rec.logits([crop(j.crop, j.homography, j.slot, j.gain) for j in jobs])
    return [reading(j.slot, rec.guess_from(logits[k:k + 1])) for k, j in enumerate(jobs)]
