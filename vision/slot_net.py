"""Market, noble and deck slots: is anything there?  The slots network (``splendor_slots``).

Whether a card or noble slot is bare is the first question its reader asks, and
the hardest to hand-write: a washed-out card under glare passes for paper, a
grey sleeve or a dim lamp hides the printed outline, a shadow lies over bare
paper.  The network answers it from the slot and a margin round it (the printed
outline included) with ``empty``, ``occupied`` or ``hidden`` (glare, a hand, a
shadow: nothing a person could read).  It was trained on slots cut by
:func:`crop` from rendered design tables (``vision/training/slot_crops.py``:
lamps, glare, hands, sleeves, both lenses, slots and decks emptied at random) and its
temperature and sure threshold were fitted on design calibration tables
(``vision/learned/params.toml``).

It says *whether*, never *which*: the card and noble readers still name what
lies there, and an ``occupied`` answer only stops them calling the slot empty.
A deck slot needs no more: its answer is the deck reader's
(:func:`vision.readers.read_deck`).
"""

from __future__ import annotations

import numpy as np

from vision.calibrate import rectify
from vision.face_cut import face_gain
from vision.layout import Slot
from vision.learned.params import params
from vision.learned.recognizer import Guess, recognizer
from vision.pixels import normalise

NAME = "splendor_slots"
#: The network's answers, in output order.
EMPTY, OCCUPIED, HIDDEN = "empty", "occupied", "hidden"
CLASSES = (EMPTY, OCCUPIED, HIDDEN)
#: The crop is cut at this resolution (px/mm) and reduced by area to the network's
#: input (about 0.7 px/mm): enough to see a card's print or a noble's picture.
CUT_PX_PER_MM = 1.5
#: Millimetres of mat kept round the slot: its printed outline and a card lying up to
#: 3 mm off it.
MARGIN_MM = 4.0


def crop(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> np.ndarray:
    """The slot and :data:`MARGIN_MM` round it, upright and white-balanced by ``gain``
    but no brighter than its own whites allow (:func:`vision.face_cut.face_gain`; BGR
    uint8; a noble's square slot is stretched to the network's card-shaped input, as
    in training).  WHY the local white: under a lamp brighter there than at the
    markers, the markers' gain alone washed a tile the camera saw plainly to white,
    and the network called it hidden (design frame 24004, 2 players, hard, wide)."""
    raw = rectify(image, h, slot, CUT_PX_PER_MM, MARGIN_MM)
    return normalise(raw, face_gain(raw, gain))


def guess(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> Guess:
    """The network's answer for one market, noble or deck slot."""
    return recognizer(NAME).guess([crop(image, h, slot, gain)])


def empty_sure(net: Guess) -> bool:
    """Whether the network says the slot is empty at or above its fitted threshold for
    empty answers (at most one wrong in 1000 on design calibration tables; the
    readers' "empty market slots" and "empty noble slots" thresholds,
    :func:`vision.sure.splendor`)."""
    return net.best == EMPTY and net.p >= params(NAME).empty_sure


def hidden_sure(net: Guess) -> bool:
    """Whether the network says the slot is hidden (glare, a hand, a shadow) at or above
    its fitted threshold for hidden answers (at most one wrong in 1000 on design
    calibration tables, ``params.toml``)."""
    return net.best == HIDDEN and net.p >= params(NAME).hidden_sure
