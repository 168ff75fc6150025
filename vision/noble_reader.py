"""Reading a noble tile: which of the ten nobles it is, from its requirement squares.

The ten nobles differ by the *set* of colours they require (five need 4 + 4 of
two colours, five 3 + 3 + 3 of three), so the colours of the squares and how
many there are name the noble.  What every printing shares decides: the number
of squares (told by the colour of a third square or the pale band where there
is none, *and* by the numerals: 4s on a 2-square noble, 3s on a 3-square one,
``numeral_lead``), each square's colour, then the nearest noble with a margin.
A clear numeral that disagrees with the best noble makes the reader abstain,
so texture or a faint square can never turn a 3-square noble into a 2-square
one (the newer printing's n6 read as n1 before the numerals were read).

Two printings of the squares are known, and the reader tries both:

* ours (:mod:`vision.cardface`, drawn by :mod:`vision.synth.faces`): square
  squares bottom-aligned at 43 mm, 11 mm apart, white lowest, then blue,
  green, red, black upwards;
* the publisher's (``PUBLISHER``, measured on its ten tiles): taller squares
  further down and further apart, white (when required) lowest, the other
  colours in no fixed order (green below blue on one tile, above it on another).

Steps: whether anything lies in the slot is the slots network's answer
(:mod:`vision.slot_net`: empty, occupied, or hidden by glare or a hand); a
slot it calls occupied must show (three sides of) its printed outline where the
markers put it, judged so that noise and a sleeve do not hide them
(:mod:`vision.noble_seen`), else only the nobles network names it, as far as
the fitted join trusts a network alone (``_unlooked``).  The tile is located
(``vision.locate``) and its left strip cut out (looked at again under a second
white reference and where the slot is, when the first look names no noble:
``_decode_looks``); per printing, the column of squares is found by its
second square (never white, so the pale band cannot place it) and each
square's colour is the median of a frame just inside its edge, clear of its
numeral.  Every noble is then scored under both printings, by analysis by
synthesis as the card reader does: for each position the colour it predicts,
or "no square" where the noble needs fewer; the best must beat the runner-up
by ``ABSTAIN_MARGIN`` and fit each of its squares (``WEAKEST_MIN``, less where
the numerals agree); its confidence is P(right | margin) fitted on design faces
(``CONFIDENCE_LOGISTIC``), joined with the nobles network's (:mod:`vision.noble_net`).

WHY not pick the printing first: the squares of one printing half-overlap
those of the other, so a per-square "is there a square here" test is weak;
the whole arrangement, scored per noble, is not.  WHY white is lowest in
every arrangement: it is on both printings, and a pale band where a 2-square
noble has no third square must not pass for a white square of a 3-square one.

The publisher's ten tiles were both the design reference (layout, colours)
and a test; the guard against fitting them alone is our own tiles under the
camera model (the recorded scenes, and seeded spoiled faces in the tests).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Any

import cv2
import numpy as np

from companion.rules import catalogue
from companion.rules.catalogue import Noble
from companion.rules.gems import COLOURS
from vision import cardface as cf
from vision import digits, noble_net, slot_net
from vision.calibrate import rectify
from vision.card_features import DESATURATION_FLOOR, colour_similarities
from vision.card_reader import ABSTAIN_MARGIN, UNIFORM_SIGMA
from vision.colours import GEM_BGR, L_WEIGHT, Classes, ColourModel
from vision.face_cut import face_gain
from vision.layout import Slot
from vision.locate import (
    FACE_PX_PER_MM,
    Located,
    locate,
    slot_view,
)
from vision.noble_seen import outline_three_sides
from vision.observation import NobleReading
from vision.pixels import lab_image, normalise
from vision.sampling import COLOUR_SIGMA

#: A noble is named only when every square it needs looks at least this much like
#: its colour.  WHY: a tile found a few mm off its place (a pale tile passes for
#: mat in parts) put the bottom square's frame on the pale band below it, which
#: passed for a white square; such readings had a weakest square of 0.09-0.35,
#: right ones 0.43 and up (the publisher's tiles and ours, 556 seeded readings).
#: Rechecked with the final reader: at 0.25-0.3 faces spoiled by a 3.5 mm shift
#: and a 3° turn gave 3-5 wrong nobles of 300, at 0.4 none.
WEAKEST_MIN = 0.4
#: ... or this much where the numerals clearly agree with the noble's number of
#: squares.  WHY: the weak readings ``WEAKEST_MIN`` guards against were a pale band
#: taken for a white square (a 2-square noble read as a 3-square one), which the
#: numerals contradict; the newer printing's squares (a gem icon over their right
#: edge) fit their colour at 0.3-0.35 on spoiled design faces.
WEAKEST_MIN_NUMERALS = 0.25
#: ... or where the best noble leads the runner-up by this much (a confidence of 0.9,
#: ``CONFIDENCE_LOGISTIC``) and the numerals do not contradict it.  Design world
#: frames (cached, faces as printed and at 1.7 px/mm): every look abstaining only
#: for a square at 0.25-0.4 named the right noble (10 of 10, margins 0.12-0.59);
#: 2,900 spoiled design and drawn tiles (shifts to 3.5 mm, turns to 3 degrees) had
#: one such look, wrong, at 0.26.  Measured with ``tests/bench/bench_nobles_decks.py``.
CLEAR_MARGIN = 0.3
#: How much a square darker than its colour's class counts (``colour_similarities``'s
#: ``shade``).  WHY: a shadow band over a tile's squares, its top (the white
#: reference) in the light, made a red square 26-51 L darker than red (similarity
#: 0.32 < ``WEAKEST_MIN``; design world frames, hard, seed 1011, n5 in plain view).
#: 0.3 as the hand-written chip reader's gems had.  Design world frames, hard, seeds
#: 1000-1018 (/tmp/s10/nob3.py): one noble more right, no other verdict changed;
#: medium 1000-1005: 87 of 87 right.
NOBLE_SHADE = 0.3
#: Where a square's colour is sampled: a frame between these fractions of its half
#: sizes (the numeral fills the middle).
SQUARE_FRAME = (0.62, 0.92)


@dataclass(frozen=True)
class SquareLayout:
    """Where one printing puts a noble's requirement squares (mm on the 60 mm tile)."""

    name: str
    x: float
    #: centres' heights, bottom square first
    ys: tuple[float, ...]
    half_w: float
    half_h: float
    #: colours bottom-up in the order white, blue, green, red, black (else any
    #: order above a white square at the bottom)
    fixed_order: bool
    #: ranges (mm) of the offsets at which the column of squares is looked for.
    #: WHY: a tile is cut out a few mm off at times (its pale band passes for mat),
    #: more across than along; wider along (±3.2) let one printing's squares pass
    #: for the other's on spoiled faces, narrower (±1.6) missed shifted tiles.
    search_dx: tuple[float, float] = (-6.4, 3.2)
    search_dy: tuple[float, float] = (-2.4, 2.4)


