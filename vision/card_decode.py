"""Stage 5 of reading a card: the measured features decoded against the catalogue.

Every catalogue card of the slot's level predicts a *colour pattern* (bonus
colour, the colours of its circles, points or none):

1. *Colour pattern*: the evidence for each pattern is scored.  The best pattern
   must beat the best *other* pattern by ``COLOUR_MARGIN`` and fit well enough,
   else the decode abstains.
2. *Numerals*: within a level the pattern names the card, except for a few
   pairs (level 1: 1w5/1w6, 1u2/1u3, 1g3/1g4, 1r2/1r5, 1k3/1k4 differ by one
   cost being 2 rather than 1; level 2: 2w2/2w3, 2g2/2g3, 2u5/2u6, 2g5/2g6 by
   their points and costs).  Only then are numerals read, and the better
   candidate must lead by ``NUMERAL_MARGIN``.

WHY two stages: colours and the number of circles are robust on any print,
numerals are not (a printing's numerals fit another's templates poorly).
Judged apart, strong colour evidence names most cards alone and weak numerals
can only make the reader abstain within a pair, never pick a card of another
pattern.

The result carries its evidence (margins, fit, weakest piece) for the
calibrated confidence (:mod:`vision.card_confidence`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.rules import catalogue
from companion.rules.catalogue import Card
from companion.rules.gems import COLOURS
from vision import cardface as cf
from vision import digits
from vision.card_features import (
    BLANK_POINTS,
    BONUS_WEIGHT,
    NONE_DIGIT,
    POINTS_WEIGHT,
    FaceFeatures,
)
from vision.card_seen import GLARE_FRACTION, MAX_GLARE_DISTANCE, Seen
from vision.cardface import Pattern, pattern
from vision.locate import FACE_PX_PER_MM

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
#: Lead needed of the serif templates where they fit at least ``GOOD_SERIF_FIT``:
#: a good fit makes a small lead trustworthy.  Design world frames (faces as printed
#: and at 1.7 px/mm): none of 244 same-pattern pairs fitting that well led the wrong
#: way (least lead 0.024); 3 of 60 fitting worse did, by up to 0.11.  Measured per
#: face by ``python -m tests.bench.bench_cards --split design``.
CLEAR_SERIF_MARGIN = 0.04
#: Beyond this distance (1 - colour fit) the face matches no card well enough.
MAX_CARD_DISTANCE = 0.4
#: A card is named only if every piece of its evidence scores at least MIN_WEAKEST.
#: WHY: on blurred, faded faces the points numeral and pale circles vanish and a
#: card with one point reads as its blank-points neighbour at a good distance
#: (1w8 -> 1w2, 1k8 -> 1k5); every such wrong answer had a piece under 0.05.
#: Cost, measured: recorded 100 % -> 99.73 % right, a fresh hold-out of our faces
#: (frames seed 7, 150 frames) 98.56 % -> 97.48 %, official unchanged; faded test
#: faces 48 named / 2 wrong -> 19 / 0.
MIN_WEAKEST = 0.1
#: A card is not named when the numerals fit its runner-up better than it by this
#: much per numeral (see ``_numeral_lead``).  Measured on the design faces, clean
#: and degraded (``python -m tests.bench.bench_cards --split design``): 13 of 35
#: wrong answers led by less, 1 % of the right ones.
MIN_NUMERAL_LEAD = -0.05
#: A card with points is not named when its points numeral fits another value
#: better by this much (see ``_points_lead``).  Measured as above: 11 of 24 wrong
#: answers (3k2 read 3k4, 2k2 read 2k6: a missed circle) led by less, 1 % of the
#: right ones.
MIN_POINTS_LEAD = -0.08


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




# -- scoring a face's features against a card -------------------------------------------
class FaceScores:
    """A face's features scored against catalogue cards; its numerals are matched
    against the template banks (:mod:`vision.digits`) when a card first needs them,
    and remembered (most cards are named by colour alone)."""

    def __init__(self, features: FaceFeatures) -> None:
        self.f = features
        self.bonus_sim = features.bonus_sim
        self._digit: dict[tuple[int, str, int, bool], float] = {}
        self._points: dict[tuple[int, bool], float] = {}

    @staticmethod
    def _fit(crop: np.ndarray, templates: list[np.ndarray]) -> float:
        """Highest normalised correlation of any template anywhere in ``crop``
        (``digits.best_match``, here so that decoding a face stays in this module)."""
        # minMaxLoc: the same maximum as ndarray.max, a fifth of its call overhead
        # (a face matches hundreds of templates)
        fits = [cv2.minMaxLoc(cv2.matchTemplate(crop, t, cv2.TM_CCOEFF_NORMED))[1]
                for t in templates
                if t.shape[0] <= crop.shape[0] and t.shape[1] <= crop.shape[1]]
        return float(max(fits, default=-1.0))

    def digit(self, pos: int, colour: str, value: int, serif: bool = False) -> float:
        """Match of numeral ``value`` in circle ``pos``: our print's templates, or
        with ``serif`` the publisher's (a bold italic serif)."""
        key = (pos, colour, value, serif)
        if key not in self._digit:
            crop = self.f.circle_crops[pos]
            bank = digits.serif_cost_templates if serif else digits.cost_templates
            self._digit[key] = self._fit(crop, bank(colour, FACE_PX_PER_MM)[value])
        return self._digit[key]

    def points(self, value: int, serif: bool = False) -> float:
        key = (value, serif)
        if key not in self._points:
            crop = self.f.points_crops[serif]
            bank = digits.serif_points_templates if serif else digits.points_templates
            self._points[key] = self._fit(crop, bank(FACE_PX_PER_MM)[value])
        return self._points[key]

    def colour_score(self, pat: Pattern, points: bool = True) -> float:
        """How well the face shows colour pattern ``pat`` (at most
        :func:`max_colour_score`); with ``points`` False the points box is not judged."""
        bonus, costs, has_points = pat
        total = BONUS_WEIGHT * self.f.bonus_sim.get(bonus, 0.0)
        for pos in range(cf.MAX_CIRCLES):
            if pos < len(costs):
                total += self.f.circle_sim[pos].get(costs[len(costs) - 1 - pos], 0.0)
            else:
                total += 1 - self.f.presence[pos]
        if not points:
            return total
        p = self.f.points_printed
        return total + POINTS_WEIGHT * (p if has_points else 1 - p)

    def cost_score(self, pat: Pattern, points: bool = True) -> float:
        """:meth:`colour_score` without the bonus gem: what the cost circles and the
        points box alone say of ``pat``."""
        return self.colour_score(pat, points) - BONUS_WEIGHT * self.f.bonus_sim.get(pat[0], 0.0)

    def weakest(self, pat: Pattern, points: bool = True) -> float:
        """The least convincing single piece of evidence for ``pat`` (0..1)."""
        bonus, costs, has_points = pat
        parts = [self.f.bonus_sim.get(bonus, 0.0)]
        if points:
            parts.append(self.f.points_printed if has_points else 1 - self.f.points_printed)
        for pos in range(cf.MAX_CIRCLES):
            parts.append(self.f.circle_sim[pos].get(costs[len(costs) - 1 - pos], 0.0)
                         if pos < len(costs) else 1 - self.f.presence[pos])
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


