"""Reading a noble tile: which of the ten nobles it is, from its requirement squares."""

from __future__ import annotations

import math

import numpy as np

from companion.rules import catalogue
from companion.rules.catalogue import Noble
from companion.rules.gems import COLOURS
from vision import cardface as cf
from vision.card_reader import ABSTAIN_MARGIN, SEARCH_MM, UNIFORM_SIGMA, _sim, ring_colour
from vision.colours import ColourModel, distances
from vision.layout import Slot
from vision.locate import EMPTY_MAX, border_mat_fraction, face_image, locate
from vision.observation import (
    NobleReading,
)
from vision.pixels import lab_image

TOKEN_MAX_DIST = 45.0
#: Heights (mm, from ours) at which a noble's squares are looked for (more heights
#: let a 2-square noble pass for a 3-square one: tried, worse).
NOBLE_SHIFTS_MM = (0.0,)
#: A noble is read only when at least this much of the band 1-6 mm outside its slot
#: looks like the mat (paper or printed ink): see ``border_mat_fraction``.
NOBLE_BORDER_MIN = 0.6


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

