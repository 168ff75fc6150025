"""Duel cards in their places: found on the mat, cut out, and named against a bank.

Finding (:func:`find_card`): the place is cut out with a margin at
``FIND_PX_PER_MM``; an empty place is the mat's paper over nearly all of it (and
not washed out), or plain paper like the band round it (a shadow or a lamp's spot
over it: :func:`plain_place`), and shows its printed outline all round (a hand or a
sleeve hides it: :func:`outline_depth`); a place mostly not paper holds something;
between, unsure.

Naming (:func:`name_cards`): the card is cut out upright, inset, at its place and
a little round it (:func:`posed_faces`: cards lie a little off), and every cut of
every place of the still goes through the learned reader (:mod:`vision.learned`,
trained offline on the design faces and our drawn ones) in one batch; a place's
probabilities over its allowed ids (a pyramid place: the cards of its level; a
royal place: the royals not surely seen elsewhere) are averaged over its cuts.
Nothing is built from ``../shared`` or the frame at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibrate import rectify
from vision.layout import Slot
from vision.learned.recognizer import recognizer
from vision.pixels import PAPER_LAB, lab_distance, lab_image, normalise

#: Scale a place is searched at (px/mm) and the margin cut round it (mm).
FIND_PX_PER_MM = 2.0
FIND_MARGIN_MM = 3.0
#: A pixel is paper within this Lab distance of the mat's paper or of white paper.
PAPER_DIST = 24.0
#: The band round a place (RING_WIDTH_MM wide, ending RING_OUT_MM outside the place's
#: edge) whose paper an empty place is compared with by :func:`plain_place`.
RING_OUT_MM = 7.0
RING_WIDTH_MM = 3.0
#: :func:`plain_place`: at this percentile over the place, how far its colour (each
#: channel's share of the brightness) is from the band's, and how steep its lightness
#: (log, blurred 1.5 px) is.  Card and royal places of design frames (seeds 5000-5011,
#: centre framing, both lenses): empty readable ones at most 0.018 and 0.017, cards at
#: least 0.08 and 0.085 (0.041 and 0.053 under glare)
#: (`.venv/bin/python tests/bench/duel_cards.py --split design --empty`).
PLAIN_PERCENTILE = 90.0
PLAIN_CHROMA_MAX = 0.03
PLAIN_GRAD_MAX = 0.03
#: :func:`outline_depth`: the profile across each side spans OUTLINE_SPAN_MM either
#: way; an empty place shows its outline at least OUTLINE_DEPTH deep (readable empty
#: places 0.30 and more, places under a hand or a sleeve 0.03 at most, same frames).
OUTLINE_SPAN_MM = 3.0
OUTLINE_DEPTH = 0.15
#: Share of the place that is not paper: below EMPTY_MAX empty, above CARD_MIN a card
#: may be there (then naming it decides: a hand names no card).  A white card shows
#: as little as 16 % not paper (design frame easy 301), so the two meet.
EMPTY_MAX = 0.06
CARD_MIN = EMPTY_MAX
#: Paper washed out over more than this share is not said empty (a pale card under
#: glare passes for paper there).  Over the royal places of the design frames of
#: seeds 9200-9700 (both lenses, every difficulty) the empty ones found empty were
#: washed out over none of their paper (the mat is matte), a royal under glare over
#: 34 % (wide hard 9509, royal.1: said empty, sure) (the bench script that
#: listed it went with the template matching it measured).
EMPTY_WASHED_MAX = 0.1
#: Scale a card is cut at (px/mm), and the inset (mm) left off its edges (the
#: learned reader's crop, vision.learned.prep.SPECS["duel_cards"], is this inset face).
CUT_PX_PER_MM = 3.0
INSET_MM = 2.0
#: Where a card is cut round its place (mm along the place's width and height): the
#: centre and 1.5 mm each way.  The network's probabilities over the five cuts are
#: averaged: cards lie up to 1.5 mm and 2 deg off (the renderer's JITTER).
CUT_SHIFTS_MM = ((0.0, 0.0), (1.5, 0.0), (-1.5, 0.0), (0.0, 1.5), (0.0, -1.5))
#: A pixel washed out (darkest channel as recorded) at this level; a jewel card with
#: more than GLARE_MAX of them is unsure (vision/duel/read.py).
WASHED_LEVEL = 245
GLARE_MAX = 0.35

_WHITE_LAB = np.array([255.0, 128.0, 128.0], np.float32)


@dataclass(frozen=True)
class FoundCard:
    """What a card place shows: ``state`` present / empty / unsure, the share of the
    place that is not paper, and the share washed out (glare)."""

    state: str
    share: float
    washed: float = 0.0


def not_paper(lab: np.ndarray) -> np.ndarray:
    """Mask of the pixels that are neither the mat's paper nor white paper."""
    d = np.minimum(lab_distance(lab, PAPER_LAB), lab_distance(lab, _WHITE_LAB))
    return np.asarray(d > PAPER_DIST, np.uint8)