OURS = SquareLayout("ours", cf.SQUARE_X, tuple(cf.square_center(p)[1] for p in range(3)),
                    cf.SQUARE_HALF, cf.SQUARE_HALF, True)
#: Where the publisher prints them (:mod:`vision.cardface`, measured on its scans).
PUBLISHER = SquareLayout("publisher", cf.PUBLISHER_SQUARE_X, cf.PUBLISHER_SQUARE_YS,
                         *cf.PUBLISHER_SQUARE_HALF, False)
LAYOUTS = (OURS, PUBLISHER)

#: The publisher's square colours (OpenCV 8-bit Lab, median of each square's frame
#: over the ten scans): glossier and darker than its cost circles.  Added to the
#: colour model's card-gem classes for the squares only.
PUBLISHER_SQUARE_LAB: dict[str, tuple[float, float, float]] = {
    "w": (245.0, 128.0, 128.0), "u": (150.0, 126.0, 97.0), "g": (159.0, 80.0, 172.0),
    "r": (135.0, 173.0, 166.0), "k": (80.0, 131.0, 131.0),
}


def _square_classes(gems: Classes) -> Classes:
    out: Classes = {}
    for k, v in gems.items():
        centres = [tuple(c) for c in np.asarray(v, np.float32).reshape(-1, 3).tolist()]
        if k in PUBLISHER_SQUARE_LAB:
            centres.append(PUBLISHER_SQUARE_LAB[k])
        out[k] = centres  # type: ignore[assignment]
    return out