def _by_numerals(ev: FaceScores, cands: list[Card]
                 ) -> tuple[list[Card], float, float, float]:
    """Cards of one colour pattern ranked by their numerals, the lead of the first,
    and the lead it needs.  Both template banks are tried: our print's numerals
    (a lead of NUMERAL_MARGIN suffices where they fit well), else the publisher's
    serif where it fits better than ours (SERIF_NUMERAL_MARGIN, or CLEAR_SERIF_MARGIN
    where it fits well: a white circle's numeral at 1.7 px/mm leads by 0.02-0.1),
    else a poor fit (POOR_NUMERAL_MARGIN)."""
    readings = []
    for serif in (False, True):
        ranked = sorted(cands, key=lambda c: -ev.numeral_score(c, serif))
        top = ev.numeral_score(ranked[0], serif)
        numerals = 1 + sum(1 for g in COLOURS if ranked[0].cost[g])
        readings.append((ranked, top - ev.numeral_score(ranked[1], serif), top / numerals))
    (ours, lead, fit), (serif_cards, serif_lead, serif_fit) = readings
    if fit >= GOOD_NUMERAL_FIT:
        return ours, lead, NUMERAL_MARGIN, fit
    if serif_fit > fit:
        need = CLEAR_SERIF_MARGIN if serif_fit >= GOOD_SERIF_FIT else SERIF_NUMERAL_MARGIN
        return serif_cards, serif_lead, need, serif_fit
    return ours, lead, POOR_NUMERAL_MARGIN, fit


def _numeral_rescue(ev: FaceScores, contenders: list[Card], points: bool
                    ) -> tuple[Card, Card, float, float] | None:
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
        fit = ev.numeral_score(best, serif) / numerals
        if fit >= good:
            return best, second, t1 - t2, fit
    return None


