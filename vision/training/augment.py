"""Randomised crops of a face as the reader cuts them out of a camera's still.

A face is laid on the mat's paper, misplaced a little (the card lies off its
slot, the calibration is off by a millimetre, the table is tilted), seen at a
camera's resolution (1.4-6 px/mm: the Camera Module 3 Wide at a 4-player
table's far corner up to the standard lens over the central mat), blurred,
lit unevenly (white balance left over, a lamp's fall-off, a soft shadow, a
glare spot, a sleeve's haze), given sensor noise and JPEG, then brought to the
reader's face resolution and white-balanced as :mod:`vision.face_cut` does.
Every draw comes from the ``rng`` passed in: a seed gives the same crops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import cv2
import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

from vision.learned.prep import Spec

#: The mat's paper (BGR, vision.mats.PAPER) a card lies on.
PAPER = (214, 222, 226)
#: The reader's face resolution (px/mm, vision.locate.FACE_PX_PER_MM).
FACE_PX_PER_MM = 4.0


def _canvas(face: np.ndarray, card_mm: tuple[float, float], px_mm: float,
            margin_mm: float, rng: np.random.Generator) -> np.ndarray:
    """The face at ``px_mm`` on paper, ``margin_mm`` of paper round it."""
    w, h = round(card_mm[0] * px_mm), round(card_mm[1] * px_mm)
    m = round(margin_mm * px_mm)
    paper = np.array(PAPER, np.float32) * rng.uniform(0.9, 1.05)
    out = np.empty((h + 2 * m, w + 2 * m, 3), np.float32)
    out[:] = paper
    out[m:m + h, m:m + w] = cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA)
    return out


def crop(face: np.ndarray, card_mm: tuple[float, float], spec: Spec,
         rng: np.random.Generator, hard: float = 1.0) -> np.ndarray:
    """One randomised crop (BGR uint8 at ``FACE_PX_PER_MM``) of ``spec.crop_mm`` round the
    centre of ``face`` (which covers ``card_mm``).  ``hard`` scales every degradation."""
    work = 6.0
    margin = 8.0
    canvas = _canvas(face, card_mm, work, margin, rng)
    cam = float(np.exp(rng.uniform(np.log(1.4), np.log(6.0))))
    out_w, out_h = round(spec.crop_mm[0] * cam), round(spec.crop_mm[1] * cam)
    # where the crop's corners land on the canvas: misplacement, turn, scale, tilt
    cx = (card_mm[0] / 2 + margin + rng.normal(0, 0.9 * hard)) * work
    cy = (card_mm[1] / 2 + margin + rng.normal(0, 0.9 * hard)) * work
    ang = np.radians(rng.normal(0, 1.2 * hard))
    k = 1 + rng.normal(0, 0.015 * hard)
    hw, hh = spec.crop_mm[0] / 2 * work * k, spec.crop_mm[1] / 2 * work * k
    c, s = np.cos(ang), np.sin(ang)
    corners = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    corners = corners @ np.array([[c, s], [-s, c]]) + [cx, cy]
    corners += rng.normal(0, 0.006 * hard * hw, corners.shape)
    dst = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], np.float32)
    m = cv2.getPerspectiveTransform(dst, corners.astype(np.float32))
    sigma = 0.5 * work / cam
    blurred = cv2.GaussianBlur(canvas, (0, 0), sigma)
    img = cv2.warpPerspective(blurred, m, (out_w, out_h), flags=cv2.INTER_LINEAR
                              | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    img = _light(img, rng, hard)
    if rng.random() < 0.5 * hard:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.1))
    if rng.random() < 0.1 * hard:
        n = int(rng.integers(2, 5))
        kernel = np.zeros((n, n), np.float32)
        kernel[n // 2] = 1.0 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cast("npt.NDArray[np.float32]", cv2.warpAffine(kernel, rot, (n, n)))
        img = cv2.filter2D(img, -1, kernel / max(float(kernel.sum()), 1e-6))
    img += rng.normal(0, rng.uniform(0, 7) * hard, img.shape).astype(np.float32)
    img8 = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        ok, enc = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY,
                                              int(rng.integers(45, 96))])
        img8 = cast(np.ndarray, cv2.imdecode(enc, cv2.IMREAD_COLOR)) if ok else img8
    size = (round(spec.crop_mm[0] * FACE_PX_PER_MM), round(spec.crop_mm[1] * FACE_PX_PER_MM))
    return _white_balance(cv2.resize(img8, size, interpolation=cv2.INTER_LINEAR), rng)


def _light(img: np.ndarray, rng: np.random.Generator, hard: float) -> np.ndarray:
    h, w = img.shape[:2]
    gain = np.exp(rng.normal(0, 0.08 * hard, 3)).astype(np.float32)
    level = float(np.exp(rng.normal(-0.15, 0.3 * hard)))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.normal(0, 0.25 * hard, 2)
    ramp = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    img = img * gain * level * np.clip(ramp, 0.3, 2)[..., None]
    if rng.random() < 0.25 * hard:                               # a soft shadow's edge
        t = rng.uniform(0, np.pi)
        d = (xx - w / 2) * np.cos(t) + (yy - h / 2) * np.sin(t) - rng.uniform(-0.4, 0.4) * w
        depth = rng.uniform(0.55, 0.9)
        img = img * (depth + (1 - depth) / (1 + np.exp(-d / (0.05 * w))))[..., None]
    if rng.random() < 0.3 * hard:                                # a glare spot
        ex, ey = rng.uniform(0, w), rng.uniform(0, h)
        rx, ry = rng.uniform(0.05, 0.25) * w, rng.uniform(0.03, 0.15) * h
        r2 = ((xx - ex) / rx) ** 2 + ((yy - ey) / ry) ** 2
        a = np.clip(1.5 - r2, 0, 1)[..., None] * rng.uniform(0.4, 1.0)
        img = img * (1 - a) + 300 * a
    if rng.random() < 0.3 * hard:                                # a sleeve's haze
        a = rng.uniform(0.05, 0.25)
        img = img * (1 - a) + 240 * a
    gamma = float(np.exp(rng.normal(0, 0.15 * hard)))
    return np.asarray(255 * (np.clip(img, 0, 400) / 255) ** gamma, np.float32)


def _white_balance(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Brought to the face's whites as the reader does: its brightest percent near white."""
    peak = np.percentile(img.reshape(-1, 3), 99.0, axis=0).astype(np.float32)
    target = rng.uniform(215, 250)
    gain = np.clip(target / np.maximum(peak.max(), 1.0), 0.6, 3.0)
    cast = np.exp(rng.normal(0, 0.03, 3)).astype(np.float32)
    out: np.ndarray = np.clip(img.astype(np.float32) * gain * cast, 0, 255).astype(np.uint8)
    return out


