"""Slot readers: what is in one token slot, card slot, deck slot, noble slot, tableau column.

Every reader gets the frame, the homography of the slot's mat and the
slot's white-balance gain, rectifies only its slot (never the whole frame)
and returns a value with a confidence.  Tuning constants are named here.

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
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.rules import catalogue
from companion.rules.catalogue import Card, Noble
from companion.rules.gems import COLOURS
from vision import cardface as cf
from vision import digits
from vision.calibrate import rectify
from vision.colours import ColourModel, distances, to_lab
from vision.layout import Slot
from vision.mats import INK, PAPER
from vision.observation import (
    CardReading,
    DeckReading,
    NobleReading,
    PileReading,
    ReservedReading,
    TableauReading,
    TokenSlotReading,
)

#: Resolution at which card and noble faces are read.
FACE_PX_PER_MM = 4.0
#: Resolution for finding a card in its slot, and for tokens, decks, tableau.
LOCATE_PX_PER_MM = 2.0
TOKEN_PX_PER_MM = 1.5
#: Lab distance beyond which a pixel is "not paper".
PAPER_DIST = 22.0
#: Half the Lab distance at which a pixel counts fully as "not paper" when fitting a card.
EVIDENCE_TAU = 12.0
LOCATE_MARGIN_MM = 6.0
#: Weight of the card's four edges against the area evidence when fitting it.
EDGE_WEIGHT = 0.25
#: A clean card edge in the clipped evidence map: a step of 2·tau through a Sobel filter.
EDGE_NORM = 8 * EVIDENCE_TAU
#: A size other than the nominal one must earn its place (light bands look like paper).
SCALE_PENALTY = 3.0
#: How much darker than paper a place may be and still count as paper in shade.
SHADE = 0.35
LOCATE_ANGLES = (-3.0, -1.5, 0.0, 1.5, 3.0)
LOCATE_SCALES = (0.95, 1.0, 1.05)
#: Accepted range of a card's measured size over its nominal size.
SCALE_RANGE = (0.88, 1.12)
#: Fraction of a slot's interior that must differ from paper for it to hold something.
OCCUPIED_MIN = 0.45
EMPTY_MAX = 0.12
#: An empty-looking slot whose inside has this much more detail than the paper is not empty.
EMPTY_TEXTURE = 1.5
#: Colour similarity width (Lab units) and circle uniformity width.
COLOUR_SIGMA = 28.0
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
GLARE_FRACTION = 0.03
SATURATED = 250
#: Below this distance a reading is trusted without trying other fits of the card.
GOOD_DISTANCE = 0.28
#: Other fits of a card (angle, scale) tried when the best one reads poorly.
ALTERNATIVE_FITS = 3
TOKEN_MAX_DIST = 45.0
#: Heights (mm, from ours) at which a noble's squares are looked for (more heights
#: let a 2-square noble pass for a 3-square one: tried, worse).
NOBLE_SHIFTS_MM = (0.0,)
TOKEN_MIN_CONFIDENCE = 0.15
#: A noble is read only when at least this much of the band 1-6 mm outside its slot
#: looks like the mat (paper or printed ink): see ``border_mat_fraction``.
NOBLE_BORDER_MIN = 0.6
BACK_DIST = 30.0
BACK_MIN_FRACTION = 0.4


def normalise(patch: np.ndarray, gain: np.ndarray) -> np.ndarray:
    return np.clip(patch.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def lab_image(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)


def lab_distance(lab: np.ndarray, ref: np.ndarray | tuple[float, float, float]) -> np.ndarray:
    d = lab - np.asarray(ref, np.float32)
    return np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def shaded_distance(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Lab distance that forgives a surface for being in shade (up to ``SHADE`` darker)."""
    d = lab - np.asarray(ref, np.float32)
    dl = np.where((d[..., 0] < 0) & (d[..., 0] > -SHADE * ref[0]), 0.0, d[..., 0])
    return np.sqrt((0.5 * dl) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


PAPER_LAB = to_lab(PAPER)[0]
INK_LAB = to_lab(INK)[0]


def _sim(dist: float) -> float:
    return math.exp(-((dist / COLOUR_SIGMA) ** 2))


# -- locating a card in its slot ---------------------------------------------------
@dataclass(frozen=True)
class Located:
    """Where a card or tile lies: ``scale`` is its measured size over the nominal one
    (≠ 1 when the homography is off there, e.g. far from every visible marker)."""

    coverage: float
    center: tuple[float, float] | None = None
    angle: float = 0.0
    scale: float = 1.0
    #: the next best fits (other angles and scales), best first
    others: tuple[Located, ...] = ()
    #: detail inside the slot over detail of the paper around it (about 1 when empty)
    texture: float = 1.0


def locate(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
           size_mm: tuple[float, float], fit: bool = True) -> Located:
    """How much of the slot is covered, and where the card (of ``size_mm``) lies in it.

    The card is the rectangle of its known size (over a few angles and scales)
    that encloses the most "not paper" evidence, found exhaustively with
    integral images: robust to parts of a card that look like paper (the
    light band, a pale picture), which a threshold-and-contour fit is not.
    """
    s = LOCATE_PX_PER_MM
    margin = LOCATE_MARGIN_MM
    patch = normalise(rectify(image, h, slot, s, margin), gain)
    dist = lab_distance(lab_image(patch), PAPER_LAB)
    inset = round((margin + 5) * s)
    inner = dist[inset:-inset, inset:-inset]
    coverage = float((inner > PAPER_DIST).mean()) if inner.size else 0.0
    if coverage < OCCUPIED_MIN or not fit:
        return Located(coverage, texture=_texture_ratio(patch, inset, round(margin * s)))
    # shaded paper and the printed outline around the slot are mat, not card
    lab = lab_image(patch)
    mat = np.minimum(shaded_distance(lab, PAPER_LAB), lab_distance(lab, INK_LAB))
    evidence = np.clip(mat, 0, 2 * EVIDENCE_TAU) - EVIDENCE_TAU
    ph, pw = evidence.shape
    pc = ((pw - 1) / 2, (ph - 1) / 2)
    fits: list[tuple[float, float, float, float, float]] = []  # score, x, y, angle, scale
    for a in LOCATE_ANGLES:
        m = cv2.getRotationMatrix2D(pc, a, 1.0)
        ev = evidence if a == 0 else cv2.warpAffine(
            evidence, m, (pw, ph), flags=cv2.INTER_LINEAR, borderValue=-EVIDENCE_TAU)
        integral = cv2.integral(ev)
        # edges of the card against the mat (of the evidence, so the printed
        # outline has none): |d/dy| for top and bottom, |d/dx| for the sides,
        # smoothed across the edge so a blurred edge still scores
        g = ev
        gy = cv2.blur(np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1)), (1, 3))
        gx = cv2.blur(np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0)), (3, 1))
        norm = EDGE_NORM
        row_cs = np.pad(np.cumsum(gy / norm, axis=1), ((0, 0), (1, 0)))
        col_cs = np.pad(np.cumsum(gx / norm, axis=0), ((1, 0), (0, 0)))
        for k in LOCATE_SCALES:
            bw, bh = round(size_mm[0] * k * s), round(size_mm[1] * k * s)
            if bw >= pw or bh >= ph:
                continue
            sums = (integral[bh:, bw:] - integral[:-bh, bw:] - integral[bh:, :-bw]
                    + integral[:-bh, :-bw])
            ny, nx = sums.shape
            area = sums / (EVIDENCE_TAU * bw * bh)
            top = row_cs[:ny, bw:bw + nx] - row_cs[:ny, :nx]
            bottom = row_cs[bh - 1:bh - 1 + ny, bw:bw + nx] - row_cs[bh - 1:bh - 1 + ny, :nx]
            left = col_cs[bh:bh + ny, :nx] - col_cs[:ny, :nx]
            right = col_cs[bh:bh + ny, bw - 1:bw - 1 + nx] - col_cs[:ny, bw - 1:bw - 1 + nx]
            edges = (top + bottom) / bw + (left + right) / bh
            total = area + EDGE_WEIGHT * edges - SCALE_PENALTY * abs(k - 1)
            y, x = np.unravel_index(int(np.argmax(total)), total.shape)
            # centre in the rotated patch, mapped back to the patch
            cx, cy = x + bw / 2 - 0.5, y + bh / 2 - 0.5
            ox, oy = cv2.invertAffineTransform(m) @ np.array([cx, cy, 1.0])
            fits.append((float(total[y, x]), float(ox), float(oy), float(a), float(k)))
    if not fits:
        return Located(coverage)
    fits.sort(reverse=True)
    found = [_to_table(slot, margin, s, coverage, f) for f in fits[:ALTERNATIVE_FITS + 1]]
    return Located(found[0].coverage, found[0].center, found[0].angle, found[0].scale,
                   tuple(found[1:]))


