"""Reusing the last reading of a slot whose pixels have not changed.

WHY: at the table the camera does not move and a turn changes a handful of
slots (a card taken and its replacement, a few tokens); the other ninety-odd
look as they did.  Reading only the slots that changed turns a full-table read
(most of it card faces) into calibration plus a few slots, which is what a
player waits for between setting a card down and seeing the proposal.

A slot counts as unchanged when its job's crop (the slot and its margin, in
the frame) has the same size and, shrunk to ``SIGNATURE`` × ``SIGNATURE``
pixels, differs from the crop last read there by less than ``SAME_MAD``
grey levels on average.  Shrinking averages sensor noise and JPEG away while
any real change (a card, a token, a hand, a shadow) moves whole cells by tens
of grey levels.  A change of the colour classes empties the cache.

Not thread-safe: one cache per reading loop.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.colours import ColourModel
from vision.slot_jobs import SlotJob

SIGNATURE = 24
#: Mean absolute difference (grey levels) below which a crop is the same as before.
SAME_MAD = 3.0


def signature(crop: np.ndarray) -> np.ndarray:
    return cv2.resize(crop, (SIGNATURE, SIGNATURE), interpolation=cv2.INTER_AREA).astype(
        np.int16)


@dataclass
class ReadCache:
    """Slot id -> (crop size, signature, reading) of the last read, and counters."""

    tolerance: float = SAME_MAD
    hits: int = 0
    misses: int = 0
    _colours: ColourModel | None = None
    _entries: dict[str, tuple[tuple[int, ...], np.ndarray, object]] = field(
        default_factory=dict)

    def lookup(self, job: SlotJob, colours: ColourModel) -> tuple[bool, object, np.ndarray]:
        """(found, the reading if found, the job's signature to store after reading)."""
        if colours != self._colours:
            self._entries.clear()
            self._colours = colours
        sig = signature(job.crop)
        entry = self._entries.get(job.slot.id)
        if (entry is not None and entry[0] == job.crop.shape
                and float(np.abs(sig - entry[1]).mean()) < self.tolerance):
            self.hits += 1
            return True, entry[2], sig
        self.misses += 1
        return False, None, sig

    def store(self, job: SlotJob, sig: np.ndarray, reading: object) -> None:
        self._entries[job.slot.id] = (job.crop.shape, sig, reading)

    def clear(self) -> None:
        self._entries.clear()