def find_card(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              card_mm: tuple[float, float]) -> FoundCard:
    """Whether ``slot`` holds something (see the module); ``card_mm`` is unused and kept
    for the signature's sake."""
    s, m = FIND_PX_PER_MM, FIND_MARGIN_MM
    raw = rectify(image, h, slot, s, m)
    lab = lab_image(normalise(raw, gain))
    mask = not_paper(lab)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    hh, ww = mask.shape
    inner = mask[round(m * s): hh - round(m * s), round(m * s): ww - round(m * s)]
    share = float(inner.mean())
    raw_inner = raw[round(m * s): hh - round(m * s), round(m * s): ww - round(m * s)]
    washed_all = float((raw_inner.min(axis=2) >= WASHED_LEVEL).mean())
    if (share < EMPTY_MAX and washed_all < EMPTY_WASHED_MAX) or plain_place(image, h, slot):
        if outline_depth(image, h, slot) < OUTLINE_DEPTH:  # a hand or a sleeve over it
            return FoundCard("unsure", share, washed=washed_all)
        return FoundCard("empty", share, washed=washed_all)
    if share >= CARD_MIN:
        return FoundCard("present", share, washed=washed_all)
    return FoundCard("unsure", share, washed=washed_all)


def _around(image: np.ndarray, h: np.ndarray, slot: Slot) -> np.ndarray:
    """The place and RING_OUT_MM round it at FIND_PX_PER_MM, as float BGR."""
    return rectify(image, h, slot, FIND_PX_PER_MM, RING_OUT_MM).astype(np.float32)


def plain_place(image: np.ndarray, h: np.ndarray, slot: Slot) -> bool:
    """Whether the place is plain paper like the band round it: its colour (brightness
    apart) and its lightness even (see ``PLAIN_CHROMA_MAX``): an empty place under a
    shadow or a lamp's spot, which the markers' balance calls "not paper"."""
    chroma, grad, _ = _plain_maps(image, h, slot)
    return (float(np.percentile(chroma, PLAIN_PERCENTILE)) <= PLAIN_CHROMA_MAX
            and float(np.percentile(grad, PLAIN_PERCENTILE)) <= PLAIN_GRAD_MAX)


def plain_share(image: np.ndarray, h: np.ndarray, slot: Slot) -> float:
    """The share of the place that is plain paper pixel by pixel (``plain_place``'s
    colour and slope within their bounds, not clipped white)."""
    chroma, grad, washed = _plain_maps(image, h, slot)
    return float(((chroma <= PLAIN_CHROMA_MAX) & (grad <= PLAIN_GRAD_MAX) & ~washed).mean())


