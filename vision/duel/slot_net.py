"""Duel card places, decks, privileges and reserved cards: is anything there?  The
``duel_slots`` network.

A deck, a privilege scroll or a reserved card is read for presence only: the
referee knows which card was reserved and how many scrolls there are from the
turns, and asks the camera whether the table agrees.  A pyramid or royal place is
read so first; a card found there is then named (:mod:`vision.duel.cards`).  The
network answers from
the place and a margin round it (its printed outline included) with ``empty``,
``present`` or ``hidden`` (glare, a hand, a shadow: nothing a person could
read).  It was trained on places cut by :func:`crop` from rendered Duel design
tables (``vision/training/duel_crops.py``: positions of seeded games with decks,
scrolls, pyramid cards and royals taken away at random, lamps, glare, hands, both
lenses, both framings) and its temperature was fitted on design calibration tables
(``vision/learned/params.toml``), so its probability is the answer's confidence.

WHY a network (issue 38): the rules it replaces told a scroll from the grey fill
by its yellowness, its printed bars, its rolled ends and how dark it was against
the paper round it, a deck by the share of its place unlike the paper and its
outline's depth, and a hand by the printed outline's pieces: 460 lines and 28
tuned constants, each tuned on a few frames.  The card and royal places' rules
(the share of the place unlike paper, plain paper like the band round it, the
printed outline's depth on three sides, a share washed out) went the same way.

Which answer is sure is the thresholds of :mod:`vision.duel.confidence` (for a
card or royal place, of its "empty" answers: a card is sure by its name).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.calibrate import rectify
from vision.duel import chip_net
from vision.face_cut import face_gain
from vision.layout import Slot
from vision.learned.prep import SPECS
from vision.pixels import normalise

NAME = "duel_slots"
#: The network's answers, in output order.
EMPTY, PRESENT, HIDDEN = "empty", "present", "hidden"
CLASSES = (EMPTY, PRESENT, HIDDEN)
#: The place kinds it reads.
KINDS = ("deck", "privilege", "reserved", "card", "noble")
#: The crop is cut at this resolution (px/mm) and reduced by area to the network's
#: input (a deck's place to about 0.65 px/mm, a scroll's to 1.5 px/mm).
CUT_PX_PER_MM = 1.5
#: Millimetres of mat kept round the place: its printed outline and a card or scroll
#: lying up to 3 mm off it.
MARGIN_MM = 4.0


def crop(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> np.ndarray:
    """The place and :data:`MARGIN_MM` round it, upright (a player's scroll place, which
    lies across, turned a quarter), white-balanced by ``gain`` but no brighter than
    its own whites allow (:func:`vision.face_cut.face_gain`), reduced to the network's
    input (BGR uint8; a scroll's place is stretched to the card's shape, as in
    training)."""
    raw = rectify(image, h, slot, CUT_PX_PER_MM, MARGIN_MM)
    if raw.shape[1] > raw.shape[0]:
        raw = np.ascontiguousarray(np.rot90(raw))
    raw = normalise(raw, face_gain(raw, gain))
    return cv2.resize(raw, SPECS[NAME].input_px, interpolation=cv2.INTER_AREA)


def read_places(crops: Sequence[np.ndarray]) -> list[tuple[str | None, float, str]]:
    """The readings of places' crops (:func:`crop`), all in one batch: ``"present"``,
    ``""`` for empty, or None when unsure (hidden, or a best answer below the Duel
    chips' floor), by the Duel chips' reading rule (:func:`vision.duel.chip_net.reading`)."""
    return chip_net.read_places(crops, NAME)