# -- the slot's printed outline ------------------------------------------------------
#: Every side of the outline counted must be this much ink (the tile, 2 mm inside
#: its slot, leaves the outline visible).
OUTLINE_MIN_SIDE = 0.8


def outline_seen(lab: np.ndarray, slot: Slot) -> bool:
    """Whether the slot's printed outline is where the homography puts it (within
    ``outline.CHECK_SHIFT_MM``, at ``outline.CHECK_SCALES`` of its size), in
    ``locate.slot_view``'s Lab view of the slot.

    WHY: the markers can pin the homography down well where they are and badly
    elsewhere (two markers on one line in a steep frame put a noble slot 4 cm
    off, half on the wooden table: recorded scene 0063); read there, a tile's
    squares fall in the wrong places (under random distortions of the homography,
    10 of 378 seeded readings named the wrong noble; with this check 1, and none
    once squares had to end where their printing's do).  Three clear sides
    suffice (``noble_seen``): a hand or a sleeve over one side hid it on hard
    frames whose squares were in view, and a slot off or scaled misses both
    sides of one axis.  Costs a few abstentions:
    a hand over two sides, a slot at the frame's edge."""
    return outline_three_sides(lab, slot) >= OUTLINE_MIN_SIDE


# -- the squares --------------------------------------------------------------------
@lru_cache(maxsize=16)
def _frame_offsets(half_w: float, half_h: float) -> tuple[np.ndarray, np.ndarray]:
    s = FACE_PX_PER_MM
    nx, ny = math.ceil(half_w * s) + 1, math.ceil(half_h * s) + 1
    yy, xx = np.mgrid[-ny:ny + 1, -nx:nx + 1]
    d = np.maximum(abs(xx) / (half_w * s), abs(yy) / (half_h * s))
    # every other pixel (a checkerboard): the median hardly changes, the time halves
    sel = (d >= SQUARE_FRAME[0]) & (d <= SQUARE_FRAME[1]) & ((yy + xx) % 2 == 0)
    return yy[sel], xx[sel]


#: Steps (mm) in which the squares' column and each square are looked for.
SEARCH_STEP_MM = 0.8
#: How far (x, y) each square may then lie from its place in the column found,
#: per position bottom-up (the tile may be found turned: the publisher's top
#: square was seen 1.6-2.4 mm left of its bottom one).
SQUARE_SLACK_MM = ((0.8, 0.8), (0.8, 0.8), (1.6, 0.8))
#: Where above and below a square its colour must have stopped (of its half height).
ENDS_AT = (1.2, 1.4)
#: ... checked only for a square that looks coloured at least this much (else moot).
ENDS_FROM = 0.1
#: Only this much of the tile's left side is looked at (the furthest a frame can reach).
SEARCH_WIDTH_MM = 18.0


def _grid(lo: float, hi: float) -> np.ndarray:
    return np.round(np.arange(lo, hi + 1e-6, SEARCH_STEP_MM) * FACE_PX_PER_MM).astype(int)


