"""The learned reader's opinion of a token slot, joined to the chip reader's.

The chip reader (:func:`vision.readers.read_token`) finds a chip by its edge and
names it by its rim and gem against the colours learned at set-up; it abstains
whenever a measurement falls outside what it was tuned on (2.8 % of readable
chips on unseen tables, issue 38).  The network (``splendor_chips``: empty,
the six colours, or ``hidden``) was trained on token slots cut by this very
reader from rendered design tables, hands and glare included.  Joined:

* the network calls the slot ``hidden`` (glare, a hand, as a person would judge
  it): whatever the chip reader said, unknown;
* both give the same answer: the chance both are wrong at once,
  ``1 - (1 - p_net)(1 - p_reader)``;
* the chip reader abstained: the network's answer at its calibrated probability;
* they disagree: never sure (``min(p_reader, 1 - p_net)``), the reader's answer
  kept as the leading one.

Which of these is sure is the token threshold of :mod:`vision.confidence`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

import numpy as np

from vision.calibrate import rectify
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
#: Below this a joined answer is given as unknown (the reading's own floor).
NAMED_MIN = 0.5


def crop(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> np.ndarray:
    """The token slot and the margin of :data:`SPECS`'s crop round it, upright and
    white-balanced by the frame's ``gain`` (BGR uint8)."""
    w_mm = SPECS[NAME].crop_mm[0]
    raw = rectify(image, h, slot, CUT_PX_PER_MM, (w_mm - slot.size[0]) / 2)
    return normalise(raw, gain)


def guess(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> Guess:
    """The network's answer for one token slot."""
    return recognizer(NAME).guess([crop(image, h, slot, gain)])


def _answer(reading: TokenSlotReading) -> str | None:
    if reading.state == "empty":
        return EMPTY
    return reading.colour if reading.state == "token" else None


def _reading(reading: TokenSlotReading, answer: str, p: float) -> TokenSlotReading:
    if answer == EMPTY:
        return replace(reading, state="empty", colour=None, confidence=p)
    return replace(reading, state="token", colour=answer, confidence=p)


def join(reading: TokenSlotReading, net: Guess) -> TokenSlotReading:
    """``reading`` (the chip reader's) joined with the network's guess ``net``."""
    mine = _answer(reading)
    if net.best == HIDDEN:
        return replace(reading, state="unknown", colour=None,
                       confidence=min(reading.confidence, 1 - net.p))
    if mine is not None and mine == net.best:
        return replace(reading, confidence=1 - (1 - net.p) * (1 - reading.confidence))
    if mine is not None:  # they disagree: the reader's answer, never sure
        p = min(reading.confidence, 1 - net.p)
        if p >= NAMED_MIN:
            return replace(reading, confidence=p)
        return replace(reading, state="unknown", colour=None, confidence=p)
    if net.p < NAMED_MIN:
        return reading
    return _reading(reading, net.best, net.p)


class Job(Protocol):
    """A slot's job (:class:`vision.slot_jobs.SlotJob`: slot_jobs reads with the readers
    this module joins, so it is named by its shape, not imported)."""

    @property
    def slot(self) -> Slot: ...
    @property
    def crop(self) -> np.ndarray: ...
    @property
    def homography(self) -> np.ndarray: ...
    @property
    def gain(self) -> np.ndarray: ...


def join_tokens(jobs: Sequence[Job], readings: Sequence[object]) -> list[object]:
    """``readings`` (one per job, as read) with every token slot's joined to the
    network's answer, all token slots of the still in one batch."""
    out = list(readings)
    at = [i for i, j in enumerate(jobs)
          if j.slot.kind == "token" and isinstance(out[i], TokenSlotReading)]
    if not at:
        return out
    rec = recognizer(NAME)
    logits = rec.logits([crop(jobs[i].crop, jobs[i].homography, jobs[i].slot, jobs[i].gain)
                         for i in at])
    for k, i in enumerate(at):
        reading = out[i]
        assert isinstance(reading, TokenSlotReading)
        out[i] = join(reading, rec.guess_from(logits[k:k + 1]))
    return out