def _to_table(slot: Slot, margin: float, s: float, coverage: float,
              fit: tuple[float, float, float, float, float]) -> Located:
    _, cx, cy, ang, scale = fit
    u = -(slot.size[0] / 2 + margin) + (cx + 0.5) / s
    v = -(slot.size[1] / 2 + margin) + (cy + 0.5) / s
    t = math.radians(slot.angle)
    centre = (slot.center[0] + u * math.cos(t) - v * math.sin(t),
              slot.center[1] + u * math.sin(t) + v * math.cos(t))
    return Located(coverage, centre, -ang, scale)


def _texture_ratio(patch: np.ndarray, inset: int, band: int) -> float:
    """Mean gradient inside the slot over that of the paper band around it: a pale
    card that passes for paper by its colour still shows its picture's detail."""
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    grad = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    inner = grad[inset:-inset, inset:-inset]
    ring = np.concatenate([grad[:band].ravel(), grad[-band:].ravel()])
    if not inner.size or not ring.size:
        return 1.0
    return float(inner.mean() / (np.median(ring) + 2.0))


def face_image(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
               size_mm: tuple[float, float], where: Located) -> np.ndarray:
    k = where.scale
    return normalise(rectify(image, h, slot, FACE_PX_PER_MM / k,
                             size_mm=(size_mm[0] * k, size_mm[1] * k),
                             center=where.center, angle=slot.angle + where.angle), gain)