def _frame_stats(lab: np.ndarray, centres: np.ndarray, half_w: float, half_h: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Median Lab (n × 3) and spread (n) of a square's frame around each of ``centres``
    (n × 2, pixels x, y)."""
    dy, dx = _frame_offsets(half_w, half_h)
    y = np.clip(centres[:, 1:2] + dy[None, :], 0, lab.shape[0] - 1)
    x = np.clip(centres[:, 0:1] + dx[None, :], 0, lab.shape[1] - 1)
    px = np.take(lab.reshape(-1, 3), y * lab.shape[1] + x, axis=0)  # lab[y, x], 5× faster
    k = px.shape[1] // 2
    med = np.partition(px, k, axis=1)[:, k]
    mad = 1.48 * np.partition(np.abs(px - med[:, None, :]), k, axis=1)[:, k]
    return med, np.sqrt(0.25 * mad[:, 0] ** 2 + mad[:, 1] ** 2 + mad[:, 2] ** 2)


def _sims(lab: np.ndarray, centres: np.ndarray, layout: SquareLayout, classes: Classes
          ) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Per class, how much the frame around each centre looks like a square of it;
    and the frames' median colours.

    A square's colour may have lost up to half its saturation, as a cost circle's may
    (``card_features.DESATURATION_FLOOR``): the squares are printed as the circles
    are, a coloured field round a white numeral, and blur and noise mix the two the
    same way.  Design world frames (medium, hard, seeds 1000-1003): one noble more
    named right, none named wrong (``/tmp/n12/dump_patch.py noble_desat``)."""
    med, spread = _frame_stats(lab, centres, layout.half_w, layout.half_h)
    u = np.exp(-((spread / UNIFORM_SIGMA) ** 2))
    rows = colour_similarities(med, classes, DESATURATION_FLOOR, NOBLE_SHADE)
    return {k: np.array([r[k] for r in rows], np.float64) * u for k in classes}, med


class _FrameMeans:
    """Mean over a square's frame of a per-pixel "looks like a square's colour" map,
    for many places at once (integral images, at half the face's resolution): cheap
    enough to search widely; the medians are taken only where the squares were found."""

    #: the maps' pixels per face pixel
    SHRINK = 2

    def __init__(self, lab: np.ndarray, classes: Classes) -> None:
        k = self.SHRINK
        small = cv2.resize(lab, (lab.shape[1] // k, lab.shape[0] // k),
                           interpolation=cv2.INTER_AREA)
        w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
        names = [n for n, c in classes.items() for _ in np.asarray(c).reshape(-1, 3)]
        centres = np.vstack([np.asarray(c, np.float32).reshape(-1, 3)
                             for c in classes.values()]) * w
        x = small * w
        # |x - c|^2 = |x|^2 - 2 x.c + |c|^2, channel by channel (no BLAS threads)
        d2 = (x * x).sum(axis=2)[:, :, None] + (centres * centres).sum(axis=1)
        for ch in range(3):
            d2 -= 2 * x[:, :, ch:ch + 1] * centres[:, ch]
        sims = np.exp(-d2 / COLOUR_SIGMA**2)
        white = np.array([n == "w" for n in names])
        coloured = sims[:, :, ~white].max(axis=2)
        pale = sims[:, :, white].max(axis=2)
        self.integral = {"coloured": cv2.integral(coloured),
                         "any": cv2.integral(np.maximum(coloured, pale))}
        self.shape = coloured.shape

    def _box(self, which: str, centres: np.ndarray, ax: float, ay: float
             ) -> tuple[np.ndarray, np.ndarray]:
        h, w = self.shape
        cx, cy = centres[:, 0] / self.SHRINK, centres[:, 1] / self.SHRINK
        x0 = np.clip(np.round(cx - ax).astype(int), 0, w)
        x1 = np.clip(np.round(cx + ax).astype(int) + 1, 0, w)
        y0 = np.clip(np.round(cy - ay).astype(int), 0, h)
        y1 = np.clip(np.round(cy + ay).astype(int) + 1, 0, h)
        ii = self.integral[which]
        total = ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]
        return total, (x1 - x0) * (y1 - y0)

    def mean(self, which: str, centres: np.ndarray, layout: SquareLayout) -> np.ndarray:
        s = FACE_PX_PER_MM / self.SHRINK
        lo, hi = SQUARE_FRAME
        so, ao = self._box(which, centres, hi * layout.half_w * s, hi * layout.half_h * s)
        si, ai = self._box(which, centres, lo * layout.half_w * s - 0.5,
                           lo * layout.half_h * s - 0.5)
        out: np.ndarray = (so - si) / np.maximum(ao - ai, 1)
        return out


def square_sims(lab: np.ndarray, layout: SquareLayout, classes: Classes,
                means: _FrameMeans | None = None, return_centres: bool = False
                ) -> Any:
    """Per position (bottom-up), per class, how much the square there looks like it.

    The column is placed by its second square, which every noble has and which
    is never white (so the pale band cannot place it); the bottom square follows
    it closely, the top one more loosely, each at its most square-like place.
    """
    s = FACE_PX_PER_MM
    means = means or _FrameMeans(lab, classes)
    base = np.array([[round(layout.x * s), round(y * s)] for y in layout.ys])
    gy, gx = np.meshgrid(_grid(*layout.search_dy), _grid(*layout.search_dx), indexing="ij")
    offsets = np.stack([gx.ravel(), gy.ravel()], axis=1)
    at = offsets[int(np.argmax(means.mean("coloured", base[1] + offsets, layout)))]
    out = []
    found = []
    for p in range(len(layout.ys)):
        ex, ey = SQUARE_SLACK_MM[p]
        sy, sx = np.meshgrid(_grid(-ey, ey), _grid(-ex, ex), indexing="ij")
        near = base[p] + at + np.stack([sx.ravel(), sy.ravel()], axis=1)
        sims, med = _sims(lab, near, layout, classes)
        score = np.max([v for k, v in sims.items() if p == 0 or k != "w"], axis=0)
        best = int(np.argmax(score))
        coloured = max(float(v[best]) for k, v in sims.items() if k != "w")
        ends = _ends(lab, near[best], med[best], layout) if coloured > ENDS_FROM else 1.0
        out.append({k: float(v[best]) * (1.0 if k == "w" else ends) for k, v in sims.items()})
        found.append(near[best])
    return (out, found) if return_centres else out


def _ends(lab: np.ndarray, centre: np.ndarray, frame: np.ndarray, layout: SquareLayout
          ) -> float:
    """1 when the square's colour stops above and below it where this printing's
    squares end, falling to 0 when it goes on.  WHY: our squares (7.6 mm) fit inside
    the publisher's (10.4 mm tall), so our layout read a publisher's tile shifted
    2.5 mm down as another noble; a square of the printing in hand ends within
    ``ENDS_AT`` of its half height (white is left out: the pale band is white-like)."""
    s = FACE_PX_PER_MM
    hw, hh = layout.half_w * s, layout.half_h * s
    x0, x1 = round(centre[0] - 0.7 * hw), round(centre[0] + 0.7 * hw) + 1
    worst = 0.0
    for sign in (-1, 1):
        a, b = (round(centre[1] + sign * f * hh) for f in ENDS_AT)
        y0, y1 = min(a, b), max(a, b) + 1
        strip = lab[max(0, y0):max(0, y1), max(0, x0):x1].reshape(-1, 3)
        if len(strip):
            d = np.asarray(np.median(strip, axis=0)) - frame
            dist = math.sqrt((L_WEIGHT * d[0]) ** 2 + d[1] ** 2 + d[2] ** 2)
            worst = max(worst, math.exp(-((dist / COLOUR_SIGMA) ** 2)))
    return 1.0 - worst


@lru_cache(maxsize=32)
def _arrangements(needs: tuple[str, ...], fixed_order: bool) -> tuple[tuple[str, ...], ...]:
    """The orders (bottom-up) in which a printing may show a noble's colours."""
    if fixed_order:
        return (needs,)
    low = needs[:1] if needs[0] == "w" else ()
    rest = needs[len(low):]
    return tuple(low + p for p in permutations(rest))


def _needs(noble: Noble) -> tuple[str, ...]:
    return tuple(g.letter for g in COLOURS if noble.requirement[g])


#: Weight of the numerals' evidence beside the squares' colours (each square scores
#: at most 1): a 2-square noble's numerals are 4s, a 3-square noble's 3s, so the
#: numerals tell the number of squares whatever the printing's look.
NUMERAL_WEIGHT = 0.6
#: A lead of "4" over "3" (normalised correlation, mean of the two lowest squares)
#: this large counts fully.  Measured on the design faces and ours read directly
#: (``pytest -s tests/vision/test_nobles_decks.py -k numerals`` prints the leads):
#: the true numeral led by 0.16-0.31 (publisher's, both printings) and 0.36-0.68
#: (ours); in the other printing's layout |lead| stayed under 0.08.
NUMERAL_FULL = 0.15
#: A numeral lead this clear that disagrees with the best noble's number of squares
#: makes the reader abstain: structure, not colour, must decide 2 against 3 squares.
NUMERAL_VETO = 0.08
#: Extra crop (mm, each side across, along) around a square where its numeral is
#: looked for (the newer printing prints a gem icon to the numeral's right).
NUMERAL_SLACK_MM = (1.5, 1.0)


def numeral_lead(grey: np.ndarray, centres: list[np.ndarray], sims: list[dict[str, float]],
                 layout: SquareLayout) -> float:
    """How much more the numerals of the two lowest squares (which every noble has)
    look like 4 than like 3: mean over the two of best correlation with a "4"
    template minus with a "3" (our Hershey numerals and the publisher's serif, on
    the colour the square was found to have).  Positive: a 2-square noble.

    WHY: a noble needs 4 + 4 of two colours or 3 + 3 + 3 of three, so the numeral
    decides the number of squares even where a third square's colour is faint
    (the newer printing's n6 read as n1 on colour alone)."""
    s = FACE_PX_PER_MM
    hw = round((layout.half_w + NUMERAL_SLACK_MM[0]) * s)
    hh = round((layout.half_h + NUMERAL_SLACK_MM[1]) * s)
    leads = []
    for p in range(2):
        colour = max((k for k in sims[p] if k in GEM_BGR), key=lambda k: sims[p][k])
        cx, cy = int(centres[p][0]), int(centres[p][1])
        crop = grey[max(0, cy - hh):cy + hh, max(0, cx - hw):cx + hw]
        plain, serif = digits.cost_templates(colour, s), digits.serif_cost_templates(colour, s)
        best = {d: max(digits.best_match(crop, plain[d]), digits.best_match(crop, serif[d]))
                for d in (3, 4)}
        leads.append(best[4] - best[3])
    return float(np.mean(leads))


@dataclass(frozen=True)
class NobleDecision:
    noble: Noble | None
    confidence: float
    #: best score over the most a noble can score (3)
    fit: float
    #: the least similarity of a square to the colour it should have
    weakest: float
    layout: str
    runner_up: str
    #: the numerals' lead of 4 over 3 in the best noble's layout (see numeral_lead)
    numeral: float = 0.0
    #: best score minus the runner-up's
    margin: float = 0.0


def _is_four(noble: Noble) -> bool:
    return len(_needs(noble)) == 2


def decode_noble(face: np.ndarray, colours: ColourModel) -> NobleDecision:
    """Which noble a face image (at ``FACE_PX_PER_MM``, upright) shows, or None."""
    strip = face[:, :round(SEARCH_WIDTH_MM * FACE_PX_PER_MM)]
    lab = lab_image(strip)
    grey = cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY).astype(np.float32)
    classes = _square_classes(colours.gems)
    best: dict[str, tuple[float, str, float, float]] = {}
    means = _FrameMeans(lab, classes)
    for layout in LAYOUTS:
        sims, centres = square_sims(lab, layout, classes, means, return_centres=True)
        lead = numeral_lead(grey, centres, sims, layout)
        vote = NUMERAL_WEIGHT * float(np.clip(lead / NUMERAL_FULL, -1.0, 1.0))
        # no square is expected only above the lowest, and white is only ever
        # lowest: the pale band there is evidence of "no square", not against it
        none = [1 - max(v for k, v in d.items() if k != "w") for d in sims]
        for noble in catalogue.nobles():
            sign = 1.0 if _is_four(noble) else -1.0
            for arr in _arrangements(_needs(noble), layout.fixed_order):
                each = [sims[p].get(arr[p], 0.0) for p in range(len(arr))]
                total = sum(each) + sum(none[len(arr):]) + sign * vote
                if noble.id not in best or total > best[noble.id][0]:
                    best[noble.id] = (total, layout.name, min(each), lead)
    ranked = sorted(best.items(), key=lambda kv: -kv[1][0])
    (id1, (s1, lay, weakest, lead)), (id2, (s2, _, _, _)) = ranked[0], ranked[1]
    margin = s1 - s2
    conf = noble_confidence(margin)
    fit = (s1 - NUMERAL_WEIGHT * abs(float(np.clip(lead / NUMERAL_FULL, -1, 1)))) \
        / cf.MAX_SQUARES
    four = _is_four(catalogue.noble(id1))
    disagree = abs(lead) >= NUMERAL_VETO and (lead > 0) != four
    agree = abs(lead) >= NUMERAL_FULL and (lead > 0) == four
    least = WEAKEST_MIN_NUMERALS if agree or margin >= CLEAR_MARGIN else WEAKEST_MIN
    if margin < ABSTAIN_MARGIN or fit < 0.45 or weakest < least or disagree:
        return NobleDecision(None, conf, fit, weakest, lay, id1, lead, margin)
    return NobleDecision(catalogue.noble(id1), conf, fit, weakest, lay, id2, lead, margin)


