"""Reusing the last reading of a slot whose pixels have not changed.

WHY: at the table the camera does not move and a turn changes a handful of
slots (a card taken and its replacement, a few tokens); the other ninety-odd
look as they did.  Reading only the slots that changed turns a full-table read
(most of it card faces) into calibration plus a few slots, which is what a
player waits for between setting a card down and seeing the proposal.

A slot counts as unchanged when its job's crop (the slot and its margin, in
the frame) has the same size and, shrunk to ``SIGNATURE`` × ``SIGNATURE``
pixels, no cell of it moved by ``same_below`` grey levels or more beyond what
the whole crop moved (:func:`change`).  Shrinking averages sensor noise and
JPEG away while any real change (a card, a token, a hand, a shadow) moves some
cells by tens of grey levels.  WHY the largest cell and not the mean: two
level-1 cards of one colour share their picture and differ in their cost
circles only, a few cells of the crop; the mean moved by 2.5-2.8 levels when
one replaced the other, under the 3.0 the cache allowed, and the turn went
unseen.  ``same_below`` is fitted on rendered design tables and scored on check
ones by ``python -m vision.training.cache_fit`` (``read_cache.toml``).  A
change of the colour classes empties the cache.

Not thread-safe: one cache per reading loop.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import cv2
import numpy as np

from vision.colours import ColourModel
from vision.slot_jobs import SlotJob

SIGNATURE = 24
#: The fitted threshold's file, beside this module (package data).
CACHE_FILE = "read_cache.toml"


def signature(crop: np.ndarray) -> np.ndarray:
    return cv2.resize(crop, (SIGNATURE, SIGNATURE), interpolation=cv2.INTER_AREA).astype(
        np.int16)


#: The grey level a crop's change is scaled to (see :func:`change`), and the darkest
#: level it is scaled from (below it the crop is all sensor noise).
MID_GREY = 128.0
DARKEST = 16.0


def change(before: np.ndarray, after: np.ndarray) -> float:
    """How far two signatures of a slot differ: the largest move of one cell and channel,
    less the channel's median move (a lamp or the exposure shifting the whole crop), as if
    the crop were lit to mid-grey.  WHY scaled: a white chip set down in a deep shadow
    (an unseen hard-light game) moved a cell by 23 levels of a crop averaging about 40,
    where noise and a camera's drift move a lit crop's edges by 14."""
    moved = (after - before).reshape(-1, before.shape[-1] if before.ndim == 3 else 1)
    level = max(DARKEST, float(before.mean() + after.mean()) / 2)
    return float(np.abs(moved - np.median(moved, axis=0)).max()) * MID_GREY / level


@cache
def same_below() -> float:
    """The fitted threshold (:data:`CACHE_FILE`); 0 (nothing reused) if it is missing."""
    try:
        text = (resources.files("vision") / CACHE_FILE).read_text(encoding="utf-8")
    except OSError:
        return 0.0
    return float(tomllib.loads(text)["same_below"])


@dataclass
class ReadCache:
    """Slot id -> (crop size, signature, reading) of the last read, and counters."""

    tolerance: float = field(default_factory=same_below)
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
                and change(entry[1], sig) < self.tolerance):
            self.hits += 1
            return True, entry[2], sig
        self.misses += 1
        return False, None, sig

    def store(self, job: SlotJob, sig: np.ndarray, reading: object) -> None:
        self._entries[job.slot.id] = (job.crop.shape, sig, reading)

    def clear(self) -> None:
        self._entries.clear()