#: What a Splendor card's printed features cover (mm on the upright 63 x 88 face): the
#: top band (points, bonus gem) and the cost column (up to four circles, bottom left).
#: Everything else is the picture.
FEATURES_BAND_MM = 20.0
FEATURES_COLUMN_MM = (18.0, 33.0)   # width (the newer gem icons too), top of the highest circle


def swap_art(face: np.ndarray, other: np.ndarray, card_mm: tuple[float, float]) -> np.ndarray:
    """``face`` with its picture replaced by ``other``'s (any card, any printing).

    WHY: in each printing several cards of one colour and level share a picture, and
    a network shown the pictures names an unseen printing's card by the picture it
    most resembles (the newer printing's odd faces: 1k3 named 1k4 at 0.95).  With
    pictures swapped at random the picture tells nothing, and only what every
    printing shares decides: the points, the bonus gem and the cost circles."""
    h, w = face.shape[:2]
    art = cv2.resize(other, (w, h), interpolation=cv2.INTER_AREA)
    sx, sy = w / card_mm[0], h / card_mm[1]
    mask: np.ndarray = np.ones((h, w), np.float32)
    mask[: round(FEATURES_BAND_MM * sy)] = 0
    mask[round(FEATURES_COLUMN_MM[1] * sy):, : round(FEATURES_COLUMN_MM[0] * sx)] = 0
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, 0.6 * sx))[..., None]
    return np.asarray(face * (1 - mask) + art * mask, np.uint8)