# -- sampling helpers -------------------------------------------------------------
@lru_cache(maxsize=64)
def _ring_offsets(r0: float, r1: float, square: bool) -> tuple[np.ndarray, np.ndarray]:
    n = math.ceil(r1) + 1
    yy, xx = np.mgrid[-n:n + 1, -n:n + 1]
    d = np.maximum(abs(xx), abs(yy)) if square else np.hypot(xx, yy)
    sel = (d >= r0) & (d <= r1)
    return yy[sel], xx[sel]


def ring_colour(lab: np.ndarray, center_mm: tuple[float, float], r0_mm: float, r1_mm: float,
                square: bool = False, search_mm: float = 0.0
                ) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Median Lab, spread and centre of the ring r0..r1 (mm) around a point of a face image.

    With ``search_mm`` the ring is moved around the point (a 5×5 grid) and the
    most uniform place wins: a card found a little off still shows its circles.
    """
    s = FACE_PX_PER_MM
    dy, dx = _ring_offsets(r0_mm * s, r1_mm * s, square)
    steps = np.round(np.linspace(-search_mm, search_mm, 5) * s).astype(int) if search_mm \
        else np.zeros(1, int)
    oy, ox = (a.ravel() for a in np.meshgrid(steps, steps, indexing="ij"))
    cy, cx = round(center_mm[1] * s), round(center_mm[0] * s)
    y = np.clip(cy + oy[:, None] + dy[None, :], 0, lab.shape[0] - 1)
    x = np.clip(cx + ox[:, None] + dx[None, :], 0, lab.shape[1] - 1)
    px = lab[y, x]  # (offsets, pixels, 3)
    var = 0.25 * px[:, :, 0].var(1) + px[:, :, 1].var(1) + px[:, :, 2].var(1)
    best = int(np.argmin(var))
    ring = px[best]
    med = np.median(ring, axis=0)
    mad = 1.48 * np.median(np.abs(ring - med), axis=0)
    spread = float(np.sqrt(0.25 * mad[0] ** 2 + mad[1] ** 2 + mad[2] ** 2))
    return med, spread, (center_mm[0] + ox[best] / s, center_mm[1] + oy[best] / s)


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


# -- nobles -------------------------------------------------------------------------------
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


# -- tokens, decks, reserved, tableau -------------------------------------------------------------
@lru_cache(maxsize=8)
def token_ring(n: int, px_per_mm: float) -> np.ndarray:
    """Mask of the ring (6.5-13 mm from the centre) where a token shows its own colour:
    inside the rim marks, outside the central emblem."""
    yy, xx = np.mgrid[0:n, 0:n]
    r = np.hypot(xx - (n - 1) / 2, yy - (n - 1) / 2) / px_per_mm
    return (r >= 6.5) & (r <= 13.0)


def read_token(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
               colours: ColourModel) -> TokenSlotReading:
    s = TOKEN_PX_PER_MM
    patch = normalise(rectify(image, h, slot, s), gain)
    lab = lab_image(patch)
    med = np.median(lab[token_ring(lab.shape[0], s)], axis=0)
    d = distances(med, colours.tokens)
    ranked = sorted(d.items(), key=lambda kv: kv[1])
    (k1, d1), (_, d2) = ranked[0], ranked[1]
    conf = float(np.clip((d2 - d1) / (d2 + 1e-6), 0, 1))
    if d1 > TOKEN_MAX_DIST or conf < TOKEN_MIN_CONFIDENCE:
        return TokenSlotReading(slot.id, slot.zone, "unknown", None, conf)
    if k1 == "empty":
        return TokenSlotReading(slot.id, slot.zone, "empty", None, conf)
    return TokenSlotReading(slot.id, slot.zone, "token", k1, conf)


def read_deck(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              colours: ColourModel) -> DeckReading:
    s = TOKEN_PX_PER_MM
    patch = normalise(rectify(image, h, slot, s, -6.0), gain)
    lab = lab_image(patch)
    level = slot.level or 1
    fractions = {k: float((lab_distance(lab, v) < BACK_DIST).mean())
                 for k, v in colours.backs.items()}
    paper = float((lab_distance(lab, PAPER_LAB) < PAPER_DIST).mean())
    backs = {k: v for k, v in fractions.items() if k != "empty"}
    best = max(backs, key=lambda k: backs[k])
    if backs[best] >= BACK_MIN_FRACTION:
        conf = backs[best] if best == str(level) else backs[best] * 0.5
        return DeckReading(level, True, min(1.0, conf / 0.8))
    if paper > 0.6:
        return DeckReading(level, False, min(1.0, paper / 0.9))
    return DeckReading(level, None, 0.0)


def read_reserved(
    image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray
) -> ReservedReading:
    where = locate(image, h, slot, gain, (cf.CARD_W, cf.CARD_H), fit=False)
    p = slot.player or 0
    if where.coverage < EMPTY_MAX:
        if where.texture > EMPTY_TEXTURE:  # a pale card: the paper's colour, a picture's detail
            return ReservedReading(slot.id, p, True, 0.6)
        return ReservedReading(slot.id, p, False, 1 - where.coverage / EMPTY_MAX / 2)
    if where.coverage > OCCUPIED_MIN + 0.2:
        return ReservedReading(slot.id, p, True, min(1.0, where.coverage))
    return ReservedReading(slot.id, p, None, 0.0)


def read_tableau(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray
                 ) -> TableauReading:
    """Count the cards in a colour column from how far down the stack reaches.

    Cards are stacked from the column's top, each ``TABLEAU_STEP_MM`` lower
    than the one before, so the bottom edge of the last card gives the count.
    (The visible top bands of the earlier cards are light and may pass for
    paper, so only the lowest card evidence is used.)
    """
    from vision.layout import TABLEAU_STEP_MM

    s = TOKEN_PX_PER_MM
    patch = normalise(rectify(image, h, slot, s), gain)
    lab = lab_image(patch)
    dist = np.minimum(lab_distance(lab, PAPER_LAB), lab_distance(lab, INK_LAB))
    w = dist.shape[1]
    rows = (dist[:, w // 5: w - w // 5] > PAPER_DIST).mean(1)
    rows = np.convolve(rows, np.ones(3) / 3, mode="same")
    card_rows = np.nonzero(rows > 0.5)[0]
    p, colour = slot.player or 0, slot.colour or "?"
    if len(card_rows) < 20 * s:
        return TableauReading(p, colour, 0, float(np.clip(1 - 4 * rows.mean(), 0, 1)))
    bottom = (card_rows[-1] + 1) / s
    steps = (bottom - 2 - cf.CARD_H) / TABLEAU_STEP_MM
    n = max(1, round(steps) + 1)
    conf = float(np.clip(1 - 2 * abs(steps - round(steps)), 0, 1))
    if bottom > slot.size[1] - 4:
        conf *= 0.5  # the stack may run past the column
    return TableauReading(p, colour, n, conf)


def read_pile(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
              colours: ColourModel) -> PileReading:
    """A pile zone: the tokens' colour (most common class) and their number, estimated
    from how far the shingled row reaches (``PILE_STEP_MM`` per extra token)."""
    from vision.layout import PILE_STEP_MM, TOKEN_MM

    s = TOKEN_PX_PER_MM
    patch = normalise(rectify(image, h, slot, s), gain)
    lab = lab_image(patch)
    mat = np.minimum(lab_distance(lab, PAPER_LAB), lab_distance(lab, INK_LAB))
    token_px = mat > PAPER_DIST
    zone = slot.zone
    if token_px.mean() < 0.08:
        return PileReading(slot.id, zone, None, 0, float(1 - token_px.mean() / 0.08 / 2))
    classes = {k: v for k, v in colours.tokens.items() if k != "empty"}
    names = list(classes)
    centres = np.array([np.asarray(classes[k], np.float32).reshape(-1, 3)[0] for k in names])
    px = lab[token_px]
    d = px[:, None, :] - centres[None, :, :]
    dist = np.sqrt((0.5 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    votes = np.bincount(dist.argmin(1), minlength=len(names))
    colour = names[int(votes.argmax())]
    share = float(votes.max() / votes.sum())
    # the longest run of token columns (the zone's printed border is not a token)
    filled = np.concatenate([[0], (token_px.mean(0) > 0.35).astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(filled))
    runs = edges[1::2] - edges[::2]
    width = float(runs.max()) / s if len(runs) else 0.0
    # a column counts when over a third of it is token: a 40 mm disc then spans 37 mm
    steps = max(0.0, (width - (TOKEN_MM - 3)) / PILE_STEP_MM)
    count = round(steps) + 1
    conf = share * float(np.clip(1 - 2 * abs(steps - round(steps)), 0.2, 1))
    return PileReading(slot.id, zone, colour, count, conf)
