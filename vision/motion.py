"""Motion: tells when hands are over the table, so only still frames are read.

Frame differencing on a small grey copy of each frame (``WORK_WIDTH`` px
wide, blurred): a frame *moves* when more than ``CHANGED_FRACTION`` of its
pixels changed by more than ``PIXEL_DELTA`` grey levels since the previous
frame.  The table is *stable* after ``STABLE_FRAMES`` still frames in a row;
the referee reads the first stable frame after motion (and the camera's
low-resolution stream is enough for this, as the DESIGN says).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WORK_WIDTH = 160
BLUR_PX = 5
PIXEL_DELTA = 18
CHANGED_FRACTION = 0.004
STABLE_FRAMES = 3


@dataclass(frozen=True)
class MotionState:
    """The detector's verdict on the latest frame."""

    moving: bool
    stable: bool
    #: True on the first stable frame after motion (or the very first stable frame).
    settled: bool
    changed_fraction: float
    still_frames: int


class StabilityDetector:
    """Feed frames with :meth:`update`; read ``stable`` / ``settled`` from the result."""

    def __init__(self, stable_frames: int = STABLE_FRAMES, pixel_delta: int = PIXEL_DELTA,
                 changed_fraction: float = CHANGED_FRACTION, work_width: int = WORK_WIDTH) -> None:
        self.stable_frames = stable_frames
        self.pixel_delta = pixel_delta
        self.changed_fraction = changed_fraction
        self.work_width = work_width
        self._previous: np.ndarray | None = None
        self._still = 0
        self._was_stable = False

    def _small(self, frame: np.ndarray) -> np.ndarray:
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        h, w = grey.shape[:2]
        size = (self.work_width, max(1, round(h * self.work_width / w)))
        small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (BLUR_PX, BLUR_PX), 0)

    def update(self, frame: np.ndarray) -> MotionState:
        small = self._small(frame)
        if self._previous is None or self._previous.shape != small.shape:
            fraction = 1.0 if self._previous is not None else 0.0
        else:
            diff = cv2.absdiff(small, self._previous)
            fraction = float((diff > self.pixel_delta).mean())
        self._previous = small
        moving = fraction > self.changed_fraction
        self._still = 0 if moving else self._still + 1
        stable = self._still >= self.stable_frames
        settled = stable and not self._was_stable
        self._was_stable = stable
        return MotionState(moving, stable, settled, fraction, self._still)

    def reset(self) -> None:
        self._previous = None
        self._still = 0
        self._was_stable = False
