"""Reading a noble tile: which of the ten nobles it is, from its requirement squares."""

from __future__ import annotations

import math

import numpy as np

from companion.rules import catalogue
from companion.rules.catalogue import Noble
from companion.rules.gems import COLOURS
from vision import cardface as cf
from vision.calibrate import rectify
from vision.card_reader import ABSTAIN_MARGIN, SEARCH_MM, UNIFORM_SIGMA
from vision.colours import ColourModel, distances
from vision.layout import Slot
from vision.locate import (
    EMPTY_MAX,
    EVIDENCE_TAU,
    LOCATE_MARGIN_MM,
    LOCATE_PX_PER_MM,
    face_image,
    locate,
)
from vision.observation import (
    NobleReading,
)
from vision.pixels import INK_LAB, PAPER_LAB, lab_distance, lab_image, normalise, shaded_distance
from vision.sampling import ring_colour
from vision.sampling import similarity as _sim

TOKEN_MAX_DIST = 45.0
#: Heights (mm, from ours) at which a noble's squares are looked for (more heights
#: let a 2-square noble pass for a 3-square one: tried, worse).
NOBLE_SHIFTS_MM = (0.0,)
#: A noble is read only when at least this much of the band 1-6 mm outside its slot
#: looks like the mat (paper or printed ink): see ``border_mat_fraction``.
NOBLE_BORDER_MIN = 0.6


def border_mat_fraction(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray
                        ) -> float:
    """The share of the band 1-6 mm outside the slot's outline that looks like the mat.

    WHY: the markers can pin the homography down well where they are and badly
    elsewhere (markers all on one line, lens distortion near the frame's edge)
    without any sign in the fit itself: a tilted frame showing only the two
    markers beside the level-3 row put the last noble slot 4 cm off, half on
    the wooden table, and the empty slot read as a noble.  A noble tile (60 mm)
    lies inside its 64 mm slot and the nobles are 6 mm apart, so around a well
    placed noble slot there is only mat; when there is not, the placement (or
    a hand over it) is not to be trusted and the reader abstains.  Cards are
    not checked this way: neighbouring cards often overlap the band.
    """
    s, margin = LOCATE_PX_PER_MM, LOCATE_MARGIN_MM
    patch = normalise(rectify(image, h, slot, s, margin), gain)
    lab = lab_image(patch)
    mat = np.minimum(shaded_distance(lab, PAPER_LAB), lab_distance(lab, INK_LAB))
    b = round((margin - 1) * s)
    band = np.ones(mat.shape, bool)
    band[b:-b, b:-b] = False
    return float((mat[band] < EVIDENCE_TAU).mean())


def read_noble(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
               colours: ColourModel) -> NobleReading:
    border = border_mat_fraction(image, h, slot, gain)
    if border < NOBLE_BORDER_MIN:
        return NobleReading(slot.id, "unknown", None, 0.0)
    where = locate(image, h, slot, gain, (cf.NOBLE_W, cf.NOBLE_H))
    if where.coverage < EMPTY_MAX:
        return NobleReading(slot.id, "empty", confidence=1 - where.coverage / EMPTY_MAX / 2)
    if where.center is None:
        return NobleReading(slot.id, "unknown", confidence=0.0)
    face = face_image(image, h, slot, gain, (cf.NOBLE_W, cf.NOBLE_H), where)
    lab = lab_image(face)
    # each noble takes its best over NOBLE_SHIFTS_MM (the squares' column may sit
    # at another height on another printing)
    readings = []
    for shift in NOBLE_SHIFTS_MM:
        sims, presence = [], []
        for pos in range(cf.MAX_SQUARES):
            x, y = cf.square_center(pos)
            med, spread, _ = ring_colour(lab, (x, y + shift), 0.62 * cf.SQUARE_HALF,
                                         0.92 * cf.SQUARE_HALF, square=True,
                                         search_mm=SEARCH_MM)
            u = math.exp(-((spread / UNIFORM_SIGMA) ** 2))
            d = {k: _sim(v) * u for k, v in distances(med, colours.gems).items()}
            sims.append(d)
            presence.append(max(d.values()))
        readings.append((sims, presence))

    def score(noble: Noble) -> float:
        needs = [g.letter for g in COLOURS if noble.requirement[g]]
        return max(sum(sims[p].get(needs[p], 0.0) if p < len(needs) else 1 - presence[p]
                       for p in range(cf.MAX_SQUARES)) for sims, presence in readings)

    ranked = sorted(((score(n), n) for n in catalogue.nobles()), key=lambda t: -t[0])
    margin = ranked[0][0] - ranked[1][0]
    conf = float(1 - math.exp(-margin / 0.25))
    if margin < ABSTAIN_MARGIN or ranked[0][0] < 0.45 * cf.MAX_SQUARES:
        return NobleReading(slot.id, "unknown", None, conf)
    return NobleReading(slot.id, "noble", ranked[0][1], conf)