def _plain_maps(image: np.ndarray, h: np.ndarray, slot: Slot
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Over the place: each pixel's colour distance from the band's paper (brightness
    apart), the slope of its log lightness, and whether it is clipped white."""
    s = FIND_PX_PER_MM
    outer = _around(image, h, slot)
    ring = round(RING_WIDTH_MM * s)
    band = np.concatenate([outer[:ring].reshape(-1, 3), outer[-ring:].reshape(-1, 3),
                           outer[:, :ring].reshape(-1, 3), outer[:, -ring:].reshape(-1, 3)])
    paper = np.median(band, axis=0)
    cut = round((RING_OUT_MM + FIND_MARGIN_MM) * s)
    inner = outer[cut: outer.shape[0] - cut, cut: outer.shape[1] - cut]
    total = inner.sum(axis=2) + 3.0
    chroma = np.abs(inner / total[..., None] - paper / (paper.sum() + 3.0)).max(axis=2)
    light = cv2.GaussianBlur(np.log(total), (0, 0), 1.5)
    grad = np.hypot(cv2.Sobel(light, cv2.CV_32F, 1, 0), cv2.Sobel(light, cv2.CV_32F, 0, 1)) / 8
    return chroma, grad, inner.min(axis=2) >= WASHED_LEVEL


def outline_depth(image: np.ndarray, h: np.ndarray, slot: Slot) -> float:
    """How plainly the place's printed outline shows (log lightness the line is below
    the paper either side, across the middle three fifths of each side; the least of
    the four sides): a hand or a sleeve over the place hides it, a card in it does not
    reach it (the place is 67 x 92 mm, a Duel card 57.5 x 88)."""
    return outline_sides(image, h, slot)[0]


def outline_sides(image: np.ndarray, h: np.ndarray, slot: Slot) -> list[float]:
    """:func:`outline_depth` of each of the four sides, least first."""
    s = FIND_PX_PER_MM
    light = np.log(_around(image, h, slot).sum(axis=2) + 3.0)
    hh, ww = light.shape
    m, span = round(RING_OUT_MM * s), round(OUTLINE_SPAN_MM * s)
    rows, cols = slice(hh // 5, 4 * hh // 5), slice(ww // 5, 4 * ww // 5)
    profiles = (light[rows, m - span: m + span].mean(axis=0),
                light[rows, ww - m - span: ww - m + span].mean(axis=0),
                light[m - span: m + span, cols].mean(axis=1),
                light[hh - m - span: hh - m + span, cols].mean(axis=1))
    return sorted(float((p[0] + p[-1]) / 2 - p.min()) for p in profiles)


#: A royal place at least ROYAL_PLAIN_EMPTY of which is plain paper (:func:`plain_share`),
#: its outline seen at least ROYAL_SIDES_DEPTH deep on three sides, is empty: a shadow's
#: band across an empty place, or a sleeve over one side, leave it "not paper" by the
#: markers' balance and not plain as a whole (design frames standard hard 9807 royal.0,
#: standard medium 9000 royal.2, wide hard 9902 royal.0: plain 0.83-0.92, three sides
#: 0.47-0.53, left unsure).  Over the royal places of 720 design frames (seeds
#: 9000-9900, 12 a difficulty, both lenses): readable royals plain at most 0.39, readable
#: empty places at least 0.83 and three sides 0.41 and more; royals under a hand as
#: plain as 0.76 showed three sides 0.18 at most (`.venv/bin/python
#: tests/bench/duel_cards.py --royal-empty --seeds 9000,9100,...,9900`).  Jewel cards
#: are not so judged: a pale one reaches 0.52, and an empty pyramid place is never a
#: sure answer anyway.
ROYAL_PLAIN_EMPTY = 0.75
ROYAL_SIDES_DEPTH = 0.3


def royal_place_empty(image: np.ndarray, h: np.ndarray, slot: Slot) -> bool:
    """Whether a royal place that does not look empty as a whole still is: mostly plain
    paper, its outline whole on three sides (see ``ROYAL_PLAIN_EMPTY``)."""
    return (outline_sides(image, h, slot)[1] >= ROYAL_SIDES_DEPTH
            and plain_share(image, h, slot) >= ROYAL_PLAIN_EMPTY)


def posed_faces(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
                card_mm: tuple[float, float]) -> list[np.ndarray]:
    """The card cut out (inset, upright, white-balanced) at each of ``CUT_SHIFTS_MM``
    round the slot's centre."""
    s = CUT_PX_PER_MM
    m = max(max(abs(x), abs(y)) for x, y in CUT_SHIFTS_MM) + 1.0
    patch = normalise(rectify(image, h, slot, s, m), gain)
    ph, pw = patch.shape[:2]
    w, hh = card_mm[0] - 2 * INSET_MM, card_mm[1] - 2 * INSET_MM
    out_size = (round(w * s), round(hh * s))
    faces = []
    for dx, dy in CUT_SHIFTS_MM:
        # output px -> card mm (centred) -> patch px
        x0 = round(pw / 2 + dx * s - out_size[0] / 2)
        y0 = round(ph / 2 + dy * s - out_size[1] / 2)
        faces.append(patch[y0: y0 + out_size[1], x0: x0 + out_size[0]])
    return faces


#: A card is named when its probability is at least this (more likely than not
#: among its place's ids); below, it is unsure whatever the threshold.
NAMED_MIN = 0.5


@dataclass(frozen=True)
class CardName:
    """A card named: ``value`` its id or None (unsure), ``confidence`` the calibrated
    probability of the leading id (``leader``), ``why`` when unsure."""

    value: str | None
    confidence: float
    leader: str = ""
    why: str = ""


def name_cards(cuts: list[list[np.ndarray]], allowed: list[tuple[str, ...]]
               ) -> list[CardName]:
    """Each place's card among its ``allowed`` ids, by the learned reader
    (:mod:`vision.learned`): every cut of every place in one batch, each place's
    probabilities averaged over its cuts.  Named when more likely than not; whether
    it is sure is :mod:`vision.duel.confidence`'s threshold on that probability."""
    rec = recognizer("duel_cards")
    logits = rec.logits([c for place in cuts for c in place])
    out, at = [], 0
    for place, ids in zip(cuts, allowed, strict=True):
        g = rec.guess_from(logits[at: at + len(place)], ids)
        at += len(place)
        if g.p >= NAMED_MIN:
            out.append(CardName(g.best, g.p, g.best))
        else:
            out.append(CardName(None, g.p, g.best,
                                f"{g.best} or {g.second} ({g.p:.2f}, {g.p_second:.2f})"))
    return out