#: The confidence is P(the best noble is right | its margin over the runner-up), a
#: logistic 1 / (1 + exp(-(a + b * margin))) fitted on design faces only (750
#: decodes of spoiled older, newer-even and our tiles, abstained ones included:
#: ``.venv/bin/python tests/bench/fit_noble_confidence.py 30``).
CONFIDENCE_LOGISTIC = (-3.375, 17.726)


def noble_confidence(margin: float) -> float:
    """The confidence of a noble named with ``margin`` over the runner-up: how often
    the best noble was right at that margin (``CONFIDENCE_LOGISTIC``).  WHY fitted:
    the referee takes >= 0.9 as sure, so 0.9 must mean about 1 wrong in 10 at most;
    the former 1 - exp(-margin / 0.25) said 0.55-0.87 of answers that were all right."""
    a, b = CONFIDENCE_LOGISTIC
    return float(1 / (1 + math.exp(-(a + b * margin))))


def read_noble(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
               colours: ColourModel) -> NobleReading:
    """The noble slot's reading: empty, a noble, or unknown (see the module's steps).
    Empty is the slots network's answer (:mod:`vision.slot_net`), at its probability;
    a slot it sees hidden (glare, a hand) is unknown, as a person would find it."""
    occupancy = slot_net.guess(image, h, slot, gain)
    if occupancy.best == slot_net.EMPTY:
        return NobleReading(slot.id, "empty", confidence=occupancy.p)
    if occupancy.best == slot_net.HIDDEN:
        return NobleReading(slot.id, "unknown", None, 1 - occupancy.p)
    seen = slot_view(image, h, slot, gain)  # looked at here and by locate
    if not outline_seen(seen[1], slot):
        return _unlooked(image, h, slot, gain)
    where = locate(image, h, slot, gain, (cf.NOBLE_W, cf.NOBLE_H), seen=seen)
    got = _decode_looks(image, h, slot, gain, where, colours)
    if got.noble is None:
        decoded = NobleReading(slot.id, "unknown", None, got.confidence)
    else:
        decoded = NobleReading(slot.id, "noble", got.noble, got.confidence)
    return noble_net.join(decoded, noble_net.guess(image, h, slot, gain, where))


