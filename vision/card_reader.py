"""Reading a card slot: which catalogue card of the slot's level it holds, or
"empty" (the printed slot seen bare), or "unknown".

:func:`read_card` is the whole path, one module per stage, each entered once per
pass and never calling back into an earlier one:

1. **find** (:mod:`vision.card_find`): "empty" when the slots network
   (:mod:`vision.slot_net`) says so, "unknown" when it is sure the slot is
   hidden (a hand, glare, a shadow), else where the card lies (the slot cut out
   once at ``LOCATE_PX_PER_MM``; :mod:`vision.locate`: the best rectangle and a
   few other fits).
2. **rectify** (:mod:`vision.face_cut`): one warp of the frame per place read,
   to an upright face at ``FACE_PX_PER_MM``, white-balanced.
3. **seen?** (:mod:`vision.card_seen`): glare clipping, a flat occluder or a
   deep shadow over a reading region stops the read ("unknown").
4. **features** (:mod:`vision.card_features`): glare lifted, then the bonus
   gem's colour, the cost circles (presence, colour, where), whether a points
   numeral is printed, and the grey crops the numerals are matched in.
5. **decode** (:mod:`vision.card_decode`): the catalogue card of the slot's
   level those features show (numerals matched against the template banks of
   :mod:`vision.digits` only for the cards that need them), or an abstention,
   with its evidence.
6. **confidence** (:mod:`vision.card_confidence`): that evidence as a
   calibrated probability of being right.
7. **learned** (:mod:`vision.card_net`): the network's guess on the faces of
   the first pass, joined to the decode's answer; when the network is sure of a
   card whose colours alone name it, in a slot that did not look bare, its
   answer stands and stages 4-6 are not run.

Which places are read and how their readings make one answer is
:mod:`vision.card_places`: the place found and, when it lies far from the slot,
the slot's place, in one pass; a second pass over the card's other fits only
when the first reading is not firm.  Each pass runs stages 2-6 over all its
places at once.
"""

from __future__ import annotations

import numpy as np

from vision import (
    card_confidence,
    card_decode,
    card_features,
    card_find,
    card_net,
    card_seen,
    face_cut,
)
from vision.card_confidence import FaceReading
from vision.card_decode import (
    COLOUR_MARGIN,
    MAX_CARD_DISTANCE,
    MAX_COLOUR_SCORE,
    MIN_WEAKEST,
    NUMERAL_MARGIN,
    POOR_NUMERAL_MARGIN,
    Decoded,
    max_colour_score,
    points_tell,
)
from vision.card_features import (
    RADIALITY_MID,
    RADIALITY_WIDTH,
    RIM_EDGE_FLOOR,
    SEARCH_MM,
    UNIFORM_SIGMA,
    FaceFeatures,
    radiality,
)
from vision.card_find import CARD_MM
from vision.card_places import Places
from vision.cardface import pattern
from vision.colours import ColourModel
from vision.layout import Slot
from vision.locate import FACE_PX_PER_MM
from vision.observation import CardReading

__all__ = [  # the parts tests and the noble reader use
    "ABSTAIN_MARGIN", "CARD_MM", "COLOUR_MARGIN", "FACE_PX_PER_MM", "MAX_CARD_DISTANCE",
    "MAX_COLOUR_SCORE", "MIN_WEAKEST", "NUMERAL_MARGIN", "POOR_NUMERAL_MARGIN",
    "RADIALITY_MID", "RADIALITY_WIDTH", "RIM_EDGE_FLOOR", "SEARCH_MM", "UNIFORM_SIGMA",
    "Decoded", "FaceFeatures", "FaceReading", "decode_face", "max_colour_score", "pattern",
    "points_tell", "radiality", "read_card", "read_face",
]

#: Margin the noble reader asks of its best noble (the card reader's are in card_decode).
ABSTAIN_MARGIN = 0.08


def read_card(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              colours: ColourModel) -> CardReading:
    """The card in ``slot`` of the frame ``image`` (``h``: table mm -> frame px, ``gain``:
    the markers' white balance there)."""
    found = card_find.find(image, h, slot, gain)                              # 1
    if found.answer is not None:
        return found.answer
    level = slot.level or 1
    places = Places(slot, found.where)
    net = None
    while places.todo:
        faces = face_cut.cut(image, h, slot, gain, CARD_MM, places.todo)      # 2
        seen = card_seen.judge_all(faces)                                     # 3
        if net is None:
            net = card_net.guess(faces, seen, level)                          # 7
            # WHY not on a slot that looked bare: the network knows no "empty" and
            # named a card on an empty slot in hard light (check seed 59005, 0.96)
            named = None if found.bare else card_net.alone(slot.id, net)
            if named is not None:
                return named
        features = card_features.extract_all(faces, seen, colours)            # 4
        decoded = card_decode.decode_all(features, seen, level)               # 5
        places.take(card_confidence.state_all(decoded, seen))                 # 6
    assert places.answer is not None
    return card_net.join(places.answer, net)


def read_face(face: np.ndarray, level: int, colours: ColourModel) -> FaceReading:
    """Stages 3-6 on one rectified face (BGR at ``FACE_PX_PER_MM``)."""
    seen = card_seen.judge_all([face])
    features = card_features.extract_all([face], seen, colours)
    return card_confidence.state_all(card_decode.decode_all(features, seen, level), seen)[0]


def decode_face(face: np.ndarray, level: int, colours: ColourModel
                ) -> tuple[object, float, float, str | None]:
    """(card or None if abstained, confidence, distance, runner-up id) for a face image.

    ``distance`` is 1 - the colour fit of the best card (0 a perfect fit)."""
    r = read_face(face, level, colours)
    return r.card, r.confidence, r.distance, r.other
