"""Duel cards in their places: found on the mat, cut out, and named against a bank.

Finding (:func:`find_card`): the place is cut out with a margin at
``FIND_PX_PER_MM``; what is not the mat's paper (nor a thin printed line) is the
card; the largest such region's rotated rectangle must have a card's size.  An
empty place is paper over nearly all of it; anything else (a hand, a card half
off its place) is unsure.

Naming (:func:`name_card`): the card is cut out upright along its found rectangle
at ``CUT_PX_PER_MM`` and reduced to a small colour picture (``DESCRIPTOR_PX``, Lab,
each channel centred, the whole scaled to unit length: blind to exposure and to a
uniform cast the white balance left).  It is compared with the same picture of
every candidate face in a :class:`CardBank` (a pyramid place: the cards of its
level; a royal place: the four royals); the best correlation names it when it is
high enough and clear of the second best.  The bank is built from one face set
(:func:`vision.duel.bank.default_bank`), never from the frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibrate import rectify
from vision.layout import Slot
from vision.pixels import PAPER_LAB, lab_distance, lab_image, normalise

#: Scale a place is searched at (px/mm) and the margin cut round it (mm).
FIND_PX_PER_MM = 2.0
FIND_MARGIN_MM = 3.0
#: A pixel is paper within this Lab distance of the mat's paper or of white paper.
PAPER_DIST = 24.0
#: Share of the place that is not paper: below EMPTY_MAX empty, above CARD_MIN a card
#: may be there (then its rectangle decides).
EMPTY_MAX = 0.06
CARD_MIN = 0.45
#: Largest difference (mm) between the found rectangle's sides and the card's.
SIZE_TOLERANCE_MM = 6.0
#: Scale a found card is cut at (px/mm), and the inset (mm) left off its edges.
CUT_PX_PER_MM = 3.0
INSET_MM = 2.0
#: The descriptor: the card's picture at this size (w, h px), blurred by DESCRIPTOR_BLUR px.
DESCRIPTOR_PX = (16, 24)
DESCRIPTOR_BLUR = 0.7
#: Lightness counts this much against colour in the descriptor.
DESCRIPTOR_L_WEIGHT = 0.5
#: A pixel washed out (darkest channel as recorded) at this level; a card with more
#: than GLARE_MAX of them is unsure.
WASHED_LEVEL = 245
GLARE_MAX = 0.12
#: Least correlation for a name, and least lead over the second best.
MIN_SCORE = 0.55
MIN_MARGIN = 0.06

_WHITE_LAB = np.array([255.0, 128.0, 128.0], np.float32)


@dataclass(frozen=True)
class FoundCard:
    """What a card place shows: ``state`` card / empty / unsure; the card's rectangle
    (centre in table mm, angle in degrees, size in mm) when a card."""

    state: str
    share: float
    centre: tuple[float, float] = (0.0, 0.0)
    angle: float = 0.0
    size: tuple[float, float] = (0.0, 0.0)
    washed: float = 0.0


def not_paper(lab: np.ndarray) -> np.ndarray:
    """Mask of the pixels that are neither the mat's paper nor white paper."""
    d = np.minimum(lab_distance(lab, PAPER_LAB), lab_distance(lab, _WHITE_LAB))
    return (d > PAPER_DIST).astype(np.uint8)