def _unlooked(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray
              ) -> NobleReading:
    """A slot whose squares the decode did not read (a tile under a dim lamp whose outline
    the camera lost, or a slot the markers misplace): the network's guess where the
    slot is, named as far as the fitted join trusts a network alone ("abstained")."""
    guess = noble_net.guess(image, h, slot, gain, Located(0.0))
    return noble_net.join(NobleReading(slot.id, "unknown", None, 0.0), guess, looked=False)


#: The white references a tile's strip is read under, in turn, until one names a
#: noble: percentiles of its unclipped pixels.  99: its whitest (``face_cut``,
#: as a card's face).  75: its pale band, most of the strip.  WHY the second: on
#: hard frames a glare halo over part of the tile passed for its white, the
#: strip was darkened and its pale band took a black square's place (n4 read
#: unsure, red and green squares in plain view).  Design world frames, hard,
#: seeds 1000-1005, both lenses (/tmp/nobles/forced.py, tab.py): named right 60
#: at 99 alone, 63 at 99 then 75, of 75 readable (the same on the design faces
#: resampled to 1.7 px/mm); medium 86 of 87 either way; none wrong.  75 alone
#: lost one on medium; 50 named n9 as n6 at 0.98.
WHITE_PERCENTILES = (99.0, 75.0)
#: Whether a tile none of whose looks names a noble is looked at once more where its
#: slot is (centred, square to it) rather than where ``locate`` found it.  WHY: a
#: hand or a sleeve over the picture joined the tile's outline and ``locate`` put
#: the tile mm off, so its squares fell outside their search window, while in the
#: slot itself (tiles lie within 2 mm of its centre) they were in plain view.
#: Design world frames, hard, seeds 1000-1005, both lenses (/tmp/nobles/why.py
#: design hard 1000 1006): 62 -> 65 of 75 readable nobles right, none wrong.
TRY_SLOT_PLACE = True

