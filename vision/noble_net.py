"""The learned reader's opinion of a noble tile, joined to the squares' decode.

As for cards (:mod:`vision.card_net`): the decode reads the requirement squares
every printing shares and abstains when unsure; the network
(:mod:`vision.learned`, ``splendor_nobles``) looks at the whole tile where it was
found and where its slot is.  Joined the same way: agreement raises the
confidence, the network alone names what the decode left unsure, and a
disagreement is never sure.  A tile washed out by glare over more than
``NOBLE_WASHED_MAX`` of it gets no network opinion (nothing is read there).
"""

from __future__ import annotations

import numpy as np

from companion.rules import catalogue
from vision import cardface as cf
from vision.card_places import NAMED_MIN_CONFIDENCE, UNKNOWN_CONFIDENCE
from vision.face_cut import face_image
from vision.layout import Slot
from vision.learned.recognizer import Guess, recognizer
from vision.locate import Located
from vision.observation import NobleReading

#: Share of a tile clipped near white above which the network is not asked.
NOBLE_WASHED_MAX = 0.3


def guess(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
          where: Located) -> Guess | None:
    """The network's guess over the tile cut where it was found and where its slot is."""
    places = [Located(where.coverage, slot.center)]
    if where.center is not None:
        places.insert(0, where)
    faces = [face_image(image, h, slot, gain, (cf.NOBLE_W, cf.NOBLE_H), p) for p in places]
    if min(float((f.min(axis=2) >= 250).mean()) for f in faces) > NOBLE_WASHED_MAX:
        return None
    return recognizer("splendor_nobles").guess(faces)


def join(answer: NobleReading, net: Guess | None) -> NobleReading:
    """The decode's ``answer`` joined with the network's guess."""
    if net is None or answer.state == "empty":
        return answer
    if answer.state == "noble" and answer.noble is not None:
        if answer.noble.id == net.best:
            return NobleReading(answer.slot, "noble", answer.noble,
                                1 - (1 - net.p) * (1 - answer.confidence))
        p = min(answer.confidence, 1 - net.p)
        if p >= NAMED_MIN_CONFIDENCE:
            return NobleReading(answer.slot, "noble", answer.noble, p)
        return NobleReading(answer.slot, "unknown", None, min(p, UNKNOWN_CONFIDENCE))
    if net.p >= NAMED_MIN_CONFIDENCE:
        return NobleReading(answer.slot, "noble", catalogue.noble(net.best), net.p)
    return NobleReading(answer.slot, "unknown", None, min(net.p, UNKNOWN_CONFIDENCE))
