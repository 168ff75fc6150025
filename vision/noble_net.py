"""The learned reader's opinion of a noble tile, joined to the squares' decode.

As for cards (:mod:`vision.card_net`): the decode reads the requirement squares
every printing shares and abstains when unsure; the network
(:mod:`vision.learned`, ``splendor_nobles``) looks at the whole tile where it was
found and where its slot is.  The pair falls in one of :data:`CASES` (both name
one noble; the decode gave no answer, because it abstained or did not look, the
slot's printed outline not being seen and the tile cut where its slot is; they
name two nobles), and how far to trust each case is fitted, not written here:
``noble_join.toml``, by ``python -m vision.training.join --nobles``, on design
tables through the nobles network's calibration twin, as for cards.

A tile washed out by glare over more than ``NOBLE_WASHED_MAX`` of it gets no
network opinion (nothing is read there).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from companion.rules import catalogue
from vision import cardface as cf
from vision import sure
from vision.card_places import NAMED_MIN_CONFIDENCE, UNKNOWN_CONFIDENCE
from vision.face_cut import face_image
from vision.join_fit import JoinFit, from_table
from vision.layout import Slot
from vision.learned.recognizer import Guess, recognizer
from vision.locate import Located
from vision.observation import NobleReading

#: Share of a tile clipped near white above which the network is not asked.
NOBLE_WASHED_MAX = 0.3
#: The ways the decode's answer and the network's guess can stand (see the docstring).
#: WHY a tile the decode did not look at is "abstained" too: alone, that case held 22
#: rows in 2 400 design tables (under the 30 a curve is fitted on), so it named nothing,
#: and tiles in plain view under a dim lamp, the slots network sure they were there
#: and the network at 1.0, stayed unknown (design 26004, 28002, 2 players, hard).  In
#: both the network alone speaks; the slots network answers for an empty slot first.
CASES = ("agree", "abstained", "disagree")


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


@cache
def fitted() -> JoinFit:
    """``noble_join.toml`` beside the vision package (package data: a Pi has it)."""
    return from_table(sure.noble_join(), CASES)


def case_of(answer: NobleReading, net: Guess, looked: bool = True) -> str:
    """Which of :data:`CASES` the decode's ``answer`` and the network's guess make."""
    if not looked or answer.state != "noble" or answer.noble is None:
        return "abstained"
    return "agree" if answer.noble.id == net.best else "disagree"


def join(answer: NobleReading, net: Guess | None, looked: bool = True) -> NobleReading:
    """The decode's ``answer`` joined with the network's guess (``looked``: whether the
    decode read the tile's squares at all)."""
    if net is None or answer.state == "empty":
        return answer
    fit = fitted()
    case = case_of(answer, net, looked)
    decoded = answer.noble.id if answer.noble is not None else None
    named = decoded if case in fit.decode_wins and decoded is not None else net.best
    p = fit.probability(case, net.p, answer.confidence)
    if p >= NAMED_MIN_CONFIDENCE and case not in fit.rare:
        return NobleReading(answer.slot, "noble", catalogue.noble(named), p)
    return NobleReading(answer.slot, "unknown", None, min(p, UNKNOWN_CONFIDENCE))
