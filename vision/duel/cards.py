"""Duel cards in their places: cut out and named against a bank.

Whether a pyramid or royal place holds a card at all is the Duel slots network's
answer (:mod:`vision.duel.slot_net`: empty, present, or hidden under glare, a hand
or a shadow).  A place it finds a card in is named here (:func:`name_cards`): the
card is cut out upright, inset, at its place and a little round it
(:func:`posed_faces`: cards lie a little off), and every cut of every place of the
still goes through the learned reader (:mod:`vision.learned`, trained offline on
the design faces and our drawn ones) in one batch; a place's probabilities over
its allowed ids (a pyramid place: the cards of its level; a royal place: the
royals not surely seen elsewhere) are averaged over its cuts.  Nothing is built
from ``../shared`` or the frame at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.calibrate import rectify
from vision.layout import Slot
from vision.learned.recognizer import recognizer
from vision.pixels import normalise

#: Scale a card is cut at (px/mm), and the inset (mm) left off its edges (the
#: learned reader's crop, vision.learned.prep.SPECS["duel_cards"], is this inset face).
CUT_PX_PER_MM = 3.0
INSET_MM = 2.0
#: Where a card is cut round its place (mm along the place's width and height): the
#: centre and 1.5 mm each way.  The network's probabilities over the five cuts are
#: averaged: cards lie up to 1.5 mm and 2 deg off (the renderer's JITTER).
CUT_SHIFTS_MM = ((0.0, 0.0), (1.5, 0.0), (-1.5, 0.0), (0.0, 1.5), (0.0, -1.5))


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

