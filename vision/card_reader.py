"""Reading a card face: which catalogue card of the slot's level it is, or "unknown".

The card reader reads the face as a person does: the bonus gem's colour, the
cost circles (how many, and their colours, bottom-aligned in the order white,
blue, green, red, black), whether a points numeral is printed, and only then
the numerals.  It decodes in two stages:

1. *Colour pattern*: every catalogue card of the slot's level predicts a
   pattern (bonus colour, the colours of its circles, points or none) and the
   evidence for each pattern is scored.  The best pattern must beat the best
   *other* pattern by ``COLOUR_MARGIN`` and fit well enough, else the reader
   abstains.
2. *Numerals*: within a level the pattern names the card, except for a few
   pairs (level 1: 1w5/1w6, 1u2/1u3, 1g3/1g4, 1r2/1r5, 1k3/1k4 differ by one
   cost being 2 rather than 1; level 2: 2w2/2w3, 2g2/2g3, 2u5/2u6, 2g5/2g6 by
   their points and costs).  Only then are numerals read, and the better
   candidate must lead by ``NUMERAL_MARGIN``.

WHY two stages: colours and the number of circles are robust on any print
(ours and the publisher's), numerals are not (the publisher's bold italic
serif matches our Hershey templates at 0.2-0.4 correlation for every digit).
A single sum of colour and numeral scores let weak numerals blur the fit and
the margin; judged apart, strong colour evidence names most cards alone and
weak numerals can only make the reader abstain within a pair, never pick a
card of another pattern.

A circle's presence is judged by its *shape*: along its rim the grey-level
gradient points radially (``radiality``), which busy artwork rarely does over
a whole circle, times how well its ring matches any gem colour.  WHY: the
publisher's circles are glossy (a gradient from light to dark across the
disc) and their numerals fill most of the disc, so a uniformity test of the
colour ring (the former presence test) rejected real circles.

Before anything is measured, additive glare is lifted off the face
(:func:`vision.face_light.lift_glare`): a hot spot washes the gem and circles towards white and
fades thin numerals, and was the commonest cause of abstaining on the
publisher's faces.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from functools import lru_cache

import cv2
import numpy as np

from companion.rules import catalogue
from companion.rules.catalogue import Card
from companion.rules.gems import COLOURS
from vision import cardface as cf
from vision import digits
from vision.colours import L_WEIGHT, Classes, ColourModel
from vision.face_light import MAX_HIDDEN, hidden_share, lift_glare
from vision.layout import Slot
from vision.locate import (
    EMPTY_MAX,
    EMPTY_TEXTURE,
    FACE_PX_PER_MM,
    OCCUPIED_MIN,
    Located,
    face_image,
    locate,
)
from vision.observation import (
    CardReading,
)
from vision.pixels import lab_image
from vision.sampling import COLOUR_SIGMA, ring_colour

#: Circle uniformity width (Lab units); used by the noble reader's squares.
UNIFORM_SIGMA = 22.0
#: Numeral score of a place where a card has no circle (when numerals settle
#: a close call between colour patterns).
NONE_DIGIT = 0.45
#: Score of a blank points box in the numeral stage.
BLANK_POINTS = 0.5
BONUS_WEIGHT = 1.5
#: Weight of "a points numeral is printed / the box is blank" in the colour stage.
POINTS_WEIGHT = 1.0
#: Where a cost circle's colour is sampled: a ring between the numeral and the rim.
CIRCLE_RING = (0.6, 0.85)
#: How far around its expected place a circle, square or gem is looked for, mm.
SEARCH_MM = 1.6
#: Slack around a found circle's centre when matching its numeral, mm.
DIGIT_SLACK_MM = 0.8
#: Margin the noble reader asks of its best noble (the card reader's are below).
ABSTAIN_MARGIN = 0.08
#: The best colour pattern must beat the best other pattern by this much.
#: Measured on the recorded scenes and the official-face scenes (first fits):
#: every wrong best pattern led by less than 0.18, right ones by more than 0.23
#: in 99 % of cases.
COLOUR_MARGIN = 0.25
#: Within a pair of the same pattern, the numerals must favour one card by
#: ``NUMERAL_MARGIN``, or by ``POOR_NUMERAL_MARGIN`` when the best card's numerals
#: match their templates poorly (mean correlation under ``GOOD_NUMERAL_FIT``).
#: Measured on pairs: our own faces fit at 0.71-0.87 and were right by 0.11-1.25;
#: the publisher's fit at 0.25-0.48 and were *wrong* by up to 0.12, so there only a
#: large lead names a card (most publisher pairs abstain).
NUMERAL_MARGIN = 0.08
POOR_NUMERAL_MARGIN = 0.3
GOOD_NUMERAL_FIT = 0.6
#: Lead needed when the serif templates (the publisher's numerals) fit better
#: than ours.
SERIF_NUMERAL_MARGIN = 0.1
#: Mean fit of the serif templates at which they may settle a close colour call.
GOOD_SERIF_FIT = 0.5
#: Radiality (fraction of the rim's gradient that points radially) at which a
#: circle is as likely as not, and the width of that transition.
RADIALITY_MID = 0.66
RADIALITY_WIDTH = 0.03
#: Gradient (Sobel units per rim sample) added to the best rim's total before its
#: radial share is taken.  WHY: on a blank, saturated stretch of a pale card (the
#: publisher's white cards, snow clipped to L=255) the rim's gradient is a unit or
#: two of noise whose share can reach 0.85, so an empty place passed for a white
#: circle and white cards abstained.  Printed rims carry 21+ (ours) and 36+ (the
#: publisher's) per sample, where the floor changes the share by under 5 %.  It is
#: applied after the best centre is chosen, so the centre (and the ring colour read
#: there) stays where the rim is: applied before, it moved a centre on a dim green
#: circle, whose poorer colour then read as "no circle" (a wrong 3k2 -> 3k4).
#: Higher floors (2-3) also fade blurred low-contrast circles: harsh test faces
#: 2 -> 3-6 wrong of 1080.
RIM_EDGE_FLOOR = 1.0
#: A printed points numeral: the 95th percentile gradient of the points box, over
#: that of the empty middle of the band, at which it is as likely as not.
#: WHY 1.35 (was 1.55): on the publisher's green cards the band shows the picture,
#: so a thin printed "1" (1g8, 2g1, 2g2) measured only 1.2-1.56 and read as blank;
#: blank boxes with a strong gradient (POINTS_GRADIENT_MIN) measure at most 0.95
#: (official scenes and a hold-out of them, frames seed 7), ours at most 0.99.
POINTS_RATIO_MID = 1.35
POINTS_GRADIENT_MIN = 120.0
#: Beyond this distance (1 - colour fit) the face matches no card well enough.
MAX_CARD_DISTANCE = 0.4
#: On a face with more than GLARE_FRACTION of its pixels saturated (>= SATURATED).
MAX_GLARE_DISTANCE = 0.3
#: Below this distance a reading is trusted without trying other fits of the card.
GOOD_DISTANCE = 0.2
#: A card read where its slot is (none was found in it) must fit this closely.
#: WHY: the publisher's white cards (white band, snowy pictures) pass for paper, so
#: no outline is found; read at the slot's place they fit at 0.01-0.21 when right,
#: but a card lying a few mm off can fit a wrong card at 0.28.
UNPLACED_MAX_DISTANCE = 0.2
#: ... read first where the slot is; unless that fits within UNPLACED_GOOD_DISTANCE,
#: also UNPLACED_SHIFT_MM off along and across and turned 1.5°, the closest fit wins.
UNPLACED_GOOD_DISTANCE = 0.1
UNPLACED_SHIFT_MM = 2.0
#: ... and when every piece of its evidence (bonus, each circle or its absence,
#: the points) scores at least this.  WHY: a card cut out a few mm off (or with
#: glare on its gem) can fit a wrong card at 0.15 on the strength of the rest;
#: wrong decodes had a weakest piece under 0.2, 95 % of right ones above 0.22.
GOOD_WEAKEST = 0.3
#: An unplaced card that fits beyond UNPLACED_MAX_DISTANCE is still named when at
#: least this share of the places read name the same
#: card, none names another, and every one of them on evidence whose weakest piece
#: is at least UNPLACED_AGREE_WEAKEST.  WHY: a dim red card under glare (official
#: scenes) fit 3r1 at 0.25-0.30 at 8 of its 11 places and nothing else; the wrong
#: fits of a card lying off its slot come from one or two places, not from most.
#: Measured: official cards +1 right; a stress of our and the publisher's cards
#: read as unplaced 3-4 mm off their slot: 383 right / 7 wrong / 78 abstained with
#: or without this rule (the 7 are fits within 0.2, named before and after).
UNPLACED_AGREE = 0.5
UNPLACED_AGREE_WEAKEST = GOOD_WEAKEST
#: A card is named only if every piece of its evidence scores at least MIN_WEAKEST.
#: WHY: on blurred, faded faces the points numeral and pale circles vanish and a
#: card with one point reads as its blank-points neighbour at a good distance
#: (1w8 -> 1w2, 1k8 -> 1k5); every such wrong answer had a piece under 0.05.
#: Cost, measured: recorded 100 % -> 99.73 % right, a fresh hold-out of our faces
#: (frames seed 7, 150 frames) 98.56 % -> 97.48 %, official unchanged; faded test
#: faces 48 named / 2 wrong -> 19 / 0.
MIN_WEAKEST = 0.1
#: Share of a card slot that must differ from paper for a card to be fitted in it
#: (the locate default, 0.45, is for anything).  WHY: glare makes much of a card
#: look like paper (official scenes: a red and a green level-3 card under a hot
#: spot covered 0.37-0.38); fitted, they are read with the looser rules of a found
#: card, and a fit that abstains still falls back to the reading of a pale card.
#: Measured at 0.25 (official scenes / official hold-out / recorded / our
#: hold-out): 344/0/3, 591/0/8, 346/0/1, 591/0/8 -> 346/0/1, 591/0/8, 347/0/0, 591/0/8.
CARD_OCCUPIED_MIN = 0.25
#: A card found farther than this from its slot's centre is also read at the slot.
FAR_FROM_SLOT_MM = 3.0
#: ... and is named with at least this confidence.
GOOD_CONFIDENCE = 0.8
#: How much worse (distance) a fit that names a card may be than the best fit
#: that abstains, and still be taken.
FIT_SLACK = 0.05
GLARE_FRACTION = 0.03
#: A face whose grey levels span less than this (2nd to 98th percentile) is washed
#: out (haze, heavy glare, a face seen through a sleeve) and is not named.  WHY:
#: washed-out colours drift to white and faded circles read as absent, which fits
#: white cards with few circles closely (harsh test: 3 of 20 named were wrong).
#: Measured: our faces in the recorded scenes span 117-200 levels, the publisher's
#: 110-230; the harsh test's washed-out faces 64-98.
MIN_CONTRAST = 100.0
SATURATED = 250
#: Angles and radii (in circle radii) at which a circle's rim is sampled.
RIM_ANGLES = 32
RIM_RADII = (0.9, 1.0, 1.1)
SEARCH_STEPS = 5
#: Smoothing (Gaussian sigma, px) before edges are measured.
EDGE_SMOOTH_PX = 0.7


def _crop(grey: np.ndarray, center_mm: tuple[float, float], half_w: float, half_h: float
          ) -> np.ndarray:
    s = FACE_PX_PER_MM
    x0 = max(0, round((center_mm[0] - half_w) * s))
    y0 = max(0, round((center_mm[1] - half_h) * s))
    x1 = min(grey.shape[1], round((center_mm[0] + half_w) * s))
    y1 = min(grey.shape[0], round((center_mm[1] + half_h) * s))
    return grey[y0:y1, x0:x1]


@lru_cache(maxsize=8)
def _rim(r_px: float, search_px: float) -> tuple[np.ndarray, ...]:
    """Sample offsets of a circle's rim at every searched centre, and the radial
    unit vectors: (centre dx, centre dy, sample dx, sample dy, cos, sin)."""
    th = np.linspace(0, 2 * np.pi, RIM_ANGLES, endpoint=False)
    r = r_px * np.asarray(RIM_RADII)[:, None]
    steps = np.round(np.linspace(-search_px, search_px, SEARCH_STEPS)).astype(int)
    oy, ox = (a.ravel() for a in np.meshgrid(steps, steps, indexing="ij"))
    c, s = np.tile(np.cos(th), len(RIM_RADII)), np.tile(np.sin(th), len(RIM_RADII))
    return ox, oy, (r * np.cos(th)).ravel(), (r * np.sin(th)).ravel(), c, s


def radiality(gx: np.ndarray, gy: np.ndarray, center_mm: tuple[float, float], r_mm: float,
              search_mm: float, floor: float = 0.0) -> tuple[float, tuple[float, float]]:
    """How circular the edges around a point are, and where: the share of the
    gradient along a circle of radius ``r_mm`` that points radially (about 0.5 on
    texture, towards 1 on a printed circle), at the best centre within ``search_mm``."""
    s = FACE_PX_PER_MM
    ox, oy, dx, dy, c, sn = _rim(r_mm * s, search_mm * s)
    x = np.clip(np.round(center_mm[0] * s + ox[:, None] + dx[None, :]).astype(int), 0,
                gx.shape[1] - 1)
    y = np.clip(np.round(center_mm[1] * s + oy[:, None] + dy[None, :]).astype(int), 0,
                gx.shape[0] - 1)
    idx = y * gx.shape[1] + x
    a, b = np.take(gx.reshape(-1), idx), np.take(gy.reshape(-1), idx)
    radial = np.abs(a * c + b * sn).sum(1)
    tangential = np.abs(b * c - a * sn).sum(1)
    share = radial / (radial + tangential + 1e-6)
    i = int(np.argmax(share))
    floored = radial[i] / (radial[i] + tangential[i] + floor * a.shape[1] + 1e-6)
    return float(floored), (center_mm[0] + ox[i] / s, center_mm[1] + oy[i] / s)


@lru_cache(maxsize=8)
def _ring(r0_px: float, r1_px: float) -> tuple[np.ndarray, np.ndarray]:
    n = math.ceil(r1_px) + 1
    yy, xx = np.mgrid[-n:n + 1, -n:n + 1]
    d = np.hypot(xx, yy)
    sel = (d >= r0_px) & (d <= r1_px)
    return yy[sel], xx[sel]


def _ring_median(lab: np.ndarray, center_mm: tuple[float, float], r0_mm: float,
                 r1_mm: float) -> np.ndarray:
    """Median Lab of the ring r0..r1 (mm) around a point (no search: the circle's
    centre is already found by its rim)."""
    s = FACE_PX_PER_MM
    dy, dx = _ring(r0_mm * s, r1_mm * s)
    y = np.clip(round(center_mm[1] * s) + dy, 0, lab.shape[0] - 1)
    x = np.clip(round(center_mm[0] * s) + dx, 0, lab.shape[1] - 1)
    return np.median(np.take(lab.reshape(-1, 3), y * lab.shape[1] + x, axis=0), axis=0)


def _similarities(labs: np.ndarray, classes: Classes) -> list[dict[str, float]]:
    """Colour similarity of each Lab colour in ``labs`` to each class (its nearest
    centre), in one array operation (``vision.colours.distances`` per colour)."""
    names = list(classes)
    centres = [np.asarray(classes[k], np.float32).reshape(-1, 3) for k in names]
    owner = np.concatenate([np.full(len(c), i) for i, c in enumerate(centres)])
    d = np.asarray(labs, np.float32)[:, None, :] - np.concatenate(centres)[None, :, :]
    dist = np.sqrt((L_WEIGHT * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    sims = np.exp(-((dist / COLOUR_SIGMA) ** 2))
    best = np.stack([sims[:, owner == i].max(1) for i in range(len(names))], 1)
    return [dict(zip(names, map(float, row), strict=True)) for row in best]


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


Pattern = tuple[str, tuple[str, ...], bool]


def pattern(card: Card) -> Pattern:
    """What the colour stage can see of a card: bonus, cost colours, points or not."""
    return card.bonus.letter, tuple(g.letter for g in COLOURS if card.cost[g]), card.points > 0


def _lab_where_read(face: np.ndarray) -> np.ndarray:
    """The face in Lab where it is read (the gem ring, the circles' column), zero
    elsewhere: the same values there as converting the whole face, in a fifth."""
    s = FACE_PX_PER_MM
    lab = np.zeros(face.shape, np.float32)
    reach_gem = 0.8 * cf.GEM_R + SEARCH_MM + 1
    reach_circle = CIRCLE_RING[1] * cf.CIRCLE_R + SEARCH_MM + 1
    top = cf.circle_center(cf.MAX_CIRCLES - 1)[1]
    for x0, y0, x1, y1 in ((cf.GEM_CENTER[0] - reach_gem, cf.GEM_CENTER[1] - reach_gem,
                            cf.GEM_CENTER[0] + reach_gem, cf.GEM_CENTER[1] + reach_gem),
                           (cf.CIRCLE_X - reach_circle, top - reach_circle,
                            cf.CIRCLE_X + reach_circle, cf.CIRCLE_BOTTOM_Y + reach_circle)):
        r = (slice(max(0, math.floor(y0 * s)), math.ceil(y1 * s) + 1),
             slice(max(0, math.floor(x0 * s)), math.ceil(x1 * s) + 1))
        lab[r] = lab_image(face[r])
    return lab


# -- card faces ---------------------------------------------------------------------
class FaceEvidence:
    """What a card face shows, measured once (numerals lazily) and scored for any card."""

    def __init__(self, face: np.ndarray, colours: ColourModel) -> None:
        self.lab = _lab_where_read(face)
        self.grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
        # edges of a smoothed face: sensor noise must not pass for texture
        smooth = cv2.GaussianBlur(self.grey, (0, 0), EDGE_SMOOTH_PX)
        gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0)
        gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
        med, _, _ = ring_colour(self.lab, cf.GEM_CENTER, 0.5 * cf.GEM_R, 0.8 * cf.GEM_R,
                                search_mm=SEARCH_MM)
        self.bonus_sim = _similarities(med[None, :], colours.bonus)[0]
        self.circle_sim: list[dict[str, float]] = []
        #: where each circle was found (its numeral is read there)
        self.centres: list[tuple[float, float]] = []
        #: how likely a circle is printed at each place (shape times colour)
        self.presence: list[float] = []
        shapes, meds = [], []
        for pos in range(cf.MAX_CIRCLES):
            share, found = radiality(gx, gy, cf.circle_center(pos), cf.CIRCLE_R, SEARCH_MM,
                                     RIM_EDGE_FLOOR)
            meds.append(_ring_median(self.lab, found, CIRCLE_RING[0] * cf.CIRCLE_R,
                                     CIRCLE_RING[1] * cf.CIRCLE_R))
            shapes.append(_logistic((share - RADIALITY_MID) / RADIALITY_WIDTH))
            self.centres.append(found)
        for shape, sims in zip(shapes, _similarities(np.array(meds), colours.gems),
                               strict=True):
            self.circle_sim.append({k: shape * v for k, v in sims.items()})
            self.presence.append(shape * max(sims.values()))
        self.points_printed = self._points_printed(gx, gy)
        self._digit: dict[tuple[int, str, int, bool], float] = {}
        self._points: dict[tuple[int, bool], float] = {}

    @staticmethod
    def _points_printed_from(box: np.ndarray, band: np.ndarray) -> float:
        g_box = float(np.percentile(box, 95))
        g_band = float(np.percentile(band, 95))
        ratio = g_box / (g_band + 32.0)
        return _logistic((ratio - POINTS_RATIO_MID) / 0.1) * _logistic(
            (g_box - POINTS_GRADIENT_MIN) / 20.0)

    def _points_printed(self, gx: np.ndarray, gy: np.ndarray) -> float:
        """How likely a points numeral is printed: its outlined glyph has far more
        edge than the band beside it (which may show the artwork faintly)."""
        mag = np.abs(gx) + np.abs(gy)
        x0, y0, x1, y1 = cf.POINTS_BOX
        box = _crop(mag, ((x0 + x1) / 2, (y0 + y1) / 2), (x1 - x0) / 2, (y1 - y0) / 2)
        band = _crop(mag, (31.0, 10.0), 10.0, 7.0)
        return self._points_printed_from(box, band)

    def digit(self, pos: int, colour: str, value: int, serif: bool = False) -> float:
        """Match of numeral ``value`` in circle ``pos``: our print's templates, or
        with ``serif`` the publisher's (a bold italic serif)."""
        key = (pos, colour, value, serif)
        if key not in self._digit:
            half = digits.COST_HALF_MM + DIGIT_SLACK_MM
            crop = _crop(self.grey, self.centres[pos], half, half)
            bank = digits.serif_cost_templates if serif else digits.cost_templates
            self._digit[key] = digits.best_match(crop, bank(colour, FACE_PX_PER_MM)[value])
        return self._digit[key]

    def points(self, value: int, serif: bool = False) -> float:
        key = (value, serif)
        if key not in self._points:
            x0, y0, x1, y1 = cf.POINTS_BOX
            c = ((x0 + x1) / 2, (y0 + y1) / 2)
            pad = 2.5 if serif else 1.5  # the publisher's numeral is taller
            crop = _crop(self.grey, c, (x1 - x0) / 2 + pad, (y1 - y0) / 2 + pad)
            bank = digits.serif_points_templates if serif else digits.points_templates
            self._points[key] = digits.best_match(crop, bank(FACE_PX_PER_MM)[value])
        return self._points[key]

    def colour_score(self, pat: Pattern, points: bool = True) -> float:
        """How well the face shows colour pattern ``pat`` (at most
        :func:`max_colour_score`); with ``points`` False the points box is not judged."""
        bonus, costs, has_points = pat
        total = BONUS_WEIGHT * self.bonus_sim.get(bonus, 0.0)
        for pos in range(cf.MAX_CIRCLES):
            if pos < len(costs):
                total += self.circle_sim[pos].get(costs[len(costs) - 1 - pos], 0.0)
            else:
                total += 1 - self.presence[pos]
        if not points:
            return total
        p = self.points_printed
        return total + POINTS_WEIGHT * (p if has_points else 1 - p)

    def weakest(self, pat: Pattern, points: bool = True) -> float:
        """The least convincing single piece of evidence for ``pat`` (0..1)."""
        bonus, costs, has_points = pat
        parts = [self.bonus_sim.get(bonus, 0.0)]
        if points:
            parts.append(self.points_printed if has_points else 1 - self.points_printed)
        for pos in range(cf.MAX_CIRCLES):
            parts.append(self.circle_sim[pos].get(costs[len(costs) - 1 - pos], 0.0)
                         if pos < len(costs) else 1 - self.presence[pos])
        return min(parts)

    def numeral_score(self, card: Card, serif: bool = False) -> float:
        """How well the numerals fit ``card`` (compared only among cards of one pattern)."""
        costs = [(g.letter, card.cost[g]) for g in COLOURS if card.cost[g]]
        total = sum(self.digit(pos, letter, n, serif)
                    for pos, (letter, n) in enumerate(reversed(costs)))
        return total + (self.points(card.points, serif) if card.points else BLANK_POINTS)

    def score(self, card: Card, numerals: bool = True, points: bool = True) -> float:
        """Colour fit of ``card``, plus its numerals' fit with ``numerals``."""
        total = self.colour_score(pattern(card), points)
        return total + self.numeral_score(card) if numerals else total


MAX_COLOUR_SCORE = BONUS_WEIGHT + cf.MAX_CIRCLES + POINTS_WEIGHT


def max_colour_score(points: bool = True) -> float:
    """The best colour score, with or without the points box judged."""
    return MAX_COLOUR_SCORE if points else MAX_COLOUR_SCORE - POINTS_WEIGHT


@lru_cache(maxsize=4)
def points_tell(level: int) -> bool:
    """Whether "a points numeral is printed" tells the cards of ``level`` apart.

    WHY: every card of levels 2 and 3 scores points, so there the printed-or-blank
    test can only fail, never inform: glare that washes a thin points numeral out
    made the reader abstain on a card whose circles and gem it read well.  Level 1
    mixes cards with one point and none, and there the test counts in full.  Which
    *value* is printed still separates same-pattern pairs (2u5/2u6) by numerals.
    """
    return len({c.points > 0 for c in catalogue.cards_of_level(level)}) > 1


def _by_numerals(ev: FaceEvidence, cands: list[Card]) -> tuple[list[Card], float, float]:
    """Cards of one colour pattern ranked by their numerals, the lead of the first,
    and the lead it needs.  Both template banks are tried: our print's numerals
    (a lead of NUMERAL_MARGIN suffices where they fit well), else the publisher's
    serif where it fits better than ours (SERIF_NUMERAL_MARGIN), else a poor fit
    (POOR_NUMERAL_MARGIN)."""
    readings = []
    for serif in (False, True):
        ranked = sorted(cands, key=lambda c: -ev.numeral_score(c, serif))
        top = ev.numeral_score(ranked[0], serif)
        numerals = 1 + sum(1 for g in COLOURS if ranked[0].cost[g])
        readings.append((ranked, top - ev.numeral_score(ranked[1], serif), top / numerals))
    (ours, lead, fit), (serif, serif_lead, serif_fit) = readings
    if fit >= GOOD_NUMERAL_FIT:
        return ours, lead, NUMERAL_MARGIN
    if serif_fit > fit:
        return serif, serif_lead, SERIF_NUMERAL_MARGIN
    return ours, lead, POOR_NUMERAL_MARGIN


def _numeral_rescue(ev: FaceEvidence, contenders: list[Card], points: bool
                    ) -> tuple[Card, Card, float] | None:
    """(best, runner-up, margin) of ``contenders`` by colours and numerals together
    (a numeral where the card has none scores ``NONE_DIGIT``), or None when the best
    card's numerals fit their templates poorly (another print: numerals unreliable).

    Our print's templates are tried first; where they fit poorly, the publisher's
    serif ones, which must fit at least ``GOOD_SERIF_FIT``.  WHY: a washed green
    circle left a publisher's 3k2 (green 3, red 6, black 3) a close call with 3k4
    (red 7, black 3) on colours; its serif numerals fit 0.6-0.8 and favour 3k2 by
    far (the red 6 fits "6" at 0.61 and "7" at 0.2)."""
    for serif, good in ((False, GOOD_NUMERAL_FIT), (True, GOOD_SERIF_FIT)):
        def total(card: Card, serif: bool = serif) -> float:
            costs = [g.letter for g in COLOURS if card.cost[g]]
            return (ev.colour_score(pattern(card), points) + ev.numeral_score(card, serif)
                    + NONE_DIGIT * (cf.MAX_CIRCLES - len(costs)))

        scored = sorted(((total(c), c) for c in contenders), key=lambda t: -t[0])
        (t1, best), (t2, second) = scored[0], scored[1]
        numerals = 1 + sum(1 for g in COLOURS if best.cost[g])
        if ev.numeral_score(best, serif) / numerals >= good:
            return best, second, t1 - t2
    return None


def decode_face(face: np.ndarray, level: int, colours: ColourModel
                ) -> tuple[Card | None, float, float, str | None]:
    """(card or None if abstained, confidence, distance, runner-up id) for a face image.

    ``distance`` is 1 - the colour fit of the best card (0 a perfect fit).
    """
    return _decode(face, level, colours)[:4]  # type: ignore[return-value]


def _decode(face: np.ndarray, level: int, colours: ColourModel
            ) -> tuple[Card | None, float, float, str | None, float]:
    """decode_face, plus the weakest single piece of evidence for the best pattern."""
    face = lift_glare(face)
    ev = FaceEvidence(face, colours)
    # glare washes colours towards white: demand a closer fit on a glaring face
    saturated = cv2.inRange(face, (SATURATED,) * 3, (255, 255, 255))
    glare = cv2.countNonZero(saturated) / saturated.size
    max_distance = MAX_GLARE_DISTANCE if glare > GLARE_FRACTION else MAX_CARD_DISTANCE
    lo, hi = np.percentile(ev.grey[::2, ::2], (2, 98))
    if hi - lo < MIN_CONTRAST or hidden_share(ev.grey) > MAX_HIDDEN:
        max_distance = -1.0  # washed out, or mostly hidden: abstain
    groups: dict[Pattern, list[Card]] = {}
    for card in catalogue.cards_of_level(level):
        groups.setdefault(pattern(card), []).append(card)
    points = points_tell(level)
    top = max_colour_score(points)
    ranked = sorted(((ev.colour_score(p, points), p) for p in groups), key=lambda t: -t[0])
    (s1, best), (s2, second) = ranked[0], ranked[1]
    colour_margin = s1 - s2
    distance = 1 - s1 / top
    runner_up = groups[second][0]
    cands = groups[best]
    margin = colour_margin
    if len(cands) > 1:
        by_numerals, numeral_margin, need = _by_numerals(ev, cands)
        cands, runner_up = by_numerals, by_numerals[1]
        # the numeral lead, in units of its threshold, on the colour margin's scale
        margin = min(colour_margin, numeral_margin * COLOUR_MARGIN / need)
    if colour_margin < COLOUR_MARGIN:
        # a close call between colour patterns (e.g. artwork that looks like one
        # more circle): numerals that fit their templates well may settle it
        contenders = [c for s, p in ranked if s > s1 - COLOUR_MARGIN for c in groups[p]]
        rescue = _numeral_rescue(ev, contenders, points)
        if rescue is not None:
            cands, runner_up, margin = [rescue[0]], rescue[1], rescue[2]
            distance = 1 - ev.colour_score(pattern(rescue[0]), points) / top
    confidence = float(1 - math.exp(-max(0.0, margin) / 0.25))
    weakest = ev.weakest(pattern(cands[0]), points)
    if margin < COLOUR_MARGIN or distance > max_distance or weakest < MIN_WEAKEST:
        return None, confidence, distance, cands[0].id, weakest
    return cands[0], confidence, distance, runner_up.id, weakest


def _best_fit(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              first: Located, others: Iterable[Located], level: int, colours: ColourModel,
              good_distance: float
              ) -> tuple[Card | None, float, float, str | None, list[tuple]]:
    """The reading of the best of a card's possible places: the first unless it
    reads poorly (a poor fit may come from a poor placement of the card), else the
    closest of all; if that one abstains, a named reading within ``FIT_SLACK`` of
    it (a blurred numeral on one cut-out can be sharp on another)."""
    size = (cf.CARD_W, cf.CARD_H)
    got = _decode(face_image(image, h, slot, gain, size, first), level, colours)
    readings = [got]
    if not (got[0] is not None and got[2] <= good_distance and got[4] >= GOOD_WEAKEST
            and got[1] >= GOOD_CONFIDENCE):
        readings += [_decode(face_image(image, h, slot, gain, size, alt), level, colours)
                     for alt in others]
    best = min(readings, key=lambda r: r[2])
    if best[0] is None:
        named = [r for r in readings if r[0] is not None and r[2] <= best[2] + FIT_SLACK]
        best = min(named, key=lambda r: r[2]) if named else best
    return best[0], best[1], best[2], best[3], readings


def _agreed(readings: list[tuple]) -> tuple | None:
    """The closest of the named readings of an unplaced card when most of its places
    name it, none names another card, and each names it on firm evidence."""
    named = [r for r in readings if r[0] is not None]
    if not named or len({r[0].id for r in named}) != 1:
        return None
    if len(named) < UNPLACED_AGREE * len(readings):
        return None
    if min(r[4] for r in named) < UNPLACED_AGREE_WEAKEST:
        return None
    return min(named, key=lambda r: r[2])


def _around(slot: Slot, coverage: float) -> Iterator[Located]:
    """Places a card may lie in its slot when none was found: shifted by
    ``UNPLACED_SHIFT_MM`` along and across, and turned a little."""
    t = math.radians(slot.angle)
    d = UNPLACED_SHIFT_MM
    for du, dv, turn in ((d, 0, 0), (-d, 0, 0), (0, d, 0), (0, -d, 0), (0, 0, 1.5),
                         (0, 0, -1.5), (d, d, 0), (-d, -d, 0), (d, -d, 0), (-d, d, 0)):
        yield Located(coverage, (slot.center[0] + du * math.cos(t) - dv * math.sin(t),
                                 slot.center[1] + du * math.sin(t) + dv * math.cos(t)), turn)


def _in_slot(slot: Slot, where: Located) -> tuple[Located, ...]:
    """The card where its slot is, when it was found more than ``FAR_FROM_SLOT_MM``
    away.  WHY: a pale top band and a pale picture pass for paper, and in dim light
    (a strong white-balance gain) the mat's noise passes for card, so the best
    rectangle can slide 6-8 mm along the slot (official scenes: a card found 8 mm
    low read its circles off their places).  Players lay a card in its printed slot,
    so the slot itself is always worth a look when the fit lies far from it."""
    if where.center is None or math.dist(where.center, slot.center) <= FAR_FROM_SLOT_MM:
        return ()
    return (Located(where.coverage, slot.center, where.angle, where.scale),)


def _read_unplaced(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
                   coverage: float, level: int, colours: ColourModel) -> CardReading:
    """A card whose outline was not found: a pale card (white band, snowy picture)
    can pass for paper; read it where the slot is, and name it only if it fits
    closely or most of the places around agree."""
    card, conf, dist, other, readings = _best_fit(
        image, h, slot, gain, Located(coverage, slot.center), _around(slot, coverage),
        level, colours, UNPLACED_GOOD_DISTANCE)
    agreed = _agreed(readings)
    if agreed is not None and (card is None or dist > UNPLACED_MAX_DISTANCE):
        return CardReading(slot.id, "card", agreed[0], agreed[1], agreed[2], agreed[3])
    if card is None or dist > UNPLACED_MAX_DISTANCE:
        return CardReading(slot.id, "unknown", None, conf if card is None else 0.0, dist,
                           other)
    return CardReading(slot.id, "card", card, conf, dist, other)


def read_card(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              colours: ColourModel) -> CardReading:
    where = locate(image, h, slot, gain, (cf.CARD_W, cf.CARD_H), occupied=CARD_OCCUPIED_MIN)
    if where.coverage < EMPTY_MAX and where.texture <= EMPTY_TEXTURE:
        return CardReading(slot.id, "empty", confidence=1 - where.coverage / EMPTY_MAX / 2)
    level = slot.level or 1
    if where.center is None or where.coverage < EMPTY_MAX:
        return _read_unplaced(image, h, slot, gain, where.coverage, level, colours)
    card, conf, dist, other, _ = _best_fit(image, h, slot, gain, where,
                                           (*where.others, *_in_slot(slot, where)), level,
                                           colours, GOOD_DISTANCE)
    if card is None and where.coverage < OCCUPIED_MIN:
        # a faint fit (glare) may be poor where a pale card lying in its slot is not
        return _read_unplaced(image, h, slot, gain, where.coverage, level, colours)
    if card is None:
        return CardReading(slot.id, "unknown", None, conf, dist, other)
    return CardReading(slot.id, "card", card, conf, dist, other)
