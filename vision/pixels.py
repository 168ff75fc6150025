"""Pixel helpers shared by the slot readers: white balance, Lab colour distances,
and the mat's own colours (paper and printed ink) in Lab.

Distances weigh lightness half as much as colour, because light on a table
varies far more in brightness than in hue.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.colours import to_lab
from vision.mats import INK, PAPER

#: Lab distance beyond which a pixel is "not paper".
PAPER_DIST = 22.0
#: How much darker than paper a place may be and still count as paper in shade.
SHADE = 0.35


_LEVELS = np.arange(256, dtype=np.float32)[:, None]


def normalise(patch: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """The patch white-balanced by a per-channel (B, G, R) gain, saturating at 255.

    Through a lookup table (one row per grey level, the same arithmetic as
    multiplying every pixel): several times faster on a card face."""
    lut = np.clip(_LEVELS * gain, 0, 255).astype(np.uint8).reshape(256, 1, 3)
    return cv2.LUT(patch, lut)


def lab_image(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def lab_distance(lab: np.ndarray, ref: np.ndarray | tuple[float, float, float]) -> np.ndarray:
    d = lab - np.asarray(ref, np.float32)
    return np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def shaded_distance(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Lab distance that forgives a surface for being in shade (up to ``SHADE`` darker)."""
    d = lab - np.asarray(ref, np.float32)
    dl = np.where((d[..., 0] < 0) & (d[..., 0] > -SHADE * ref[0]), 0.0, d[..., 0])
    return np.sqrt((0.5 * dl) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


PAPER_LAB = to_lab(PAPER)[0]
INK_LAB = to_lab(INK)[0]