@dataclass(frozen=True)
class Decoded:
    """What the catalogue makes of a face's features.

    ``best`` is the leading card whether or not it is named; ``card`` is it when
    the decode's rules name it, else None.  The rest is the evidence
    :mod:`vision.card_confidence` turns into a probability of being right."""

    card: Card | None
    best: Card
    runner_up: Card
    #: lead of the best over the runner-up (colour margin, or the numeral lead
    #: on the colour margin's scale)
    margin: float
    #: 1 - the best card's colour fit (0 a perfect fit)
    distance: float
    #: the least convincing single piece of evidence for the best card (0..1)
    weakest: float
    #: mean fit of the numeral templates that decided (0 when numerals did not)
    numeral_fit: float
    #: how much better the numerals fit the best card than the runner-up, per
    #: numeral, in the template bank that fits the best card better
    numeral_lead: float = 0.0
    #: how much closer the bonus gem is to the best card's colour than to any other
    bonus_lead: float = 0.0
    #: how much better the points numeral fits the best card's value than any
    #: other value (0 for a card without points)
    points_lead: float = 0.0
    #: how much the cost circles and points box alone (the bonus left out) favour
    #: the best card's cost pattern over every cost pattern of the level it does
    #: not share (see ``_cost_lead``)
    cost_lead: float = 0.0
    #: the weakest of the best card's cost numerals: its printed value's fit less
    #: the best other value's (see ``_digit_lead``)
    digit_lead: float = 0.0
    #: why nothing was named ("" when named)
    reason: str = ""


def decode_all(features: Sequence[FaceFeatures | None], seen: Sequence[Seen], level: int
               ) -> list[Decoded | None]:
    """``decode`` of every face of a pass with features (None for the others), a
    glaring face (``GLARE_FRACTION`` of it clipped) asked a closer fit
    (``MAX_GLARE_DISTANCE``)."""
    return [None if f is None else
            decode(f, level, MAX_GLARE_DISTANCE if s.glare > GLARE_FRACTION else MAX_CARD_DISTANCE)
            for f, s in zip(features, seen, strict=True)]


def decode(features: FaceFeatures, level: int, max_distance: float = MAX_CARD_DISTANCE
           ) -> Decoded:
    """The card of ``level`` that ``ev`` shows, or an abstention with its evidence.

    ``max_distance``: how poor a fit may still be named (the caller asks for a
    closer fit on a glaring face, and passes a negative value on a face it does
    not see)."""
    ev = FaceScores(features)
    groups = _groups(level)
    points = points_tell(level)
    top = max_colour_score(points)
    ranked = sorted(((ev.colour_score(p, points), p) for p in groups), key=lambda t: -t[0])
    (s1, best), (s2, second) = ranked[0], ranked[1]
    colour_margin = s1 - s2
    distance = 1 - s1 / top
    runner_up = groups[second][0]
    cands = groups[best]
    margin = colour_margin
    numeral_fit = 0.0
    if len(cands) > 1:
        by_numerals, numeral_margin, need, numeral_fit = _by_numerals(ev, cands)
        cands, runner_up = by_numerals, by_numerals[1]
        # the numeral lead, in units of its threshold, on the colour margin's scale
        margin = min(colour_margin, numeral_margin * COLOUR_MARGIN / need)
    if colour_margin < COLOUR_MARGIN:
        # a close call between colour patterns (e.g. artwork that looks like one
        # more circle): numerals that fit their templates well may settle it
        contenders = [c for s, p in ranked if s > s1 - COLOUR_MARGIN for c in groups[p]]
        rescue = _numeral_rescue(ev, contenders, points)
        if rescue is not None:
            cands, runner_up, margin, numeral_fit = [rescue[0]], rescue[1], rescue[2], rescue[3]
            distance = 1 - ev.colour_score(pattern(rescue[0]), points) / top
    weakest = ev.weakest(pattern(cands[0]), points)
    twin = _points_twin(cands[0]) if not cands[0].points else None
    twin_lead = _numeral_lead(ev, cands[0], twin) if twin is not None else 1.0
    if twin is not None and twin_lead < NUMERAL_MARGIN:
        runner_up = twin
    lead = _numeral_lead(ev, cands[0], runner_up)
    points_lead = _points_lead(ev, cands[0])
    reason = ("close call" if margin < COLOUR_MARGIN else
              "its points twin is not ruled out" if twin_lead < NUMERAL_MARGIN else
              "numerals favour the runner-up" if lead < MIN_NUMERAL_LEAD else
              "the points numeral reads another value" if points_lead < MIN_POINTS_LEAD else
              "poor fit" if distance > max_distance else
              "a piece of evidence missing" if weakest < MIN_WEAKEST else "")
    return Decoded(None if reason else cands[0], cands[0], runner_up, margin, distance,
                   weakest, numeral_fit, lead, _bonus_lead(ev, cands[0]), points_lead,
                   _cost_lead(ev, cands[0], level, points), _digit_lead(ev, cands[0]),
                   reason)


