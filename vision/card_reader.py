"""Reading a card face: which catalogue card of the slot's level it is, or "unknown".

The card reader reads the face as a person does and decodes it by *analysis
by synthesis*: for every catalogue card of the slot's level it predicts what
should be seen (bonus gem colour; which cost circles, their colours and
numerals, bottom-aligned in the order white, blue, green, red, black; the
points numeral or a blank) and scores the evidence for that prediction.  The
best-scoring card wins when it beats the runner-up by ``ABSTAIN_MARGIN``,
otherwise the reader abstains.  Scoring every candidate, rather than
deciding each circle first, lets strong evidence (colours, the number of
circles) carry a weak numeral.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.rules import catalogue
from companion.rules.catalogue import Card
from companion.rules.gems import COLOURS
from vision import cardface as cf
from vision import digits
from vision.colours import ColourModel, distances
from vision.layout import Slot
from vision.locate import EMPTY_MAX, EMPTY_TEXTURE, FACE_PX_PER_MM, face_image, locate
from vision.observation import (
    CardReading,
)
from vision.pixels import lab_image
from vision.sampling import ring_colour
from vision.sampling import similarity as _sim

#: Circle uniformity width (Lab units; colour similarity is in vision.sampling).
UNIFORM_SIGMA = 22.0
#: Scores for "nothing here" in the card decoder.
NONE_DIGIT = 0.45
BLANK_POINTS = 0.5
BONUS_WEIGHT = 1.5
#: Where a cost circle's colour is sampled: a ring between the numeral and the rim.
CIRCLE_RING = (0.6, 0.85)
#: How far around its expected place a circle, square or gem is looked for, mm.
SEARCH_MM = 1.6
#: Slack around a found circle's centre when matching its numeral, mm.
DIGIT_SLACK_MM = 0.8
ABSTAIN_MARGIN = 0.08
#: Candidates (best by colour) whose numerals are read.
SHORTLIST = 6
#: Beyond this normalised distance the face matches no card well enough.
MAX_CARD_DISTANCE = 0.5
#: On a face with more than GLARE_FRACTION of its pixels saturated (>= SATURATED).
MAX_GLARE_DISTANCE = 0.42
#: A face that fits its best card this poorly (distance above POOR_FIT_DISTANCE) is
#: named only when the best beats the runner-up by POOR_FIT_MARGIN, not ABSTAIN_MARGIN.
#: WHY: on the publisher's faces (other fonts, gems and circle sizes than ours) every
#: wrong answer had a distance of 0.41-0.48 and a margin under 0.42, while on our own
#: faces only two right answers fit worse than 0.40, both by margins above 0.69: a
#: poor fit with a modest lead is a guess, and a wrong card is worse than "unknown".
POOR_FIT_DISTANCE = 0.40
POOR_FIT_MARGIN = 0.45
#: Below this distance a reading is trusted without trying other fits of the card.
GOOD_DISTANCE = 0.28
GLARE_FRACTION = 0.03
SATURATED = 250



def _crop(grey: np.ndarray, center_mm: tuple[float, float], half_w: float, half_h: float
          ) -> np.ndarray:
    s = FACE_PX_PER_MM
    x0 = max(0, round((center_mm[0] - half_w) * s))
    y0 = max(0, round((center_mm[1] - half_h) * s))
    x1 = min(grey.shape[1], round((center_mm[0] + half_w) * s))
    y1 = min(grey.shape[0], round((center_mm[1] + half_h) * s))
    return grey[y0:y1, x0:x1]


# -- card faces ---------------------------------------------------------------------
class FaceEvidence:
    """What a card face shows, measured lazily and scored for any candidate card."""

    def __init__(self, face: np.ndarray, colours: ColourModel) -> None:
        self.lab = lab_image(face)
        self.grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
        self.gems = colours.gems
        med, _, _ = ring_colour(self.lab, cf.GEM_CENTER, 0.5 * cf.GEM_R, 0.8 * cf.GEM_R,
                             search_mm=SEARCH_MM)
        self.bonus_sim = {k: _sim(d) for k, d in distances(med, colours.bonus).items()}
        self.circle_sim: list[dict[str, float]] = []
        #: where each circle was found (its numeral is read there)
        self.centres: list[tuple[float, float]] = []
        self.presence: list[float] = []
        for pos in range(cf.MAX_CIRCLES):
            med, spread, found = ring_colour(self.lab, cf.circle_center(pos),
                                             CIRCLE_RING[0] * cf.CIRCLE_R,
                                             CIRCLE_RING[1] * cf.CIRCLE_R, search_mm=SEARCH_MM)
            self.centres.append(found)
            u = math.exp(-((spread / UNIFORM_SIGMA) ** 2))
            sims = {k: _sim(d) * u for k, d in distances(med, self.gems).items()}
            self.circle_sim.append(sims)
            self.presence.append(max(sims.values()))
        self._digit: dict[tuple[int, str, int], float] = {}
        self._points: dict[int, float] = {}

    def digit(self, pos: int, colour: str, value: int) -> float:
        key = (pos, colour, value)
        if key not in self._digit:
            half = digits.COST_HALF_MM + DIGIT_SLACK_MM
            crop = _crop(self.grey, self.centres[pos], half, half)
            tpl = digits.cost_templates(colour, FACE_PX_PER_MM)[value]
            self._digit[key] = digits.best_match(crop, tpl)
        return self._digit[key]

    def points(self, value: int) -> float:
        if value not in self._points:
            x0, y0, x1, y1 = cf.POINTS_BOX
            c = ((x0 + x1) / 2, (y0 + y1) / 2)
            crop = _crop(self.grey, c, (x1 - x0) / 2 + 1.5, (y1 - y0) / 2 + 1.5)
            self._points[value] = digits.best_match(
                crop, digits.points_templates(FACE_PX_PER_MM)[value])
        return self._points[value]

    def score(self, card: Card, numerals: bool = True) -> float:
        """How well the face fits ``card``; without ``numerals`` only colours count."""
        costs = [(g.letter, card.cost[g]) for g in COLOURS if card.cost[g]]
        total = BONUS_WEIGHT * self.bonus_sim.get(card.bonus.letter, 0.0)
        for pos in range(cf.MAX_CIRCLES):
            if pos < len(costs):
                letter, n = costs[len(costs) - 1 - pos]
                total += self.circle_sim[pos].get(letter, 0.0)
                if numerals:
                    total += self.digit(pos, letter, n)
            else:
                total += (1 - self.presence[pos]) + NONE_DIGIT
        if numerals:
            total += self.points(card.points) if card.points else BLANK_POINTS
        return total


MAX_SCORE = BONUS_WEIGHT + cf.MAX_CIRCLES * 2 + 1


def decode_face(face: np.ndarray, level: int, colours: ColourModel
                ) -> tuple[Card | None, float, float, str | None]:
    """(card or None if abstained, confidence, distance, runner-up id) for a face image."""
    ev = FaceEvidence(face, colours)
    # glare washes colours towards white: demand a closer fit on a glaring face
    glare = float((face.min(axis=2) >= SATURATED).mean())
    max_distance = MAX_GLARE_DISTANCE if glare > GLARE_FRACTION else MAX_CARD_DISTANCE
    # cheap ranking by colours only, then numerals read for the plausible ones
    by_colour = sorted(catalogue.cards_of_level(level), key=lambda c: -ev.score(c, False))
    scored = sorted(((ev.score(c), c) for c in by_colour[:SHORTLIST]), key=lambda t: -t[0])
    (s1, best), (s2, second) = scored[0], scored[1]
    margin = s1 - s2
    distance = 1 - s1 / MAX_SCORE
    confidence = float(1 - math.exp(-margin / 0.25))
    need = POOR_FIT_MARGIN if distance > POOR_FIT_DISTANCE else ABSTAIN_MARGIN
    if margin < need or distance > max_distance:
        return None, confidence, distance, best.id
    return best, confidence, distance, second.id


def read_card(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              colours: ColourModel) -> CardReading:
    where = locate(image, h, slot, gain, (cf.CARD_W, cf.CARD_H))
    if where.coverage < EMPTY_MAX:
        if where.texture > EMPTY_TEXTURE:  # pale, but something with a picture lies there
            return CardReading(slot.id, "unknown", confidence=0.0)
        return CardReading(slot.id, "empty", confidence=1 - where.coverage / EMPTY_MAX / 2)
    if where.center is None:
        return CardReading(slot.id, "unknown", confidence=0.0)
    level = slot.level or 1
    card, conf, dist, other = decode_face(
        face_image(image, h, slot, gain, (cf.CARD_W, cf.CARD_H), where), level, colours)
    # a poor fit may come from a poor placement of the card: try the next fits
    for alt in where.others if dist > GOOD_DISTANCE else ():
        got = decode_face(face_image(image, h, slot, gain, (cf.CARD_W, cf.CARD_H), alt), level,
                          colours)
        if got[2] < dist:
            card, conf, dist, other = got
    if card is None:
        return CardReading(slot.id, "unknown", None, conf, dist, other)
    return CardReading(slot.id, "card", card, conf, dist, other)

