"""Stage 1 of reading a card: find it in its slot, or see the slot bare.

The slot and a margin round it are cut out of the frame once, at
``LOCATE_PX_PER_MM`` (:func:`find`); that one view, and the slots network's
(:mod:`vision.slot_net`), answer both questions a slot asks first:

* **empty?** the slots network, trained on rendered tables' slots (washed-out
  cards under glare, sleeves, dim lamps, shadows over bare paper), says so;
* **hidden?** the same network is sure a hand, glare or a shadow hides the slot:
  the card is unknown, as a person would find it (and as the noble reader says);
* **where?** the rectangle of a card's size holding the most "not paper"
  (:func:`vision.locate.locate`), with a few other fits of it.

Everything after (cut, seen, features, decode, confidence) starts from
:class:`Found`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision import cardface as cf
from vision import slot_net
from vision.calibrate import rectify
from vision.layout import Slot
from vision.locate import (
    EMPTY_MAX,
    EMPTY_TEXTURE,
    LOCATE_MARGIN_MM,
    LOCATE_PX_PER_MM,
    Located,
    locate,
)
from vision.observation import CardReading
from vision.pixels import lab_image, normalise

#: A card's size on the table, mm.
CARD_MM = (cf.CARD_W, cf.CARD_H)
#: Share of a card slot that must differ from paper for a card to be fitted in it
#: (the locate default, 0.45, is for anything).  WHY: glare makes much of a card
#: look like paper (official scenes: a red and a green level-3 card under a hot
#: spot covered 0.37-0.38); fitted, they are read with the looser rules of a found
#: card, and a fit that abstains still falls back to the reading of a pale card.
#: Measured at 0.25 (official scenes / official hold-out / recorded / our
#: hold-out): 344/0/3, 591/0/8, 346/0/1, 591/0/8 -> 346/0/1, 591/0/8, 347/0/0, 591/0/8.
CARD_OCCUPIED_MIN = 0.25


@dataclass(frozen=True)
class Found:
    """What stage 1 saw: ``answer`` is the slot's answer when it is bare or hidden
    (nothing more to read), else ``where`` says where the card lies (``where.center`` None: no
    outline found, the card is read where its slot is)."""

    where: Located
    answer: CardReading | None = None
    #: the slot looked like bare paper but was not called empty (a washed-out or white
    #: card, or paper under glare or a shadow): what lies there is in doubt
    bare: bool = False


def find(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> Found:
    """The card slot ``slot`` of the frame (``h``: table mm -> frame px, ``gain``: the
    markers' white balance there): bare, hidden, or where its card lies.  Empty is the slots
    network's answer, at its probability (the sure thresholds say when that is sure)."""
    raw = rectify(image, h, slot, LOCATE_PX_PER_MM, LOCATE_MARGIN_MM)
    patch = normalise(raw, gain)
    where = locate(image, h, slot, gain, CARD_MM, seen=(patch, lab_image(patch)),
                   occupied=CARD_OCCUPIED_MIN)
    net = slot_net.guess(image, h, slot, gain)
    if net.best == slot_net.EMPTY:
        return Found(where, CardReading(slot.id, "empty", confidence=net.p))
    if slot_net.hidden_sure(net):
        # WHY: the decoders named a card under a hand at 0.995, wrong, where the
        # network was sure of the hand (design frame 24002, 2 players, hard)
        return Found(where, CardReading(slot.id, "unknown", None, 0.0))
    # a slot that only may look bare (a washed-out or white card) is read as a card
    # with no outline, where its slot is: named if its print says which, else unknown
    looks_bare = where.coverage < EMPTY_MAX and where.texture <= EMPTY_TEXTURE
    return Found(where, bare=looks_bare)