def _decode_looks(image: np.ndarray, h: np.ndarray, slot: Slot, gain: np.ndarray,
                  where: Located, colours: ColourModel) -> NobleDecision:
    """The first decode that names a noble, over the places (``TRY_SLOT_PLACE``) and the
    white references (``WHITE_PERCENTILES``); else the first decode.  Each look is
    held to every test of ``decode_noble`` (margin, squares' fit, numerals)."""
    first = None
    at_slot = Located(where.coverage, slot.center)
    places = (where, at_slot) if TRY_SLOT_PLACE else (where,)
    if where.center is None:  # not fitted (a pale tile): where its slot is, once
        places = (at_slot,)
    for place in places:
        raw = _left_strip(image, h, slot, place)
        for pct in WHITE_PERCENTILES:
            got = decode_noble(normalise(raw, face_gain(raw, gain, pct)), colours)
            if got.noble is not None:
                return got
            first = first or got
    assert first is not None
    return first




def _left_strip(image: np.ndarray, h: np.ndarray, slot: Slot, where: Located) -> np.ndarray:
    """The tile's left ``SEARCH_WIDTH_MM`` as the camera recorded it, pixel for pixel
    as ``face_image`` would cut it: all the reader looks at, for under a third of
    the cost of the whole face (white-balanced by ``_decode_looks``)."""
    k = where.scale
    cx, cy = where.center or slot.center
    a = math.radians(slot.angle + where.angle)
    du = (SEARCH_WIDTH_MM - cf.NOBLE_W) / 2 * k
    centre = (cx + math.cos(a) * du, cy + math.sin(a) * du)
    return rectify(image, h, slot, FACE_PX_PER_MM / k,
                   size_mm=(SEARCH_WIDTH_MM * k, cf.NOBLE_H * k), center=centre,
                   angle=slot.angle + where.angle)