def find_card(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              card_mm: tuple[float, float]) -> FoundCard:
    """Whether ``slot`` holds a card of ``card_mm`` and where exactly (see the module)."""
    s, m = FIND_PX_PER_MM, FIND_MARGIN_MM
    raw = rectify(image, h, slot, s, m)
    lab = lab_image(normalise(raw, gain))
    mask = not_paper(lab)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    hh, ww = mask.shape
    inner = mask[round(m * s): hh - round(m * s), round(m * s): ww - round(m * s)]
    share = float(inner.mean())
    if share < EMPTY_MAX:
        return FoundCard("empty", share)
    if share < CARD_MIN:
        return FoundCard("unsure", share)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return FoundCard("unsure", share)
    k = 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
    pts = np.column_stack(np.nonzero(labels == k)[::-1]).astype(np.float32)
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(pts)
    if rw > rh:  # upright: the long side along the slot's height
        rw, rh, ang = rh, rw, ang - 90.0
    if ang < -45:
        ang += 180.0 if ang < -135 else 0.0
    while ang > 45:
        ang -= 90.0
    while ang < -45:
        ang += 90.0
    size = (rw / s, rh / s)
    if (abs(size[0] - card_mm[0]) > SIZE_TOLERANCE_MM
            or abs(size[1] - card_mm[1]) > SIZE_TOLERANCE_MM):
        return FoundCard("unsure", share, size=size)
    # patch px -> slot-local mm -> table mm
    u = (cx + 0.5) / s - (slot.size[0] / 2 + m)
    v = (cy + 0.5) / s - (slot.size[1] / 2 + m)
    t = np.radians(slot.angle)
    centre = (slot.center[0] + u * np.cos(t) - v * np.sin(t),
              slot.center[1] + u * np.sin(t) + v * np.cos(t))
    card_px = labels == k
    washed = float((raw.min(axis=2)[card_px] >= WASHED_LEVEL).mean())
    return FoundCard("card", share, (float(centre[0]), float(centre[1])), float(ang), size,
                     washed)


def descriptor(bgr: np.ndarray) -> np.ndarray:
    """The small, centred, unit-length Lab picture of an upright card face."""
    small = cv2.resize(bgr, DESCRIPTOR_PX, interpolation=cv2.INTER_AREA)
    lab = cv2.GaussianBlur(lab_image(small), (0, 0), DESCRIPTOR_BLUR)
    lab = lab - lab.reshape(-1, 3).mean(0)
    lab[..., 0] *= DESCRIPTOR_L_WEIGHT
    v = lab.ravel()
    return (v / max(float(np.linalg.norm(v)), 1e-6)).astype(np.float32)


def face_descriptor(face: np.ndarray, card_mm: tuple[float, float]) -> np.ndarray:
    """A bank face's descriptor, cut with the same inset as a card seen on the table."""
    hgt, wid = face.shape[:2]
    ix, iy = round(INSET_MM / card_mm[0] * wid), round(INSET_MM / card_mm[1] * hgt)
    return descriptor(face[iy: hgt - iy, ix: wid - ix])


def cut_card(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
             found: FoundCard, card_mm: tuple[float, float]) -> np.ndarray:
    """The found card upright, inset by ``INSET_MM``, white-balanced (BGR)."""
    size = (card_mm[0] - 2 * INSET_MM, card_mm[1] - 2 * INSET_MM)
    raw = rectify(image, h, slot, CUT_PX_PER_MM, 0.0, size, found.centre,
                  slot.angle + found.angle)
    return normalise(raw, gain)


@dataclass(frozen=True)
class CardBank:
    """Candidate faces' descriptors by id (see :func:`vision.duel.bank.default_bank`)."""

    name: str
    ids: tuple[str, ...]
    vectors: np.ndarray  # (len(ids), D)

    def subset(self, prefix: str) -> CardBank:
        keep = [i for i, cid in enumerate(self.ids) if cid.startswith(prefix)]
        return CardBank(self.name, tuple(self.ids[i] for i in keep), self.vectors[keep])


@dataclass(frozen=True)
class CardName:
    """A card named: ``value`` its id or None (unsure), with the scores behind it."""

    value: str | None
    confidence: float
    score: float
    margin: float
    why: str = ""


def name_card(face: np.ndarray, bank: CardBank) -> CardName:
    """The bank's id that best matches ``face`` (upright, inset), or unsure."""
    v = descriptor(face)
    scores = bank.vectors @ v
    order = np.argsort(scores)[::-1]
    s1 = float(scores[order[0]])
    s2 = float(scores[order[1]]) if len(order) > 1 else -1.0
    margin = s1 - s2
    conf = float(np.clip(margin / (2 * MIN_MARGIN), 0, 1))
    if s1 < MIN_SCORE:
        return CardName(None, conf, s1, margin, f"best match only {s1:.2f}")
    if margin < MIN_MARGIN:
        return CardName(None, conf, s1, margin,
                        f"{bank.ids[order[0]]} or {bank.ids[order[1]]} ({margin:.2f} apart)")
    return CardName(bank.ids[order[0]], conf, s1, margin)
