"""Stage 1 of reading a card: find it in its slot, or see the slot bare.

The slot and a margin round it are cut out of the frame once, at
``LOCATE_PX_PER_MM`` (:func:`find`); that one view answers both questions a
slot asks first:

* **empty?** the slot looks like bare paper, its printed outline is seen
  (:mod:`vision.outline`: a sleeve or a hand over the slot hides it) and
  nothing in it is clipped white (a washed-out card passes for paper);
* **where?** the rectangle of a card's size holding the most "not paper"
  (:func:`vision.locate.locate`), with a few other fits of it.

Everything after (cut, seen, features, decode, confidence) starts from
:class:`Found`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision import cardface as cf
from vision.calibrate import rectify
from vision.card_seen import SATURATED
from vision.face_cut import CAPTURE_CLIPPED
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
from vision.outline import ink, outline_ink
from vision.pixels import all_at_least, lab_image, normalise

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
#: Least mean ink of the four sides of a slot's printed outline (``outline.outline_ink``,
#: the mean: a slot mapped a few mm off shows three sides) for it to be called empty.
#: Measured (/tmp/n12/outline_cards.py): the committed scenes' empty card slots in
#: view 0.76-1.0, covered 0.32-0.47; design world frames (medium, hard, seeds
#: 1003-1007), cards under a grey sleeve that read "empty" at 0.87-0.996: 0.0-0.47.
CARD_OUTLINE_MIN = 0.6
#: Most ink (``outline.ink``) inside a slot, 5 mm in from its edges, for its outline to
#: count.  WHY: ink is "darker than the lightest place near it"; under a dim lamp the
#: balance's gain lifts the sensor's noise until nearly every pixel is ink, and a
#: grey sleeve over a row of cards showed its "outline" on every side (design world
#: frame, 4 players, hard, seed 1051: four cards read "empty" at 0.84-1.0).  Bare
#: paper holds no ink.  Measured on design world frames (medium, hard, seeds
#: 1040-1045 and 1050-1053, faces as printed and at 1.7 px/mm; /tmp script over
#: ``find``'s test): slots called empty 0.0-0.09 inside, those sleeved cards 0.51-0.77.
EMPTY_INSIDE_INK_MAX = 0.3
#: Share of a bare-looking slot clipped to white at which it is not called empty.
#: WHY: a washed-out card under glare passes for paper (issue 12: "empty" at 0.945).
#: Clipped as captured (``CAPTURE_CLIPPED`` in every channel); the mat's paper stays
#: below it under every light of the recorded and world scenes.
EMPTY_MAX_CLIPPED = 0.1
#: Beyond this share of the mat round a slot white once balanced, brightness cannot
#: tell a white card from paper (the lamp lifts both to white): only the sensor's own
#: clipping then says the slot is unseen.  Seen: the world game's bare slots under a
#: bright lamp 0.71-0.87; design world frames' pale cards (4p hard seeds 1000, 1003)
#: 0.2 (``vision world --split design --difficulty hard --mistakes``).
RING_WHITE_MAX = 0.5


@dataclass(frozen=True)
class Found:
    """What stage 1 saw: ``empty`` is the slot's answer when it is bare (nothing more
    to read), else ``where`` says where the card lies (``where.center`` None: no
    outline found, the card is read where its slot is)."""

    where: Located
    empty: CardReading | None = None
    #: the slot looked like bare paper but was not called empty (a washed-out or white
    #: card, or paper under glare or a shadow): what lies there is in doubt
    bare: bool = False


def find(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray) -> Found:
    """The card slot ``slot`` of the frame (``h``: table mm -> frame px, ``gain``: the
    markers' white balance there): bare, or where its card lies."""
    raw = rectify(image, h, slot, LOCATE_PX_PER_MM, LOCATE_MARGIN_MM)
    patch = normalise(raw, gain)
    lab = lab_image(patch)
    where = locate(image, h, slot, gain, CARD_MM, seen=(patch, lab), occupied=CARD_OCCUPIED_MIN)
    looks_bare = where.coverage < EMPTY_MAX and where.texture <= EMPTY_TEXTURE
    if (looks_bare and outline_ink(lab, slot, "mean") >= CARD_OUTLINE_MIN
            and inside_ink(lab) <= EMPTY_INSIDE_INK_MAX and not bare_slot_unseen(raw, patch)):
        return Found(where, CardReading(slot.id, "empty",
                                        confidence=1 - where.coverage / EMPTY_MAX / 2))
    # a slot that only may look bare (a washed-out or white card) is read as a card
    # with no outline, where its slot is: named if its print says which, else unknown
    return Found(where, bare=looks_bare)


def inside_ink(lab: np.ndarray) -> float:
    """Share of the slot view's inside (5 mm in from the slot's edges) that is ink:
    none on bare paper; most of it where noise passes for ink, which the outline
    test then cannot tell from a printed line (``EMPTY_INSIDE_INK_MAX``)."""
    m = round((LOCATE_MARGIN_MM + 5.0) * LOCATE_PX_PER_MM)
    return float(ink(lab)[m:-m, m:-m].mean())


def bare_slot_unseen(raw: np.ndarray, patch: np.ndarray) -> bool:
    """Whether a slot that looks like bare paper may only look so: something in it
    clipped to white (a washed-out card passes for paper).  ``raw``: the slot view as
    captured, ``patch``: the same white-balanced.

    Two tells.  Clipped *as captured* (``CAPTURE_CLIPPED``): glare the sensor could
    not record.  Or white once balanced in more of the slot than of the mat round
    it (by ``EMPTY_MAX_CLIPPED``): a card's white is whiter than the mat's paper,
    unless the mat round it is white too (``RING_WHITE_MAX``).  WHY not "white once balanced"
    alone: under a lamp brighter than at the markers the balance lifts the bare mat
    itself to white, and every bare slot read "unknown" (the world game's level-1
    slots once the deck ran out); WHY not "clipped as captured" alone: a pale card
    under a bright lamp, not clipped by the sensor, was then called empty."""
    if float(all_at_least(raw, CAPTURE_CLIPPED).mean()) > EMPTY_MAX_CLIPPED:
        return True
    white = all_at_least(patch, SATURATED)
    m = round(LOCATE_MARGIN_MM * LOCATE_PX_PER_MM)
    inner = white[m:-m, m:-m]
    ring_share = (float(white.sum()) - float(inner.sum())) / max(white.size - inner.size, 1)
    return ring_share <= RING_WHITE_MAX and float(inner.mean()) - ring_share > EMPTY_MAX_CLIPPED