def _points_twin(card: Card) -> Card | None:
    """The card of the same level and bonus, with as many cost circles, that differs
    in whether it scores points: in level 1 each bonus has one card of a single
    circle and none (1u7, 3 black) and one of a single circle and a point (1u8, 4
    red; the red bonus's pair share the colour: 1r1, 3 white, 1r8, 4 white).

    WHY: a thin "1" vanishes under blur, and the blank box it leaves counts as much
    for the card without points as a circle's colour does: on design faces resampled
    to 1.7 px/mm, hard frames, 1r8 read as 1r1 at 0.98-1.00, and 1u8 (its red circle
    read red at 0.71, black at 0.26) as 1u7 at 0.75.  Their cost numerals differ as
    well, so the twin without points, named on a blank box, is named only when the
    numerals agree (``NUMERAL_MARGIN``).  Not the other way: a "1" seen is evidence
    a blur cannot make, and asking the numerals there too cost six right 1r8 of the
    publisher's faces in ``vision eval tests/data/scenes --official-faces``, whose
    numerals fit the templates poorly."""
    bonus, costs, points = pattern(card)
    for other in catalogue.cards_of_level(card.level):
        theirs = pattern(other)
        if theirs[0] == bonus and len(theirs[1]) == len(costs) and theirs[2] != points:
            return other
    return None


def _bonus_lead(ev: FaceScores, card: Card) -> float:
    """How much the bonus gem's colour favours ``card``'s bonus over the next colour."""
    own = ev.bonus_sim.get(card.bonus.letter, 0.0)
    return own - max((v for k, v in ev.bonus_sim.items() if k != card.bonus.letter),
                     default=0.0)


def _cost_lead(ev: FaceScores, card: Card, level: int, points: bool) -> float:
    """How much the cost circles and the points box alone favour ``card``'s cost
    pattern over the best cost pattern of ``level`` that differs from it (patterns
    that differ only in the bonus are not rivals here: numerals and the bonus
    separate them).  WHY: a second, independent reading of the card beside the
    bonus gem; when a cast turns the gem's colour (the newer printing's pale
    emerald read as white: 1g1 -> 1w2) the circles still show 1g1's pattern, and
    that contradiction must lower the confidence (issue 12: decide on what every
    printing shares)."""
    own = pattern(card)
    rivals = [ev.cost_score(p, points) for p in _groups(level) if p[1:] != own[1:]]
    return ev.cost_score(own, points) - max(rivals, default=0.0)


def _digit_lead(ev: FaceScores, card: Card) -> float:
    """The weakest cost numeral of ``card``: the fit of its printed value less the
    best fit of any other value 1-7, in the bank (ours or the serif) that fits the
    card better.  WHY: the numerals are printed on every printing; a card named on
    colours whose own numerals read as other values (a missed circle shifts the
    column: 2k2 read 2k6) is named on a contradiction."""
    serif = ev.numeral_score(card, True) > ev.numeral_score(card, False)
    costs = [(g.letter, card.cost[g]) for g in COLOURS if card.cost[g]]
    leads = [ev.digit(pos, letter, n, serif)
             - max(ev.digit(pos, letter, v, serif) for v in range(1, 8) if v != n)
             for pos, (letter, n) in enumerate(reversed(costs))]
    return min(leads, default=0.0)


def _points_lead(ev: FaceScores, card: Card) -> float:
    """How much the points numeral favours ``card``'s value over any other, in the
    bank that fits it better (0 for a card without points).  WHY: levels 2 and 3
    cards that a missed circle or a swapped colour confuse mostly differ in points
    (3k2 4 points, 3k4 5; 2k2 1, 2k6 3)."""
    if not card.points:
        return 0.0
    serif = ev.points(card.points, True) > ev.points(card.points, False)
    own = ev.points(card.points, serif)
    return own - max(ev.points(v, serif) for v in range(1, 6) if v != card.points)


def _numeral_lead(ev: FaceScores, best: Card, other: Card) -> float:
    """Per numeral, how much better ``best``'s numerals fit than ``other``'s (a place
    where a card has no circle scores ``NONE_DIGIT``), in the bank (our print's or
    the serif) that fits ``best`` better.  WHY: a second, independent look at a
    colour decision: a circle missed or a colour swapped leaves numerals that fit
    the runner-up as well as the best (evidence for the confidence only)."""
    def total(card: Card, serif: bool) -> float:
        n = sum(1 for g in COLOURS if card.cost[g])
        return ev.numeral_score(card, serif) + NONE_DIGIT * (cf.MAX_CIRCLES - n)

    serif = ev.numeral_score(best, True) > ev.numeral_score(best, False)
    return (total(best, serif) - total(other, serif)) / (cf.MAX_CIRCLES + 1)


@lru_cache(maxsize=4)
def _groups(level: int) -> dict[Pattern, list[Card]]:
    groups: dict[Pattern, list[Card]] = {}
    for card in catalogue.cards_of_level(level):
        groups.setdefault(pattern(card), []).append(card)
    return groups
